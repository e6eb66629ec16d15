"""The one guard between pages and the store: an outage is a calm message, never a traceback.

Every store call a page makes goes through ``GuardedStore`` (``ui.class_store.class_store``
returns the store wrapped in it: class sessions, learner progress and quizzes alike). A
backend error that means "not reachable now" (``is_outage`` of the backend: Redis refused,
dropped, timed out or still loading its append-only file; SQLite locked past its busy
timeout, a disk error) becomes ``StoreUnavailable``; any other error but a refusal becomes
``StoreFailed`` (logged with its traceback for the maintainers; the page shows a sentence).
Refusals (``StoreRefusal``: an unknown code, a closed round) pass unchanged: their message
is for the person who made the request.

``run(page)`` (app.py) runs the page and turns these into messages. On an outage it shows
"Reconnecting" and draws ``probe``, a fragment that asks the store every
``PROBE_SECONDS`` whether it is back and then reruns the page, so a phone or the
projector recovers by itself. A button's callback runs before the page, outside ``run``:
there the guard keeps its message for the page (``NOTICE_KEY``) and reruns it. A
student's vote that was not acknowledged stays pending in the URL
(``practice.class_link.PENDING_PARAM``, which also survives a server restart) and in the
session (``PENDING_KEY``); the page sends it again when it runs, with the same submit id,
which the store counts once. ``calm`` does the same for a polling fragment's
own runs (a fragment rerun does not pass through ``run``).

A run asks the store once: after a call of the page's run met an outage, its other calls
(all but the probe's ``ping``; a button's callback always asks) fail at once, a class read
with its last answer, instead of each waiting out the backend's retries (Redis: 0.7 s,
``practice.store.redis_store.RETRIES``). A vote tapped while Redis was down took a phone
2.1 s to say "Reconnecting" (three calls; the deployment rehearsal, session 17); it takes
one call's 0.7 s now: a run that a callback or the run before started by ``st.rerun()``
right after meeting the outage counts as the same moment.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx
from streamlit.runtime.scriptrunner_utils.exceptions import RerunException

from practice.class_link import CODE_PARAM, PENDING_PARAM, TOKEN_PARAM
from practice.store.base import StoreRefusal, StoreUnavailable
from ui.text import markdown_safe

log = logging.getLogger(__name__)

PROBE_SECONDS = 2.0
"""How often a page in an outage asks whether the store is back."""
PENDING_KEY = "store_guard.pending"
"""Session key of the student's vote not yet acknowledged: ((code, student token), the vote
``<round>~<submit id>~<answer>``), so it is only ever resent for the seat that cast it."""
NOTICE_KEY = "store_guard.notice"
"""Session key of the message of a callback that the store could not serve."""
UNSAVED = (
    "The store could not be reached, so your last click did nothing: try it again in a moment."
)
_SINCE = "store_guard.since"
STALE_READS = frozenset(
    {
        "session",
        "student",
        "students",
        "rounds",
        "current_round",
        "answers",
        "tally",
        "question_set",
    }
)
"""Class reads a page may draw from its last answer during an outage (the phone keeps its
question and its Send button; the projector its last count), marked "reconnecting"."""
MAX_READS = 64
"""Class reads kept per browser session (the oldest are dropped)."""
_READS = "store_guard.reads"
_RECONNECTING = "store_guard.reconnecting"
_CARRY = "store_guard.carry"


class StoreFailed(Exception):
    """A store call failed for a reason that is neither an outage nor a refusal (a stored
    record that cannot be read, a bug): the page shows a sentence, the log the traceback."""

    def __init__(self, method: str):
        super().__init__(
            "Something stored here could not be read, so this part of the page is not shown. "
            "The rest of the page works; the error was logged for the maintainers."
        )
        self.method = method


class GuardedStore:
    """``store``'s methods, with backend errors raised as ``StoreUnavailable`` or
    ``StoreFailed`` (refusals unchanged); other attributes pass through."""

    def __init__(self, store):
        self._store = store

    @property
    def unguarded(self):
        """The backend itself (for tests and benchmarks that want its raw errors)."""
        return self._store

    def __getattr__(self, name: str):
        attribute = getattr(self._store, name)
        if not callable(attribute) or name == "is_outage":
            return attribute

        @functools.wraps(attribute)
        def guarded(*args, **kwargs):
            return call(self._store, name, attribute, *args, **kwargs)

        self.__dict__[name] = guarded  # made once per method and process, then looked up
        return guarded


def call(store, name: str, method: Callable, *args, **kwargs):
    """``method(*args, **kwargs)`` with the guard's translation of its errors; a class read
    (``STALE_READS``) that meets an outage returns what it returned last in this browser
    session, and marks the run as reconnecting."""
    key = (name, args, tuple(sorted(kwargs.items()))) if name in STALE_READS else None
    reads = _reads()
    if name != "ping" and reads is not None and reconnecting() and not _in_callback():
        # This run already met the outage: do not wait out the backend's retries again.
        return _failed(StoreUnavailable("met earlier in this run"), key, reads, None)
    try:
        value = method(*args, **kwargs)
    except StoreRefusal:
        raise
    except Exception as err:
        if isinstance(err, StoreUnavailable | StoreFailed):
            error = err
        elif store.is_outage(err):
            log.warning("store outage in %s: %s: %s", name, type(err).__name__, err)
            error = StoreUnavailable(f"{type(err).__name__}: {err}")
        else:
            log.exception("store call %s failed", name)
            error = StoreFailed(name)
        return _failed(error, key, reads, err)
    if key is not None and reads is not None:
        reads.pop(key, None)
        reads[key] = value
        while len(reads) > MAX_READS:
            reads.pop(next(iter(reads)))
    return value


def _failed(error: Exception, key, reads: dict | None, cause: Exception | None):
    """What a call that failed with ``error`` gives its page: in an outage, a class read's
    last answer (and the run is marked reconnecting); in a button's callback, a notice for
    the page and a rerun; else ``error`` raised."""
    if isinstance(error, StoreUnavailable) and reads is not None:
        st.session_state[_RECONNECTING] = True
        if key in reads:
            return reads[key]
    if _in_callback():  # a button's callback runs before the page: nothing would catch it
        st.session_state[NOTICE_KEY] = (
            UNSAVED if isinstance(error, StoreUnavailable) else str(error)
        )
        st.rerun()  # in a callback this ends the callback and runs the page afresh
    raise error from cause


def _reads() -> dict | None:
    """This browser session's last class reads (None outside a page run)."""
    if get_script_run_ctx() is None:
        return None
    return st.session_state.setdefault(_READS, {})


def reconnecting() -> bool:
    """Whether this run met a store outage (its class reads are the last answers)."""
    return bool(st.session_state.get(_RECONNECTING))


def _in_callback() -> bool:
    """Whether this runs in a widget's callback (before the page's script started)."""
    ctx = get_script_run_ctx()
    return ctx is not None and not ctx.has_script_started


def run(page: Callable[[], None]) -> None:
    """Run ``page`` (the app's navigation and the page it chose); a store error that
    escapes it ends the page with a message instead of a traceback, and a page drawn from
    the last reads of an outage gets the reconnecting message at its top."""
    top = st.container()
    if notice := st.session_state.pop(NOTICE_KEY, None):
        top.warning(notice, icon=":material/sync_problem:")
    # A callback, or the run before, met the outage and reran the page a moment ago.
    st.session_state[_RECONNECTING] = notice == UNSAVED or st.session_state.pop(_CARRY, False)
    try:
        page()
    except RerunException:
        st.session_state[_CARRY] = reconnecting()
        raise
    except StoreUnavailable:
        outage(top)
    except StoreFailed as err:
        st.error(str(err), icon=":material/error:")
    except StoreRefusal as refusal:
        st.warning(markdown_safe(str(refusal)), icon=":material/info:")
    else:
        if reconnecting():
            outage(top)


def outage(where) -> None:
    """The calm message of an outage in the container ``where``, and the probe that
    brings the page back."""
    pending = st.query_params.get(PENDING_PARAM)
    if pending:
        st.session_state[PENDING_KEY] = (_seat(), pending)
    if pending_vote():
        text = "Reconnecting: your answer will be sent as soon as the class is back."
    else:
        text = "Reconnecting: this page comes back by itself as soon as the store answers."
    where.info(text, icon=":material/sync:")
    st.session_state[_SINCE] = time.monotonic()
    with where:
        probe()


@st.fragment(run_every=PROBE_SECONDS)
def probe() -> None:
    """Every ``PROBE_SECONDS``: rerun the whole page once the store answers again."""
    from ui.class_store import class_store  # the store module wraps stores in this guard

    if time.monotonic() - st.session_state.get(_SINCE, 0.0) >= PROBE_SECONDS / 2:
        try:
            class_store().ping()
        except Exception:  # still down: the message stays, the next probe asks again
            pass
        else:
            st.rerun()
    st.caption("Trying again every few seconds; no need to reload.")


def calm(fragment: Callable) -> Callable:
    """A polling fragment's body that says "reconnecting" in one line, instead of raising,
    when the store is down (drawn from its last reads, or not at all) or refuses; put it
    under ``@st.fragment``. Each of its own runs asks the store afresh; drawn in a page's
    run, it shares that run's outage."""

    @functools.wraps(fragment)
    def body(*args, **kwargs):
        ctx = get_script_run_ctx()
        if ctx is not None and ctx.fragment_ids_this_run:  # the fragment's own run
            st.session_state.pop(_RECONNECTING, None)
        try:
            result = fragment(*args, **kwargs)
        except StoreUnavailable:
            result = None
            st.session_state[_RECONNECTING] = True
        except (StoreRefusal, StoreFailed) as err:
            st.caption(markdown_safe(str(err)))
            return None
        if reconnecting():
            st.caption(":orange[:material/sync:] Reconnecting to the class store…")
        return result

    return body


def _seat() -> tuple[str, str]:
    """(class code, student token) of the URL."""
    return st.query_params.get(CODE_PARAM, ""), st.query_params.get(TOKEN_PARAM, "")


def pending_vote() -> str | None:
    """The student's vote not yet acknowledged: the URL's, else the session's for this seat."""
    if pending := st.query_params.get(PENDING_PARAM):
        return pending
    kept = st.session_state.get(PENDING_KEY)
    return kept[1] if kept and kept[0] == _seat() else None


def vote_acknowledged() -> None:
    """Forget the pending vote once the store answered it (a receipt or a refusal)."""
    st.session_state.pop(PENDING_KEY, None)
