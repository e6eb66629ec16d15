"""grpo_core.rollouts: every format, column detection, and every bad file."""

import io
import json

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import content
from grpo_core import group_advantages, log_files, log_guards, rollouts
from grpo_core.log_grouping import BY_POSITION
from grpo_core.rollouts import ColumnMap, LogError, detect_columns, detect_format, load, load_log

TRL_LOG = pd.DataFrame(
    {
        "step": [1, 1, 1, 1, 2, 2, 2, 2],
        "prompt": ["a", "a", "b", "b", "a", "a", "b", "b"],
        "completion": ["x1", "x2", "y1", "y2", "x3", "x4", "y3", "y4"],
        "accuracy_reward": [1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 0.0, 0.0],
        "format_reward": [0.1, 0.0, 0.1, 0.1, 0.1, 0.1, 0.0, 0.1],
        "advantage": [0.7, -0.7, 0.0, 0.0, -0.7, 0.7, -0.7, 0.7],
    }
)


def as_bytes(frame: pd.DataFrame, fmt: str) -> bytes:
    buffer = io.BytesIO()
    if fmt == "csv":
        frame.to_csv(buffer, index=False)
    elif fmt == "jsonl":
        frame.to_json(buffer, orient="records", lines=True)
    else:
        frame.to_parquet(buffer, index=False)
    return buffer.getvalue()


@pytest.mark.parametrize("fmt", ["csv", "jsonl", "parquet"])
def test_every_format_loads_to_the_same_normalised_table(fmt):
    log = load_log(io.BytesIO(as_bytes(TRL_LOG, fmt)))
    assert log.format == fmt
    f = log.frame
    assert f["step"].tolist() == TRL_LOG["step"].tolist()
    assert f["prompt"].tolist() == TRL_LOG["prompt"].tolist()
    assert f["completion"].tolist() == TRL_LOG["completion"].tolist()
    np.testing.assert_allclose(f["reward"], TRL_LOG["accuracy_reward"] + TRL_LOG["format_reward"])
    np.testing.assert_array_equal(f["reward.accuracy_reward"], TRL_LOG["accuracy_reward"])
    np.testing.assert_array_equal(f["advantage"], TRL_LOG["advantage"])
    assert "group" not in f


def test_a_path_loads_like_a_file_object(tmp_path):
    path = tmp_path / "log.csv"
    path.write_bytes(as_bytes(TRL_LOG, "csv"))
    pd.testing.assert_frame_equal(load(str(path)), load(io.BytesIO(path.read_bytes())))


def test_a_json_array_and_a_tab_separated_file_load():
    array = json.dumps(TRL_LOG.to_dict(orient="records")).encode()
    assert load(io.BytesIO(array))["reward"].size == 8
    tsv = TRL_LOG.to_csv(sep="\t", index=False).encode()
    assert load(io.BytesIO(tsv))["prompt"].tolist() == TRL_LOG["prompt"].tolist()


def test_the_sample_log_is_trl_shaped():
    log = load_log(content.path("sample_log.csv"))
    assert log.mapping == ColumnMap(
        prompt="prompt",
        rewards=("accuracy_reward", "format_reward"),
        step="step",
        completion="completion",
        advantage="advantage",
    )
    assert log.warnings == ()


def test_format_is_detected_from_content():
    assert detect_format(b"PAR1....") == "parquet"
    assert detect_format(b'\n {"step": 1}') == "jsonl"
    assert detect_format(b"step,prompt") == "csv"
    with pytest.raises(LogError, match="binary"):
        detect_format(b"\x89PNG\x00\x00")


def test_verl_style_columns_are_detected():
    mapping = detect_columns(["uid", "query", "response", "score", "adv"], {"score", "adv"})
    assert mapping == ColumnMap(
        prompt="query", rewards=("score",), completion="response", group="uid", advantage="adv"
    )


def test_unnamed_numeric_columns_become_rewards_when_none_is_named_like_one():
    mapping = detect_columns(["prompt", "value"], {"value"})
    assert mapping.rewards == ("value",)


def test_a_group_column_groups_rows_and_a_hand_mapping_is_used():
    frame = pd.DataFrame({"uid": ["u", "u", "v", "v"], "q": list("pqrs"), "r": [1, 0, 1, 1]})
    mapping = ColumnMap(prompt="q", rewards=("r",), group="uid")
    f = load_log(io.BytesIO(as_bytes(frame, "csv")), mapping).frame
    assert f["group"].tolist() == ["u", "u", "v", "v"]
    assert f["step"].tolist() == [0, 0, 0, 0]


# --- bad files --------------------------------------------------------------------------------


def test_a_missing_reward_column_is_named():
    frame = pd.DataFrame({"prompt": ["a", "b"], "completion": ["x", "y"]})
    with pytest.raises(LogError, match=r"No reward column.*'prompt', 'completion'"):
        load(io.BytesIO(as_bytes(frame, "csv")))


def test_a_non_numeric_reward_names_its_row_and_column():
    frame = TRL_LOG.drop(columns="format_reward").astype({"accuracy_reward": object})
    frame.loc[5, "accuracy_reward"] = "oops"
    mapping = ColumnMap(prompt="prompt", rewards=("accuracy_reward",), step="step")
    with pytest.raises(LogError, match="Row 6, column accuracy_reward: 'oops' is not a number"):
        load_log(io.BytesIO(as_bytes(frame, "csv")), mapping)


def test_a_missing_reward_value_names_its_row():
    frame = TRL_LOG.copy()
    frame.loc[2, "format_reward"] = np.nan
    with pytest.raises(LogError, match="Row 3, column format_reward"):
        load(io.BytesIO(as_bytes(frame, "parquet")))


def test_wrong_formats_are_refused_with_a_message():
    with pytest.raises(LogError, match="binary"):
        load(io.BytesIO(b"\x00\x01\x02 not a table"))
    with pytest.raises(LogError, match="JSON lines"):
        load(io.BytesIO(b'{"step": 1, "prompt": \n'))
    with pytest.raises(LogError, match="empty"):
        load(io.BytesIO(b""))
    with pytest.raises(LogError, match="No reward column"):
        load(io.BytesIO(b"just some words\nand more words\n"))


def test_mixed_group_sizes_are_reported_with_their_rows():
    frame = TRL_LOG.iloc[:7]  # the last group loses an answer
    log = load_log(io.BytesIO(as_bytes(frame, "csv")))
    assert len(log.warnings) == 1
    assert "Mixed group sizes: 1 of 4 groups does not have 2 answers" in log.warnings[0]
    assert "step 2 (rows 7)" in log.warnings[0]


def test_an_upload_over_the_limit_is_refused_before_reading(monkeypatch):
    monkeypatch.setattr(rollouts, "MAX_BYTES", 100)
    with pytest.raises(LogError, match="limit is 0 MB"):
        load(io.BytesIO(as_bytes(TRL_LOG, "csv")))


def test_a_parquet_file_promising_too_much_is_refused_from_its_metadata(monkeypatch):
    monkeypatch.setattr(log_guards, "MAX_ROWS", 4)
    read = []
    monkeypatch.setattr(pq.ParquetFile, "read", lambda *a, **k: read.append(1))
    with pytest.raises(LogError, match=r"promises 8 rows.*Nothing was read"):
        load(io.BytesIO(as_bytes(TRL_LOG, "parquet")))
    assert read == []


def test_parquet_reads_only_the_mapped_columns(monkeypatch):
    frame = TRL_LOG.assign(unused=["z" * 1000] * 8)
    seen = {}
    original = pq.ParquetFile.read

    def spy(self, columns=None, **kwargs):
        seen["columns"] = columns
        return original(self, columns=columns, **kwargs)

    monkeypatch.setattr(pq.ParquetFile, "read", spy)
    load(io.BytesIO(as_bytes(frame, "parquet")))
    assert "unused" not in seen["columns"]


def test_html_is_named_and_kept_as_text_and_reasoning_tags_and_formulas_are_not_flagged():
    frame = TRL_LOG.copy()
    frame.loc[1, "prompt"] = '=HYPERLINK("http://evil","x")'
    frame.loc[2, "completion"] = "<think>2+2</think><answer>4</answer>"
    frame.loc[3, "completion"] = "<script>alert(1)</script>"
    frame.loc[4, "completion"] = "+1 is right"
    log = load_log(io.BytesIO(as_bytes(frame, "csv")))
    html = [w for w in log.warnings if "HTML" in w]
    assert len(html) == 1 and "Row 4, column completion" in html[0], log.warnings
    assert not any("formula" in w for w in log.warnings)  # it matters only in a CSV
    assert log.frame.loc[3, "completion"] == "<script>alert(1)</script>"


def test_a_header_without_rows_is_refused():
    with pytest.raises(LogError, match="no rows"):
        load(io.BytesIO(b"prompt,reward\n"))


def test_infer_convention_needs_an_advantage_column():
    with pytest.raises(ValueError, match="no advantage column"):
        rollouts.infer_convention(load(io.BytesIO(b"prompt,reward\na,1\na,0\n")))


def test_boolean_rewards_count_as_numbers():
    table = pa.table({"prompt": ["a", "a"], "correct": [True, False]})
    buffer = io.BytesIO()
    pq.write_table(table, buffer)
    assert load(io.BytesIO(buffer.getvalue()))["reward"].tolist() == [1.0, 0.0]


def test_the_shipped_sample_log_is_what_the_script_makes():
    from grpo_core.sample_log import sample_log
    from scripts.make_sample_log import SEED

    made = sample_log(np.random.default_rng(SEED))
    shipped = pd.read_csv(content.path("sample_log.csv"))
    pd.testing.assert_frame_equal(made, shipped, check_dtype=False)


def test_a_verl_style_json_lines_dump_is_mapped_by_uid():
    lines = [
        {"uid": "u1", "input": "2+2?", "output": "4", "score": 1.0},
        {"uid": "u1", "input": "2+2?", "output": "5", "score": 0.0},
        {"uid": "u2", "input": "3+3?", "output": "6", "score": 1.0},
        {"uid": "u2", "input": "3+3?", "output": "6", "score": 1.0},
    ]
    data = "\n".join(json.dumps(line) for line in lines).encode()
    log = load_log(io.BytesIO(data))
    assert log.format == "jsonl"
    assert log.mapping == ColumnMap(
        prompt="input", rewards=("score",), completion="output", group="uid"
    )
    assert log.frame["group"].tolist() == ["u1", "u1", "u2", "u2"]


def repeated_prompt_log(k: int = 4) -> pd.DataFrame:
    """Two steps of TRL's order: K consecutive rows a group, prompt texts repeating within
    a step (side by side and apart), advantages in float32 as TRL logs them."""
    prompts = ["a", "a", "b", "a", "c", "c"]  # "a" three times, "c" twice side by side
    rng = np.random.default_rng(3)
    rewards = rng.integers(0, 2, 2 * len(prompts) * k).astype(float)
    return pd.DataFrame(
        {
            "step": np.repeat([1, 2], len(prompts) * k),
            "prompt": [p for _ in range(2) for p in prompts for _ in range(k)],
            "reward": rewards,
            "advantage": group_advantages(rewards, group_size=k).astype(np.float32),
        }
    )


@pytest.mark.parametrize("fmt", ["csv", "jsonl", "parquet"])
def test_load_log_groups_blocks_of_k_rows_even_where_prompt_texts_repeat(fmt):
    frame = repeated_prompt_log()
    log = load_log(io.BytesIO(as_bytes(frame, fmt)))
    assert log.grouping.how == BY_POSITION and log.grouping.size == 4
    assert log.frame["group_no"].tolist() == (np.arange(len(frame)) // 4).tolist()
    assert not any("Mixed group sizes" in w for w in log.warnings)
    assert rollouts.infer_convention(log.frame)[0][1] <= 1e-6


def test_load_log_and_load_logs_read_one_file_alike():
    data = as_bytes(repeated_prompt_log(), "csv")
    single = load_log(io.BytesIO(data))
    several = log_files.load_logs([("log.csv", data)])
    pd.testing.assert_frame_equal(single.frame, several.frame)
    assert single.grouping == several.grouping and single.roles == several.roles


def test_a_prompt_text_changing_inside_a_block_is_only_a_note():
    frame = repeated_prompt_log()
    frame.loc[1, "prompt"] = "typo"  # the text disagrees, the position still decides
    log = load_log(
        io.BytesIO(as_bytes(frame, "csv")),
        ColumnMap(
            prompt="prompt", rewards=("reward",), step="step", advantage="advantage", group_size=4
        ),
    )
    assert log.frame["group_no"].tolist() == (np.arange(len(frame)) // 4).tolist()
    assert any("more than one prompt text (the first starts at row 1)" in w for w in log.warnings)
