"""A student's seat in a class session, held by the browser: one browser, one seat.

The seat (the student token the store gave at the join) is kept in the tab's
``st.session_state["cls.seats"]`` (code -> token), so navigating to another page and
back keeps it, and in a cookie ``grpo_seat_<code>`` (``ui.class_access.set_cookie``), so
a reload or a new tab of the same browser finds it too: a second join from the browser
returns the same seat instead of adding a participant. Joins are counted per browser
(``client_key``: a random id in the cookie ``grpo_client``), and the store refuses more
than a few a minute from one.
"""

from __future__ import annotations

import time

import streamlit as st

from practice.store.base import ClassSession, ClassStore, new_token, normal_code
from ui.class_access import set_cookie

SEAT_PREFIX = "grpo_seat_"
CLIENT_COOKIE = "grpo_client"
CLIENT_DAYS = 30
_SEATS = "cls.seats"
_CLIENT = "cls.client"
_SET = "cls.seat_cookies"


def seats() -> dict[str, str]:
    """This tab's seats: session code -> student token."""
    return st.session_state.setdefault(_SEATS, {})


def held() -> list[str]:
    """The codes of the sessions this browser holds a seat in (this tab's, the cookies')."""
    cookies = [n[len(SEAT_PREFIX) :] for n in st.context.cookies if n.startswith(SEAT_PREFIX)]
    codes = list(seats()) + cookies
    return [c for c in dict.fromkeys(codes) if c.isalnum() and c == normal_code(c)]


def seat(store: ClassStore, code: str, token=None) -> str | None:
    """The student token this browser holds in session ``code``: ``token`` (from the URL),
    this tab's, or the cookie's, whichever the store knows first; None if none."""
    for candidate in (token, seats().get(code), st.context.cookies.get(SEAT_PREFIX + code)):
        if isinstance(candidate, str) and candidate and store.student(code, candidate):
            return candidate
    return None


def keep(session: ClassSession, token: str) -> None:
    """Hold ``token`` as this browser's seat in ``session`` (the tab, and once a cookie)."""
    seats()[session.code] = token
    done = st.session_state.setdefault(_SET, set())
    if (session.code, token) not in done and st.context.cookies.get(
        SEAT_PREFIX + session.code
    ) != token:
        done.add((session.code, token))
        set_cookie(SEAT_PREFIX + session.code, token, session.expires - time.time())


def client_key() -> str:
    """This browser's key for counting joins: the ``grpo_client`` cookie's random id (a
    tab without the cookie yet makes one, which ``remember_client`` stores)."""
    key = st.session_state.get(_CLIENT) or st.context.cookies.get(CLIENT_COOKIE)
    if not isinstance(key, str) or not key or len(key) > 64:
        key = new_token()
    st.session_state[_CLIENT] = key
    return key


def remember_client() -> None:
    """Set the ``grpo_client`` cookie once, when the browser does not send it yet."""
    key = client_key()
    if st.context.cookies.get(CLIENT_COOKIE) != key and not st.session_state.get(_SET + ".c"):
        st.session_state[_SET + ".c"] = True
        set_cookie(CLIENT_COOKIE, key, CLIENT_DAYS * 86400)
