"""Verify a certificate: paste an ID, see whom it was issued to, or that it is not valid."""

import streamlit as st

from practice.certificates import verify
from ui import page
from ui.secret import cert_secret_or_problem
from ui.text import markdown_safe

MAX_ID_CHARS = 600  # an ID for an 80-character name of 4-byte characters is under 470

page.start()
s = st.session_state
st.title("Verify a certificate")
st.markdown(
    "Paste a certificate ID from the quiz. A valid ID was issued by this lab and has not "
    "been changed: its name, score and date are shown below."
)
secret, problem = cert_secret_or_problem()

# A link's ?id= fills the box (once per distinct link, so typing is not overwritten).
linked = st.query_params.get("id")
if linked is not None and linked != s.get("vf.linked"):
    s["vf.linked"] = linked
    s["vf.id"] = linked[:MAX_ID_CHARS]
cert_id = st.text_input(
    "Certificate ID", max_chars=MAX_ID_CHARS, key="vf.id", placeholder="GRPO1-..."
).strip()

if secret is None:
    st.error(f"Certificates cannot be checked on this server: {problem}")
    st.stop()
if not cert_id:
    st.info("Paste an ID that starts with GRPO1- to check it.")
    st.stop()
cert = verify(cert_id, secret=secret)
if cert is None:
    st.error(
        "**Not a valid certificate.** This ID was not issued by this lab, or it has been "
        "changed or cut short. Copy the whole ID, starting with GRPO1-."
    )
    st.stop()
st.success("**Valid certificate**, issued by this lab and unchanged.", icon=":material/verified:")
with st.container(border=True):
    st.markdown(f"**Name:** {markdown_safe(cert['name'])}")
    st.markdown(f"**Score:** {cert['correct']} of {cert['total']} ({cert['percent']}%)")
    st.markdown(f"**Date:** {cert['date']}")
if st.query_params.get("id") != cert_id:
    st.query_params["id"] = cert_id
    s["vf.linked"] = cert_id
