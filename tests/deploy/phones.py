"""Phones and a projector for the failover rehearsals, speaking Streamlit's own websocket
protocol to the real app (bench/stclient.py), and doing what a browser tab does when its
server goes away: reconnect (through nginx, with its affinity cookie) and run the page of
its URL again, the URL the app last wrote (a pending vote included); follow the page's
polling fragments when they are due. Every run's st.exception elements are collected,
so a rehearsal can assert that no traceback was ever drawn.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time

from bench.stclient import Session
from practice.class_round import decode_spec

COUNT = re.compile(r"^(?:.*Answers: <b>)?(\d+) of (\d+)(?:</b>.*)?$")
"""A count: the lecturer's metric ("3 of 6") or the projector's line ("Answers: <b>3 of 6</b>")."""
RECEIPT = "Your answer is in. You voted **{}**"
LETTERS = "ABCDEF"


class Tab:
    """One browser tab on the class page: ``query`` is its URL's query string."""

    def __init__(self, base: str, query: str, *, cookie: str | None = None, name: str = ""):
        self.base = base
        self.query = query
        self.cookie = cookie
        self.name = name
        self.session: Session | None = None
        self.last = None
        self.fragment_runs: list = []
        """The polling fragments' runs since the last full run, the newest last (a few)."""
        self.tracebacks: list[str] = []
        self.reconnects = 0

    def _seen(self, run):
        self.tracebacks += [f"{self.name}: {e}" for e in run.exceptions]
        if run.query_string is not None:
            self.query = run.query_string
        if run.fragment:
            self.fragment_runs = [*self.fragment_runs[-7:], run]
        else:
            self.last = run
            self.fragment_runs.clear()
        return run

    async def open(self, deadline: float = 120) -> None:
        """(Re)connect and run the page of ``query``, retrying while the server is away."""
        end = time.monotonic() + deadline
        while True:
            await self.close()
            try:
                self.session = Session(self.base, cookie=self.cookie, timeout=60)
                await self.session.connect()
                self._seen(await self.session.open("class", self.query))
                return
            except Exception:
                if time.monotonic() > end:
                    raise
                await asyncio.sleep(0.5)

    async def close(self) -> None:
        if self.session is not None:
            with contextlib.suppress(Exception):
                await self.session.close()
            self.session = None

    async def act(self, action):
        """``action(session)`` (a coroutine); on a dropped connection, reopen the page as the
        browser would and return None (the action's outcome is unknown to the user)."""
        try:
            return self._seen(await action(self.session))
        except Exception:
            self.reconnects += 1
            await self.open()
            return None

    async def rerun(self):
        return await self.act(lambda s: s.rerun())

    async def follow(self, done, seconds: float) -> bool:
        """Rerun each polling fragment when due, as a browser does, until ``done(self)``."""
        due: dict[str, float] = {}
        end = time.monotonic() + seconds
        while not done(self):
            if time.monotonic() > end:
                return False
            now = time.monotonic()
            fragments = dict(self.session.fragments) if self.session else {}
            for fid, interval in fragments.items():
                due.setdefault(fid, now + interval)
            ready = [f for f, t in due.items() if t <= now and f in fragments]
            if not ready:
                await asyncio.sleep(0.1)
                continue
            for fid in ready:
                del due[fid]
                await self.act(lambda s, fid=fid: s.rerun_fragment(fid))
        return True

    def text(self) -> str:
        out = []
        for _, e in self.last.elements if self.last else ():
            for attr in ("body", "code_text", "text"):
                value = getattr(e, attr, None)
                if isinstance(value, str):
                    out.append(value)
        return "\n".join(out)

    def reconnecting(self) -> bool:
        return "Reconnecting" in self.text()

    def count(self) -> tuple[int, int] | None:
        """The live count ("3 of 6"), if drawn: the newest of the polling fragments' runs
        (the projector screen is one fragment), else the last full run's."""
        runs = [*reversed(self.fragment_runs), self.last]
        for run in runs:
            for kind, e in run.elements if run else ():
                if kind in ("metric", "markdown") and (m := COUNT.match(e.body)):
                    return int(m[1]), int(m[2])
        return None


class Phone(Tab):
    """A student's tab: joins with a nickname, votes by letter; ``cast`` and ``acked``
    record every vote it sent and which the app acknowledged."""

    def __init__(self, base: str, code: str, name: str, *, cookie: str | None = None):
        super().__init__(base, f"class={code}", cookie=cookie, name=name)
        self.cast: list[str] = []
        self.acked: list[str] = []
        self.unacked = False
        """The last vote cast has no receipt yet."""

    async def join(self) -> None:
        await self.open()
        s = self.session
        s.widget_values[s.last.widgets["cls.nickname"][1].id] = s.widget_state(
            "cls.nickname", self.name
        )
        self._seen(await s.click("cls.join"))
        assert "student=" in self.query, f"{self.name} could not join: {self.text()[-300:]}"

    def pending(self) -> bool:
        return "pending=" in self.query

    def acknowledged(self, letter: str) -> bool:
        """The app confirmed the vote for ``letter``: nothing pending, no "reconnecting",
        and the receipt names that letter (the phone always shows the stored vote, so a
        receipt of an earlier letter means this one never reached the store)."""
        text = self.text()
        return not self.pending() and "Reconnecting" not in text and RECEIPT.format(letter) in text

    async def vote(self, number: int, letter: str) -> bool:
        """Pick ``letter`` in round ``number`` and tap Send; whether it was acknowledged."""
        key = f"cls.answer.{number}"
        if self.last is None or key not in self.last.widgets:
            await self.rerun()  # what the polling fragment does once the round opened
        if self.last is None or key not in self.last.widgets:
            return False  # no form to vote in (the store is away and nothing was cached)
        self.cast.append(letter)

        async def tap(s: Session):
            s.widget_values[s.last.widgets[key][1].id] = s.widget_state(key, letter)
            return await s.click(f"cls.send.{number}")

        await self.act(tap)
        ok = self.acknowledged(letter)
        if ok:
            self.acked.append(letter)
        self.unacked = not ok
        return ok

    async def settle(self, seconds: float = 60) -> bool:
        """Wait, as a student looking at the phone does, until the page shows a vote
        acknowledged or no vote pending and no "reconnecting"."""

        def done(tab: Phone) -> bool:
            return not tab.pending() and not tab.reconnecting()

        ok = await self.follow(done, seconds)
        if ok and self.unacked and self.acknowledged(self.cast[-1]):
            self.acked.append(self.cast[-1])  # the resent vote's receipt
            self.unacked = False
        return ok


def answer_letters(store, code: str, number: int) -> dict[str, str]:
    """label -> the letter the phones showed for the answer stored in round ``number``
    (a choice is stored as its option's bank index; the round's order letters them)."""
    r = next(r for r in store.rounds(code) if r.number == number)
    order = decode_spec(r.question).order

    def letter(index: int) -> str:
        return LETTERS[order.index(index) if order else index]

    return {a.label: letter(int(a.answer)) for a in store.answers(code, number)}


async def gather(*coroutines):
    return await asyncio.gather(*coroutines)
