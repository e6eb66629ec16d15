"""Ballot stuffing, as a script would try it: many cookieless joins of one class session,
each a new seat that votes "D" in the open round. Every join is a real websocket session
(bench/stclient.py) with no cookie, so the browser's own join limit (the ``grpo_client``
cookie) never sees the same browser twice.

The lecturer starts the session and opens a round through the app too. Every attacker
sends ``X-Real-IP: ATTACKER`` as nginx would (deploy/nginx.conf.template sets it to the
client's address); the app trusts the header from a loopback peer only, as behind nginx.

Printed: joins tried, seats made, votes counted, refusals by message, seconds taken.

    .venv/bin/python bench/attack_class.py --joins 60               # one server, SQLite
    .venv/bin/python bench/attack_class.py --joins 60 --setup redis # 2 replicas, Redis
    .venv/bin/python bench/attack_class.py --setup redis --listen "$(hostname -I | cut -d' ' -f1)"

Through nginx the header is nginx's own (the connection's address): on loopback that is
this machine, which has no per-address bound, so ``--listen`` serves the deployment on a
network address of this machine and the joins come from it, as from another machine.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import shutil
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import parse_qs

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_class import CHOICE, affinity_cookie, sqlite_server  # noqa: E402
from bench.stclient import Session  # noqa: E402
from deploy.run import Deployment  # noqa: E402
from practice.store import open_store  # noqa: E402

ATTACKER = "198.51.100.7"
"""A documentation address (RFC 5737): the one address every stuffed seat comes from."""


async def lecturer(base: str) -> tuple[Session, str]:
    tab = Session(base, cookie=affinity_cookie(base), timeout=60)
    await tab.connect()
    await tab.open("class")
    await tab.click("cls.start")
    code = parse_qs(tab.query_string)["class"][0]
    await tab.set("cls.question", tab.option_ending("cls.question", CHOICE))
    await tab.click("cls.open")
    return tab, code


async def stuff(base: str, code: str, i: int, seen: collections.Counter) -> None:
    """One cookieless join and its vote; counts what the page said."""
    affinity = affinity_cookie(base)
    tab = Session(base, cookie=affinity, timeout=60, headers={"X-Real-IP": ATTACKER})
    await tab.connect()
    try:
        run = await tab.open("class", f"class={code}")
        tab.widget_values[run.widgets["cls.nickname"][1].id] = tab.widget_state(
            "cls.nickname", f"bot{i}"
        )
        run = await tab.click("cls.join")
        if "cls.answer.1" not in run.widgets:
            alerts = [e.body for kind, e in run.elements if kind == "alert"]
            seen["refused: " + (alerts[0][:90] if alerts else "no answer form")] += 1
            return
        tab.widget_values[run.widgets["cls.answer.1"][1].id] = tab.widget_state("cls.answer.1", "D")
        run = await tab.click("cls.send.1")
        seen["voted" if run.has("Your answer is in") else "vote not taken"] += 1
    finally:
        await tab.close()


async def attack(base: str, joins: int, parallel: int) -> tuple[str, collections.Counter, float]:
    tab, code = await lecturer(base)
    seen: collections.Counter = collections.Counter()
    start = time.monotonic()
    gate = asyncio.Semaphore(parallel)

    async def one(i: int) -> None:
        async with gate:
            try:
                await stuff(base, code, i, seen)
            except Exception as err:  # a protocol failure is a result too
                seen[f"error: {type(err).__name__}"] += 1

    await asyncio.gather(*(one(i) for i in range(joins)))
    seconds = time.monotonic() - start
    await tab.close()
    return code, seen, seconds


def report(store, code: str, joins: int, seen, seconds: float) -> None:
    seats = len(store.students(code))
    votes = sum(store.tally(code, 1).values())
    print(f"{joins} cookieless joins from one address in {seconds:.1f} s: {seats} seats, "
          f"{votes} votes counted")  # fmt: skip
    for what, n in sorted(seen.items()):
        print(f"    {n:4d}  {what}")
    try:  # the lecturer's count of refused joins (absent before it was built)
        from practice.limits import refused_joins
    except ImportError:
        return
    print(f"    the lecturer's seats panel: {refused_joins(store, code)} joins refused")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--joins", type=int, default=60)
    parser.add_argument("--parallel", type=int, default=4)
    parser.add_argument("--setup", choices=("sqlite", "redis"), default="sqlite")
    parser.add_argument("--listen", default="127.0.0.1", help="nginx's address (redis setup)")
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="grpo-attack-"))
    try:
        if args.setup == "redis":
            with Deployment(2, run_dir=str(folder), listen=args.listen) as dep:
                store = open_store(dep.env["GRPO_STORE"])
                code, seen, s = asyncio.run(attack(dep.url, args.joins, args.parallel))
                report(store, code, args.joins, seen, s)
            return 0
        with sqlite_server(folder) as (base, url):
            code, seen, s = asyncio.run(attack(base, args.joins, args.parallel))
            report(open_store(url), code, args.joins, seen, s)
        return 0
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
