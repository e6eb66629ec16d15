"""Certificates for a passed quiz: self-contained, HMAC-signed, verifiable without a database.

An ID reads ``GRPO1-<base64url(payload + tag)>``. The payload packs the score,
the date and the learner's name (UTF-8); the tag is HMAC-SHA256 over a
version label and the payload, cut to 16 bytes. Any server holding the secret
verifies an ID by recomputing the tag; nothing is stored.

A name is text, never markup: ``verify`` returns it exactly as issued (stripped,
NFC-normalised), so "<b>x</b>" stays "<b>x</b>". Pages show it with a text
widget or through ``markdown_safe``, never with HTML enabled.
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import hmac
import logging
import os
import re
import secrets
import struct
import unicodedata
from collections.abc import Mapping
from pathlib import Path

from grpo_core.links import b64url_decode, b64url_encode

VERSION = "GRPO1"
PASS_PERCENT = 80
"""A certificate needs at least this share of the quiz right."""
MAX_NAME_CHARS = 80
MAX_TOTAL = 65535
MIN_SECRET_BYTES = 16
ENV_VAR = "GRPO_CERT_SECRET"

_PREFIX = VERSION + "-"
_HEADER = struct.Struct(">HHI")  # correct, total, date as a proleptic Gregorian ordinal
_TAG_BYTES = 16
_MAC_LABEL = b"grpo-advantage-lab certificate v1\x00"
_MAX_ID_CHARS = len(_PREFIX) + 4 * (_HEADER.size + 4 * MAX_NAME_CHARS + _TAG_BYTES) // 3 + 4
_B64URL = re.compile(r"^[A-Za-z0-9_-]+$")
# Bidirectional overrides and isolates could make a name display as something else.
_BIDI_CONTROLS = set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f")

log = logging.getLogger(__name__)


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
    control characters, if the score is impossible, if it is below 80%, or if
    the secret is shorter than 16 bytes.
    """
    key = _key(secret)
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
    key = _key(secret)
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


_PROGRESS_LABEL = b"grpo-advantage-lab progress v1\x00"
_PROGRESS_TAG_BYTES = 12
MAX_PROGRESS_CHARS = 200


def sign_progress(progress: str, *, secret: bytes | str) -> str:
    """``progress`` (a URL-safe string) + "." + a short HMAC tag of it.

    A quiz keeps its answers in the URL; the tag stops a link whose answers were
    typed in by hand (say, every one marked right) from counting towards a certificate.
    """
    key = _key(secret)
    if not isinstance(progress, str) or not _B64URL.match(progress):
        raise ValueError("progress must be a non-empty URL-safe string (A-Z, a-z, 0-9, -, _).")
    tag = hmac.new(key, _PROGRESS_LABEL + progress.encode("ascii"), hashlib.sha256).digest()
    return progress + "." + base64.urlsafe_b64encode(tag[:_PROGRESS_TAG_BYTES]).decode("ascii")


def unsign_progress(text, *, secret: bytes | str) -> str | None:
    """The progress string ``sign_progress`` signed with ``secret``; None for anything else.

    Never raises on ``text``; a secret shorter than 16 bytes is a ValueError.
    """
    key = _key(secret)
    if not isinstance(text, str) or len(text) > MAX_PROGRESS_CHARS or text.count(".") != 1:
        return None
    progress = text.split(".")[0]
    if not progress or not _B64URL.match(progress):
        return None
    expected = sign_progress(progress, secret=key).encode("ascii")
    return progress if hmac.compare_digest(expected, text.encode("utf-8", "replace")) else None


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


def markdown_safe(text: str) -> str:
    """``text`` escaped for Markdown and HTML, so a page can show it verbatim in st.markdown."""
    escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return re.sub(r"([\\`*_{}\[\]()#+\-.!|~$])", r"\\\1", escaped)


def default_secret_path() -> Path:
    """Where a generated secret is kept: ``.grpo_cert_secret`` at the repository root.

    The file is listed in .gitignore, so it is never among the tracked files.
    """
    return Path(__file__).resolve().parent.parent / ".grpo_cert_secret"


def resolve_secret(
    env: Mapping[str, str], secrets_value: str | None, path: Path
) -> tuple[bytes, str]:
    """The signing secret and where it came from, in this order of preference.

    1. ``env["GRPO_CERT_SECRET"]`` -> "environment GRPO_CERT_SECRET"
    2. ``secrets_value`` (the page reads ``st.secrets``) -> "st.secrets"
    3. the file at ``path`` -> "read from <path>"
    4. a new random secret written to ``path`` with permissions 0600 ->
       "generated and saved to <path>"

    The source (never the secret) is also logged. ValueError if a given secret
    is shorter than 16 bytes, naming where it came from.
    """
    candidates = ((env.get(ENV_VAR), f"environment {ENV_VAR}"), (secrets_value, "st.secrets"))
    for value, source in candidates:
        if isinstance(value, str) and value.strip():
            return _announce(_checked_secret(value.strip(), source), source)
    path = Path(path)
    if not path.exists():
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass  # another process created it first: read theirs
        else:
            generated = secrets.token_urlsafe(32)
            with os.fdopen(fd, "w", encoding="ascii") as f:
                f.write(generated + "\n")
            return _announce(generated.encode("ascii"), f"generated and saved to {path}")
    source = f"read from {path}"
    return _announce(_checked_secret(path.read_text(encoding="utf-8").strip(), source), source)


def _announce(secret: bytes, source: str) -> tuple[bytes, str]:
    log.info("certificate secret: %s", source)
    return secret, source


def _checked_secret(value: str, source: str) -> bytes:
    key = value.encode("utf-8")
    if len(key) < MIN_SECRET_BYTES:
        raise ValueError(
            f"the certificate secret from {source} is {len(key)} bytes; use at least "
            f"{MIN_SECRET_BYTES}, such as the output of "
            "python -c 'import secrets; print(secrets.token_urlsafe(32))'."
        )
    return key


def _key(secret) -> bytes:
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
