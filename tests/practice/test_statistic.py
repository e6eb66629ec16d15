"""practice.statistic: which statistic of which rewards an answer names, rewards laid out
(prompts, K). The full phrasing set is tests/practice/blank_phrasings.toml; here, one
hand-checked example per verdict and per axis rule, and no exception on any text."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from practice.statistic import GROUP_AXES, classify_statistic


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("group mean", "mean"), ("per-group std", "std"), ("r_bar", "mean"),
        ("RMS deviation from the mean", "std"), ("mean of the other answers", "loo-mean"),
        ("(sum_j R_j - R_i)/(K-1)", "loo-mean"), ("mean across groups", "batch-mean"),
        ("std of the group means", "batch-std"), ("batch variance", "batch-variance"),
        ("EMA of rewards", "batch"), ("mean(A)", "advantage"),
        ("std of the advantages", "advantage"), ("V(s)", "value"), ("var(R)", "variance"),
        ("mean + eps", "with-eps"),
        ("(sum_j R_j)/(K-1)", "bad-count"), ("(sum(R) - R_i)/K", "bad-count"),
        ("mean / std", "mixed"), ("median", "median"), ("K", "count"), ("R_i", "reward"),
        ("0", "number"), ("", "empty"), ("idk", "unknown"), (None, "not-text"),
        ("m" * 201, "too-long"), ("mean\x00", "control"),
    ],
)  # fmt: skip
def test_verdicts(text, verdict):
    assert classify_statistic(text) == verdict


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        # within the group: axis -1 or 1, keyword or positional, numpy or torch, or no axis
        ("np.mean(R, axis=-1)", "mean"), ("np.mean(R, 1)", "mean"), ("R.mean(1)", "mean"),
        ("R.mean(dim=-1, keepdim=True)", "mean"), ("torch.std(R, dim=1, unbiased=True)", "std"),
        ("R.std(-1, ddof=1)", "std"), ("rewards.view(-1, K).std(dim=1)", "std"),
        ("R.mean(axis=(1,))", "mean"), ("mean(R)", "mean"), ("rewards.std()", "std"),
        # across prompts: axis 0 or -2
        ("np.mean(R, axis=0)", "axis0-mean"), ("R.mean(0)", "axis0-mean"),
        ("np.mean(R, 0)", "axis0-mean"), ("np.mean(R, axis=-2)", "axis0-mean"),
        ("torch.std(R, dim=0)", "axis0-std"), ("R.var(0)", "axis0-variance"),
        ("(R.sum(0) - R)/(K-1)", "axis0-mean"),
        # every reward: axis None or both axes
        ("R.mean(axis=None)", "batch-mean"), ("R.std(dim=(0, 1))", "batch-std"),
    ],
)  # fmt: skip
def test_code_is_read_under_the_prompts_by_k_layout(text, verdict):
    assert classify_statistic(text) == verdict


def test_the_group_axes_are_the_last_one():
    assert {1, -1} == GROUP_AXES


@pytest.mark.parametrize("word", ["groups", "prompts", "batch", "inter", "between", "means"])
def test_plural_and_between_words_are_across_prompts(word):
    assert classify_statistic(f"mean {word}").startswith("batch")


@pytest.mark.parametrize(
    "text", ["mean of each group", "mean of all K rewards", "mean across the whole group"]
)
def test_all_and_across_with_the_group_named_are_within(text):
    assert classify_statistic(text) == "mean"


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=250))
def test_never_raises_on_any_text(text):
    assert isinstance(classify_statistic(text), str)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="Rrmeanstd.(),=-_01Kaxisdimnpj+/ ", max_size=80))
def test_never_raises_on_code_looking_text(text):
    assert isinstance(classify_statistic(text), str)
