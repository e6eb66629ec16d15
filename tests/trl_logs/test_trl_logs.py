"""The log page's loader, grouping and inference on logs written by TRL's own GRPOTrainer.

Every configuration of scripts/make_trl_logs.py: the files are where and as TRL writes
them, and reading them (one file, or the whole folder) reproduces TRL's logged advantages
to 1e-6 and infers the run's configuration.
"""

import io
import json
import zipfile

import pandas as pd
import pytest

from grpo_core import log_files, rollouts
from grpo_core.inference import GDPO, base_name, describe_fit, fit_log
from grpo_core.log_grouping import BY_POSITION, prompt_runs
from tests.trl_logs.fixture import make_trl_logs

pytestmark = pytest.mark.trainer

RUNS = {run.name: run for run in make_trl_logs.RUNS}
EXPECTED = {
    "batch": "trl-batch",
    "dr_grpo": "dr-grpo",
    "gdpo": GDPO,
}
"""The convention each run should be read as; "trl" (TRL's default) otherwise."""


def files_of(root, name):
    paths = sorted((root / name / "completions").glob("completions_*.parquet"))
    return [(p.name, p.read_bytes()) for p in paths]


@pytest.mark.parametrize("name", list(RUNS))
def test_trl_writes_one_parquet_file_per_logging_step(trl_logs, name):
    run = RUNS[name]
    paths = sorted((trl_logs / name / "completions").iterdir())
    assert [p.name for p in paths] == [f"completions_{s:05d}.parquet" for s in (1, 2, 3, 4)]
    frame = pd.read_parquet(paths[1])
    extras = ["num_digits", "verdict"] if run.log_extra else []
    expected = ["step", "prompt", "completion", *run.rewards, *extras, "advantage"]
    assert list(frame.columns) == expected
    assert (frame["step"] == 2).all()
    assert len(frame) == run.batch_size  # one generation batch a step


@pytest.mark.parametrize("name", list(RUNS))
def test_each_file_reproduces_trls_advantages_and_configuration(trl_logs, name):
    run = RUNS[name]
    for file_name, data in files_of(trl_logs, name):
        log = log_files.load_logs([(file_name, data)])
        fit = fit_log(log.frame)
        best, error = fit.ranking[0]
        assert error <= 1e-6, (file_name, fit.ranking[:3])
        assert base_name(best) == EXPECTED.get(name, "trl"), (file_name, fit.ranking[:3])
        assert log.mapping.rewards == run.rewards
        assert log.grouping.how == BY_POSITION
        assert log.grouping.size == run.num_generations


@pytest.mark.parametrize("name", list(RUNS))
def test_the_whole_folder_reads_as_one_log(trl_logs, name):
    run = RUNS[name]
    log = log_files.load_logs(files_of(trl_logs, name))
    assert sorted(log.frame["step"].unique()) == [1, 2, 3, 4]
    assert len(log.frame) == 4 * run.batch_size
    assert log.grouping.size == run.num_generations
    fit = fit_log(log.frame)
    assert fit.ranking[0][1] <= 1e-6
    assert base_name(fit.best) == EXPECTED.get(name, "trl")
    assert not fit.unmatched.any()
    text = describe_fit(fit, log.mapping.rewards)
    if fit.float32_logged:
        assert "computed in float32 (every logged value is a float32 number)" in text


def test_a_zip_of_the_completions_folder_reads_like_its_files(trl_logs):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in files_of(trl_logs, "two_rewards"):
            archive.writestr(f"completions/{name}", data)
    log = log_files.load_logs([("completions.zip", buffer.getvalue())])
    assert len(log.frame) == 32
    assert log.mapping.rewards == ("accuracy_reward", "length_penalty")


def test_the_run_json_records_what_was_run(trl_logs):
    recorded = json.loads((trl_logs / "gdpo" / "run.json").read_text())
    assert recorded["aggregation"] == "normalize_then_sum"


def test_repeated_prompts_are_several_groups_not_one(trl_logs):
    log = log_files.load_logs(files_of(trl_logs, "repeated_prompts"))
    frame = log.frame
    runs = prompt_runs(frame["step"].to_numpy(), frame["prompt"])
    assert runs.max() > 4  # a prompt text fills two adjacent groups somewhere
    assert log.frame.groupby("group_no").size().eq(4).all()
    assert not any("Mixed group sizes" in w for w in log.warnings)


def test_a_numeric_log_extra_column_is_an_extra_not_a_reward(trl_logs):
    log = log_files.load_logs(files_of(trl_logs, "log_extra"))
    assert log.roles["num_digits"] == "extra"
    assert log.roles["verdict"] == "extra (text)"
    assert log.roles["is_right"] == log.roles["length_penalty"] == "reward"
    assert any("'num_digits' holds numbers but is not counted" in w for w in log.warnings)


def test_conversational_prompts_read_as_text(trl_logs):
    log = log_files.load_logs(files_of(trl_logs, "conversational"))
    assert log.frame["prompt"].str.contains("user").all()


def test_the_other_runs_files_differ_in_columns_and_say_so(trl_logs):
    """Run A's step 1 beside run B's step 2 differ in their columns; run B's step 1 beside
    run A's is a second, different file of the same name (two runs in one upload box)."""
    files = files_of(trl_logs, "defaults")[:1] + files_of(trl_logs, "two_rewards")[1:2]
    with pytest.raises(
        rollouts.LogError, match=r"do not have the same columns.*adds 'length_penalty'"
    ):
        log_files.load_logs(files)
    same_name = files_of(trl_logs, "defaults")[:1] + files_of(trl_logs, "two_rewards")[:1]
    with pytest.raises(rollouts.LogError, match=r"Two different files are named completions_00001"):
        log_files.load_logs(same_name)


@pytest.mark.parametrize("name", list(RUNS))
def test_one_file_read_by_load_log_groups_as_the_folder_reader_does(trl_logs, name):
    run = RUNS[name]
    for file_name, data in files_of(trl_logs, name):
        log = rollouts.load_log(io.BytesIO(data))
        assert log.grouping.how == BY_POSITION and log.grouping.size == run.num_generations
        assert log.mapping.rewards == run.rewards, file_name
        best, error = fit_log(log.frame).ranking[0]
        assert error <= 1e-6 and base_name(best) == EXPECTED.get(name, "trl"), file_name


def test_the_pages_gdpo_comparison_normalises_each_step_as_trl_does(trl_logs):
    from grpo_core.log_summary import log_groups
    from grpo_core.multi_reward import compare_aggregations

    frame = log_files.load_logs(files_of(trl_logs, "gdpo")).frame
    groups = log_groups(frame)
    columns = [c for c in frame.columns if c.startswith("reward.")]
    order = groups.order
    compared = compare_aggregations(
        frame[columns].to_numpy()[order],
        groups.codes,
        batch_ids=frame["step"].to_numpy()[order],
    )
    logged = frame["advantage"].to_numpy()[order]
    assert abs(compared["normalise then sum"].to_numpy() - logged).max() <= 1e-6
