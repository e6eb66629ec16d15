"""Per-session limits against reloads, as a script would try them: every request for new
expensive work comes from a new browser session (a reload), all from one client address.

``--work simulator``: each session opens the training simulator with a seed never run
before (``?sim.seed=N``, the page's own share link), one new run each. ``--work model``:
each session asks the real model for a group of K = 2 with a new seed (live sampling; the
model loads first, which is not counted). ``--work keys``: each session opens Review and
presses "Start with a new learner key". Every session sends ``X-Real-IP: ATTACKER`` as
nginx would; the app believes it from a loopback peer only.

Printed: runs asked, runs done, refusals by message, seconds, and the app server's CPU
seconds (its process and children, from /proc) spent on them.

    .venv/bin/python bench/attack_work.py --work simulator --runs 200
    .venv/bin/python bench/attack_work.py --work model --runs 30
    .venv/bin/python bench/attack_work.py --work keys --runs 400
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.attack_class import ATTACKER  # noqa: E402
from bench.stclient import Session  # noqa: E402
from deploy.run import free_port, start_app, wait_healthy  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU of process ``pid`` and its waited-for children."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(f) for f in fields[11:15]) / TICKS


def _said(run) -> str:
    for kind, e in run.elements:
        if kind == "alert" and ("try again" in e.body or "busy" in e.body.lower()):
            return "refused: " + e.body[:100]
    return ""


async def simulator_run(base: str, i: int) -> str:
    async with Session(base, timeout=120, headers={"X-Real-IP": ATTACKER}) as tab:
        run = await tab.open("simulator", f"sim.seed={1000 + i}")
        return _said(run) or ("ran" if run.has("Results") else "no result")


async def model_run(base: str, i: int) -> str:
    async with Session(base, timeout=300, headers={"X-Real-IP": ATTACKER}) as tab:
        await tab.open("real-model", f"rm.k=2&rm.seed={1000 + i}")
        await tab.set("rm.mode", ["Sample live"])
        run = await tab.click("rm.sample")
        return _said(run) or ("ran" if run.has("answers right") else "no group")


async def key_run(base: str, i: int) -> str:
    async with Session(base, timeout=120, headers={"X-Real-IP": ATTACKER}) as tab:
        await tab.open("review")
        run = await tab.click("review.new_key")
        return _said(run) or ("ran" if "learner=" in (tab.query_string or "") else "no key")


async def warm_model(base: str) -> None:
    """Load the model (a first run from this machine itself, which no address bound sees)."""
    async with Session(base, timeout=300) as tab:
        await tab.open("real-model", "rm.k=2&rm.seed=1")
        await tab.set("rm.mode", ["Sample live"])
        await tab.click("rm.sample")


async def attack(base: str, work: str, runs: int, parallel: int):
    one = {"simulator": simulator_run, "model": model_run, "keys": key_run}[work]
    seen: collections.Counter = collections.Counter()
    gate = asyncio.Semaphore(parallel)

    async def each(i: int) -> None:
        async with gate:
            try:
                seen[await one(base, i)] += 1
            except Exception as err:
                seen[f"error: {type(err).__name__}: {err}"[:100]] += 1

    await asyncio.gather(*(each(i) for i in range(runs)))
    return seen


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--work", choices=("simulator", "model", "keys"), default="simulator")
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--parallel", type=int, default=4)
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="grpo-attack-work-"))
    port = free_port()
    env = {"GRPO_STORE": f"sqlite://{folder / 'grpo.sqlite3'}"}
    app = start_app(port, env={**env, "GRPO_CERT_SECRET": "bench-" + "x" * 32})
    try:
        base = f"http://127.0.0.1:{port}"
        wait_healthy(base + "/_stcore/health", app)
        if args.work == "model":
            asyncio.run(warm_model(base))
        cpu, start = cpu_seconds(app.pid), time.monotonic()
        seen = asyncio.run(attack(base, args.work, args.runs, args.parallel))
        cpu, seconds = cpu_seconds(app.pid) - cpu, time.monotonic() - start
        print(f"{args.runs} {args.work} runs asked, each from a new session of one address: "
              f"{seen['ran']} ran in {seconds:.1f} s, server CPU {cpu:.1f} s, "
              f"load1 {os.getloadavg()[0]:.1f}")  # fmt: skip
        for what, n in sorted(seen.items()):
            print(f"    {n:4d}  {what}")
        return 0
    finally:
        app.terminate()
        app.wait(timeout=20)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
