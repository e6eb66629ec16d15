"""What a learner is told about the grader: counts kept in TOML, read back as written, and
one sentence with whole percentages."""

import math

from hypothesis import given
from hypothesis import strategies as st

from practice.grader_trust import Trust, load_trust, percent, trust_sentence, trust_toml

counts = st.integers(min_value=0, max_value=10_000)


@given(counts, counts, counts, counts)
def test_the_kept_counts_read_back_as_written(tmp_path_factory, answers, tp, fp, fn):
    sets = ("heldout_fresh.toml", "heldout_s9.toml")
    one = Trust(sets, answers // 2, tp // 2, fp // 3, fn // 4)
    trust = Trust(sets, answers, tp, fp, fn, (("followup-gdpo", one), ("followup-why-std", one)))
    path = tmp_path_factory.mktemp("trust") / "grader_trust.toml"
    path.write_text(trust_toml(trust), encoding="utf-8")
    assert load_trust(path) == trust


@given(counts, counts, counts)
def test_precision_and_recall_are_shares_of_credit_and_of_points_made(tp, fp, fn):
    trust = Trust(("a.toml",), 1, tp, fp, fn)
    assert 0 <= trust.precision <= 1 and 0 <= trust.recall <= 1
    assert tp + fp == 0 or math.isclose(trust.precision * (tp + fp), tp)
    assert tp + fn == 0 or math.isclose(trust.recall * (tp + fn), tp)


def test_the_sentence_gives_answers_and_whole_percentages():
    text = trust_sentence(Trust(("a.toml",), 1_234, 646, 106, 134))
    assert text.startswith("On 1,234 answers it was never tuned to, 86 % of the points")
    assert "it credited 83 % of the points the answers made." in text


def test_percent_rounds_to_a_whole_number_with_a_space():
    assert [percent(x) for x in (0.0, 0.854, 0.855, 1.0)] == ["0 %", "85 %", "86 %", "100 %"]


def test_nothing_credited_or_nothing_made_is_not_a_division_by_zero():
    assert Trust(("a.toml",), 3, 0, 0, 0).precision == 1.0
    assert Trust(("a.toml",), 3, 0, 0, 0).recall == 1.0


def test_a_questions_sentence_gives_its_own_figures_then_the_pooled_ones():
    one = Trust(("a.toml",), 16, 13, 1, 6)
    trust = Trust(("a.toml",), 1_234, 646, 106, 134, (("followup-drop-std", one),))
    text = trust_sentence(trust, "followup-drop-std")
    assert text.startswith("On this question's 16 answers it was never tuned to, 93 % of the")
    assert "it credited 68 % of the points" in text
    assert text.endswith("(over every follow-up, 1,234 answers: 86 % and 83 %).")
    assert trust.of("followup-drop-std") == one and trust.of("followup-float32") is None
    assert trust_sentence(trust, "followup-float32") == trust_sentence(trust)
