"""Certificates for a passed quiz: self-contained, signed with Ed25519, verifiable offline.

An ID reads ``GRPO2-<body>.<signature>``: ``body`` is base64url of a JSON object (the
name, the score, the date, the topics and kinds covered, how the score was made, and the
signing key's id ``kid``), ``signature`` the base64url Ed25519 signature of the body's
ASCII text. Anyone holding the public key checks an ID without our server
(``OFFLINE_CHECK`` is the code); nothing is stored.

Contract: keys are ``cryptography`` Ed25519 key objects passed as arguments (where they
come from is the app's business, see ``ui/secret.py``); nothing here reads or writes a
file. ``issue`` refuses an unfit name, details or a score below ``PASS_PERCENT`` with a
ValueError in plain words; ``verify`` never raises on the ID it is given, and no changed
character of an ID makes another valid one (the signature covers the body's text, and
both parts must be canonical base64url).

``verify_legacy`` checks the version-1 IDs (``GRPO1-``, HMAC-SHA256 with a shared secret)
issued before, so they keep verifying on the verify page.

A name is text, never markup: ``verify`` returns it exactly as issued (checked and
NFKC-normalised by ``practice.cert_names.check_name``), so "<b>x</b>" stays "<b>x</b>".
Pages show it with a text widget or escaped once (``ui.text.markdown_safe``, ``html.escape``
in the HTML file), never with HTML enabled.

A pasted ID may hold spaces and line breaks (``pasted_id`` drops them, here and in the
published ``OFFLINE_CHECK``, which decodes base64url as strictly as ``verify``). A short
form (``short_id``: ``GRPO2-`` and 16 characters of the signature) is resolved to the full
ID by the server that issued it (``practice.store.base.CertificateStore``).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
import re
import struct
from collections.abc import Mapping
from fractions import Fraction

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from grpo_core.links import b64url_decode, b64url_encode
from practice.cert_names import MAX_NAME_CHARS, check_name, signed_name
from practice.session import PASS_PERCENT

VERSION = "GRPO2"
MAX_TOTAL = 65535
MAX_ID_CHARS = 2000
"""Longer text is not read as an ID (a full certificate is under 1000 characters)."""
MAX_PASTED_CHARS = 4000
"""A pasted ID (with spaces and line breaks, which are dropped) is read up to this length."""
SHORT_CHARS = 16
"""A short ID is ``GRPO2-`` and the first 16 characters (96 bits) of the signature."""
MIN_SECRET_BYTES = 16
"""The shortest secret that signs progress links (and signed version-1 certificates)."""
DETAILS = {
    "topics": "the topics the quiz covered (bank topic slugs)",
    "kinds": "the kinds of question asked",
    "scoring": "how the score was made, in words",
    "attempt": "the certification attempt it was issued for (a fingerprint of its id)",
}
"""The optional details a certificate states, beside name, score and date."""
MAX_DETAIL_ITEMS, MAX_DETAIL_CHARS = 30, 200

_PREFIX = VERSION + "-"
_ISSUER = "grpo-advantage-lab"
_SHORT = re.compile(rf"^{_PREFIX}([A-Za-z0-9_-]{{{SHORT_CHARS}}})$")

OFFLINE_CHECK = """import base64, json, re
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

def b64(text):  # strict: only A-Z a-z 0-9 - _, no padding, canonical (as the server reads it)
    if not re.fullmatch(r"[A-Za-z0-9_-]*", text) or len(text) % 4 == 1:
        raise ValueError("not base64url")
    raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    if base64.urlsafe_b64encode(raw).decode().rstrip("=") != text:
        raise ValueError("not canonical base64url")
    return raw

keys = json.load(open("grpo-certificate-keys.json"))["keys"]  # key id -> public key
cert_id = "GRPO2-..."  # the certificate ID to check
cert_id = "".join(cert_id.split())  # spaces and line breaks from copying are dropped
if not cert_id.startswith("GRPO2-") or cert_id.count(".") != 1:
    raise ValueError("not a GRPO2 certificate ID")
body, signature = cert_id.removeprefix("GRPO2-").split(".")
if len(b64(signature)) != 64:
    raise ValueError("not an Ed25519 signature")
claims = json.loads(b64(body).decode("utf-8"))
public_key = Ed25519PublicKey.from_public_bytes(b64(keys[claims["kid"]]))
public_key.verify(b64(signature), body.encode())  # raises InvalidSignature if forged
print(claims)"""
"""Python that verifies a certificate offline with the published keyring file."""


def issue(
    name: str,
    correct,
    total: int,
    *,
    private_key: Ed25519PrivateKey,
    date: dt.date | None = None,
    **details,
) -> str:
    """A certificate ID for ``name`` with ``correct`` of ``total`` points, on ``date`` (today).

    ``correct`` may be fractional (a follow-up counts as the fraction of its key points
    made; it is stated to 2 decimals). ``details``: ``topics`` and ``kinds`` (lists of
    short strings) and ``scoring`` (a sentence), see ``DETAILS``. ValueError in plain
    words for an unfit name, an impossible score, one below ``PASS_PERCENT``, an unknown
    or oversized detail, or a key that is not an Ed25519 private key.
    """
    if not isinstance(private_key, Ed25519PrivateKey):
        raise ValueError("private_key must be an Ed25519 private key.")
    clean = check_name(name)
    points = _points(correct, total)
    if points * 100 < PASS_PERCENT * total:
        raise ValueError(
            f"a certificate needs at least {PASS_PERCENT}% right; {float(points):g} of {total} "
            f"is {100 * float(points) / total:.1f}%."
        )
    date = dt.date.today() if date is None else date
    if not isinstance(date, dt.date):
        raise ValueError(f"date must be a date, got {date!r}.")
    claims = {
        "iss": _ISSUER,
        "kid": key_id(private_key.public_key()),
        "name": clean,
        "correct": _stated(points),
        "total": total,
        "date": date.isoformat(),
        **_details(details),
    }
    body = b64url_encode(
        json.dumps(claims, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode(
            "utf-8"
        )
    )
    return f"{_PREFIX}{body}.{b64url_encode(private_key.sign(body.encode('ascii')))}"


def verify(cert_id, *, public_key) -> dict | None:
    """The certificate's contents if ``cert_id`` is signed by ``public_key``; None otherwise.

    ``public_key``: an Ed25519 public key, or a mapping key id -> key (a keyring; the
    certificate's ``kid`` picks the key). Returns {"name", "correct", "total",
    "percent", "date", "key_id"} and the details it states (``DETAILS``); percent rounded
    to 0.1. Anything tampered with, signed with another key, of another version or
    malformed gives None; it never raises on ``cert_id``. Spaces and line breaks (from
    copying a wrapped ID) are dropped first (``pasted_id``); base64url never holds them.
    """
    cert_id = pasted_id(cert_id)
    if cert_id is None or len(cert_id) > MAX_ID_CHARS:
        return None
    if not cert_id.startswith(_PREFIX) or cert_id.count(".") != 1:
        return None
    body, signature = cert_id[len(_PREFIX) :].split(".")
    raw, sig = b64url_decode(body), b64url_decode(signature)
    if raw is None or sig is None or len(sig) != 64:
        return None
    try:
        claims = json.loads(raw.decode("utf-8"))
        key = _pick_key(public_key, claims.get("kid"))
        if key is None:
            return None
        key.verify(sig, body.encode("ascii"))
    except (InvalidSignature, ValueError, UnicodeDecodeError, AttributeError, TypeError):
        return None
    # Signed by us, so well formed; checked again all the same.
    try:
        if claims.get("iss") != _ISSUER:
            return None
        name = signed_name(claims["name"])
        total = claims["total"]
        points = _points(Fraction(str(claims["correct"])), total)
        date = dt.date.fromisoformat(claims["date"])
        details = _details({k: claims[k] for k in DETAILS if k in claims})
    except (KeyError, ValueError, TypeError):
        return None
    return {
        "name": name,
        "correct": _stated(points),
        "total": total,
        "percent": round(100 * float(points) / total, 1),
        "date": date.isoformat(),
        "key_id": claims["kid"],
        **details,
    }


def pasted_id(text) -> str | None:
    """``text`` without whitespace (spaces, tabs, line breaks), or None for text that is not
    a string or is longer than ``MAX_PASTED_CHARS``."""
    if not isinstance(text, str) or len(text) > MAX_PASTED_CHARS:
        return None
    return "".join(text.split())


def short_id(cert_id: str) -> str:
    """The short form of a full ID: ``GRPO2-`` and the first ``SHORT_CHARS`` characters of
    its signature. Only a server that keeps the IDs it issued resolves it
    (``short_key``); the full ID stays the one that verifies offline. ValueError for text
    that is not shaped like a full ID."""
    cert_id = pasted_id(cert_id)
    if cert_id is None or not cert_id.startswith(_PREFIX) or cert_id.count(".") != 1:
        raise ValueError("a short form is made from a full GRPO2 certificate ID.")
    signature = cert_id.split(".")[1]
    if len(signature) < SHORT_CHARS:
        raise ValueError("that certificate ID is cut short.")
    return _PREFIX + signature[:SHORT_CHARS]


def short_key(text) -> str | None:
    """The signature prefix a pasted short ID names (spaces dropped); None if ``text`` is
    not a short ID."""
    match = _SHORT.match(pasted_id(text) or "")
    return match.group(1) if match else None


def key_id(public_key: Ed25519PublicKey) -> str:
    """A public key's id: the first 8 bytes of SHA-256 of its raw 32 bytes, in hex."""
    return hashlib.sha256(public_bytes(public_key)).hexdigest()[:16]


def public_bytes(public_key: Ed25519PublicKey) -> bytes:
    """The raw 32 bytes of an Ed25519 public key."""
    return public_key.public_bytes(Encoding.Raw, PublicFormat.Raw)


def keyring_json(public_keys) -> str:
    """The published keyring: {"keys": {key id: base64url raw public key}} as JSON."""
    keys = {key_id(k): b64url_encode(public_bytes(k)) for k in public_keys}
    return json.dumps({"issuer": _ISSUER, "keys": dict(sorted(keys.items()))}, indent=2)


def read_keyring(text) -> dict[str, Ed25519PublicKey]:
    """The keys of a ``keyring_json`` text by id; ValueError if it is not one."""
    try:
        entries = json.loads(text)["keys"]
        keys = {}
        for kid, value in entries.items():
            key = Ed25519PublicKey.from_public_bytes(b64url_decode(value) or b"")
            if key_id(key) != kid:
                raise ValueError(f"key {kid!r} does not match its id.")
            keys[kid] = key
    except (KeyError, TypeError, AttributeError, json.JSONDecodeError) as err:
        raise ValueError(f"not a keyring: {err}") from None
    return keys


def _pick_key(public_key, kid) -> Ed25519PublicKey | None:
    if isinstance(public_key, Ed25519PublicKey):
        return public_key if kid == key_id(public_key) else None
    if isinstance(public_key, Mapping) and isinstance(kid, str):
        key = public_key.get(kid)
        return key if isinstance(key, Ed25519PublicKey) else None
    raise ValueError("public_key must be an Ed25519 public key or a mapping of them by key id.")


def _points(correct, total) -> Fraction:
    """``correct`` as an exact fraction of points, checked against ``total``."""
    if not isinstance(total, int) or isinstance(total, bool) or not 1 <= total <= MAX_TOTAL:
        raise ValueError(f"total must be a whole number between 1 and {MAX_TOTAL}, got {total!r}.")
    if isinstance(correct, bool) or not isinstance(correct, (int, float, Fraction)):
        raise ValueError(f"correct must be a number, got {correct!r}.")
    points = Fraction(correct) if not isinstance(correct, float) else Fraction(str(correct))
    if not 0 <= points <= total:
        raise ValueError(f"correct must be between 0 and total ({total}), got {correct!r}.")
    return points


def _stated(points: Fraction) -> int | float:
    """Points as a certificate states them: whole, or to 2 decimals."""
    return int(points) if points.denominator == 1 else round(float(points), 2)


def _details(details: Mapping) -> dict:
    """The details, checked: known keys, short strings, short lists of short strings."""
    out = {}
    for key, value in details.items():
        if key not in DETAILS:
            raise ValueError(f"{key!r} is not a certificate detail ({', '.join(DETAILS)}).")
        single = key in ("scoring", "attempt")
        items = [value] if single else value
        if not isinstance(items, (list, tuple)) or len(items) > MAX_DETAIL_ITEMS:
            raise ValueError(f"{key} must be a list of at most {MAX_DETAIL_ITEMS} strings.")
        for item in items:
            if not isinstance(item, str) or not item.strip() or len(item) > MAX_DETAIL_CHARS:
                raise ValueError(
                    f"{key}: every entry must be text of 1 to {MAX_DETAIL_CHARS} characters."
                )
        out[key] = value if single else list(items)
    return out


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


# --- version 1: HMAC-signed certificates, verified for those already issued ------------------

_LEGACY_PREFIX = "GRPO1-"
_HEADER = struct.Struct(">HHI")  # correct, total, date as a proleptic Gregorian ordinal
_TAG_BYTES = 16
_MAC_LABEL = b"grpo-advantage-lab certificate v1\x00"
_MAX_LEGACY_CHARS = (
    len(_LEGACY_PREFIX) + 4 * (_HEADER.size + 4 * MAX_NAME_CHARS + _TAG_BYTES) // 3 + 4
)


def verify_legacy(cert_id, *, secret: bytes | str) -> dict | None:
    """A version-1 (HMAC) certificate's contents if it was issued with ``secret``; else None.

    Certificates issued before Ed25519 signing still verify through this.

    Returns {"name", "correct", "total", "percent", "date"} (date as YYYY-MM-DD,
    percent rounded to 0.1). Anything tampered with, signed with another secret,
    of another version or malformed gives None; it never raises on ``cert_id``.
    A secret shorter than 16 bytes is a configuration error (ValueError).
    """
    key = signing_key(secret)
    if not isinstance(cert_id, str) or len(cert_id) > _MAX_LEGACY_CHARS:
        return None
    cert_id = cert_id.strip()
    if not cert_id.startswith(_LEGACY_PREFIX):
        return None
    raw = b64url_decode(cert_id[len(_LEGACY_PREFIX) :])
    if raw is None or len(raw) < _HEADER.size + 1 + _TAG_BYTES:
        return None
    payload, tag = raw[:-_TAG_BYTES], raw[-_TAG_BYTES:]
    if not hmac.compare_digest(tag, _tag(key, payload)):
        return None
    # Signed by us, so well formed; checked again all the same.
    try:
        correct, total, ordinal = _HEADER.unpack_from(payload)
        name = signed_name(payload[_HEADER.size :].decode("utf-8"))
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
