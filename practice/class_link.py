"""The links of class mode: a join link anyone may see, and a lecturer link signed with
the deployment's secret.

Whoever holds the lecturer link controls the session; it carries an HMAC-SHA256 tag of
the join code and the session's creation time, so editing the URL (another code, a
guessed tag) gives the student view, and an old link does not control a later session
that happens to reuse its code. ``practice.certificates.signing_key`` derives the key;
the secret is only ever an argument here.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from urllib.parse import urlencode

from practice.certificates import signing_key

CODE_PARAM = "class"
LECTURER_PARAM = "lecturer"
TOKEN_PARAM = "student"
PENDING_PARAM = "pending"
PRIVATE_PARAMS = (LECTURER_PARAM, TOKEN_PARAM, PENDING_PARAM)
"""URL parameters a shared link must never carry: control of a session, a student's
identity, a student's unsent vote."""
_TAG_BYTES = 16


def lecturer_tag(code: str, created: float, *, secret: bytes | str) -> str:
    """The lecturer link's tag for the session ``code`` created at ``created`` (Unix s)."""
    message = f"grpo-class-lecturer:{code}:{created!r}".encode()
    digest = hmac.new(signing_key(secret), message, hashlib.sha256).digest()[:_TAG_BYTES]
    return base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")


def is_lecturer(code: str, created: float, tag, *, secret: bytes | str) -> bool:
    """Whether ``tag`` (from a URL: any object) is this session's lecturer tag."""
    if not isinstance(tag, str) or len(tag) > 64:
        return False
    return hmac.compare_digest(tag, lecturer_tag(code, created, secret=secret))


def join_query(code: str) -> str:
    """The query string of the join link: ``class=<code>``."""
    return urlencode({CODE_PARAM: code})


def lecturer_query(code: str, created: float, *, secret: bytes | str) -> str:
    return urlencode({CODE_PARAM: code, LECTURER_PARAM: lecturer_tag(code, created, secret=secret)})
