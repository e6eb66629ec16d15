"""The learner key on screen: kept in the session and in the URL (``?learner=``).

A key is made on the Review page's first use (``practice.store``: 24 random bytes), shown
as a link and a QR code to keep; opening that link on another device, or after the
browser forgot the session, brings the progress back. It is private: share links leave
``LEARNER_PARAM`` out (``ui.controls.share_link``), and a key that is malformed or that
this store never made is ignored.
"""

from __future__ import annotations

import contextlib
import re
from datetime import UTC, datetime
from urllib.parse import parse_qs, urlsplit

import streamlit as st

from practice import limits
from practice.review import due_today
from practice.store.base import StoreRefusal, StoreUnavailable, is_learner_key
from ui import client, present
from ui.class_store import class_store
from ui.quiz_widgets import bank_ids
from ui.state import LEARNER_PARAM, LEARNER_SESSION_KEY
from ui.store_guard import StoreFailed

"""The URL parameter of the learner key; never part of a share link."""
SESSION_KEY = LEARNER_SESSION_KEY
DELETED_KEY = "learner.deleted"
"""Set after "delete my data": the page offers a fresh start instead of making a key."""


def current() -> str | None:
    """The learner key of a learner link being opened (then kept in the session), else the
    session's, else None. A key this store never made is ignored."""
    key = st.session_state.get(SESSION_KEY)
    from_url = st.query_params.get(LEARNER_PARAM)
    if not from_url or from_url == key:
        return key
    if class_store().learner_exists(from_url):
        st.session_state[SESSION_KEY] = from_url
        st.session_state.pop(DELETED_KEY, None)
        return from_url
    return key


def key_in(pasted) -> str | None:
    """The learner key of a pasted learner link or bare key (spaces and line breaks
    ignored, as a copy from a chat or an e-mail brings them), or None if it holds none."""
    if not isinstance(pasted, str) or len(pasted) > 2000:
        return None
    text = re.sub(r"\s+", "", pasted)
    if "=" in text or "/" in text:
        text = (parse_qs(urlsplit(text).query).get(LEARNER_PARAM) or [""])[0]
    return text if is_learner_key(text) else None


def use(key: str) -> bool:
    """Adopt ``key`` (from a pasted link) when this store made it; whether it was."""
    if not class_store().learner_exists(key):
        return False
    st.session_state[SESSION_KEY] = key
    st.session_state.pop(DELETED_KEY, None)
    if not present.active():
        st.query_params[LEARNER_PARAM] = key
    return True


def ensure() -> str:
    """The learner key: the current one, or a new one made now (within the ``LEARNER``
    budget of this address and of everyone: ``limits.OverBudget`` past it); kept in the
    URL, except while presenting (``keep_off_shared_screen``)."""
    key = current()
    if key is None:
        client.spend(limits.LEARNER)  # OverBudget past it: the caller says so
        key = class_store().create_learner()
        st.session_state[SESSION_KEY] = key
    if not present.active() and st.query_params.get(LEARNER_PARAM) != key:
        st.query_params[LEARNER_PARAM] = key
    return key


def keep_off_shared_screen() -> None:
    """While presenting, take the learner key out of the URL: a projected page shows its
    address bar, and every anchor link of the page repeats the URL. The session keeps the
    key (a key this store made is adopted first), and ``ensure`` puts it back in the URL
    once presentation mode is off. Called by every page (``ui.page.start``)."""
    if not present.active() or LEARNER_PARAM not in st.query_params:
        return
    with contextlib.suppress(StoreRefusal, StoreUnavailable, StoreFailed):  # then not adopted
        current()
    del st.query_params[LEARNER_PARAM]


def forget() -> None:
    """Drop the key from the session and the URL (after the learner deleted their data)."""
    st.session_state.pop(SESSION_KEY, None)
    st.session_state[DELETED_KEY] = True
    if LEARNER_PARAM in st.query_params:
        del st.query_params[LEARNER_PARAM]


def link(key: str) -> str:
    """The Review page's URL with the key: the link the learner keeps."""
    base = (st.context.url or "").split("?")[0]
    return f"{base}?{LEARNER_PARAM}={key}"


def due_count(key: str) -> int:
    """How many cards are due today for ``key``."""
    store = class_store()
    return len(due_today(bank_ids(), store.cards(key), store.attempts(key), now()))


def nav_title(title: str) -> str:
    """The Review page's title in the navigation: with the due count when a key is known
    (in the session, or a learner link being opened)."""
    try:
        key = current()
        return f"{title} ({due_count(key)} due)" if key else title
    except (StoreRefusal, StoreUnavailable, StoreFailed):  # deleted in another tab; an outage
        return title


def now() -> datetime:
    """The current time, UTC (one place, so the page and the navigation agree)."""
    return datetime.now(UTC)
