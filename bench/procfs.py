"""What /proc says about the processes a benchmark started: their parents, CPU times and
command lines (Linux only; the benchmarks that count CPU by process use it)."""

from __future__ import annotations

import os

TICK = os.sysconf("SC_CLK_TCK")


def processes() -> dict[int, tuple[int, float]]:
    """pid -> (parent pid, CPU seconds of user + system) of every process /proc lists now."""
    found = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue  # ended meanwhile
            found[int(entry)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / TICK)
    return found


def descendants(root: int, table: dict[int, tuple[int, float]]) -> list[int]:
    """The pids in ``table`` below ``root``."""
    children: dict[int, list[int]] = {}
    for pid, (parent, _) in table.items():
        children.setdefault(parent, []).append(pid)
    out, todo = [], list(children.get(root, []))
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo += children.get(pid, [])
    return out


def cmdline(pid: int) -> str | None:
    """The command line of ``pid``, its arguments joined by spaces (None once it has ended)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return None
