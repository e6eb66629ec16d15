"""Through the real proxy (deploy/run.py: 2 replicas behind Debian's nginx on loopback):
sessions spread over replicas and stick to one; a signed link or a certificate from one
replica is accepted by another (one shared secret); stopping a replica mid-session sends
the user to the other, where the page rebuilds from its URL."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import http.cookies
import itertools
import time
import urllib.error
import urllib.request

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from bench.stclient import Session
from grpo_core.links import b64url_decode
from practice.certificates import issue, key_id

pytestmark = [pytest.mark.deploy, pytest.mark.xdist_group("deploy")]


def run_async(coroutine):
    """asyncio.run in a thread of its own: a browser test in the same worker may already
    run an event loop in this thread (Playwright's sync API), where asyncio.run refuses."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def get(url: str, cookie: str | None = None):
    """(status, X-Replica, our affinity cookie value or None, body) of a GET."""
    request = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})
    with urllib.request.urlopen(request, timeout=10) as r:
        ours = None
        for header in r.headers.get_all("Set-Cookie") or []:
            jar = http.cookies.SimpleCookie(header)
            if "grpo_replica" in jar:
                ours = jar["grpo_replica"].value
        return r.status, r.headers.get("X-Replica"), ours, r.read()


def cookie_for(deployment, replica: str) -> str:
    """An affinity cookie that the proxy maps to ``replica`` ("1" or "2")."""
    for i in itertools.count():
        if i > 200:
            raise AssertionError(f"no cookie maps to replica {replica}")
        cookie = f"grpo_replica=probe{i}"
        if get(deployment.url + "/_stcore/health", cookie)[1] == replica:
            return cookie
    raise AssertionError("unreachable")


def test_sessions_spread_over_replicas_and_stick(deployment):
    async def browser() -> tuple[str, list[str]]:
        status, first, value, body = get(deployment.url + "/")  # a new browser: no cookie
        assert status == 200 and b"<html" in body.lower()
        assert value, "the proxy must give a new browser an affinity cookie"
        cookie = f"grpo_replica={value}"
        seen = [first]
        async with Session(deployment.url, cookie=cookie) as tab:  # the websocket
            seen.append(tab.response_headers["x-replica"])
            run = await tab.open("playground")
            assert not run.exceptions and "w.settings.convention" in run.widgets
        for path in ("/_stcore/health", "/playground", "/_stcore/host-config"):
            status, replica, again, _ = get(deployment.url + path, cookie)
            assert again is None, "a browser that has the cookie keeps it"
            seen.append(replica)
        return first, seen

    async def classroom():
        return await asyncio.gather(*(browser() for _ in range(16)))

    results = run_async(classroom())
    errors = (deployment.run_dir / "nginx-error.log").read_text()[-2000:]
    for first, seen in results:
        assert set(seen) == {first}, f"one browser's requests went to replicas {seen}:\n{errors}"
    replicas = {first for first, _ in results}
    assert replicas == {"1", "2"}, f"16 new browsers all landed on replica {replicas}"


def test_health_checks_answer_through_the_proxy(deployment):
    assert get(deployment.url + "/_stcore/health")[3] == b"ok"
    assert get(deployment.url + "/nginx-health")[3] == b"ok\n"
    assert deployment.check() == [True, True]


def test_an_overlong_link_gets_a_clear_message(deployment):
    with pytest.raises(urllib.error.HTTPError) as refused:
        get(deployment.url + "/playground?r=" + "1_0" * 3000)
    assert refused.value.code == 414
    assert b"longer than 8 KB" in refused.value.read()


def test_the_access_log_keeps_no_learner_key_or_lecturer_tag(deployment):
    """Red team: the access log wrote each request line whole, so every learner link
    (``?learner=KEY``, a key that never expires) and lecturer link (``?lecturer=TAG``)
    opened through the proxy was kept in a file beside the replicas' logs."""
    key, tag = "RedTeamLearnerKey0123456789abcde", "RedTeamLecturerTag0123"
    get(f"{deployment.url}/review?learner={key}")
    get(f"{deployment.url}/class?class=ABCDEF&lecturer={tag}")
    path, deadline = deployment.run_dir / "nginx-access.log", time.monotonic() + 10
    log = path.read_text()
    while not ("GET /review " in log and "GET /class " in log) and time.monotonic() < deadline:
        time.sleep(0.05)  # nginx writes a request's line after its response has gone out
        log = path.read_text()
    assert "GET /review " in log and "GET /class " in log, "the requests are logged"
    assert key not in log and tag not in log


def test_a_link_signed_on_one_replica_is_accepted_on_another(deployment):
    one, two = cookie_for(deployment, "1"), cookie_for(deployment, "2")

    async def scenario():
        async with Session(deployment.url, cookie=one) as tab:
            assert tab.response_headers["x-replica"] == "1"
            run = await tab.open("quiz")
            assert not run.exceptions
            progress = run.query_string  # "p=<progress>.<HMAC tag>", signed by replica 1
            assert progress and progress.startswith("p=")
        async with Session(deployment.url, cookie=two) as tab:
            assert tab.response_headers["x-replica"] == "2"
            accepted = await tab.open("quiz", progress)
            tampered = await tab.open(
                "quiz", progress[:-3] + ("AAA" if progress[-3:] != "AAA" else "BBB")
            )
        return progress, accepted, tampered

    progress, accepted, tampered = run_async(scenario())
    assert not accepted.exceptions
    assert not accepted.has("could not be read"), "replica 2 rejected replica 1's signature"
    assert accepted.query_string in (None, progress)
    assert tampered.has("could not be read"), "a tampered link must be rejected"


def test_a_certificate_verifies_on_every_replica(deployment):
    """Every replica is handed the same Ed25519 key: a certificate signed with it (as any
    replica signs one) verifies on each, and one signed with another key on none."""
    key = Ed25519PrivateKey.from_private_bytes(b64url_decode(deployment.env["GRPO_CERT_KEY"]))
    cert = issue("Ada <script>alert(1)</script>", 50, 57, private_key=key, topics=["std"])
    forged = issue("Ada", 57, 57, private_key=Ed25519PrivateKey.generate())

    async def check(cookie: str, cert_id: str):
        async with Session(deployment.url, cookie=cookie) as tab:
            return tab.response_headers["x-replica"], await tab.open("verify", f"id={cert_id}")

    for replica in ("1", "2"):
        cookie = cookie_for(deployment, replica)
        where, run = run_async(check(cookie, cert))
        assert where == replica
        assert not run.exceptions
        assert run.has("Valid certificate"), f"replica {replica} did not accept the certificate"
        assert run.has("&lt;script&gt;"), "the name must be shown escaped"
        assert run.has(key_id(key.public_key())), "every replica publishes the same key"
        _, run = run_async(check(cookie, forged))
        assert run.has("Not a valid certificate")


def test_stopping_a_replica_moves_the_session_and_the_page_rebuilds(deployment):
    cookie = cookie_for(deployment, "1")

    async def scenario():
        tab = Session(deployment.url, cookie=cookie)
        await tab.connect()
        assert tab.response_headers["x-replica"] == "1"
        await tab.open("playground")
        tab.widget_values[tab.last.widgets["pg.seed"][1].id] = tab.widget_state("pg.seed", 7)
        await tab.click("pg.sample")
        box = tab.last.widgets["w.settings.convention"][1]
        verl = next(o for o in box.options if o.startswith("verl"))
        before = await tab.set("w.settings.convention", verl)
        url = tab.query_string
        assert "c=verl" in url and "r=" in url

        deployment.stop_replica(0)  # replica 1 goes away mid-session
        with contextlib.suppress(Exception):  # the browser sees its socket close
            await asyncio.wait_for(tab.ws.recv(), 10)
        await tab.close()

        # The frontend reconnects with the same cookie and reruns the page from its URL.
        again = Session(deployment.url, cookie=cookie)
        await again.connect()
        where = again.response_headers["x-replica"]
        after = await again.open("playground", url)
        await again.close()
        return before, after, where, url

    try:
        before, after, where, url = run_async(scenario())
    finally:
        deployment.start_replica(0)
    assert where == "2", "after replica 1 stopped the session must move to replica 2"
    assert not after.exceptions
    assert after.query_string in (None, url), "the URL must survive the move unchanged"
    captions = [t for t in before.texts("markdown") if t.startswith("Advantages:")]
    assert captions and captions == [
        t for t in after.texts("markdown") if t.startswith("Advantages:")
    ], "the rewards and convention the user chose must be rebuilt from the URL"
    assert after.widgets["w.settings.convention"][1].raw_value.startswith("verl")
