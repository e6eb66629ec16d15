"""The red team's files (issue 24) against the loader: each is refused with a message that
names its row, line or column, before any parser or decoder could be hurt by it."""

import io

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grpo_core import log_guards
from grpo_core.inference import fit_conventions
from grpo_core.log_summary import log_groups, log_totals, method_effects, step_summary
from grpo_core.rollouts import LogError, load_log
from tests import hostile_files as files

REFUSED = {
    "deep.jsonl": "Line 1: the JSON is nested more than 32 levels deep",
    "nested_600.jsonl": "Line 1: the JSON is nested more than 32 levels deep",
    "bomb.parquet": "Column 'prompt' (row group 1) unpacks from",
    "one_answer.csv": "Every prompt has one answer (rows 1–3, column prompt)",
    "huge_reward.csv": "Row 1, column reward: the value is '1e+101', too large",
    "repeated_header.csv": "The header names column 'reward' twice (columns 2 and 3)",
    "mixed_array.json": "Row 2: the JSON array holds '3', not an object",
    "binary_prompt.parquet": "Row 1, column 'prompt': the cell holds bytes that are not UTF-8",
}


def read(data: bytes):
    return load_log(io.BytesIO(data))


def test_every_hostile_file_has_its_expected_message():
    assert set(REFUSED) == set(files.HOSTILE)


@pytest.mark.parametrize("name", sorted(files.HOSTILE))
def test_a_hostile_file_is_refused_by_name(name):
    with pytest.raises(LogError) as error:
        read(files.HOSTILE[name]())
    assert REFUSED[name] in str(error.value)


def test_a_carriage_return_inside_the_header_line_is_a_message():
    """The header is read by its own line for the duplicate-name check; a lone \\r inside
    it raised csv.Error ("new-line character seen in unquoted field") past every guard
    (the fuzzer's b"\\xc2\\x80\\r\\x01")."""
    with pytest.raises(LogError, match="No reward column"):
        read(b"\xc2\x80\r\x01")
    assert read(b"prompt,reward\r\np,1\r\np,0\r\n").frame["reward"].tolist() == [1, 0]


def test_the_dictionary_bomb_is_refused_from_the_footer_alone(monkeypatch):
    reads = []
    monkeypatch.setattr(pq.ParquetFile, "read", lambda *a, **k: reads.append(1))
    data = files.parquet_dictionary_bomb()
    assert len(data) < 1200
    with pytest.raises(LogError, match=r"25,[0-9]{3} times.*decompression bomb"):
        read(data)
    assert reads == []


def test_an_incompressible_dictionary_is_measured_before_it_is_decoded():
    with pytest.raises(LogError, match=r"Row 1, column 'prompt': one text cell is 10.0 MB"):
        read(files.parquet_incompressible_dictionary())


def test_text_over_the_total_is_refused_before_decoding(monkeypatch):
    monkeypatch.setattr(log_guards, "MAX_TEXT_BYTES", 1000)
    frame = pd.DataFrame({"prompt": ["p" * 100] * 20, "reward": [0.0, 1.0] * 10})
    out = io.BytesIO()
    frame.to_parquet(out)
    with pytest.raises(LogError, match="Column 'prompt': the text columns would take"):
        read(out.getvalue())


@pytest.mark.parametrize("data", [files.excel_bom(), files.utf16_excel()], ids=["utf-8", "utf-16"])
def test_excel_byte_order_marks_are_read(data):
    log = read(data)
    assert list(log.frame["prompt"]) == ["a", "a", "b", "b"]
    assert log.mapping.prompt == "prompt"


@pytest.mark.parametrize(
    "make",
    [lambda: files.zip_bomb(64 * 2**20), lambda: files.zip_of_many(10_000)],
    ids=["zip bomb", "10,000 files"],
)
def test_a_zip_is_refused_without_unpacking(make):
    with pytest.raises(LogError, match="zip archive, which is not unpacked"):
        read(make())


def test_a_json_array_of_objects_still_reads():
    log = read(b'[{"prompt": "a", "reward": 1}, {"prompt": "a", "reward": 0}]')
    assert list(log.frame["reward"]) == [1.0, 0.0]


@pytest.mark.parametrize(
    "text, depth",
    [
        (b'{"a": 1}', 1),
        (b'{"a": [1, {"b": 2}]}\n{"c": 3}', 3),
        (b'{"a": "[[[[[[ not brackets ]"}', 1),
        (b'{"a": "an escaped \\" quote [[["}', 1),
        (b'{"a": "a backslash \\\\"}', 1),
        (b"", 0),
    ],
)
def test_nesting_counts_brackets_outside_strings(text, depth):
    assert log_guards.json_nesting(text) == depth


def test_an_unclosed_string_is_refused_by_line():
    with pytest.raises(log_guards.Refused, match="Line 2: a text value"):
        log_guards.json_nesting(b'{"a": 1}\n{"a": "open}\n{"b": [[[[1]]]]}\n')


def test_unbalanced_lines_add_up():
    with pytest.raises(log_guards.Refused, match="Line 33"):
        log_guards.json_nesting(b"[\n" * 40)


rewards = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, 1.0, 1e100, -1e100, 1e101, 5e-324]),
)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    prompts=st.lists(st.sampled_from(["a", "b", "=1+1", "<think>x</think>", ""]), max_size=12),
    values=st.lists(rewards, max_size=12),
    advantage=st.booleans(),
)
def test_any_small_log_is_read_and_summarised_or_refused_in_words(prompts, values, advantage):
    n = min(len(prompts), len(values))
    frame = pd.DataFrame({"prompt": prompts[:n], "reward": values[:n]})
    if advantage:
        frame["advantage"] = np.zeros(n)
    try:
        log = read(frame.to_csv(index=False).encode())
    except LogError:
        return
    groups = log_groups(log.frame)
    step_summary(groups), log_totals(groups), method_effects(groups)
    if advantage:
        steps = log.frame["step"].to_numpy()[groups.order]
        fit_conventions(groups, steps, log.frame["advantage"].to_numpy()[groups.order])
