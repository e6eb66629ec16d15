"""The upload worker: a crash, a memory bomb or an endless parse in the child is a plain
message in the parent, which carries on; an ordinary log reads as it does in-process."""

import ctypes
import dataclasses
import io
import os
import time

import pytest

import content
from grpo_core import rollouts
from grpo_core.rollouts import LogError
from tests import hostile_files
from workers import upload

SMALL = upload.Limits(memory_bytes=512 * 2**20, cpu_seconds=2, wall_seconds=4)
QUICK = dataclasses.replace(SMALL, cpu_seconds=1, wall_seconds=2)
"""For the endless parses, which run into the limits: the shortest whole CPU second."""


def segfault():
    ctypes.string_at(0)  # reads address 0: SIGSEGV, as pyarrow's JSON reader did


def allocate(n_bytes):
    return bytearray(n_bytes)


def spin():
    while True:
        pass


def sleep():
    time.sleep(60)


def pid():
    return os.getpid()


def test_an_ordinary_log_reads_as_it_does_in_process():
    data = content.path("sample_log.csv").read_bytes()
    isolated = upload.load_log(data)
    direct = rollouts.load_log(io.BytesIO(data))
    assert isolated.frame.equals(direct.frame)
    assert (isolated.format, isolated.mapping, isolated.warnings) == (
        direct.format,
        direct.mapping,
        direct.warnings,
    )


def test_the_child_is_another_process():
    assert upload.isolated(pid) != os.getpid()


def test_a_segfault_is_a_message():
    with pytest.raises(LogError, match=r"crashed the reader.*separate process"):
        upload.isolated(segfault, limits=SMALL)
    assert upload.isolated(pid) > 0  # and the next one runs


def test_memory_past_the_limit_is_a_message():
    with pytest.raises(LogError, match="more than 512 MB of memory"):
        upload.isolated(allocate, 2 * 2**30, limits=SMALL)


@pytest.mark.parametrize("function", [spin, sleep], ids=["cpu", "wall clock"])
def test_an_endless_parse_is_stopped(function):
    start = time.monotonic()
    with pytest.raises(LogError, match="took longer than 2 s"):
        upload.isolated(function, limits=QUICK)
    assert time.monotonic() - start < 8


def test_the_nested_line_that_crashed_the_server_is_refused_by_name():
    with pytest.raises(LogError, match="Line 1: the JSON is nested more than 32 levels"):
        upload.load_log(hostile_files.deep_json_line())


def test_the_forkserver_has_no_other_thread_to_fork():
    import subprocess
    import sys

    code = "import os, workers.preload; print(len(os.listdir('/proc/self/task')))"
    root = content.path("..").resolve()
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root)
    count = run.stdout
    assert count.strip() == "1"


def test_the_child_does_not_run_the_parents_main_script(monkeypatch, tmp_path):
    """Streamlit puts the running app script in sys.modules["__main__"]; multiprocessing
    would run it again in the child (app.py, which hung there)."""
    import sys
    import types

    marker = tmp_path / "ran"
    script = tmp_path / "app.py"
    script.write_text(f"open({str(marker)!r}, 'w').close()\n")
    fake = types.ModuleType("__main__")
    fake.__file__ = str(script)
    monkeypatch.setitem(sys.modules, "__main__", fake)
    assert upload.isolated(pid) > 0
    assert not marker.exists()


def parent_pid():
    return os.getppid()


def test_warm_starts_the_forkserver_that_the_next_parse_forks_from():
    from multiprocessing import forkserver

    upload.warm()
    server = forkserver._forkserver._forkserver_pid
    upload.warm()  # idempotent: the running server is kept
    assert forkserver._forkserver._forkserver_pid == server
    assert upload.isolated(parent_pid) == server
