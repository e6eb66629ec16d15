"""Certificates for a passed quiz: self-contained, HMAC-signed, verifiable without a database.

An ID reads ``GRPO1-<base64url(payload + tag)>``. The payload packs the score,
the date and the learner's name (UTF-8); the tag is HMAC-SHA256 over a
version label and the payload, cut to 16 bytes. Any server holding the secret
verifies an ID by recomputing the tag; nothing is stored.

Contract: the secret is an argument (at least ``MIN_SECRET_BYTES``; where it comes from
is the app's business, see ``ui/secret.py``); nothing here reads or writes a file.
``issue`` refuses an unfit name or a score below ``PASS_PERCENT`` with a ValueError in
plain words; ``verify`` never raises on the ID it is given.

A name is text, never markup: ``verify`` returns it exactly as issued (stripped,
NFC-normalised), so "<b>x</b>" stays "<b>x</b>". Pages show it with a text
widget or escaped (``ui.text.markdown_safe``), never with HTML enabled.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import struct
import unicodedata

from grpo_core.links import b64url_decode, b64url_encode
from practice.session import PASS_PERCENT

VERSION = "GRPO1"
MAX_NAME_CHARS = 80
MAX_TOTAL = 65535
MIN_SECRET_BYTES = 16
"""The shortest secret that signs certificates and progress links."""

_PREFIX = VERSION + "-"
_HEADER = struct.Struct(">HHI")  # correct, total, date as a proleptic Gregorian ordinal
_TAG_BYTES = 16
_MAC_LABEL = b"grpo-advantage-lab certificate v1\x00"
_MAX_ID_CHARS = len(_PREFIX) + 4 * (_HEADER.size + 4 * MAX_NAME_CHARS + _TAG_BYTES) // 3 + 4
# Bidirectional overrides and isolates could make a name display as something else.
_BIDI_CONTROLS = set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f")


def issue(
    name: str,
    correct: int,
    total: int,
    *,
    secret: bytes | str,
    issued: dt.date | None = None,
) -> str:
    """A certificate ID for ``name`` with ``correct`` of ``total`` right, on ``issued`` (today).

    ValueError in plain words if the name is empty, over 80 characters or holds
    control characters, if the score is impossible, if it is below ``PASS_PERCENT``, or if
    the secret is shorter than ``MIN_SECRET_BYTES``.
    """
    key = signing_key(secret)
    clean = check_name(name)
    _check_score(correct, total)
    if correct * 100 < PASS_PERCENT * total:
        raise ValueError(
            f"a certificate needs at least {PASS_PERCENT}% right; {correct} of {total} is "
            f"{100 * correct / total:.1f}%."
        )
    issued = dt.date.today() if issued is None else issued
    if not isinstance(issued, dt.date):
        raise ValueError(f"issued must be a date, got {issued!r}.")
    payload = _HEADER.pack(correct, total, issued.toordinal()) + clean.encode("utf-8")
    raw = payload + _tag(key, payload)
    return _PREFIX + b64url_encode(raw)


def verify(cert_id, *, secret: bytes | str) -> dict | None:
    """The certificate's contents if ``cert_id`` was issued with ``secret``; None otherwise.

    Returns {"name", "correct", "total", "percent", "date"} (date as YYYY-MM-DD,
    percent rounded to 0.1). Anything tampered with, signed with another secret,
    of another version or malformed gives None; it never raises on ``cert_id``.
    A secret shorter than 16 bytes is a configuration error (ValueError).
    """
    key = signing_key(secret)
    if not isinstance(cert_id, str) or len(cert_id) > _MAX_ID_CHARS:
        return None
    cert_id = cert_id.strip()
    if not cert_id.startswith(_PREFIX):
        return None
    raw = b64url_decode(cert_id[len(_PREFIX) :])
    if raw is None or len(raw) < _HEADER.size + 1 + _TAG_BYTES:
        return None
    payload, tag = raw[:-_TAG_BYTES], raw[-_TAG_BYTES:]
    if not hmac.compare_digest(tag, _tag(key, payload)):
        return None
    # Signed by us, so well formed; checked again all the same.
    try:
        correct, total, ordinal = _HEADER.unpack_from(payload)
        name = check_name(payload[_HEADER.size :].decode("utf-8"))
        _check_score(correct, total)
        date = dt.date.fromordinal(ordinal)
    except (ValueError, UnicodeDecodeError, OverflowError, struct.error):
        return None
    return {
        "name": name,
        "correct": correct,
        "total": total,
        "percent": round(100 * correct / total, 1),
        "date": date.isoformat(),
    }


def check_name(name) -> str:
    """The name as it goes on a certificate: stripped, NFC; ValueError if unfit.

    1 to 80 characters; no control, private-use, line-separator or bidi-override characters.
    Markup is allowed and kept as typed: it is text, shown as text.
    """
    if not isinstance(name, str):
        raise ValueError(f"the name must be text, got {type(name).__name__}.")
    clean = unicodedata.normalize("NFC", name.strip())
    if not clean:
        raise ValueError("the name is empty: type the name to put on the certificate.")
    if len(clean) > MAX_NAME_CHARS:
        raise ValueError(f"the name is {len(clean)} characters long; at most {MAX_NAME_CHARS} fit.")
    for c in clean:
        if unicodedata.category(c) in ("Cc", "Cs", "Co", "Zl", "Zp") or c in _BIDI_CONTROLS:
            raise ValueError(
                f"the name contains a control or invisible character (U+{ord(c):04X}); "
                "type it as plain text."
            )
    return clean


def signing_key(secret) -> bytes:
    """``secret`` as the HMAC key (str as UTF-8); ValueError if it is shorter than 16 bytes."""
    if isinstance(secret, str):
        secret = secret.encode("utf-8")
    if not isinstance(secret, bytes) or len(secret) < MIN_SECRET_BYTES:
        raise ValueError(f"the certificate secret must be at least {MIN_SECRET_BYTES} bytes.")
    return secret


def _check_score(correct, total) -> None:
    for value, what in ((correct, "correct"), (total, "total")):
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"{what} must be a whole number, got {value!r}.")
    if not 1 <= total <= MAX_TOTAL:
        raise ValueError(f"total must be between 1 and {MAX_TOTAL}, got {total}.")
    if not 0 <= correct <= total:
        raise ValueError(f"correct must be between 0 and total ({total}), got {correct}.")


def _tag(key: bytes, payload: bytes) -> bytes:
    return hmac.new(key, _MAC_LABEL + payload, hashlib.sha256).digest()[:_TAG_BYTES]
