"""A real model's group with the saved groups (no model is loaded by these tests)."""

import pytest

from realmodel import groups
from tests.app.conftest import open_page, texts

PAGE = "pages/real-model.py"


@pytest.fixture(autouse=True)
def saved_groups_only(monkeypatch):
    """The mode of a server without the extra, whatever is installed here."""
    monkeypatch.setenv("GRPO_REAL_MODEL", "off")


def test_saved_groups_show_answers_grades_provenance_and_how_to_go_live():
    at = open_page(PAGE)
    assert not at.exception
    assert any("python3 dev.py run --with-model" in t for t in texts(at, "info"))
    provenance, shipped = groups.load_committed()
    assert any(provenance["model_sha256"][:16] in t for t in texts(at, "caption"))
    table = at.dataframe[0].value
    assert list(table["answer"]) == list(shipped[0].answers)
    assert set(table["reward"]) <= {0.0, 1.0}
    assert all(" match" in r and "read the last number" in r for r in table["verifier"])


def test_every_saved_group_renders_and_a_mixed_one_shows_its_step():
    at = open_page(PAGE)
    _, shipped = groups.load_committed()
    stepped = 0
    for i, group in enumerate(shipped):
        at.selectbox(key="rm.saved").set_value(i).run()
        assert not at.exception
        sentence = [t for t in texts(at, "markdown") if "moved in the direction" in t]
        if groups.step_delta(group) is not None:
            stepped += 1
            assert sentence and f"of {len(group.answers)} answers" in sentence[0]
    assert stepped >= 1


def test_a_saved_group_opens_in_the_playground():
    at = open_page(PAGE)
    _, shipped = groups.load_committed()
    at.button(key="rm.open.playground").click().run()
    expected = [[f"{r:g}" for r in shipped[0].rewards]]
    assert at.session_state["rewards_grid"] == expected


def test_a_link_with_a_saved_group_opens_that_group():
    _, shipped = groups.load_committed()
    label = shipped[1].task.label
    at = open_page(PAGE, query={"rm.saved": label})
    assert not at.exception
    assert list(at.dataframe[0].value["answer"]) == list(shipped[1].answers)
    code = [c.value for c in at.code if "rm.saved=" in c.value]
    assert code, "the page shows its share link"
    assert "learner" not in code[0] and "lecturer" not in code[0]
