"""The app's class store: which backend this server uses, opened once per process.

``GRPO_STORE`` from the environment, else ``st.secrets["GRPO_STORE"]``, else the embedded
SQLite file (see ``practice.store.store_url``). The URL, never a password in it, is
logged once. The store is returned wrapped in the app's one guard (``ui.store_guard``):
every call a page makes raises an outage as ``StoreUnavailable``, never a driver's error.
"""

from __future__ import annotations

import logging
import os

import streamlit as st
from streamlit.errors import StreamlitSecretNotFoundError

from practice.store import ENV_VAR, open_store, store_url
from practice.store.base import StoreUnavailable
from practice.store.sqlite import is_outage
from ui.store_guard import GuardedStore

log = logging.getLogger(__name__)


def _secrets_value() -> str | None:
    try:
        value = st.secrets[ENV_VAR]
    except (KeyError, FileNotFoundError, StreamlitSecretNotFoundError):
        return None
    return value if isinstance(value, str) else None


@st.cache_resource(show_spinner=False)
def _open(url: str) -> GuardedStore:
    log.warning("class store: %s", url.split("@")[-1])
    return GuardedStore(open_store(url))


def class_store() -> GuardedStore:
    """The store of this server's configuration, guarded (cached per URL, so tests may
    switch); StoreUnavailable when a SQLite file cannot be opened now (a Redis client
    connects on its first call)."""
    env = dict(os.environ)
    if not env.get(ENV_VAR) and (value := _secrets_value()):
        env[ENV_VAR] = value
    try:
        return _open(store_url(env))
    except Exception as err:
        if is_outage(err):
            raise StoreUnavailable(f"{type(err).__name__}: {err}") from err
        raise
