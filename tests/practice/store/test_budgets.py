"""Budgets counted in the store, on every backend: per window, per bucket, across two
store clients of one store (two replicas), and exactly under concurrent spends."""

from __future__ import annotations

import threading

from practice.store import open_store
from practice.store.budgets import window


def test_a_window_starts_at_a_multiple_of_its_length():
    assert window(125.0, 60) == (2, 180)
    assert window(120.0, 60) == (2, 180)


def test_spends_count_in_their_window_and_start_again_in_the_next(make_store, clock):
    store = make_store(clock)
    clock.now = 1_800_000_000.0 - 15  # 15 s before a minute's end
    assert store.spend("model:1.2.3.4", 60).count == 1
    spent = store.spend("model:1.2.3.4", 60, cost=3)
    assert spent.count == 4 and spent.resets_in == 15
    assert store.spend("model:5.6.7.8", 60).count == 1, "another bucket counts apart"
    clock.now += 15
    assert store.spend("model:1.2.3.4", 60).count == 1, "a new window"


def test_two_clients_of_one_store_count_on_the_same_budget(make_store, clock, tmp_path, request):
    store = make_store(clock)
    url = f"sqlite://{tmp_path}/grpo.sqlite3" if "sqlite" in request.node.name else store.url
    replica = open_store(url, clock=clock)  # another replica, or the app after a reload
    store.spend("log:9.9.9.9", 60)
    assert replica.spend("log:9.9.9.9", 60).count == 2


def test_concurrent_spends_each_count(make_store):
    store = make_store()
    counts: list[int] = []
    threads = [
        threading.Thread(target=lambda: counts.append(store.spend("join:X:*", 3600).count))
        for _ in range(20)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(counts) == list(range(1, 21))
