"""Verify a certificate: paste an ID (spaces and line breaks are fine) or its short form,
see whom it was issued to, or that it is not valid; the public keys to check one offline,
and the code that does it."""

import streamlit as st

from practice.certificates import (
    MAX_PASTED_CHARS,
    OFFLINE_CHECK,
    pasted_id,
    short_key,
    verify,
    verify_legacy,
)
from practice.questions import TOPICS
from ui import page, state
from ui import quiz_widgets as qw
from ui.class_store import class_store
from ui.secret import cert_secret_or_problem, keyring_file, keyring_summary, public_keyring
from ui.text import markdown_safe


def bound_id() -> None:
    """Keep the first MAX_PASTED_CHARS characters of a pasted ID, and say so."""
    st.session_state["vf.too_long"] = qw.bounded("vf.id", MAX_PASTED_CHARS, "That ID")


page.start()
s = st.session_state
st.title("Verify a certificate")
st.markdown(
    "Paste a certificate ID, or its short form (GRPO2- and 16 characters). A valid ID was "
    "signed by this lab and has not been changed: its name, score, date and topics are shown "
    "below. Spaces and line breaks from copying are ignored. You can also check a full ID "
    "without this server, with the lab's public key (below)."
)
keyring = public_keyring()
secret, problem = cert_secret_or_problem()

# A link's ?id= fills the box (once per distinct link, so typing is not overwritten).
linked = st.query_params.get(state.CERTIFICATE_PARAM)
if linked is not None and linked != s.get("vf.linked"):
    s["vf.linked"] = linked
    s["vf.id"] = linked[:MAX_PASTED_CHARS]
typed = st.text_area(
    "Certificate ID", key="vf.id", placeholder="GRPO2-...", on_change=bound_id, height=110
)
cert_id = pasted_id(typed or "") or ""
short = short_key(cert_id)
if short is not None:  # a short form: the full ID this server issued under it
    cert_id = class_store().certificate_by_short(short) or cert_id
if s.get("vf.too_long"):
    st.warning(s["vf.too_long"])


def offline_check() -> None:
    """The published keys, as a file to download, and the Python that checks an ID with them."""
    with st.expander("Check a certificate offline, with the public key", icon=":material/key:"):
        st.markdown(
            "Certificates are signed with Ed25519. These are the lab's public keys by key id "
            "(a certificate names the key that signed it; a retired key stays listed):"
        )
        for kid, public in keyring_summary():
            st.code(f"{kid}: {public}", language=None)
        st.download_button(
            "Download the public keys (JSON)",
            data=keyring_file(),
            file_name="grpo-certificate-keys.json",
            mime="application/json",
            key="vf.keys",
            icon=":material/download:",
        )
        st.markdown("With the file beside it, this checks an ID (`pip install cryptography`):")
        st.code(OFFLINE_CHECK, language="python")


if not cert_id:
    st.info("Paste an ID that starts with GRPO2- (or GRPO1- for an older one) to check it.")
    offline_check()
    st.stop()
if cert_id.startswith("GRPO1-"):  # issued before Ed25519 signing: the shared HMAC secret
    if secret is None:
        st.error(f"Older certificates cannot be checked on this server: {problem}")
        st.stop()
    cert = verify_legacy(cert_id, secret=secret)
else:
    cert = verify(cert_id, public_key=keyring)
if cert is None:
    st.error(
        "**Not a valid certificate.** This ID was not issued by this lab, or it has been "
        "changed or cut short. Copy the whole ID, starting with GRPO2- (or GRPO1-), or a "
        "short form this server issued."
    )
    offline_check()
    st.stop()
st.success("**Valid certificate**, issued by this lab and unchanged.", icon=":material/verified:")
with st.container(border=True):
    st.markdown(f"**Name:** {markdown_safe(cert['name'])}")
    st.markdown(f"**Score:** {cert['correct']} of {cert['total']} points ({cert['percent']}%)")
    st.markdown(f"**Date:** {cert['date']}")
    if cert.get("topics"):
        st.markdown(
            "**Topics:** " + "; ".join(markdown_safe(TOPICS.get(t, t)) for t in cert["topics"])
        )
    if cert.get("scoring"):
        st.markdown(f"**How the score was made:** {markdown_safe(cert['scoring'])}")
    if cert.get("key_id"):
        st.caption(f"Signed with key {cert['key_id']} (Ed25519).")
    else:
        st.caption("An older certificate, signed with the lab's shared secret (HMAC).")
    if short is not None:  # read with the verdict, not under the offline check
        st.markdown("The short form you pasted names this full ID, which checks offline too:")
        st.code(cert_id, language=None, wrap_lines=True)
offline_check()
if short is None and st.query_params.get(state.CERTIFICATE_PARAM) != cert_id:
    st.query_params[state.CERTIFICATE_PARAM] = cert_id
    s["vf.linked"] = cert_id
