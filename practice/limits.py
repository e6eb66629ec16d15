"""Budgets of the lab's expensive or storing work, kept where every replica counts them
(``practice.store.budgets``): per client address, and in all.

A per-session limit ends with a reload (a new browser session), so each budget here is
counted per client address (as deploy/nginx passes it, ``ui.client.address``) and in all,
in the store every replica shares. Why these numbers:

- Many students share one public address behind a school's NAT, so a per-address bound
  is set at what a whole class does at once, never at what one person does; the bound in
  all is what the server's two cores (or the store) can take, whoever asks.
- An empty address (a client on the server's own machine: a learner's own
  ``streamlit run``, the tests, the benchmarks) has no per-address bound; the bound in
  all still holds.
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
    counts separately per session (a class code)."""
    if address and budget.per_address is not None:
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
