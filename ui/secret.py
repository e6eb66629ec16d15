"""The app's keys, app-side: where they come from, read or generated, resolved once.

Two keys, each found in this order of preference:
1. an environment variable;
2. ``st.secrets`` under the same name, when a secrets file exists;
3. a git-ignored file at the repository root, generated on first start.

- The certificate signing key (``cert_key``): GRPO_CERT_KEY, an Ed25519 private key as
  base64url of its 32 raw bytes, file ``.grpo_cert_key``. Never shown; its public half is
  published (``public_keyring``): every key the app has signed with is added to the
  git-ignored keyring ``.grpo_cert_keyring.json``, so a rotated key's certificates still
  verify, and GRPO_CERT_PUBLIC_KEYS (a keyring's JSON) adds the keys of other servers.
- The HMAC secret (``cert_secret``): GRPO_CERT_SECRET, file ``.grpo_cert_secret``. It
  signs progress links and verifies the version-1 certificates issued before Ed25519.

The source, never a key, is written to the server log. ``practice`` only takes keys as
arguments; all reading and writing of them happens here.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
from collections.abc import Mapping
from pathlib import Path

import streamlit as st
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat
from streamlit.errors import StreamlitSecretNotFoundError

from grpo_core.links import b64url_decode, b64url_encode
from practice.certificates import MIN_SECRET_BYTES, key_id, keyring_json, read_keyring

ENV_VAR = "GRPO_CERT_SECRET"
KEY_ENV_VAR = "GRPO_CERT_KEY"
KEYRING_ENV_VAR = "GRPO_CERT_PUBLIC_KEYS"

log = logging.getLogger(__name__)


def default_secret_path() -> Path:
    """Where a generated secret is kept: ``.grpo_cert_secret`` at the repository root.

    The file is listed in .gitignore, so it is never among the tracked files.
    """
    return Path(__file__).resolve().parent.parent / ".grpo_cert_secret"


def default_key_path() -> Path:
    """Where a generated signing key is kept: ``.grpo_cert_key`` (git-ignored)."""
    return Path(__file__).resolve().parent.parent / ".grpo_cert_key"


def default_keyring_path() -> Path:
    """The public keys the app has signed with: ``.grpo_cert_keyring.json`` (git-ignored)."""
    return Path(__file__).resolve().parent.parent / ".grpo_cert_keyring.json"


def private_key_text(key: Ed25519PrivateKey) -> str:
    """A private key as GRPO_CERT_KEY holds it: base64url of its 32 raw bytes."""
    return b64url_encode(key.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption()))


def resolve_private_key(
    env: Mapping[str, str], secrets_value: str | None, path: Path
) -> tuple[Ed25519PrivateKey, str]:
    """The certificate signing key and where it came from, in this order of preference.

    1. ``env["GRPO_CERT_KEY"]`` -> "environment GRPO_CERT_KEY"
    2. ``secrets_value`` (the page reads ``st.secrets``) -> "st.secrets"
    3. the file at ``path`` -> "read from <path>"
    4. a new key written to ``path`` with permissions 0600 -> "generated and saved to <path>"

    ValueError, naming the source, for text that is not a key.
    """
    text, source = _resolve_text(
        KEY_ENV_VAR,
        env.get(KEY_ENV_VAR),
        secrets_value,
        Path(path),
        lambda: private_key_text(Ed25519PrivateKey.generate()),
    )
    raw = b64url_decode(text)
    if raw is None or len(raw) != 32:
        raise ValueError(
            f"the certificate key from {source} is not an Ed25519 key (base64url of 32 bytes); "
            "make one with python -c 'import base64, os; "
            'print(base64.urlsafe_b64encode(os.urandom(32)).decode().rstrip("="))\'.'
        )
    log.info("certificate key: %s", source)
    return Ed25519PrivateKey.from_private_bytes(raw), source


def _resolve_text(name: str, env_value, secrets_value, path: Path, generate) -> tuple[str, str]:
    """(text, source) from the environment, st.secrets, the file, or generated into the file."""
    for value, source in ((env_value, f"environment {name}"), (secrets_value, "st.secrets")):
        if isinstance(value, str) and value.strip():
            return value.strip(), source
    if not path.exists():
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass  # another process created it first: read theirs
        else:
            generated = generate()
            with os.fdopen(fd, "w", encoding="ascii") as f:
                f.write(generated + "\n")
            return generated, f"generated and saved to {path}"
    return path.read_text(encoding="utf-8").strip(), f"read from {path}"


def published_keys(
    current: Ed25519PublicKey, path: Path, extra: str | None = None
) -> dict[str, Ed25519PublicKey]:
    """Every public key certificates may be signed with, by id: the keyring file at ``path``
    (``current`` is added to it when missing, so a rotated key stays published) and the
    keyring JSON ``extra`` (GRPO_CERT_PUBLIC_KEYS). A file or text that is not a keyring
    is logged and skipped."""
    path = Path(path)
    keys: dict[str, Ed25519PublicKey] = {}
    for text, where in ((_read(path), str(path)), (extra, KEYRING_ENV_VAR)):
        if text and text.strip():
            try:
                keys.update(read_keyring(text))
            except ValueError as err:
                log.warning("certificate keyring %s skipped: %s", where, err)
    if key_id(current) not in keys:
        on_file = {k: v for k, v in keys.items()}
        on_file[key_id(current)] = current
        try:
            partial = path.with_suffix(".tmp")
            partial.write_text(keyring_json(on_file.values()) + "\n", encoding="utf-8")
            os.replace(partial, path)
        except OSError as err:
            log.warning("certificate keyring %s not written: %s", path, err)
        keys[key_id(current)] = current
    return keys


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return None


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
    text, source = _resolve_text(
        ENV_VAR, env.get(ENV_VAR), secrets_value, Path(path), lambda: secrets.token_urlsafe(32)
    )
    return _announce(_checked_secret(text, source), source)


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


def _secrets_value(name: str = ENV_VAR) -> str | None:
    """``st.secrets[name]``, or None when there is no secrets file or no such key."""
    try:
        value = st.secrets[name]
    except (KeyError, FileNotFoundError, StreamlitSecretNotFoundError):
        return None
    return value if isinstance(value, str) else None


@st.cache_resource(show_spinner=False)
def _resolve(env_value: str | None, secrets_value: str | None, path: str) -> tuple[bytes, str]:
    secret, source = resolve_secret({ENV_VAR: env_value or ""}, secrets_value, Path(path))
    # A generated or file-read secret is worth an operator's attention: certificates only
    # verify on servers that share it. WARNING shows in Streamlit's default log.
    level = logging.INFO if source.startswith(("environment", "st.secrets")) else logging.WARNING
    log.log(level, "GRPO certificate secret: %s", source)
    return secret, source


def cert_secret() -> tuple[bytes, str]:
    """(secret, where it came from). ValueError (plain words) if a configured secret is too short.

    Cached per configuration, so a rerun costs a dictionary lookup, and changing
    the environment (as tests do) gives the new secret.
    """
    env_value = os.environ.get(ENV_VAR)
    secrets_value = None if env_value and env_value.strip() else _secrets_value()
    return _resolve(env_value, secrets_value, str(default_secret_path()))


def cert_secret_or_problem() -> tuple[bytes | None, str | None]:
    """(secret, None), or (None, a plain-words problem) when the configured secret is unusable."""
    try:
        return cert_secret()[0], None
    except (ValueError, OSError) as err:
        return None, str(err)


@st.cache_resource(show_spinner=False)
def _resolve_key(env_value: str | None, secrets_value: str | None, path: str):
    key, source = resolve_private_key({KEY_ENV_VAR: env_value or ""}, secrets_value, Path(path))
    level = logging.INFO if source.startswith(("environment", "st.secrets")) else logging.WARNING
    log.log(level, "GRPO certificate key: %s (key id %s)", source, key_id(key.public_key()))
    return key, source


def cert_key() -> tuple[Ed25519PrivateKey, str]:
    """(signing key, where it came from); ValueError (plain words) for a key that is not one.

    Cached per configuration, like ``cert_secret``.
    """
    env_value = os.environ.get(KEY_ENV_VAR)
    secrets_value = None if env_value and env_value.strip() else _secrets_value(KEY_ENV_VAR)
    return _resolve_key(env_value, secrets_value, str(default_key_path()))


def cert_key_or_problem() -> tuple[Ed25519PrivateKey | None, str | None]:
    """(key, None), or (None, a plain-words problem) when the configured key is unusable."""
    try:
        return cert_key()[0], None
    except (ValueError, OSError) as err:
        return None, str(err)


@st.cache_resource(show_spinner=False)
def _keyring(current_id: str, _current: Ed25519PublicKey, path: str, extra: str | None):
    return published_keys(_current, Path(path), extra)


def public_keyring() -> dict[str, Ed25519PublicKey]:
    """The published public keys by id ({} when there is no usable signing key)."""
    key, _ = cert_key_or_problem()
    if key is None:
        return {}
    extra = os.environ.get(KEYRING_ENV_VAR) or _secrets_value(KEYRING_ENV_VAR)
    public = key.public_key()
    return _keyring(key_id(public), public, str(default_keyring_path()), extra)


def keyring_file() -> str:
    """The published keyring as the downloadable JSON file holds it."""
    return keyring_json(public_keyring().values())


def keyring_summary() -> list[tuple[str, str]]:
    """(key id, base64url public key) of every published key, for the verify page."""
    return sorted(json.loads(keyring_file())["keys"].items())
