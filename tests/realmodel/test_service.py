"""The model service without the model: queue order, positions, cache, load errors, rate limit."""

import threading
import time

import pytest

from realmodel.model import ModelFileError
from realmodel.service import MAX_WAITING, ModelService, QueueFull, RateLimit


def ready(loader=lambda: "model") -> ModelService:
    svc = ModelService(loader=loader)
    svc.start_loading()
    for _ in range(100):
        if svc.loaded is not None or svc.error:
            return svc
        time.sleep(0.01)
    raise AssertionError("never loaded")


def test_jobs_run_one_at_a_time_in_arrival_order_with_positions():
    svc = ready()
    first, second, third = svc.ticket(), svc.ticket(), svc.ticket()
    assert [svc.position(t) for t in (first, second, third)] == [0, 1, 2]
    order, seen = [], []
    gate = threading.Event()

    def slow(loaded):
        gate.wait(2)
        order.append("first")

    worker = threading.Thread(target=svc.run, args=(first, slow))
    worker.start()
    later = threading.Thread(
        target=svc.run,
        args=(third, lambda m: order.append("third")),
        kwargs={"on_wait": seen.append},
    )
    later.start()
    time.sleep(0.1)
    gate.set()
    worker.join()
    assert svc.run(second, lambda m: order.append("second") or m) == "model"
    later.join()
    assert order == ["first", "second", "third"]
    assert seen and seen[0] == 2


def test_a_failed_job_leaves_the_queue():
    svc = ready()
    t = svc.ticket()
    with pytest.raises(ZeroDivisionError):
        svc.run(t, lambda m: 1 / 0)
    assert svc.run(svc.ticket(), lambda m: "next") == "next"


def test_a_load_error_is_a_sentence_and_jobs_say_it():
    def broken():
        raise OSError("disk on fire")

    svc = ready(broken)
    assert svc.error == "The model could not be loaded: disk on fire"
    with pytest.raises(RuntimeError, match="disk on fire"):
        svc.run(svc.ticket(), lambda m: m)


def test_cache_keeps_the_most_recent():
    svc = ModelService(loader=lambda: None, cache_size=2)
    for key in ("a", "b", "c"):
        svc.remember((key,), key)
    assert svc.cached(("a",)) is None
    assert svc.cached(("c",)) == "c"


def test_rate_limit_counts_a_sliding_window():
    now = [0.0]
    limit = RateLimit(jobs=2, seconds=60, clock=lambda: now[0])
    for _ in range(2):
        assert limit.wait_seconds() == 0
        limit.record()
    assert limit.wait_seconds() == 60
    now[0] = 61
    assert limit.wait_seconds() == 0


def test_a_job_asked_for_during_the_load_waits_for_the_model():
    def slow_loader():
        time.sleep(1.0)
        return "model"

    svc = ModelService(loader=slow_loader)
    waits = []
    assert svc.run(svc.ticket(), lambda m: m, on_wait=waits.append) == "model"
    assert waits and waits[0] == 0


def test_rate_limit_charges_a_run_of_several_jobs_at_once():
    now = [0.0]
    limit = RateLimit(jobs=6, seconds=60, clock=lambda: now[0])
    limit.record()
    now[0] = 10
    limit.record()
    assert limit.wait_seconds(4) == 0
    limit.record(4)
    assert limit.wait_seconds() == 50  # all six used: the first (t = 0) expires at t = 60
    now[0] = 30
    assert limit.wait_seconds(2) == 40  # two must expire: the second at t = 70


def test_a_model_whose_weights_could_not_be_put_back_is_set_aside():
    svc = ready()

    def unrestorable(loaded):
        raise ModelFileError("The model's shipped weights could not be restored: gone.")

    with pytest.raises(RuntimeError, match=r"set aside: .*could not be restored"):
        svc.run(svc.ticket(), unrestorable)
    assert svc.loaded is None
    with pytest.raises(RuntimeError, match="set aside"):
        svc.run(svc.ticket(), lambda m: m)


def test_a_full_queue_refuses_a_job_in_words_and_takes_one_again_once_a_job_leaves():
    """Red team: the rate limit is per session and a reload starts a fresh session, so one
    visitor could queue jobs without end, each holding a server thread while it waits."""
    svc = ModelService(loader=lambda: "model", max_waiting=2)
    first, _second = svc.ticket(), svc.ticket()
    with pytest.raises(QueueFull, match="The model is busy: 2 runs are waiting"):
        svc.ticket()
    assert isinstance(QueueFull(1), RuntimeError), "the page shows a RuntimeError as words"
    assert svc.run(first, lambda m: m) == "model"
    svc.ticket()  # the first job left: there is room again
    assert MAX_WAITING >= 8, "a room pressing at once mostly queues"
