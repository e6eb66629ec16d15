"""Class mode scaled out (deploy/run.py: 2 replicas behind nginx, one Redis): students on
both replicas and the lecturer on one share one class; every vote is counted once; when a
replica stops mid-round its students reconnect to the other and no vote is lost, also a
vote that was still pending (in the URL, not yet acknowledged) when the replica died."""

from __future__ import annotations

import contextlib
from urllib.parse import parse_qs

import pytest

from bench.stclient import Session
from practice.store import open_store
from tests.deploy.test_proxy import cookie_for, run_async

pytestmark = [pytest.mark.deploy, pytest.mark.xdist_group("deploy")]
CHOICE = "(choice-which-rewards)"
"""The picker's option for this question ends with its id."""


async def join(deployment, cookie: str, code: str, name: str) -> Session:
    tab = Session(deployment.url, cookie=cookie)
    await tab.connect()
    await tab.open("class", f"class={code}")
    tab.widget_values[tab.last.widgets["cls.nickname"][1].id] = tab.widget_state(
        "cls.nickname", name
    )
    run = await tab.click("cls.join")
    assert not run.exceptions and "student=" in tab.query_string
    return tab


async def vote(tab: Session, number: int, letter: str) -> None:
    await tab.rerun()  # what the polling fragment does when the round opens
    tab.widget_values[tab.last.widgets[f"cls.answer.{number}"][1].id] = tab.widget_state(
        f"cls.answer.{number}", letter
    )
    run = await tab.click(f"cls.send.{number}")
    assert not run.exceptions
    assert run.has("Your answer is in"), [e for _, e in run.elements][-3:]
    assert "pending=" not in tab.query_string


def test_students_on_both_replicas_and_a_replica_lost_mid_round(deployment):
    url = deployment.env["GRPO_STORE"]
    assert url.startswith("redis://"), "deploy/run.py gives the replicas one Redis"
    store = open_store(url)
    one, two = cookie_for(deployment, "1"), cookie_for(deployment, "2")

    async def scenario():
        lecturer = Session(deployment.url, cookie=two)
        await lecturer.connect()
        await lecturer.open("class")
        await lecturer.click("cls.start")
        query = lecturer.query_string
        code = parse_qs(query)["class"][0]
        cookies = [one, two, one, two, one, two]
        students = [await join(deployment, c, code, f"s{i}") for i, c in enumerate(cookies)]
        assert {s.response_headers["x-replica"] for s in students} == {"1", "2"}
        await lecturer.set("cls.question", lecturer.option_ending("cls.question", CHOICE))
        await lecturer.click("cls.open")
        for i, tab in enumerate(students[:5]):  # the sixth student's vote is still in flight
            await vote(tab, 1, "AB"[i % 2])
        before = dict(store.tally(code, 1))
        pending = f"{students[5].query_string}&pending=1~in-flight-id~A"
        acknowledged = f"{students[0].query_string}&pending=1~resent-id~A"

        deployment.stop_replica(0)  # replica 1 dies mid-round
        for tab in students:
            with contextlib.suppress(Exception):
                await tab.close()
        survivors = []
        for i, tab in enumerate(students):
            again = Session(deployment.url, cookie=cookies[i])
            await again.connect()
            assert again.response_headers["x-replica"] == "2"
            query_i = pending if i == 5 else acknowledged if i == 0 else tab.query_string
            run = await again.open("class", query_i)
            assert not run.exceptions
            survivors.append(again)
        run = await survivors[0].open("class", acknowledged)  # the same submit id again
        assert not run.exceptions
        live = await lecturer.rerun()
        for tab in (*survivors, lecturer):
            await tab.close()
        return code, before, live

    try:
        code, before, live = run_async(scenario())
    finally:
        deployment.start_replica(0)
    assert sum(before.values()) == 5
    answers = store.answers(code, 1)
    tally = store.tally(code, 1)
    assert len(answers) == 6, "every student's vote is stored once, the in-flight one too"
    assert sum(tally.values()) == 6 and tally == {
        a: sum(x.answer == a for x in answers) for a in tally
    }
    assert any(
        getattr(e, "body", "") == "6 of 6" or "6 of 6" in str(e) for _, e in live.elements
    ), "the lecturer on replica 2 sees every vote"
