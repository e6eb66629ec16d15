"""The upload worker: an uploaded log is parsed in a child process, never in the server.

A log is untrusted bytes handed to C parsers (pyarrow's CSV, JSON and Parquet readers).
A crash there (a segfault), a decompression bomb or a parse that never ends would take the
whole Streamlit server, and every session on it, down with it. So ``load_log`` forks a
child for each file, sets its limits (``resource.setrlimit``), and reads the answer over a
pipe with a wall-clock timeout:

- memory: ``LIMITS.memory_bytes`` of address space (RLIMIT_AS) beyond what the child holds
  when it starts; past it an allocation fails (MemoryError, or an abort inside C++);
- CPU time: ``LIMITS.cpu_seconds`` (RLIMIT_CPU; the kernel stops the child past it);
- wall clock: ``LIMITS.wall_seconds``, after which the parent kills the child.

Whatever happens in the child ends as ``rollouts.LogError`` in the parent, in plain words.
Children are forked from a small forkserver that has already imported pandas and pyarrow
(Python's ``forkserver`` start method), so a child starts in milliseconds, not seconds, and
never inherits the server's threads or memory.
"""

from __future__ import annotations

import io
import multiprocessing
import os
import pickle
import resource
import signal
import tempfile
from dataclasses import dataclass
from multiprocessing import forkserver, popen_forkserver, reduction, spawn, util
from multiprocessing.context import ForkServerProcess, set_spawning_popen

from grpo_core import rollouts
from grpo_core.rollouts import ColumnMap, LoadedLog, LogError


@dataclass(frozen=True)
class Limits:
    """What one parse may use."""

    memory_bytes: int = 3 * 2**30
    """Address space the child may add to what it holds at start (RLIMIT_AS)."""
    cpu_seconds: int = 60
    """CPU time, all threads together (RLIMIT_CPU)."""
    wall_seconds: float = 90.0
    """Wall-clock time before the parent kills the child."""


LIMITS = Limits()
SHARED_MEMORY = "/dev/shm"
PRELOAD = ["workers.preload"]
"""Imported once by the forkserver (single-threaded), so each child starts with them loaded."""

_context = multiprocessing.get_context("forkserver")
_context.set_forkserver_preload(PRELOAD)


class _Popen(popen_forkserver.Popen):
    """The forkserver launch of Python 3.11 (multiprocessing/popen_forkserver.py), less
    the parent's ``__main__``: Streamlit puts the running app script there, and the child
    would run app.py again (and hang in it) before parsing anything."""

    def _launch(self, process_obj):
        prep_data = spawn.get_preparation_data(process_obj._name)
        prep_data.pop("init_main_from_path", None)
        prep_data.pop("init_main_from_name", None)
        buf = io.BytesIO()
        set_spawning_popen(self)
        try:
            reduction.dump(prep_data, buf)
            reduction.dump(process_obj, buf)
        finally:
            set_spawning_popen(None)
        self.sentinel, w = forkserver.connect_to_new_process(self._fds)
        _parent_w = os.dup(w)
        self.finalizer = util.Finalize(self, util.close_fds, (_parent_w, self.sentinel))
        with open(w, "wb", closefd=True) as f:
            f.write(buf.getbuffer())
        self.pid = forkserver.read_signed(self.sentinel)


class _Child(ForkServerProcess):
    @staticmethod
    def _Popen(process_obj):
        return _Popen(process_obj)


def warm() -> None:
    """Start the forkserver now, if it is not running: it imports pandas, pyarrow and the
    loader in the background (seconds on a busy machine) while the user picks a file, so
    the first upload does not wait for them. A page offering an upload calls this."""
    forkserver.ensure_running()


def load_log(data: bytes, mapping: ColumnMap | None = None, limits: Limits = LIMITS) -> LoadedLog:
    """``rollouts.load_log`` of ``data`` run in a limited child process.

    Raises LogError for a file the loader refuses and for a child that crashed, ran out of
    memory or time; the server process never parses the bytes itself.
    """
    return isolated(_load, data, mapping, limits=limits)


def isolated(function, *args, limits: Limits = LIMITS):
    """``function(*args)`` in a child with ``limits``; its result, or LogError in plain words.

    ``function`` and its arguments and result are pickled (a module-level function) into
    two private files in shared memory (/dev/shm): a pipe moves 64 KB at a time, and on a
    busy machine the two processes' turns cost seconds for a 30 MB log. The pipe carries
    only "done", or end of file when the child died.
    """
    paths = [_private_file(), _private_file()]
    question, answer = paths
    try:
        with open(question, "wb") as f:
            pickle.dump((function, args), f, protocol=pickle.HIGHEST_PROTOCOL)
        _supervise(question, answer, limits)
        with open(answer, "rb") as f:
            kind, value = pickle.load(f)
    finally:
        for path in paths:
            os.unlink(path)
    if kind == "error":
        raise LogError(value)
    return value


def _supervise(question: str, answer: str, limits: Limits) -> None:
    """Run ``_run`` in a child; return when it wrote its answer, else LogError."""
    receive, send = _context.Pipe(duplex=False)
    child = _Child(target=_run, args=(send, question, answer, limits), daemon=True)
    child.start()
    send.close()  # the child holds the only writer: its exit is our end of file
    try:
        if not receive.poll(limits.wall_seconds):
            raise LogError(_timeout(limits))
        try:
            receive.recv()
        except (EOFError, OSError):
            child.join(5)
            raise LogError(_died(child.exitcode, limits)) from None
    except BaseException:
        child.kill()  # timed out, or the page went away: stop it now
        child.join(5)
        raise
    finally:
        receive.close()
    # The answer is written: the child exits (freeing its memory) without the page waiting;
    # the forkserver reaps it.


def _private_file() -> str:
    """A new empty file readable by this user only, in shared memory when there is one."""
    folder = SHARED_MEMORY if os.path.isdir(SHARED_MEMORY) else None
    descriptor, path = tempfile.mkstemp(prefix="grpo-upload-", dir=folder)
    os.close(descriptor)
    return path


def _load(data: bytes, mapping: ColumnMap | None) -> LoadedLog:
    return rollouts.load_log(io.BytesIO(data), mapping)


def _run(send, question: str, answer_path: str, limits: Limits) -> None:
    """In the child: set the limits, call, write ("ok", result) or ("error", text), say done."""
    _limit(resource.RLIMIT_AS, _address_space() + limits.memory_bytes)
    _limit(resource.RLIMIT_CPU, limits.cpu_seconds, hard=limits.cpu_seconds + 5)
    try:
        with open(question, "rb") as f:
            function, args = pickle.load(f)
        answer = ("ok", function(*args))
    except LogError as error:
        answer = ("error", str(error))
    except MemoryError:
        answer = ("error", _memory(limits))
    except RecursionError:
        answer = ("error", "This file is nested too deeply to read.")
    except Exception as error:  # the loader's own bug: still a message, never a traceback
        answer = ("error", f"This file cannot be read ({type(error).__name__}: {error}).")
    try:
        _write(answer_path, answer)
    except MemoryError:  # the answer itself is too large to write within the limit
        del answer
        _write(answer_path, ("error", _memory(limits)))
    send.send("done")
    send.close()


def _write(path: str, answer) -> None:
    with open(path, "wb") as f:
        pickle.dump(answer, f, protocol=pickle.HIGHEST_PROTOCOL)


def _limit(which: int, soft: int, *, hard: int | None = None) -> None:
    _, current_hard = resource.getrlimit(which)
    hard = soft if hard is None else hard
    if current_hard != resource.RLIM_INFINITY:
        soft, hard = min(soft, current_hard), min(hard, current_hard)
    resource.setrlimit(which, (soft, hard))


def _address_space() -> int:
    """Bytes of virtual memory this process holds now (/proc/self/statm, first field)."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[0]) * resource.getpagesize()


def _died(exitcode: int | None, limits: Limits) -> str:
    if exitcode == -signal.SIGXCPU or exitcode == -signal.SIGKILL:
        return _timeout(limits)
    if exitcode == -signal.SIGABRT:
        return _memory(limits)  # C++'s bad_alloc aborts; nothing else in the reader does
    return (
        "Reading this file crashed the reader (it was read in a separate process, so "
        f"nothing else is affected; exit code {exitcode}). The file is malformed or "
        "hostile: check that it is a CSV, JSON lines or Parquet table as a trainer writes it."
    )


def _timeout(limits: Limits) -> str:
    return (
        f"Reading this file took longer than {limits.wall_seconds:.0f} s (or "
        f"{limits.cpu_seconds} s of CPU), so it was stopped. Upload fewer steps of the log."
    )


def _memory(limits: Limits) -> str:
    return (
        f"Reading this file needed more than {limits.memory_bytes / 2**20:,.0f} MB of memory, "
        "so it was stopped. A small file that unpacks to gigabytes is a decompression bomb; "
        "otherwise upload fewer steps of the log."
    )
