"""The app's class store: which backend this server uses, opened once per process.

``GRPO_STORE`` from the environment, else ``st.secrets["GRPO_STORE"]``, else the embedded
SQLite file (see ``practice.store.store_url``). The URL, never a password in it, is
logged once.
"""

from __future__ import annotations

import logging
import os

import streamlit as st
from streamlit.errors import StreamlitSecretNotFoundError

from practice.store import ENV_VAR, open_store, store_url
from practice.store.base import ClassStore

log = logging.getLogger(__name__)


def _secrets_value() -> str | None:
    try:
        value = st.secrets[ENV_VAR]
    except (KeyError, FileNotFoundError, StreamlitSecretNotFoundError):
        return None
    return value if isinstance(value, str) else None


@st.cache_resource(show_spinner=False)
def _open(url: str) -> ClassStore:
    log.warning("class store: %s", url.split("@")[-1])
    return open_store(url)


def class_store() -> ClassStore:
    """The store of this server's configuration (cached per URL, so tests may switch)."""
    env = dict(os.environ)
    if not env.get(ENV_VAR) and (value := _secrets_value()):
        env[ENV_VAR] = value
    return _open(store_url(env))
