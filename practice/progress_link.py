"""A quiz's place in a link: ``encode_progress``/``decode_progress`` and the HMAC that
keeps it honest.

Contract: ``encode_progress`` turns a stored quiz (a ``QuizState`` with a ``quiz_id``)
into a short URL-safe string: its quiz id, seed and a fingerprint of the bank's ids.
It carries no answer and no score: the page reads those from the store, where the first
answer to each question stands, so reopening an older link (or the browser's Back) finds
the quiz as it is now. ``decode_progress`` gives back the ``Place`` against the same bank;
``sign_progress`` appends an HMAC tag so a link edited by hand is not read, and
``unsign_progress`` checks it. The decoders never raise on the text (junk, a changed bank
or a bad tag give None); a secret shorter than ``MIN_SECRET_BYTES`` is a configuration
error (ValueError).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from collections.abc import Iterable
from typing import NamedTuple

from grpo_core.links import b64url_decode, b64url_encode
from practice.certificates import signing_key
from practice.session import QuizState

MAX_PROGRESS_CHARS = 200
"""A signed progress string longer than this is not read."""

_PROGRESS_PREFIX = "q2"
_PROGRESS_LABEL = b"grpo-advantage-lab progress v2\x00"
_PROGRESS_TAG_BYTES = 12
_QUIZ_ID_BYTES = 16
_B64URL = re.compile(r"^[A-Za-z0-9_-]+$")


class Place(NamedTuple):
    """Where a link puts the learner: the stored quiz, and the seed it was started with."""

    quiz_id: str
    seed: int


def _fingerprint(bank_ids: tuple[str, ...]) -> bytes:
    return hashlib.sha256("\n".join(bank_ids).encode()).digest()[:4]


def encode_progress(state: QuizState) -> str:
    """ "q2" + base64url(quiz id (16 bytes), seed (4), bank fingerprint (4)): 34 characters.

    ValueError for a state without a stored quiz id.
    """
    raw_id = b64url_decode(state.quiz_id)
    if raw_id is None or len(raw_id) != _QUIZ_ID_BYTES:
        raise ValueError("only a quiz kept in the store (with a quiz id) has a progress link.")
    raw = raw_id + state.seed.to_bytes(4, "big") + _fingerprint(state.bank_ids)
    return _PROGRESS_PREFIX + b64url_encode(raw)


def decode_progress(text, bank_ids: Iterable[str]) -> Place | None:
    """The ``Place`` ``encode_progress`` encoded, against the same bank's ids; None otherwise.

    Never raises on ``text``: junk or a changed bank (fingerprint mismatch) give None,
    and the page starts a new quiz.
    """
    try:
        ids = tuple(sorted(bank_ids))
        if not isinstance(text, str) or len(text) > 40 or not text.startswith(_PROGRESS_PREFIX):
            return None
        raw = b64url_decode(text.removeprefix(_PROGRESS_PREFIX))
        if raw is None or len(raw) != _QUIZ_ID_BYTES + 8 or raw[-4:] != _fingerprint(ids):
            return None
        seed = int.from_bytes(raw[_QUIZ_ID_BYTES : _QUIZ_ID_BYTES + 4], "big")
        return Place(b64url_encode(raw[:_QUIZ_ID_BYTES]), seed)
    except (ValueError, TypeError):
        return None


def sign_progress(progress: str, *, secret: bytes | str) -> str:
    """``progress`` (a URL-safe string) + "." + a short HMAC tag of it.

    The tag stops a link edited by hand (another quiz id or seed) from being read.
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
