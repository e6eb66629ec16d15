"""The certificate of a passed full quiz, on screen and as an HTML file to keep.

``section`` is the quiz page's certificate part: the name field (bounded on the server),
the button that issues an Ed25519-signed certificate from the quiz's stored answers (read
from the store by quiz id, never from the browser's state: ``practice.session.
certificate_terms``; ``practice.certificates.issue`` with the topics and kinds covered and
how it was scored), the
ID, the HTML download (``certificate_html``: content/certificate.html with a QR code of
the verify link) and a link to the verify page. Widget keys: ``p.name``, ``p.cert``,
``p.download`` for the page prefix ``p``.
"""

from __future__ import annotations

import html
import string

import segno
import streamlit as st
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

import content
from practice.certificates import MAX_NAME_CHARS, issue, verify
from practice.questions import TOPICS
from practice.session import certificate_terms
from ui import quiz_store, state
from ui import quiz_widgets as qw
from ui.text import markdown_safe

SCORING = (
    "Machine-graded: choices, formula blanks and numeric drills count 1 when right; each "
    "interview follow-up counts the fraction of its key points the typed answer made."
)
"""How a quiz's score is made, as the page shows it."""


def scoring(items: int) -> str:
    """How the score of a full quiz of ``items`` questions was made, as its certificate
    states it: ``SCORING``, and that the first graded answer to each question stood."""
    return (
        f"Machine-graded, all {items} questions, the first answer to each as recorded: 1 if "
        "right (a choice, blanks, a drill); a follow-up, the share of its key points made."
    )


def issue_for(prefix: str, key: Ed25519PrivateKey, quiz_id: str) -> None:
    """Issue the certificate of the stored quiz ``quiz_id`` for the typed name (a button
    callback): its stored score, the topics (in the bank's topic order) and kinds it
    covered, and how it was scored."""
    s = st.session_state
    s.pop(f"{prefix}.cert_error", None)
    s.pop(f"{prefix}.cert_id", None)
    if problem := qw.bounded(f"{prefix}.name", MAX_NAME_CHARS, "The name"):
        s[f"{prefix}.cert_error"] = problem
        return
    try:
        quiz = quiz_store.load(quiz_id)
        if quiz is None:
            raise ValueError("this quiz is not kept on this server any more.")
        correct, total, details = certificate_terms(quiz, qw.by_id(), TOPICS)
        s[f"{prefix}.cert_id"] = issue(
            s.get(f"{prefix}.name") or "",
            correct,
            total,
            private_key=key,
            scoring=scoring(total),
            **details,
        )
    except ValueError as err:
        s[f"{prefix}.cert_error"] = str(err)


def section(
    quiz_id: str, key: Ed25519PrivateKey | None, problem: str | None, *, prefix: str
) -> None:
    """The certificate part of a passed full quiz's end page."""
    s = st.session_state
    st.subheader("Your certificate")
    if key is None:
        st.error(f"Certificates are not available on this server: {problem}")
        return
    st.markdown(
        "You passed the full quiz. Type the name to put on your certificate; it is "
        "shown exactly as typed."
    )
    st.text_input("Name on the certificate", key=f"{prefix}.name")
    st.button(
        "Get my certificate",
        key=f"{prefix}.cert",
        type="primary",
        icon=":material/workspace_premium:",
        on_click=issue_for,
        args=(prefix, key, quiz_id),
    )
    if s.get(f"{prefix}.cert_error"):
        st.error(f"No certificate yet: {s[f'{prefix}.cert_error']}")
    cert_id = s.get(f"{prefix}.cert_id")
    cert = verify(cert_id, public_key=key.public_key()) if cert_id else None
    if not cert:
        return
    st.success(
        f"Certificate issued to **{markdown_safe(cert['name'])}**: {cert['correct']} of "
        f"{cert['total']} points ({cert['percent']}%) on {cert['date']}."
    )
    st.markdown("Your certificate ID (anyone can check it on the verify page):")
    st.code(cert_id, language=None, wrap_lines=True)
    links = st.container(horizontal=True, vertical_alignment="center")
    links.download_button(
        "Download the certificate (HTML)",
        data=certificate_html(cert, cert_id, verify_url(cert_id)),
        file_name="grpo-advantage-certificate.html",
        mime="text/html",
        key=f"{prefix}.download",
        icon=":material/download:",
    )
    links.page_link(
        "pages/verify.py",
        label="Check it on the verify page",
        icon=":material/verified:",
        query_params={state.CERTIFICATE_PARAM: cert_id},
    )


def verify_url(cert_id: str) -> str:
    """The verify page's address for this ID, absolute when the app knows its own URL."""
    page = (st.context.url or "").split("?")[0].split("#")[0]
    base = page.rsplit("/", 1)[0] if page.count("/") > 2 else page.rstrip("/")
    return f"{base}/verify?id={cert_id}" if base else f"verify?id={cert_id}"


def certificate_html(cert: dict, cert_id: str, link: str) -> str:
    """content/certificate.html filled in: every value HTML-escaped (names are text, not
    markup), the topics by title, and a QR code (inline SVG made by segno) of ``link``."""
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
        "verify_url": link,
    }
    escaped = {k: html.escape(str(v), quote=True) for k, v in values.items()}
    qr = segno.make(link, error="m").svg_inline(scale=3, title="QR code of the verify link")
    return template.substitute(escaped, qr=qr)
