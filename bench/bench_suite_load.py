"""What one page load costs the browser tests, and whether a Chromium setting changes it.

The browser tier is most of the full suite's time, and most of that is Chromium loading
the app (issue 20). This opens pages as the suite does (``open_path``: a load, then
``settle``) in a warm page of the suite's Chromium (``CHROMIUM_FLAGS + SUITE_FLAGS``,
``SUITE_CONTEXT``) and in one with ``--flag`` settings added (or motion allowed),
alternating the two round by round, and prints the median CPU seconds a load costs each:
the CPU of this process's descendants (the Playwright driver and Chromium's processes, read
from /proc), so other work on the machine does not count. The app server is the same for
both and is left out.

    .venv/bin/python bench/bench_suite_load.py
    .venv/bin/python bench/bench_suite_load.py --flag=--in-process-gpu --rounds 7
    .venv/bin/python bench/bench_suite_load.py --motion
    .venv/bin/python bench/bench_suite_load.py --executable /usr/bin/chromium-headless-shell

``--executable`` compares another build of Chromium: Debian's chromium-headless-shell, the
same version without the browser's shell, took 0.97 CPU-s a load against 1.13 (five
rounds, session 17); the suite keeps /usr/bin/chromium, the browser readers run.
``--motion`` compares the suite's pages (reduced motion, ``SUITE_CONTEXT``) with pages that
allow motion, as a reader's browser does by default. Without ``--flag`` or ``--motion`` both
sides are the suite's own settings: the spread between them is the measurement's noise.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import procfs  # noqa: E402
from tests.e2e.conftest import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_FLAGS,
    PROBE,
    SUITE_CONTEXT,
    SUITE_FLAGS,
    free_port,
    open_path,
    start_streamlit,
    stop_streamlit,
)

PATHS = ("/playground", "/walkthrough")
"""Two pages with charts, a data editor and formulas, opened in turn."""
VIEWPORT = {"width": 1400, "height": 1800}
"""The suite's desktop window (tests/e2e/conftest.DESKTOP)."""


def descendants_cpu(root: int, leave_out: set[int]) -> float:
    """CPU seconds (user + system) of ``root``'s live descendants, without the processes
    in ``leave_out`` and theirs."""
    processes, total = procfs.processes(), 0.0
    for pid, (_, cpu) in processes.items():
        ancestor = pid
        while ancestor not in (root, 0, 1) and ancestor not in leave_out:
            ancestor = processes.get(ancestor, (0, 0.0))[0]
        if ancestor == root:
            total += cpu
    return total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--flag", action="append", default=[], help="a Chromium switch to add")
    parser.add_argument(
        "--motion", action="store_true", help="compare with pages that allow motion"
    )
    parser.add_argument(
        "--executable", help="compare with another Chromium build (e.g. chromium-headless-shell)"
    )
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    if not Path(CHROMIUM).exists():
        print(f"{CHROMIUM} is missing: python3 dev.py test installs it as root")
        return 2
    from playwright.sync_api import sync_playwright

    port = free_port()
    server = start_streamlit(port)
    base = f"http://127.0.0.1:{port}"
    suite = (CHROMIUM, SUITE_FLAGS, SUITE_CONTEXT)  # (build, switches, context options)
    if args.flag:
        settings = {
            "suite": suite,
            "with --flag": (CHROMIUM, SUITE_FLAGS + args.flag, SUITE_CONTEXT),
        }
    elif args.motion:
        settings = {"suite": suite, "with motion": (CHROMIUM, SUITE_FLAGS, {})}
    elif args.executable:
        settings = {"suite": suite, "executable": (args.executable, SUITE_FLAGS, SUITE_CONTEXT)}
    else:
        settings = {"suite": suite, "again": suite}
    costs: dict[str, list[float]] = {name: [] for name in settings}
    try:
        with sync_playwright() as p:
            pages = {}
            for name, (build, flags, options) in settings.items():
                browser = p.chromium.launch(executable_path=build, args=CHROMIUM_FLAGS + flags)
                context = browser.new_context(viewport=VIEWPORT, **options)
                context.add_init_script(PROBE)
                pages[name] = context.new_page()
                for path in PATHS * 2:  # warm: the scripts cached, the renderer started
                    open_path(pages[name], base, path)
            for _ in range(args.rounds):
                for name, page in pages.items():
                    before = descendants_cpu(os.getpid(), {server.pid})
                    for path in PATHS * 2:
                        open_path(page, base, path)
                    after = descendants_cpu(os.getpid(), {server.pid})
                    costs[name].append((after - before) / (2 * len(PATHS)))
    finally:
        stop_streamlit(server)
    for name, values in costs.items():
        spread = ", ".join(f"{v:.2f}" for v in sorted(values))
        print(f"{name:12s} median {statistics.median(values):.2f} CPU-s a load ({spread})")
    first, second = (statistics.median(v) for v in costs.values())
    print(f"ratio {second / first:.2f} (second / first)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
