"""Budgets of the lab's expensive or storing work, kept where every replica counts them
(``practice.store.budgets``): per client address, and in all.

A per-session limit ends with a reload (a new browser session), so each budget here is
counted per client address (as deploy/nginx passes it, ``ui.client.address``) and in all,
in the store every replica shares. Why these numbers:

- Many students share one public address behind a school's NAT, so a per-address bound
  is set at what a whole class does at once, never at what one person does; the bound in
  all is what the server's two cores (or the store) can take, whoever asks.
- An empty address (a client on the server's own machine: a learner's own
  ``streamlit run``, the tests, the benchmarks) counts in no budget: whoever sits at the
  server may use all of it, and the test suite's thousands of runs never meet a bound
  meant for a room.
"""

from __future__ import annotations

from dataclasses import dataclass

from practice.store.base import StoreRefusal
from practice.store.budgets import BudgetStore


@dataclass(frozen=True)
class Budget:
    """How much of one kind of work a window of ``seconds`` allows."""

    name: str
    seconds: int
    per_address: int | None
    """At most this many from one client address in a window (None: no such bound)."""
    in_all: int | None
    """At most this many from everyone together in a window (None: no such bound)."""
    what: str
    """The work, counted: "runs of the real model"."""


JOIN = Budget("join", 10, 40, None, "joins of this class")
"""A class of 150 behind one address joins in a minute or two (a QR code scanned, a
nickname typed): 40 in 10 s from one address is 4 a second, a pace no room keeps up, while
a script joined 19 a second. The class size (``ClassStore.class_size``) bounds the rest."""

MODEL = Budget("model", 60, 8, 12, "runs of the real model")
"""A run samples a group or takes a step, one at a time (12 queued at most); a few steps
count one run a group. This machine serves about 10 runs of K = 2 a minute (30 in 181 s,
``bench/attack_work.py --work model``), so 12 a minute in all is what it gets through, and
one address may take two thirds of it: another network still gets runs while a class, or
a script, uses the model. The page's own limit (6 a minute a browser session) stays."""
SIMULATE = Budget("simulate", 60, 40, 80, "new simulator runs")
"""A new setting of the simulator is one run: 0.2 s of CPU at the defaults, 0.6 s at its
widest; a setting this server ran lately is remembered and costs nothing. 80 a minute is
at most half a core's worth."""
LOG = Budget("log", 60, 10, 20, "reads of training logs")
"""Reading an uploaded log (up to 100 MB) runs a child process for up to seconds; a log
this server read lately, and the sample log, cost nothing."""

LEARNER = Budget("learner", 3600, 300, 3000, "new learner keys")
"""A key is made on a first visit to Review or certification: a class of 150 behind one
address makes 150 in its first lesson. A key that keeps nothing goes after a week
(``practice.store.learner_rules``), so 3,000 an hour bounds the keys kept at about half a
million rows, a few tens of MB."""
IMPORT = Budget("import", 3600, 30, 120, "progress imports")
"""An import replaces one key's progress with up to 2 MB of JSON: a learner restores once
or twice; 120 an hour in all is at most about 240 MB written an hour."""


class OverBudget(StoreRefusal):
    """More of one budget's work than its window allows; ``str(err)`` says when to retry."""


def wait_text(seconds: float) -> str:
    """A wait in plain words: "12 s", "4 min"."""
    seconds = max(1, round(seconds))
    return f"{seconds} s" if seconds < 120 else f"{round(seconds / 60)} min"


def period(seconds: int) -> str:
    return {10: "10 seconds", 60: "a minute", 3600: "an hour"}.get(seconds, f"{seconds} s")


def spend(store: BudgetStore, budget: Budget, address: str, *, scope: str = "", cost: int = 1):
    """Count ``cost`` of ``budget``'s work for ``address`` (and in all); OverBudget when it
    goes past either bound (the refused work still counts, as a retry would). ``scope``
    counts separately per session (a class code); an empty address counts nowhere."""
    if not address:
        return
    if budget.per_address is not None:
        spent = store.spend(f"{budget.name}:{scope}:{address}", budget.seconds, cost)
        if spent.count > budget.per_address:
            raise OverBudget(
                f"Your network has made {budget.per_address} {budget.what} in "
                f"{period(budget.seconds)}, the most the lab takes from one network: "
                f"try again in {wait_text(spent.resets_in)}."
            )
    if budget.in_all is not None:
        spent = store.spend(f"{budget.name}:{scope}:*", budget.seconds, cost)
        if spent.count > budget.in_all:
            raise OverBudget(
                f"The lab is busy: it takes {budget.in_all} {budget.what} in "
                f"{period(budget.seconds)} from everyone together. "
                f"Try again in {wait_text(spent.resets_in)}."
            )


REFUSED_WINDOW = 2 * 86400
"""Seconds over which a session's refused joins are counted (a session lives 24 h; a count
starts again when a two-day window of the clock ends)."""


def note_refused_join(store: BudgetStore, code: str) -> None:
    """Count one join of session ``code`` refused for its pace or its class size."""
    store.spend(f"join-refused:{code}", REFUSED_WINDOW)


def refused_joins(store: BudgetStore, code: str) -> int:
    """How many joins of session ``code`` were refused lately (``note_refused_join``)."""
    return store.spend(f"join-refused:{code}", REFUSED_WINDOW, 0).count
