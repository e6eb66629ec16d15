"""Failover rehearsals, on real processes: a class votes on phones (real websocket clients
of the real app, bench/stclient.py, reconnecting as a browser does) while a replica is
SIGKILLed behind nginx, while deploy/run.py's append-only Redis gets SIGTERM or SIGKILL
mid-round, and while the single SQLite server is killed and started again on its file.

Each rehearsal counts the votes cast against the votes counted: every acknowledged vote is
in the store with the letter last acknowledged, every phone's last vote is counted once the
phone settled by itself (a vote still pending is resent; one that never left the phone is
tapped again, as its student would), the tally equals the stored answers, the projector
shows the full count, and no page ever drew a traceback (st.exception).
"""

from __future__ import annotations

import asyncio
import signal
import time

import pytest

from practice.bank import load_bank
from practice.class_link import projector_query
from practice.class_round import new_spec
from practice.store import open_store
from tests.deploy.phones import Phone, Tab, answer_letters
from tests.deploy.test_proxy import cookie_for, run_async

pytestmark = [pytest.mark.deploy, pytest.mark.xdist_group("deploy")]
QUESTION = {q.id: q for q in load_bank()}["choice-which-rewards"]
SPEC = new_spec(QUESTION, False, 1, "trl").encode()
"""Options shuffled as the lecturer's screen opens a round (letter A is not option 0)."""
STUDENTS = 6


def wait_for(condition, seconds: float, what: str) -> None:
    end = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"{what} within {seconds:.0f} s")
        time.sleep(0.2)


async def classroom(base: str, store, cookies) -> tuple[str, Tab, list[Phone]]:
    """A class session with its projector and STUDENTS phones joined, round 1 open."""
    session = store.create_session()
    projector = Tab(base, projector_query(session.code), cookie=cookies[0], name="projector")
    await projector.open()
    phones = [Phone(base, session.code, f"s{i}", cookie=cookies[i % 2]) for i in range(STUDENTS)]
    for phone in phones:
        await phone.join()
    store.open_round(session.code, SPEC)
    for tab in (projector, *phones):  # what each polling fragment does once the round opened
        await tab.rerun()
    return session.code, projector, phones


async def settle_all(phones: list[Phone], number: int) -> None:
    """Every phone settles by itself, all at once as a room's phones do (each waits for its
    own polling fragments; one after another they took 8 s, session 17); a vote that never
    left its phone is tapped again."""
    settled = await asyncio.gather(*(phone.settle(90) for phone in phones))
    for phone, ok in zip(phones, settled, strict=True):
        assert ok, f"{phone.name} did not recover: {phone.text()[-300:]}"
    for phone in phones:
        if phone.unacked and not await phone.vote(number, phone.cast[-1]):
            assert await phone.settle(60), f"{phone.name}: {phone.text()[-300:]}"


def check_counts(store, code: str, phones: list[Phone], projector: Tab) -> dict:
    """The rehearsal's counts; asserts zero lost and zero tracebacks."""
    stored = answer_letters(store, code, 1)
    tally = store.tally(code, 1)
    acked_lost = [p.name for p in phones if p.acked and stored.get(p.name) != p.acked[-1]]
    last_lost = [p.name for p in phones if stored.get(p.name) != p.cast[-1]]
    tracebacks = [t for tab in (projector, *phones) for t in tab.tracebacks]
    counts = {
        "cast": sum(len(p.cast) for p in phones),
        "acknowledged": sum(len(p.acked) for p in phones),
        "counted": sum(tally.values()),
        "acknowledged_lost": acked_lost,
        "last_vote_lost": last_lost,
        "tracebacks": tracebacks,
        "reconnects": sum(t.reconnects for t in (projector, *phones)),
        "projector": projector.count(),
    }
    print("rehearsal counts:", counts)
    assert not tracebacks, tracebacks
    assert not acked_lost, f"acknowledged votes lost: {acked_lost} ({counts})"
    assert not last_lost, f"votes not counted: {last_lost} ({counts})"
    assert sum(tally.values()) == len(stored) == STUDENTS
    assert projector.count() == (STUDENTS, STUDENTS), projector.text()[-300:]
    return counts


def proxied(dep, replica: str) -> bool:
    """Whether the proxy sends some browser to ``replica`` again."""
    try:
        cookie_for(dep, replica)
    except AssertionError:
        return False
    return True


def test_a_replica_sigkilled_mid_round_loses_no_vote(rehearsal):
    dep, _ = rehearsal
    store = open_store(dep.env["GRPO_STORE"])
    cookies = [cookie_for(dep, "1"), cookie_for(dep, "2")]

    async def scenario():
        code, projector, phones = await classroom(dep.url, store, cookies)
        for i, phone in enumerate(phones[:3]):
            assert await phone.vote(1, "AB"[i % 2])
        on_one = [p for p in phones if p.cookie == cookies[0]]
        # Replica 1 dies while two of its phones are sending: their votes are in flight.
        flying = asyncio.gather(on_one[1].vote(1, "C"), on_one[2].vote(1, "D"))
        await asyncio.sleep(0.05)
        await asyncio.to_thread(dep.kill_replica, 0, signal.SIGKILL)
        await flying
        await phones[1].vote(1, "D")  # on replica 2, untouched
        await phones[0].vote(1, "C")  # a change of mind, after its replica died
        for phone in phones:
            if not phone.cast:
                await phone.vote(1, "B")
        await settle_all(phones, 1)
        await projector.rerun()
        return code, projector, phones

    code, projector, phones = run_async(scenario())
    counts = check_counts(store, code, phones, projector)
    assert counts["counted"] == STUDENTS
    wait_for(lambda: dep.check()[0], 180, "the supervisor restarted replica 1")
    assert dep.restarts[0] >= 1
    # The next test's phones need it back behind the proxy, not only healthy on its port.
    wait_for(lambda: proxied(dep, "1"), 60, "the proxy sent browsers to replica 1 again")


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["sigterm", "sigkill"])
def test_redis_killed_mid_round_loses_no_vote_and_phones_recover(rehearsal, sig):
    dep, supervisor = rehearsal
    store = open_store(dep.env["GRPO_STORE"])
    cookies = [cookie_for(dep, "1"), cookie_for(dep, "2")]
    restarts = dep.redis_restarts

    async def scenario():
        code, projector, phones = await classroom(dep.url, store, cookies)
        for i, phone in enumerate(phones[:3]):
            assert await phone.vote(1, "AB"[i % 2])
        with supervisor.paused():  # Redis stays down while the room keeps voting
            await asyncio.to_thread(dep.redis.kill, sig)
            for i, phone in enumerate(phones[3:]):
                assert not await phone.vote(1, "CD"[i % 2]), "no receipt while Redis is down"
                assert phone.reconnecting() and phone.pending(), phone.text()[-300:]
            assert not await phones[0].vote(1, "D")  # a change of mind during the outage
            await projector.rerun()
            assert projector.reconnecting(), projector.text()[-300:]
        await asyncio.to_thread(
            wait_for, lambda: dep.redis.state() == "up", 60, "the supervisor restarted Redis"
        )
        await settle_all(phones, 1)
        await projector.follow(lambda t: t.count() == (STUDENTS, STUDENTS), 30)
        return code, projector, phones

    code, projector, phones = run_async(scenario())
    check_counts(store, code, phones, projector)
    assert dep.redis_restarts == restarts + 1, "restarted once, on the same port and data"


def test_the_sqlite_server_killed_and_restarted_loses_no_vote(sqlite_server):
    server = sqlite_server
    store = open_store(server.store_url)

    async def scenario():
        code, projector, phones = await classroom(server.url, store, [None, None])
        for i, phone in enumerate(phones[:3]):
            assert await phone.vote(1, "AB"[i % 2])
        flying = asyncio.gather(*(p.vote(1, "CD"[i % 2]) for i, p in enumerate(phones[3:])))
        await asyncio.sleep(0.05)
        await asyncio.to_thread(server.kill, signal.SIGKILL)
        restart = asyncio.create_task(asyncio.to_thread(server.start))
        await flying  # the phones reconnect as soon as the new process answers
        await restart
        await phones[0].vote(1, "D")  # a change of mind on the new process
        await settle_all(phones, 1)
        await projector.open()  # the projector's tab reconnects to the new process too
        return code, projector, phones

    code, projector, phones = run_async(scenario())
    check_counts(store, code, phones, projector)
