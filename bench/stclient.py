"""A small client that speaks Streamlit's own websocket protocol, as the browser does.

One ``Session`` is one browser tab: it opens ``/_stcore/stream``, asks for a script
run with a ``BackMsg.rerun_script`` (the page, the URL's query string and the widget
values), and reads ``ForwardMsg``s until ``script_finished``. Widgets are found by
their ``key=`` (the tail of the widget id ``$$ID-<hash>-<key>``) in the deltas of the
last run, and set by id, with the value type the frontend sends for that widget.

A fragment with ``run_every`` announces itself with an ``auto_rerun`` message (its id and
interval); a browser then asks for that fragment's run every interval. ``fragments``
holds what the last full run announced and ``rerun_fragment`` asks as the browser does
(bench/bench_class.py follows a class page's polling this way). A fragment run that calls
``st.rerun()`` becomes a full run, which replaces ``last``.

Used by bench/bench_load.py and bench/bench_class.py (many sessions at once) and
tests/deploy (sessions through nginx). Everything stays on loopback; every wait is bounded.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState
from websockets.asyncio.client import connect

FINISHED = ForwardMsg.ScriptFinishedStatus
FRAGMENT_DONE = FINISHED.Value("FINISHED_FRAGMENT_RUN_SUCCESSFULLY")
DONE = (
    FINISHED.Value("FINISHED_SUCCESSFULLY"), FINISHED.Value("FINISHED_WITH_COMPILE_ERROR"),
    FRAGMENT_DONE,
)  # fmt: skip


class ProtocolError(RuntimeError):
    """The server did not answer as a Streamlit server would (or too slowly)."""


@dataclass
class Run:
    """What one script run drew, as the browser would have it after ``script_finished``."""

    seconds: float
    """From sending the request to receiving script_finished."""
    elements: list = field(default_factory=list)
    """(element type, element proto) in the order they arrived."""
    widgets: dict = field(default_factory=dict)
    """user key -> (element type, element proto) for every keyed widget."""
    exceptions: list = field(default_factory=list)
    """Messages of st.exception elements (tracebacks shown to the user)."""
    query_string: str | None = None
    """The URL's query string after the run (None if the run did not change it)."""
    page_hash: str = ""
    bytes_received: int = 0
    fragment: bool = False
    """Only a fragment ran (the rest of the page stayed as it was)."""

    def texts(self, kind: str) -> list[str]:
        """The body of every element of one kind (markdown, alert, code, ...)."""
        out = []
        for k, e in self.elements:
            if k == kind:
                out.append(getattr(e, "body", "") or getattr(e, "code_text", ""))
        return out

    def has(self, text: str) -> bool:
        """Whether any markdown, alert, heading, caption or code element contains ``text``."""
        for _, e in self.elements:
            for attr in ("body", "code_text", "text"):
                value = getattr(e, attr, None)
                if isinstance(value, str) and text in value:
                    return True
        return False


def user_key(widget_id: str) -> str | None:
    """The ``key=`` a widget was given, from its id ``$$ID-<hash>-<key>``."""
    parts = widget_id.split("-", 2)
    if len(parts) < 3 or parts[2] == "None":
        return None
    return parts[2]


class Session:
    """One browser tab speaking Streamlit's websocket protocol."""

    def __init__(
        self, base: str, *, cookie: str | None = None, timeout: float = 60.0, headers=None
    ):
        self.base = base.rstrip("/")
        self.cookie = cookie
        self.headers = dict(headers or {})
        """Extra request headers of the websocket's handshake (``X-Real-IP`` as nginx sets it)."""
        self.timeout = timeout
        self.ws = None
        self.pages: dict[str, str] = {}
        """url path -> page script hash (from new_session)."""
        self.widget_values: dict[str, WidgetState] = {}
        self.last: Run | None = None
        self.query_string = ""
        self.page_hash = ""
        self.response_headers: dict[str, str] = {}
        self.fragments: dict[str, float] = {}
        """fragment id -> seconds between its automatic reruns (announced by the server)."""

    async def connect(self) -> None:
        url = "ws" + self.base.removeprefix("http") + "/_stcore/stream"
        headers = {**self.headers, **({"Cookie": self.cookie} if self.cookie else {})} or None
        self.ws = await asyncio.wait_for(
            connect(
                url,
                subprotocols=["streamlit"],
                additional_headers=headers,
                max_size=None,
                open_timeout=self.timeout,
                ping_interval=None,
                compression=None,
            ),
            self.timeout,
        )
        self.response_headers = {k.lower(): v for k, v in self.ws.response.headers.raw_items()}

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
            self.ws = None

    async def __aenter__(self) -> Session:
        await self.connect()
        return self

    async def __aexit__(self, *exc) -> None:
        await self.close()

    async def open(self, path: str = "", query: str = "") -> Run:
        """What a browser does on opening ``/<path>?<query>``: run that page."""
        if self.ws is None:
            await self.connect()
        self.query_string = query
        self.widget_values.clear()
        return await self._run(page_name=path, page_hash="")

    async def goto(self, path: str, query: str = "") -> Run:
        """Follow a navigation link to another page (its widgets start afresh)."""
        self.widget_values.clear()
        self.query_string = query
        return await self._run(page_name=path, page_hash=self.pages.get(path, ""))

    async def set(self, key: str, value, *, trigger: bool = False) -> Run:
        """Change the widget with ``key=key`` to ``value`` (an option's label for
        selectbox/radio) and wait for the rerun; ``trigger`` clicks a button."""
        state = self.widget_state(key, value, trigger=trigger)
        return await self._run(page_name="", page_hash=self.page_hash, extra=[state])

    async def click(self, key: str) -> Run:
        return await self.set(key, True, trigger=True)

    async def rerun(self) -> Run:
        return await self._run(page_name="", page_hash=self.page_hash)

    async def rerun_fragment(self, fragment_id: str) -> Run:
        """What the browser sends when a ``run_every`` fragment is due: a run of it alone."""
        return await self._run(page_name="", page_hash=self.page_hash, fragment_id=fragment_id)

    def option_ending(self, key: str, suffix: str) -> str:
        """The label of the selectbox or radio ``key``'s option that ends with ``suffix``
        (the class picker's labels end with the question id: "… (choice-which-rewards)")."""
        if self.last is None or key not in self.last.widgets:
            raise ProtocolError(f"no widget with key {key!r} on the page")
        options = list(self.last.widgets[key][1].options)
        found = [o for o in options if o.endswith(suffix)]
        if len(found) != 1:
            raise ProtocolError(f"{key}: {len(found)} options end with {suffix!r}")
        return found[0]

    def widget_state(self, key: str, value, *, trigger: bool = False) -> WidgetState:
        if self.last is None or key not in self.last.widgets:
            raise ProtocolError(f"no widget with key {key!r} on the page")
        kind, element = self.last.widgets[key]
        state = WidgetState(id=element.id)
        if trigger or kind == "button":
            state.trigger_value = True
            return state  # a click is sent once, never kept
        if kind in ("selectbox", "radio"):
            options = list(element.options)
            if value not in options:
                raise ProtocolError(f"{key}: {value!r} is not one of {options[:10]}")
            state.string_value = value
        elif kind == "number_input":
            state.double_value = float(value)
        elif kind in ("checkbox", "toggle"):
            state.bool_value = bool(value)
        elif kind in ("text_input", "text_area"):
            state.string_value = str(value)
        elif kind in ("multiselect", "button_group", "select_slider"):
            state.string_array_value.data.extend([str(v) for v in value])
        elif kind == "slider":
            state.double_array_value.data.extend([float(v) for v in value])
        else:
            raise ProtocolError(f"{key}: setting a {kind} is not supported by this client")
        self.widget_values[element.id] = state
        return state

    async def _run(self, *, page_name: str, page_hash: str, extra=(), fragment_id="") -> Run:
        if self.ws is None:
            raise ProtocolError("not connected")
        msg = BackMsg()
        cs = msg.rerun_script
        cs.query_string = self.query_string
        cs.page_name = page_name
        cs.page_script_hash = page_hash
        if fragment_id:
            cs.fragment_id = fragment_id
            cs.is_auto_rerun = True
        else:
            self.fragments.clear()  # a full run announces its fragments again
        states = {s.id: s for s in self.widget_values.values()}
        states.update({s.id: s for s in extra})
        cs.widget_states.widgets.extend(states.values())
        start = time.perf_counter()
        await self.ws.send(msg.SerializeToString())
        run = Run(seconds=0.0)
        deadline = start + self.timeout
        while True:
            left = deadline - time.perf_counter()
            if left <= 0:
                raise ProtocolError(f"no script_finished within {self.timeout:.0f} s")
            try:
                data = await asyncio.wait_for(self.ws.recv(), left)
            except TimeoutError as err:
                raise ProtocolError(f"no script_finished within {self.timeout:.0f} s") from err
            run.bytes_received += len(data)
            fwd = ForwardMsg()
            fwd.ParseFromString(data)
            kind = fwd.WhichOneof("type")
            if kind == "new_session":
                ns = fwd.new_session
                self.pages = {p.url_pathname: p.page_script_hash for p in ns.app_pages}
                run.page_hash = self.page_hash = ns.page_script_hash
                run.elements.clear()
                run.widgets.clear()
                run.exceptions.clear()
            elif kind == "delta" and fwd.delta.WhichOneof("type") == "new_element":
                element = fwd.delta.new_element
                etype = element.WhichOneof("type")
                body = getattr(element, etype)
                run.elements.append((etype, body))
                if etype == "exception":
                    run.exceptions.append(f"{body.type}: {body.message}")
                widget_id = getattr(body, "id", "")
                if isinstance(widget_id, str) and widget_id.startswith("$$ID-"):
                    key = user_key(widget_id)
                    if key:
                        if etype == "checkbox" and body.type == 1:
                            etype = "toggle"
                        run.widgets[key] = (etype, body)
            elif kind == "navigation":
                nav = fwd.navigation
                self.pages = {p.url_pathname: p.page_script_hash for p in nav.app_pages}
                run.page_hash = self.page_hash = nav.page_script_hash
            elif kind == "auto_rerun":
                self.fragments[fwd.auto_rerun.fragment_id] = fwd.auto_rerun.interval
            elif kind == "stop_auto_rerun":
                for stopped in fwd.stop_auto_rerun.fragment_ids:
                    self.fragments.pop(stopped, None)
            elif kind == "page_info_changed":
                run.query_string = self.query_string = fwd.page_info_changed.query_string
            elif kind == "script_finished" and fwd.script_finished in DONE:
                run.seconds = time.perf_counter() - start
                run.fragment = fwd.script_finished == FRAGMENT_DONE
                if not run.fragment:
                    self.last = run
                    self._remember_values(run)
                return run

    def _remember_values(self, run: Run) -> None:
        """Keep every drawn widget's value, to send with the next run as the browser does."""
        for kind, element in run.widgets.values():
            if element.id not in self.widget_values:
                state = shown_value(kind, element)
                if state is not None:
                    self.widget_values[element.id] = state


def _has(message, name: str) -> bool:
    """Whether an optional field is set (False for fields without presence)."""
    try:
        return message.HasField(name)
    except ValueError:
        return True


def shown_value(kind: str, e) -> WidgetState | None:
    """The value a widget shows after a run (what the frontend would report), if simple."""
    state = WidgetState(id=e.id)
    if kind == "number_input":
        if e.set_value:
            state.double_value = e.value
        elif _has(e, "default"):
            state.double_value = e.default
        else:
            return None
    elif kind in ("selectbox", "radio"):
        if e.set_value and e.HasField("raw_value"):
            state.string_value = e.raw_value
        elif _has(e, "default") and 0 <= e.default < len(e.options):
            state.string_value = e.options[e.default]
        else:
            return None
    elif kind in ("checkbox", "toggle"):
        state.bool_value = e.value if e.set_value else e.default
    elif kind in ("text_input", "text_area"):
        if e.set_value:
            state.string_value = e.value
        elif _has(e, "default"):
            state.string_value = e.default
        else:
            return None
    else:
        return None
    return state
