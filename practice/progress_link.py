"""A quiz in a link: ``encode_progress``/``decode_progress`` and the HMAC that keeps it honest.

Contract: ``encode_progress`` turns a ``QuizState`` into a short URL-safe string
(seed, a fingerprint of the bank's ids, two bits per question) and ``decode_progress``
turns it back against the same bank; ``sign_progress`` appends an HMAC tag so answers
typed into a link by hand do not count, and ``unsign_progress`` checks it. The decoders
never raise on the text (junk, a changed bank or a bad tag give None); a secret shorter
than ``MIN_SECRET_BYTES`` is a configuration error (ValueError).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from collections.abc import Iterable
from types import MappingProxyType

from grpo_core.links import b64url_decode, b64url_encode
from practice.certificates import signing_key
from practice.session import QuizState, start_quiz

MAX_PROGRESS_CHARS = 200
"""A signed progress string longer than this is not read."""

_PROGRESS_PREFIX = "q1"
_PROGRESS_LABEL = b"grpo-advantage-lab progress v1\x00"
_PROGRESS_TAG_BYTES = 12
_B64URL = re.compile(r"^[A-Za-z0-9_-]+$")


def _fingerprint(bank_ids: tuple[str, ...]) -> bytes:
    return hashlib.sha256("\n".join(bank_ids).encode()).digest()[:4]


def encode_progress(state: QuizState) -> str:
    """A short URL-safe string for the state: "q1" + base64url(seed, bank fingerprint, statuses).

    Two bits per question of the bank (not asked, unanswered, right, wrong):
    a 45-question bank takes 26 characters.
    """
    asked = set(state.order)
    codes = [
        0 if q not in asked else 1 if q not in state.answers else 2 if state.answers[q] == 1 else 3
        for q in state.bank_ids
    ]
    packed = bytearray()
    for start in range(0, len(codes), 4):
        byte = 0
        for j, code in enumerate(codes[start : start + 4]):
            byte |= code << (2 * j)
        packed.append(byte)
    raw = state.seed.to_bytes(4, "big") + _fingerprint(state.bank_ids) + bytes(packed)
    return _PROGRESS_PREFIX + b64url_encode(raw)


def decode_progress(text, bank_ids: Iterable[str]) -> QuizState | None:
    """The state ``encode_progress`` encoded, against the same bank's ids; None on anything else.

    Never raises on ``text``: junk, a changed bank (fingerprint mismatch) or an
    impossible state give None, and the page starts a new quiz.
    """
    try:
        ids = tuple(sorted(bank_ids))
        if not isinstance(text, str) or len(text) > 20 + len(ids) or not ids:
            return None
        if not text.startswith(_PROGRESS_PREFIX):
            return None
        raw = b64url_decode(text.removeprefix(_PROGRESS_PREFIX))
        if raw is None or len(raw) != 8 + (len(ids) + 3) // 4:
            return None
        if raw[4:8] != _fingerprint(ids):
            return None
        codes = [(raw[8 + n // 4] >> (2 * (n % 4))) & 3 for n in range(len(ids))]
        tail = len(ids) % 4
        if tail and raw[-1] >> (2 * tail):
            return None  # padding bits must be zero
        pool = [q for q, c in zip(ids, codes, strict=True) if c]
        if not pool:
            return None
        state = start_quiz(ids, int.from_bytes(raw[:4], "big"), only=pool)
        answers = {q: c == 2 for q, c in zip(ids, codes, strict=True) if c >= 2}
        return QuizState(state.bank_ids, state.seed, state.order, MappingProxyType(answers))
    except (ValueError, TypeError):
        return None


def sign_progress(progress: str, *, secret: bytes | str) -> str:
    """``progress`` (a URL-safe string) + "." + a short HMAC tag of it.

    A quiz keeps its answers in the URL; the tag stops a link whose answers were
    typed in by hand (say, every one marked right) from counting towards a certificate.
    """
    key = signing_key(secret)
    if not isinstance(progress, str) or not _B64URL.match(progress):
        raise ValueError("progress must be a non-empty URL-safe string (A-Z, a-z, 0-9, -, _).")
    tag = hmac.new(key, _PROGRESS_LABEL + progress.encode("ascii"), hashlib.sha256).digest()
    return progress + "." + base64.urlsafe_b64encode(tag[:_PROGRESS_TAG_BYTES]).decode("ascii")


def unsign_progress(text, *, secret: bytes | str) -> str | None:
    """The progress string ``sign_progress`` signed with ``secret``; None for anything else.

    Never raises on ``text``; a secret shorter than 16 bytes is a ValueError.
    """
    key = signing_key(secret)
    if not isinstance(text, str) or len(text) > MAX_PROGRESS_CHARS or text.count(".") != 1:
        return None
    progress = text.split(".")[0]
    if not progress or not _B64URL.match(progress):
        return None
    expected = sign_progress(progress, secret=key).encode("ascii")
    return progress if hmac.compare_digest(expected, text.encode("utf-8", "replace")) else None
