"""Who controls a class session in this browser: the lecturer's rights, never in the URL.

The lecturer link (``?class=<code>&lecturer=<tag>``) is opened once, on the lecturer's
own device. ``claim`` checks the tag (as bytes), then takes it out of the URL at once, so
the address bar of a window the lecturer projects shows nothing private, and keeps the
right in two places:

- ``st.session_state["cls.lecturer_of"]`` (the set of codes this browser tab controls):
  server-side, for as long as the tab's Streamlit session lives;
- a cookie ``grpo_lecturer_<code>`` holding the tag (``Path=/``, ``SameSite=Strict``,
  ``Secure`` over https, expiring with the session), read back from
  ``st.context.cookies``.

Why the cookie as well: Streamlit 1.67 starts a new session, with empty session state,
on every reload and on a reconnection to another replica; the only things a browser
sends again by itself are the URL, which a projected window shows, and its cookies.
Streamlit sets no cookie from Python (``st.context.cookies`` is read-only, from the
WebSocket handshake), so the lecturer view sets it with a two-line script
(``st.html(..., unsafe_allow_javascript=True)``), once per tab. The tag is an HMAC of
the code and the session's start time, so the cookie is signed: a forged or edited
cookie controls nothing. A cookie is per browser, not per window: a projector window
in the lecturer's own browser also holds it, which is harmless because the projector
screen draws no control whatever rights the browser holds.
"""

from __future__ import annotations

import json

import streamlit as st

from practice.class_link import (
    LECTURER,
    LECTURER_PARAM,
    SCREEN_PARAM,
    cookie_name,
    is_lecturer,
    lecturer_tag,
)
from practice.store.base import ClassSession

_RIGHTS = "cls.lecturer_of"
_COOKIE_SET = "cls.cookie_set"


def _rights() -> set[str]:
    return st.session_state.setdefault(_RIGHTS, set())


def grant(session: ClassSession) -> None:
    """This tab controls ``session`` (it just started it)."""
    _rights().add(session.code)


def claim(session: ClassSession, secret: bytes) -> bool:
    """Whether this browser controls ``session``: a right already held in this tab, a
    valid lecturer cookie, or a valid tag in the URL (which then leaves the URL and the
    page turns to the lecturer screen). A wrong tag also leaves the URL."""
    code = session.code
    if LECTURER_PARAM in st.query_params:
        tag = st.query_params.get(LECTURER_PARAM)
        del st.query_params[LECTURER_PARAM]
        if is_lecturer(code, session.created, tag, secret=secret):
            grant(session)
            st.query_params[SCREEN_PARAM] = LECTURER
    if code in _rights():
        return True
    if is_lecturer(code, session.created, st.context.cookies.get(cookie_name(code)), secret=secret):
        grant(session)
        st.session_state.setdefault(_COOKIE_SET, set()).add(code)  # it is there already
        return True
    return False


def set_cookie(name: str, value: str, max_age: float) -> None:
    """Set a cookie of this site in this browser (``Path=/``, ``SameSite=Strict``,
    ``Secure`` over https); Streamlit reads it back on the next connection."""
    cookie = f"{name}={value}; Path=/; Max-Age={max(1, int(max_age))}; SameSite=Strict"
    st.html(
        "<script>document.cookie = "
        f"{json.dumps(cookie)} + (location.protocol === 'https:' ? '; Secure' : '');</script>",
        unsafe_allow_javascript=True,
        width="content",
    )


def remember(session: ClassSession, secret: bytes, now: float) -> None:
    """Set the lecturer cookie of ``session`` in this browser (once per tab)."""
    done = st.session_state.setdefault(_COOKIE_SET, set())
    if session.code in done:
        return
    done.add(session.code)
    tag = lecturer_tag(session.code, session.created, secret=secret)
    set_cookie(cookie_name(session.code), tag, session.expires - now)
