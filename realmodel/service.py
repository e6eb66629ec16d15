"""One model per server process: loaded in the background, one job at a time, in a queue.

``ModelService`` holds the model once it has loaded (a thread loads it, so the page is usable
meanwhile), runs one generation or step at a time in arrival order (``position`` says how
many jobs are ahead of a ticket: "2 ahead of you"; at most ``MAX_WAITING`` at once, beyond
which ``ticket`` raises ``QueueFull``), and caches results: groups per
(prompt, K, seed, temperature), steps per group. ``RateLimit`` caps how often one
session may start a job. No streamlit here: the page keeps one ``ModelService`` per process
and one ``RateLimit`` per session.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections import OrderedDict
from collections.abc import Callable

from realmodel import model

MAX_WAITING = 12
"""Jobs queued at once (the running one included). ``RateLimit`` is per session, and a new
session (a reload, or a script opening the page again) starts with a fresh one, so without
this bound anyone could queue jobs without end, each holding a server thread."""


class QueueFull(RuntimeError):
    """The queue holds ``MAX_WAITING`` jobs: a plain sentence for the page."""

    def __init__(self, waiting: int):
        super().__init__(
            f"The model is busy: {waiting} runs are waiting, the most this server queues. "
            "Try again in a minute, or read the groups the project sampled."
        )


class ModelService:
    """The process's model, its job queue and its cache of groups and steps."""

    def __init__(
        self,
        loader: Callable[[], model.Loaded] = model.load,
        cache_size: int = 64,
        max_waiting: int = MAX_WAITING,
    ):
        self._loader = loader
        self._max_waiting = max_waiting
        self._loaded: model.Loaded | None = None
        self.error: str | None = None
        self._started = False
        self._ready = threading.Event()
        self._lock = threading.Lock()
        self._turn = threading.Condition()
        self._queue: list[int] = []
        self._tickets = itertools.count()
        self._cache: OrderedDict = OrderedDict()
        self._cache_size = cache_size

    def start_loading(self) -> None:
        """Start the background load once; later calls do nothing."""
        with self._lock:
            if self._started:
                return
            self._started = True
        threading.Thread(target=self._load, name="real-model-load", daemon=True).start()

    def _load(self) -> None:
        try:
            self._loaded = self._loader()
        except Exception as error:  # shown on the page in words, never as a traceback
            self.error = f"The model could not be loaded: {error}"
        finally:
            self._ready.set()

    @property
    def loaded(self) -> model.Loaded | None:
        return self._loaded

    def ticket(self) -> int:
        """Join the queue; the ticket is then passed to ``position`` and ``run``. QueueFull
        when ``max_waiting`` jobs are queued already."""
        with self._turn:
            if len(self._queue) >= self._max_waiting:
                raise QueueFull(len(self._queue))
            t = next(self._tickets)
            self._queue.append(t)
            return t

    def position(self, ticket: int) -> int:
        """How many jobs are ahead of ``ticket`` (0: it runs now or next)."""
        with self._turn:
            return self._queue.index(ticket) if ticket in self._queue else 0

    def run(self, ticket: int, job: Callable[[model.Loaded], object], on_wait=None):
        """Wait for ``ticket``'s turn (``on_wait(ahead)`` while waiting), then run ``job``.

        A job that raises ``ModelFileError`` (the shipped weights could not be put back)
        leaves the model set aside: every later job gets the error, none a changed model."""
        try:
            with self._turn:
                while self._queue[0] != ticket:
                    if on_wait is not None:
                        on_wait(self._queue.index(ticket))
                    self._turn.wait(timeout=0.5)
            self.start_loading()
            while not self._ready.wait(timeout=0.5):  # a job asked for during the load waits
                if on_wait is not None:
                    on_wait(0)
            if self._loaded is None:
                raise RuntimeError(self.error)
            try:
                return job(self._loaded)
            except model.ModelFileError as error:  # its weights may no longer be the shipped
                self._loaded, self.error = None, f"The model was set aside: {error}"
                raise RuntimeError(self.error) from error
        finally:
            with self._turn:
                if ticket in self._queue:
                    self._queue.remove(ticket)
                self._turn.notify_all()

    def cached(self, key: tuple):
        """The cached value for ``key`` (a group's or a step's settings), or None."""
        with self._lock:
            if key in self._cache:
                self._cache.move_to_end(key)
                return self._cache[key]
            return None

    def remember(self, key: tuple, value) -> None:
        with self._lock:
            self._cache[key] = value
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)


class RateLimit:
    """At most ``jobs`` jobs in any ``seconds``-long window (one per session)."""

    def __init__(self, jobs: int = 6, seconds: float = 60.0, clock=time.monotonic):
        self.jobs, self.seconds, self._clock = jobs, seconds, clock
        self._times: list[float] = []

    def wait_seconds(self, cost: int = 1) -> float:
        """0 if a run of ``cost`` jobs may start now, else how long until it may."""
        now = self._clock()
        self._times = [t for t in self._times if now - t < self.seconds]
        over = len(self._times) + cost - self.jobs  # the oldest ``over`` must expire first
        if over <= 0:
            return 0.0
        return self.seconds - (now - self._times[min(over, len(self._times)) - 1])

    def record(self, cost: int = 1) -> None:
        self._times.extend([self._clock()] * cost)
