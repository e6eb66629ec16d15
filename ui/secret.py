"""The certificate secret, app-side: where it comes from, read or generated, resolved once.

Order of preference (``resolve_secret``):
1. the environment variable GRPO_CERT_SECRET;
2. ``st.secrets["GRPO_CERT_SECRET"]`` when a secrets file exists;
3. the file ``default_secret_path()`` (git-ignored), generated on first start.

The source, never the secret, is written to the server log. ``practice.certificates``
only takes the secret as an argument; all reading and writing of it happens here.
"""

from __future__ import annotations

import logging
import os
import secrets
from collections.abc import Mapping
from pathlib import Path

import streamlit as st
from streamlit.errors import StreamlitSecretNotFoundError

from practice.certificates import MIN_SECRET_BYTES

ENV_VAR = "GRPO_CERT_SECRET"

log = logging.getLogger(__name__)


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


def _secrets_value() -> str | None:
    """``st.secrets[GRPO_CERT_SECRET]``, or None when there is no secrets file or no such key."""
    try:
        value = st.secrets[ENV_VAR]
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
