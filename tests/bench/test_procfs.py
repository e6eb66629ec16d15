"""What the benchmarks read from /proc."""

import os

from bench.procfs import cmdline, descendants, processes


def test_descendants_follow_parents_down_and_leave_others_out():
    table = {10: (1, 0.0), 11: (10, 1.0), 12: (11, 2.0), 13: (1, 3.0)}
    assert sorted(descendants(10, table)) == [11, 12]
    assert descendants(12, table) == []


def test_this_process_is_listed_with_its_parent_and_command_line():
    table = processes()
    parent, cpu = table[os.getpid()]
    assert parent == os.getppid() and cpu >= 0
    assert "python" in cmdline(os.getpid())
    assert cmdline(2**22 + 1) is None  # above Linux's largest pid: no such process
