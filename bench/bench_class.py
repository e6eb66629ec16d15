"""A class in class mode: 60 phones answering rounds while the projector counts them live.

Each student is a real websocket session (bench/stclient.py) that joins by the join link,
then does what a phone's browser does: asks for the page's polling fragment every time it
is due, and, when the fragment reruns the page because a round opened, answers after a
short think. The lecturer is a session too: it opens each round and follows its live
count fragment. Two setups: one server with the embedded SQLite store, and two replicas
behind nginx sharing one Redis (deploy/run.py; students spread over both replicas).

Printed per setup: errors (exceptions, refusals, protocol failures), votes lost
(acknowledged to a student but not in the store), p50/p95 of the time from a vote
leaving a phone to the lecturer's live count including it, and whether the setup met its
target. The last line is ``class: <N> students, <E> errors, <L> lost, p95 <X> ms`` for
the worse setup (the most errors and lost votes, then the furthest over its target).

    .venv/bin/python bench/bench_class.py                    # both setups, 3 rounds
    .venv/bin/python bench/bench_class.py --setups redis     # 150 students, 2 replicas
    .venv/bin/python bench/bench_class.py --students 20 --rounds 2 --setups sqlite

Targets (``SETUPS``), on a 2-core machine: 0 errors, 0 lost, and p95 <= 1 s for 60
students on one process with SQLite, p95 <= 2 s for 150 students on two replicas with
Redis. The exit status is 0 only when every setup run met its target.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import re
import shutil
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qs

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.stclient import Session  # noqa: E402
from deploy.run import Deployment, free_port, start_app, wait_healthy  # noqa: E402
from practice.store import open_store  # noqa: E402

CHOICE = "(choice-which-rewards)"
"""The picker's option for this question ends with its id."""
SETUPS = {
    "sqlite": ("one server, SQLite", 60, 1000.0),
    "redis": ("two replicas, Redis", 150, 2000.0),
}
"""setup -> (name, students, p95 target in ms)."""
COUNT = re.compile(r"^(\d+) of (\d+)$")


@dataclass
class Tally:
    """What the run saw: votes (send time, ack time), errors, the lecturer's counts."""

    sent: dict = field(default_factory=dict)
    """(round, student) -> (monotonic send time, monotonic acknowledgement time)."""
    errors: list = field(default_factory=list)
    counts: dict = field(default_factory=dict)
    """round -> [(monotonic time, count the lecturer saw)]."""
    code: str = ""


def affinity_cookie(base: str) -> str | None:
    """The proxy's affinity cookie for a new browser (None for a single server)."""
    with urllib.request.urlopen(base + "/", timeout=30) as r:
        for header in r.headers.get_all("Set-Cookie") or []:
            if header.startswith("grpo_replica="):
                return header.split(";", 1)[0]
    return None


def count_of(run) -> int | None:
    for kind, element in run.elements:
        if kind == "metric" and (m := COUNT.match(element.body)):
            return int(m[1])
    return None


async def follow(tab: Session, until, on_run) -> None:
    """Rerun each announced fragment when due, as a browser does, until ``until()``."""
    due: dict[str, float] = {}
    while not until():
        now = time.monotonic()
        for fid, interval in list(tab.fragments.items()):
            due.setdefault(fid, now + interval)
        ready = [fid for fid, t in due.items() if t <= now and fid in tab.fragments]
        if not ready:
            await asyncio.sleep(0.05)
            continue
        for fid in ready:
            del due[fid]
            await on_run(await tab.rerun_fragment(fid))


async def student(base: str, code: str, i: int, rounds: int, tally: Tally, done) -> None:
    rng = random.Random(i)
    try:
        tab = Session(base, cookie=affinity_cookie(base), timeout=60)
        await tab.connect()
        await tab.open("class", f"class={code}")
        tab.widget_values[tab.last.widgets["cls.nickname"][1].id] = tab.widget_state(
            "cls.nickname", f"<b>s{i}</b>"
        )
        await tab.click("cls.join")
        voted: set[int] = set()

        async def on_run(run) -> None:
            if run.exceptions:
                tally.errors.append(f"student {i}: {run.exceptions[0][:120]}")
            for n in range(1, rounds + 1):
                key = f"cls.answer.{n}"
                if n not in voted and key in tab.last.widgets:
                    voted.add(n)
                    await asyncio.sleep(rng.uniform(0.2, 2.0))  # reading, thinking
                    tab.widget_values[tab.last.widgets[key][1].id] = tab.widget_state(
                        key, rng.choice("AABCD")
                    )
                    sent = time.monotonic()
                    answer = await tab.click(f"cls.send.{n}")
                    if answer.has("Your answer is in"):
                        tally.sent[(n, i)] = (sent, time.monotonic())
                    else:
                        tally.errors.append(f"student {i} round {n}: not acknowledged")

        await on_run(tab.last)
        await follow(tab, done, on_run)
        await tab.close()
    except Exception as err:
        tally.errors.append(f"student {i}: {type(err).__name__}: {err}"[:200])


async def lecturer(base: str, store, n: int, rounds: int, tally: Tally, ready, finished):
    """Start the session, wait for the class, then open each round and follow the count."""
    tab = Session(base, cookie=affinity_cookie(base), timeout=60)
    await tab.connect()
    await tab.open("class")
    await tab.click("cls.start")
    code = parse_qs(tab.query_string)["class"][0]
    ready.set_result(code)
    deadline = time.monotonic() + 180
    while len(store.students(code)) < n and time.monotonic() < deadline:
        await asyncio.sleep(0.5)
    for r in range(1, rounds + 1):
        if r > 1:
            await tab.click("cls.reveal")
        await tab.set("cls.question", tab.option_ending("cls.question", CHOICE))
        await tab.click("cls.open")
        seen = tally.counts.setdefault(r, [])
        until = time.monotonic() + 60

        async def on_run(run, seen=seen) -> None:
            if (c := count_of(run)) is not None:
                seen.append((time.monotonic(), c))

        def round_done(seen=seen, until=until) -> bool:
            return bool(seen and seen[-1][1] >= n) or time.monotonic() > until

        await follow(tab, round_done, on_run)
    await tab.click("cls.reveal")
    finished.set()
    await tab.close()


async def classroom(base: str, store, n: int, rounds: int) -> Tally:
    tally = Tally()
    finished = asyncio.Event()
    ready = asyncio.get_running_loop().create_future()
    lect = asyncio.create_task(lecturer(base, store, n, rounds, tally, ready, finished))
    code = await ready
    students = [
        asyncio.create_task(student(base, code, i, rounds, tally, finished.is_set))
        for i in range(n)
    ]
    await asyncio.gather(lect, *students)
    tally.code = code
    return tally


def report(name: str, tally: Tally, store, n: int, rounds: int) -> tuple[int, int, float]:
    """Print one setup's line; (errors, lost, p95 ms)."""
    lost, latencies = 0, []
    for r in range(1, rounds + 1):
        stored = {a.label for a in store.answers(tally.code, r)}
        mine = {i: v for (rr, i), v in tally.sent.items() if rr == r}
        lost += sum(f"<b>s{i}</b>" not in stored for i in mine)
        acked = sorted(mine.values(), key=lambda v: v[1])
        seen = tally.counts.get(r, [])
        for rank, (sent, _ack) in enumerate(acked, start=1):
            shown = next((t for t, c in seen if c >= rank and t >= sent), None)
            if shown is not None:
                latencies.append(shown - sent)
    latencies.sort()
    p = lambda q: 1000 * latencies[min(len(latencies) - 1, int(q * len(latencies)))]  # noqa: E731
    p50, p95 = (p(0.5), p(0.95)) if latencies else (float("nan"),) * 2
    errors = len(tally.errors)
    print(f"{name:>22}: {n} students, {rounds} rounds, {len(tally.sent)} votes acknowledged, "
          f"{errors} errors, {lost} lost, vote->projector p50 {p50:.0f} ms, p95 {p95:.0f} ms, "
          f"load1 {os.getloadavg()[0]:.1f}", flush=True)  # fmt: skip
    for line in tally.errors[:5]:
        print(f"    {line}", flush=True)
    return errors, lost, p95


@contextlib.contextmanager
def sqlite_server(folder: Path):
    """One app server on a free port with its SQLite store in ``folder``, healthy:
    yields (its base URL, the store's URL); stopped on the way out."""
    url = f"sqlite://{folder / 'grpo.sqlite3'}"
    port = free_port()
    app = start_app(port, env={"GRPO_STORE": url, "GRPO_CERT_SECRET": "bench-" + "x" * 32})
    try:
        base = f"http://127.0.0.1:{port}"
        wait_healthy(base + "/_stcore/health", app)
        yield base, url
    finally:
        app.terminate()
        app.wait(timeout=20)


def run_sqlite(n: int, rounds: int) -> tuple[int, int, float]:
    folder = Path(tempfile.mkdtemp(prefix="grpo-bench-class-"))
    try:
        with sqlite_server(folder) as (base, url):
            store = open_store(url)
            tally = asyncio.run(classroom(base, store, n, rounds))
            return report("one server, SQLite", tally, store, n, rounds)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def run_redis(n: int, rounds: int) -> tuple[int, int, float]:
    run_dir = tempfile.mkdtemp(prefix="grpo-bench-class-deploy-")
    try:
        with Deployment(2, run_dir=run_dir) as dep:
            store = open_store(dep.env["GRPO_STORE"])
            tally = asyncio.run(classroom(dep.url, store, n, rounds))
            return report("two replicas, Redis", tally, store, n, rounds)
    finally:
        shutil.rmtree(run_dir, ignore_errors=True)


def met(errors: int, lost: int, p95: float, target_ms: float) -> bool:
    """Whether a setup met its target: no error, no vote lost, p95 measured and in bounds."""
    return errors == 0 and lost == 0 and p95 <= target_ms


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, help="students in every setup (default: its own)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--setups", default="sqlite,redis", help="sqlite, redis or both")
    parser.add_argument("--target-ms", type=float, help="p95 target of every setup (ms)")
    args = parser.parse_args(argv)
    results = []
    for setup in args.setups.split(","):
        name, students, target = SETUPS[setup.strip()]
        n, target = args.students or students, args.target_ms or target
        errors, lost, p95 = {"sqlite": run_sqlite, "redis": run_redis}[setup.strip()](
            n, args.rounds
        )
        ok = met(errors, lost, p95, target)
        print(f"{name:>22}: target p95 <= {target:.0f} ms: {'met' if ok else 'MISSED'}")
        results.append((not ok, errors + lost, p95 / target, n, errors, lost, p95))
    *_, n, errors, lost, p95 = max(results)
    print(f"class: {n} students, {errors} errors, {lost} lost, p95 {p95:.0f} ms")
    return 0 if not any(r[0] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
