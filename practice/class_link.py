"""The links of class mode: a join link and a projector link anyone may see, and a
lecturer link signed with the deployment's secret.

Whoever holds the lecturer link controls the session; it carries an HMAC-SHA256 tag of
the join code and the session's creation time, so editing the URL (another code, a
guessed tag) gives no control, and an old link does not control a later session that
happens to reuse its code. The tag is compared as bytes, so any text a URL may carry
(non-ASCII too) is simply refused. ``practice.certificates.signing_key`` derives the
key; the secret is only ever an argument here.

Three screens of one session, told apart by ``screen``: none (a student's phone),
``projector`` (what the room sees: public, no control) and ``lecturer`` (the controls,
shown only to a browser that proved it holds the lecturer tag).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass
from urllib.parse import urlencode

from practice.certificates import signing_key
from practice.store.class_rules import CONFIDENCES

CODE_PARAM = "class"
LECTURER_PARAM = "lecturer"
TOKEN_PARAM = "student"
PENDING_PARAM = "pending"
SCREEN_PARAM = "screen"
PROJECTOR = "projector"
LECTURER = "lecturer"
PRIVATE_PARAMS = (LECTURER_PARAM, TOKEN_PARAM, PENDING_PARAM)
"""URL parameters a shared link must never carry: control of a session, a student's
identity, a student's unsent vote."""
COOKIE_PREFIX = "grpo_lecturer_"
"""The lecturer's cookie of session ``CODE`` is ``grpo_lecturer_CODE`` (its tag)."""
_TAG_BYTES = 16
_MAX_TAG_CHARS = 64


def lecturer_tag(code: str, created: float, *, secret: bytes | str) -> str:
    """The lecturer link's tag for the session ``code`` created at ``created`` (Unix s)."""
    message = f"grpo-class-lecturer:{code}:{created!r}".encode()
    digest = hmac.new(signing_key(secret), message, hashlib.sha256).digest()[:_TAG_BYTES]
    return base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")


def is_lecturer(code: str, created: float, tag, *, secret: bytes | str) -> bool:
    """Whether ``tag`` (from a URL or a cookie: any object) is this session's lecturer
    tag; compared as UTF-8 bytes in constant time, so no text makes it raise."""
    if not isinstance(tag, str) or not tag or len(tag) > _MAX_TAG_CHARS:
        return False
    given = tag.encode("utf-8", "surrogatepass")
    expected = lecturer_tag(code, created, secret=secret).encode("ascii")
    return hmac.compare_digest(given, expected)


def join_query(code: str) -> str:
    """The query string of the join link: ``class=<code>``."""
    return urlencode({CODE_PARAM: code})


def projector_query(code: str) -> str:
    """The projector's query string: ``class=<code>&screen=projector&present=1``."""
    return urlencode({CODE_PARAM: code, SCREEN_PARAM: PROJECTOR, "present": "1"})


def lecturer_query(code: str, created: float, *, secret: bytes | str) -> str:
    """The lecturer link's query string: opened once on the lecturer's own device."""
    return urlencode({CODE_PARAM: code, LECTURER_PARAM: lecturer_tag(code, created, secret=secret)})


def cookie_name(code: str) -> str:
    return COOKIE_PREFIX + code


@dataclass(frozen=True)
class PendingVote:
    """A student's vote not yet acknowledged by the store (kept in the URL's ``pending``)."""

    number: int
    submit_id: str
    answer: str
    confidence: str = ""


def pending_text(vote: PendingVote) -> str:
    """``<round>~<submit id>~<answer>``, with ``!<n>`` after the submit id when the student
    gave a confidence (n = 1, 2, 3 for ``CONFIDENCES``; submit ids never hold ``!``)."""
    sure = f"!{CONFIDENCES.index(vote.confidence) + 1}" if vote.confidence else ""
    return f"{vote.number}~{vote.submit_id}{sure}~{vote.answer}"


def read_pending(text) -> PendingVote | None:
    """The vote of ``pending_text`` (or of the form before confidences); None for junk."""
    if not isinstance(text, str) or text.count("~") < 2:
        return None
    number, submit_id, answer = text.split("~", 2)
    submit_id, _, sure = submit_id.partition("!")
    if not number.isdigit() or not submit_id or sure not in ("", "1", "2", "3"):
        return None
    return PendingVote(int(number), submit_id, answer, CONFIDENCES[int(sure) - 1] if sure else "")
