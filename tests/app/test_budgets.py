"""Expensive work within budgets a reload cannot shed (AppTest, a real SQLite store): the
simulator's new runs, the real model's runs and uploaded logs read, counted per client
address and in all; every new AppTest is a new browser session, as a reload is."""

from __future__ import annotations

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

import content
from practice import limits
from practice.store import open_store
from tests.app.conftest import open_page, texts
from ui import client

ADDRESS = "198.51.100.7"


def one_window(now: float, seconds: int) -> tuple[int, float]:
    """Every spend of a test in one window that ends 30 s later (no minute ends mid-test)."""
    return 0, now + 30.0


@pytest.fixture
def store(tmp_path, monkeypatch):
    url = f"sqlite://{tmp_path}/budgets.sqlite3"
    monkeypatch.setenv("GRPO_STORE", url)
    monkeypatch.setattr("ui.client.address", lambda: ADDRESS)
    monkeypatch.setattr("practice.store.sqlite_budgets.window", one_window)
    client._recent.clear()
    yield open_store(url)
    client._recent.clear()


def use_up(store, budget: limits.Budget) -> None:
    """Spend this address's share of ``budget``."""
    store.spend(f"{budget.name}::{ADDRESS}", budget.seconds, budget.per_address)


def notes(at) -> str:
    return "\n".join(texts(at, "info") + texts(at, "warning"))


def test_a_reload_does_not_reset_the_simulators_budget(store):
    at = open_page("pages/simulator.py", query={"sim.seed": "11"})
    assert not at.exception and "2 · Results" in texts(at, "subheader")
    assert store.spend(f"simulate::{ADDRESS}", 60, 0).count == 1
    again = open_page("pages/simulator.py", query={"sim.seed": "11"})  # a reload
    assert "2 · Results" in texts(again, "subheader")
    assert store.spend(f"simulate::{ADDRESS}", 60, 0).count == 1, "a run done lately is free"
    use_up(store, limits.SIMULATE)
    late = open_page("pages/simulator.py", query={"sim.seed": "12"})
    assert not late.exception and "2 · Results" not in texts(late, "subheader")
    assert "Your network has made 40 new simulator runs in a minute" in notes(late)
    assert late.number_input(key="sim.seed").value == 12, "the settings stay on the page"
    assert "2 · Results" in texts(
        open_page("pages/simulator.py", query={"sim.seed": "11"}), "subheader"
    )


def test_everyone_together_is_held_to_the_simulators_budget_in_all(store):
    store.spend("simulate::*", 60, limits.SIMULATE.in_all)
    at = open_page("pages/simulator.py", query={"sim.seed": "13"})
    assert not at.exception and "The lab is busy: it takes 80 new simulator runs" in notes(at)


def _model_script():
    from ui import real_model_page

    real_model_page._allowed()


def test_a_reload_does_not_reset_the_real_models_budget(store):
    use_up(store, limits.MODEL)
    at = AppTest.from_function(_model_script, default_timeout=30).run()
    assert not at.exception
    assert "Your network has made 8 runs of the real model in a minute" in notes(at)
    store.spend(f"model::{ADDRESS}", 60, -limits.MODEL.per_address)  # the next minute
    store.spend("model::*", 60, limits.MODEL.in_all)
    busy = AppTest.from_function(_model_script, default_timeout=30).run()
    assert "The lab is busy: it takes 12 runs of the real model" in notes(busy)


def test_a_reload_does_not_reset_the_budget_of_logs_read(store):
    frame = pd.read_csv(content.path("sample_log.csv")).head(64)
    at = open_page("pages/training-log.py")
    use_up(store, limits.LOG)
    at.segmented_control(key="tl.source").set_value("upload").run()
    at.file_uploader(key="tl.upload").upload("run.csv", frame.to_csv(index=False).encode()).run()
    assert not at.exception
    assert "Your network has made 10 reads of training logs in a minute" in notes(at)
    at.segmented_control(key="tl.source").set_value("sample").run()
    assert not at.exception and "320 answers in 40 groups" in "\n".join(texts(at, "caption"))


def test_new_learner_keys_from_one_address_are_bounded_across_reloads(store):
    use_up(store, limits.LEARNER)
    at = open_page("pages/review.py")
    at.button(key="review.new_key").click().run()
    assert not at.exception and "learner" not in at.query_params
    assert "Your network has made 300 new learner keys in an hour" in notes(at)
    assert store.spend("learner::*", 3600, 0).count == 0, "a refused key costs others nothing"
    at.run()
    assert "Your network has made" not in notes(at), "said once, the page goes on"
    assert at.button(key="review.new_key"), "the way to a key stays"


def test_progress_imports_from_one_address_are_bounded(store, monkeypatch):
    from tests.app.test_review import _Upload

    key = store.create_learner()
    at = open_page("pages/review.py", query={"learner": key})
    monkeypatch.setattr("ui.review_page.uploaded", lambda: _Upload(b'{"format": 1}'))
    use_up(store, limits.IMPORT)
    at.button(key="review.import_go").click().run()
    assert not at.exception
    assert "Your network has made 30 progress imports in an hour" in notes(at)
    assert store.attempts(key) == []
