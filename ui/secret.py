"""The app-side certificate secret: where it comes from, resolved once per configuration.

Order of preference (see grpo_core.certificates.resolve_secret):
1. the environment variable GRPO_CERT_SECRET;
2. ``st.secrets["GRPO_CERT_SECRET"]`` when a secrets file exists;
3. the file ``default_secret_path()`` (git-ignored), generated on first start.

The source, never the secret, is written to the server log.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

import streamlit as st
from streamlit.errors import StreamlitSecretNotFoundError

from grpo_core.certificates import ENV_VAR, default_secret_path, resolve_secret

log = logging.getLogger(__name__)


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
