"""The certificate of a passed certification attempt, on screen and as an HTML file to keep.

``name_form`` is the name field (bounded on the server) and the button that asks for the
certificate (the caller's callback issues it: ``practice.certification.issue_certificate``);
``show_issued`` shows a certificate that stands: the full ID once (wrapped), its short
form, the HTML download (``certificate_html``: content/certificate.html with a QR code of
the short verify link) and a link to the verify page. Names are escaped once: Markdown
escapes on screen (``markdown_safe``), ``html.escape`` in the file. Widget keys:
``p.name``, ``p.cert``, ``p.download`` for the page prefix ``p``.
"""

from __future__ import annotations

import html
import string
from collections.abc import Callable

import segno
import streamlit as st

import content
from practice.certificates import short_id, verify
from practice.questions import TOPICS
from ui import state
from ui.text import markdown_safe

SCORING = (
    "Machine-graded: choices and numeric drills count 1 when right; practice quizzes also "
    "grade formula blanks (1 when right) and interview follow-ups (the share of key points made)."
)
"""How a quiz's score is made, as the page shows it."""


def scoring(items: int) -> str:
    """How the score of a certification attempt of ``items`` items was made, as its
    certificate states it."""
    return (
        f"Machine-graded certification attempt, all {items} items with server-drawn numbers, "
        "no feedback before submitting, the first answer to each as recorded: 1 if right."
    )


def name_form(prefix: str, on_issue: Callable, args: tuple) -> None:
    """The name field and the button that issues the certificate, once."""
    st.markdown(
        "You passed. Type the name to put on your certificate: it is chosen **once**, and "
        "a second visit shows the certificate already issued."
    )
    st.text_input("Name on the certificate", key=f"{prefix}.name")
    st.button(
        "Get my certificate",
        key=f"{prefix}.cert",
        type="primary",
        icon=":material/workspace_premium:",
        on_click=on_issue,
        args=args,
    )
    if st.session_state.get(f"{prefix}.cert_error"):
        st.error(f"No certificate yet: {st.session_state[f'{prefix}.cert_error']}")


def show_issued(cert_id: str, public_key, *, prefix: str) -> None:
    """A certificate that stands: who, what, the full ID once, the short form, the file."""
    cert = verify(cert_id, public_key=public_key)
    if not cert:
        st.error("This attempt's certificate does not verify with this server's key.")
        return
    st.success(
        f"Certificate issued to **{markdown_safe(cert['name'])}**: {cert['correct']} of "
        f"{cert['total']} points ({cert['percent']}%) on {cert['date']}.",
        icon=":material/workspace_premium:",
    )
    short = short_id(cert_id)
    st.markdown(f"Short ID (this server resolves it on the verify page): **`{short}`**")
    st.markdown("Full certificate ID (anyone can check it, also offline with the public key):")
    st.code(cert_id, language=None, wrap_lines=True)
    links = st.container(horizontal=True, vertical_alignment="center")
    links.download_button(
        "Download the certificate (HTML)",
        data=certificate_html(cert, cert_id, verify_url(short)),
        file_name="grpo-advantage-certificate.html",
        mime="text/html",
        key=f"{prefix}.download",
        icon=":material/download:",
    )
    links.page_link(
        "pages/verify.py",
        label="Check it on the verify page",
        icon=":material/verified:",
        query_params={state.CERTIFICATE_PARAM: short},
    )


def verify_url(cert_id: str) -> str:
    """The verify page's address for this ID, absolute when the app knows its own URL."""
    page = (st.context.url or "").split("?")[0].split("#")[0]
    base = page.rsplit("/", 1)[0] if page.count("/") > 2 else page.rstrip("/")
    return f"{base}/verify?id={cert_id}" if base else f"verify?id={cert_id}"


def certificate_html(cert: dict, cert_id: str, link: str) -> str:
    """content/certificate.html filled in: every value HTML-escaped once (names are text,
    not markup), the topics by title, the full ID printed once, and a QR code (inline SVG
    made by segno) of ``link``, the short verify link."""
    template = string.Template(content.read_text("certificate.html"))
    topics = [TOPICS.get(t, t) for t in cert.get("topics", ())]
    values = {
        "name": cert["name"],
        "correct": cert["correct"],
        "total": cert["total"],
        "percent": cert["percent"],
        "date": cert["date"],
        "topics": "; ".join(topics) if topics else "the GRPO advantage lab's question bank",
        "scoring": cert.get("scoring", "Graded right or wrong per question."),
        "cert_id": cert_id,
        "short_id": short_id(cert_id),
        "verify_url": link,
    }
    escaped = {k: html.escape(str(v), quote=True) for k, v in values.items()}
    qr = segno.make(link, error="m").svg_inline(scale=3, title="QR code of the verify link")
    return template.substitute(escaped, qr=qr)
