"""grpo_core.log_files: a run's completions folder as several files or a .zip, and bad zips."""

import io
import zipfile

import pandas as pd
import pytest

from grpo_core import log_files
from grpo_core.log_files import load_logs, step_from_name, unzip
from grpo_core.rollouts import LogError


def step_file(step: int, *, step_column=True, extra=None) -> bytes:
    frame = pd.DataFrame(
        {
            "prompt": ["a", "a", "b", "b"],
            "completion": ["x", "y", "z", "w"],
            "accuracy_reward": [1.0, 0.0, 1.0, 1.0],
            "advantage": [0.7071, -0.7071, 0.0, 0.0],
        }
    )
    if step_column:
        frame.insert(0, "step", step)
    if extra:
        frame[extra] = 1.0
    buffer = io.BytesIO()
    frame.to_parquet(buffer, index=False)
    return buffer.getvalue()


def zipped(files) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files:
            archive.writestr(name, data)
    return buffer.getvalue()


def test_steps_come_from_trls_file_names():
    assert step_from_name("completions/completions_00012.parquet") == 12
    assert step_from_name("log.parquet") is None


def test_files_are_read_in_step_order_as_one_log():
    files = [(f"completions_{s:05d}.parquet", step_file(s)) for s in (3, 1, 2)]
    log = load_logs(files)
    assert log.frame["step"].tolist() == [1] * 4 + [2] * 4 + [3] * 4
    assert log.grouping.size == 2


def test_files_without_a_step_column_take_it_from_their_names():
    files = [(f"completions_{s:05d}.parquet", step_file(s, step_column=False)) for s in (1, 2)]
    assert load_logs(files).frame["step"].tolist() == [1] * 4 + [2] * 4


def test_files_with_different_columns_are_named():
    files = [
        ("completions_00001.parquet", step_file(1)),
        ("completions_00002.parquet", step_file(2, extra="length_penalty")),
    ]
    with pytest.raises(LogError, match=r"completions_00002.parquet adds 'length_penalty'"):
        load_logs(files)


def test_two_runs_files_of_one_name_are_refused_and_a_file_twice_is_read_once():
    """An upload box adds files: run A's completions_00001.parquet, then run B's, were
    merged into one log of twice the groups with nothing said (or, when B logged another
    reward, "completions_00001.parquet adds 'x', compared with completions_00001.parquet")."""
    run_a = [(f"completions_{s:05d}.parquet", step_file(s)) for s in (1, 2)]
    rerun = pd.read_parquet(io.BytesIO(step_file(1))).assign(completion=["p", "q", "r", "s"])
    buffer = io.BytesIO()
    rerun.to_parquet(buffer, index=False)
    run_b = [("completions_00001.parquet", buffer.getvalue())]
    with pytest.raises(LogError, match=r"Two different files are named completions_00001.parquet"):
        load_logs(run_a + run_b)
    with pytest.raises(LogError, match=r"the files of two runs"):
        load_logs([*run_a, ("completions_00001.parquet", step_file(1, extra="x"))])
    assert len(load_logs(run_a + run_a).frame) == 8  # the same files twice: one run


def test_a_zip_of_the_folder_reads_like_its_files():
    files = [(f"completions/completions_{s:05d}.parquet", step_file(s)) for s in (1, 2)]
    assert len(load_logs([("run.zip", zipped(files))]).frame) == 8


def test_a_zip_of_ten_thousand_files_is_refused_before_reading():
    files = [(f"f{i}.csv", b"") for i in range(10_000)]
    with pytest.raises(LogError, match="holds 10,000 files"):
        unzip(zipped(files))


def test_a_zip_bomb_is_refused(monkeypatch):
    monkeypatch.setattr(log_files, "MAX_TOTAL_BYTES", 2**20)
    bomb = zipped([("completions_00001.csv", b"0" * (8 * 2**20))])  # 8 MB of zeros: 8 KB zipped
    assert len(bomb) < 20_000
    with pytest.raises(LogError, match="unpack to 8 MB"):
        unzip(bomb)


def test_a_zip_whose_header_lies_about_its_size_is_cut_at_the_limit(monkeypatch):
    monkeypatch.setattr(log_files, "MAX_TOTAL_BYTES", 2**20)
    bomb = bytearray(zipped([("a.csv", b"0" * (4 * 2**20))]))
    central = bomb.rfind(b"PK\x01\x02")  # the central directory's uncompressed size: 10 bytes
    bomb[central + 24 : central + 28] = (10).to_bytes(4, "little")
    local = bomb.find(b"PK\x03\x04")
    bomb[local + 22 : local + 26] = (10).to_bytes(4, "little")
    with pytest.raises(LogError, match="damaged"):
        unzip(bytes(bomb))


def test_a_zip_without_tables_and_a_broken_zip_are_refused():
    with pytest.raises(LogError, match=r"no \.parquet"):
        unzip(zipped([("notes.txt", b"hello")]))
    with pytest.raises(LogError, match="cannot be opened"):
        unzip(b"PK\x03\x04 not really a zip")


def test_an_empty_file_among_several_is_named():
    files = [("completions_00001.parquet", step_file(1)), ("completions_00002.parquet", b"")]
    with pytest.raises(LogError, match=r"completions_00002.parquet: The file is empty"):
        load_logs(files)
