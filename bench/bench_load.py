"""A whole class at once: N concurrent sessions against a real `streamlit run` on loopback.

Each session is one student's browser tab, driven by bench/stclient.py (Streamlit's own
websocket protocol, no browser): open the playground, sample rewards, change the
convention, step the walkthrough twice, answer one quiz question. Students arrive
spread over ``--ramp`` seconds and pause ``--think`` seconds (±50%) between clicks.

Printed per N: sessions completed, errors, p50 and p95 of the time from an interaction
(the request leaving the client) to the updated page (Streamlit's ``script_finished``
for that run, after every element of the page has arrived), server CPU (percent of
one core, averaged over the run) and memory (peak RSS, and RSS per open session above
an idle server). A fresh server is started for every N, with deploy/run.py's settings.

    .venv/bin/python bench/bench_load.py                 # N in 1, 10, 20, 40, 60
    .venv/bin/python bench/bench_load.py --sessions 40 --think 0.5 --ramp 5

Target on a 2-core machine: 40 sessions, p95 <= 1 s, 0 errors. "load1" is the machine's
1-minute load average after the run: above ~2 other programs were competing for the cores.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.stclient import ProtocolError, Session  # noqa: E402
from deploy.run import free_port, start_app, wait_healthy  # noqa: E402

CLK_TCK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process and its threads, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


@dataclass
class Student:
    """One session's latencies (seconds) per step, and what went wrong, if anything."""

    latencies: list = field(default_factory=list)
    error: str | None = None
    steps: list = field(default_factory=list)


def check(run, step: str) -> None:
    if run.exceptions:
        raise ProtocolError(f"{step}: exception on the page: {run.exceptions[0][:200]}")


async def answer_quiz_question(session: Session) -> object:
    """Answer whatever question the quiz shows first, as a student would (not always right)."""
    run = session.last
    qkeys = [k for k in run.widgets if k.startswith("qz.")]
    submit = next((k for k in qkeys if k.startswith(("qz.check.", "qz.reveal."))), None)
    if submit is None:
        raise ProtocolError("quiz: no Check button on the first question")
    states = []
    for key in qkeys:
        _, element = run.widgets[key]
        if key.startswith("qz.choice."):
            states.append(session.widget_state(key, element.options[0]))
        elif key.startswith(("qz.blank.", "qz.num.")):
            states.append(session.widget_state(key, "0.5"))
        elif key.startswith("qz.text."):
            states.append(session.widget_state(key, "The std of equal rewards is zero."))
    states.append(session.widget_state(submit, True, trigger=True))
    return await session._run(page_name="", page_hash=session.page_hash, extra=states)


async def student(base: str, index: int, think: float, ramp: float, seed: int) -> Student:
    """One student's classroom sequence."""
    rng = random.Random(seed * 1000 + index)
    me = Student()
    await asyncio.sleep(rng.uniform(0, ramp))

    async def pause() -> None:
        await asyncio.sleep(think * rng.uniform(0.5, 1.5))

    async def step(name: str, action) -> object:
        run = await action
        check(run, name)
        me.latencies.append(run.seconds)
        me.steps.append((name, run.seconds, time.perf_counter() - run.seconds))
        return run

    session = Session(base, timeout=60)
    try:
        await session.connect()
        await step("open playground", session.open("playground"))
        await pause()
        await step("sample rewards", session.click("pg.sample"))
        await pause()
        _, box = session.last.widgets["w.settings.convention"]
        verl = next(o for o in box.options if o.startswith("verl"))
        run = await step("convention verl", session.set("w.settings.convention", verl))
        if "c=verl" not in (session.query_string or ""):
            raise ProtocolError("convention change did not reach the URL")
        await pause()
        await step("open walkthrough", session.goto("walkthrough"))
        for _ in range(2):
            await pause()
            run = await step("walkthrough next", session.click("wt.next"))
        if not run.has("Step 3 of"):
            raise ProtocolError("walkthrough did not reach step 3")
        await pause()
        await step("open quiz", session.goto("quiz"))
        await pause()
        await step("answer quiz", answer_quiz_question(session))
        return me
    except (ProtocolError, OSError, TimeoutError, KeyError, StopIteration) as err:
        me.error = f"{type(err).__name__}: {err}"
        return me
    except Exception as err:  # a websockets ConnectionClosed and the like: count, don't crash
        me.error = f"{type(err).__name__}: {err}"
        return me
    finally:
        me.session = session


async def classroom(base: str, n: int, think: float, ramp: float, seed: int, pid: int) -> dict:
    cpu0, t0, me0 = cpu_seconds(pid), time.perf_counter(), cpu_seconds(os.getpid())
    peak = rss_mb(pid)
    tasks = [asyncio.create_task(student(base, i, think, ramp, seed)) for i in range(n)]
    while not all(t.done() for t in tasks):
        await asyncio.sleep(0.25)
        peak = max(peak, rss_mb(pid))
    students = [t.result() for t in tasks]
    wall = time.perf_counter() - t0
    cpu = cpu_seconds(pid) - cpu0
    client_cpu = cpu_seconds(os.getpid()) - me0
    await asyncio.sleep(0.5)
    open_rss = rss_mb(pid)  # every session still connected, idle
    for s in students:
        await s.session.close()
    latencies = sorted(x for s in students for x in s.latencies)
    errors = [s.error for s in students if s.error]
    return {
        "n": n,
        "completed": sum(1 for s in students if not s.error),
        "errors": len(errors),
        "first_error": errors[0] if errors else "",
        "interactions": len(latencies),
        "p50": statistics.median(latencies) if latencies else float("nan"),
        "p95": latencies[min(len(latencies) - 1, int(0.95 * len(latencies)))]
        if latencies
        else float("nan"),
        "max": latencies[-1] if latencies else float("nan"),
        "cpu_pct": 100 * cpu / wall,
        "client_cpu_pct": 100 * client_cpu / wall,
        "wall": wall,
        "peak_rss": peak,
        "open_rss": open_rss,
        "steps": [st for s in students for st in s.steps],
    }


def warm(base: str) -> None:
    """One session through the whole sequence, so the first student does not pay for imports."""
    asyncio.run(classroom(base, 1, 0.0, 0.0, 99, os.getpid()))


def measure(n: int, args) -> dict:
    port = free_port()
    env = {"GRPO_CERT_SECRET": "bench-secret-0123456789abcdef"}
    server = start_app(port, env=env)  # as deploy/run.py runs each replica
    base = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(base + "/_stcore/health", server)
        warm(base)
        gc.collect()
        time.sleep(1.0)
        idle = rss_mb(server.pid)
        result = asyncio.run(classroom(base, n, args.think, args.ramp, args.seed, server.pid))
        result["idle_rss"] = idle
        result["load"] = float(Path("/proc/loadavg").read_text().split()[0])
        result["per_session_mb"] = (result["open_rss"] - idle) / n
        return result
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except Exception:
            server.kill()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, nargs="*", default=[1, 10, 20, 40, 60])
    parser.add_argument("--think", type=float, default=1.0, help="seconds between clicks")
    parser.add_argument("--ramp", type=float, default=10.0, help="arrivals spread over seconds")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--steps", action="store_true", help="also print p50/p95 per step")
    parser.add_argument("--slow", action="store_true", help="list interactions over 1 s")
    args = parser.parse_args()
    print(
        f"# {os.cpu_count()} cores; think {args.think} s ±50%, arrivals over {args.ramp} s; "
        "latency = request sent -> script_finished received",
        flush=True,
    )
    header = (
        f"{'N':>4} {'done':>5} {'err':>4} {'clicks':>6} {'p50 ms':>7} {'p95 ms':>7} "
        f"{'max ms':>7} {'CPU %':>6} {'client':>6} {'load1':>5} {'idle MB':>8} "
        f"{'peak MB':>8} {'MB/sess':>8}"
    )
    print(header, flush=True)
    results = []
    for n in args.sessions:
        r = measure(n, args)
        results.append(r)
        print(
            f"{r['n']:>4} {r['completed']:>5} {r['errors']:>4} {r['interactions']:>6} "
            f"{1000 * r['p50']:>7.0f} {1000 * r['p95']:>7.0f} {1000 * r['max']:>7.0f} "
            f"{r['cpu_pct']:>6.0f} {r['client_cpu_pct']:>6.0f} {r['load']:>5.1f} "
            f"{r['idle_rss']:>8.0f} {r['peak_rss']:>8.0f} "
            f"{r['per_session_mb']:>8.2f}",
            flush=True,
        )
        if r["first_error"]:
            print(f"     first error: {r['first_error'][:300]}", flush=True)
        if args.steps:
            by_step: dict[str, list] = {}
            for name, sec, _ in r["steps"]:
                by_step.setdefault(name, []).append(sec)
            for name, secs in by_step.items():
                secs.sort()
                p95 = secs[min(len(secs) - 1, int(0.95 * len(secs)))]
                print(
                    f"     {name:<18} p50 {1000 * statistics.median(secs):6.0f} ms  "
                    f"p95 {1000 * p95:6.0f} ms",
                    flush=True,
                )
        if args.slow:
            t0 = min(t for _, _, t in r["steps"])
            for name, sec, t in sorted(r["steps"], key=lambda x: x[2]):
                if sec > 1.0:
                    print(f"     slow: at {t - t0:6.2f} s {name:<18} {1000 * sec:6.0f} ms")
    target = next((r for r in results if r["n"] == 40), None)
    if target is not None:
        ok = target["errors"] == 0 and target["p95"] <= 1.0
        print(f"target (40 sessions, p95 <= 1 s, 0 errors): {'met' if ok else 'NOT met'}")
        return 0 if ok else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
