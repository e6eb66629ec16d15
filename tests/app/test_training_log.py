"""Inspect a training log and Bugs trainers shipped: the sample, uploads, bad files, links."""

import io

import numpy as np
import pandas as pd
import pytest

import content
from grpo_core import group_advantages
from grpo_core.trainer_bugs import BUGS
from tests.app.conftest import open_page, texts

PAGE = "pages/training-log.py"
BUGS_PAGE = "pages/trainer-bugs.py"


def upload(at, name: str, data: bytes):
    at.segmented_control(key="tl.source").set_value("upload").run()
    at.file_uploader(key="tl.upload").upload(name, data).run()
    return at


def table_with(at, column: str) -> pd.DataFrame:
    """The first table on the page with this column (AppTest keeps no key on st.dataframe)."""
    return next(d.value for d in at.dataframe if column in d.value.columns)


def page_text(at) -> str:
    return "\n".join(texts(at, "markdown") + texts(at, "caption") + texts(at, "info"))


def test_the_sample_log_is_labelled_and_read_as_trl():
    at = open_page(PAGE)
    assert not at.exception
    assert any("This is a sample log, not a real run" in t for t in texts(at, "info"))
    assert "This run matches **trl**" in page_text(at)
    assert "320 answers in 40 groups over 8 steps" in page_text(at)
    worst = table_with(at, "problem")
    assert set(worst["problem"]) == {"zero spread"}


def test_an_uploaded_parquet_log_is_read(tmp_path):
    frame = pd.read_csv(content.path("sample_log.csv")).head(64)
    buffer = io.BytesIO()
    frame.to_parquet(buffer, index=False)
    at = upload(open_page(PAGE), "run.parquet", buffer.getvalue())
    assert not at.exception
    assert "Read as PARQUET: 64 answers in 8 groups over 2 steps" in page_text(at)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"\x00\x01binary", "binary data"),
        (b"prompt,completion\na,x\n", "No reward column"),
        (b"prompt,reward\na,1\na,oops\n", "Row 2, column reward: 'oops' is not a number"),
    ],
)
def test_bad_files_give_a_message_and_the_page_stays_up(data, message):
    at = upload(open_page(PAGE), "bad.csv", data)
    assert not at.exception
    errors = [e.replace("\\", "") for e in texts(at, "error")]  # markdown escapes removed
    assert len(errors) == 1 and message in errors[0], errors
    assert at.title[0].value == "Inspect a training log"


def test_html_is_named_and_shown_as_text():
    data = (
        b"step,prompt,completion,reward\n"
        b'1,"=HYPERLINK(""http://x"")",<img src=x onerror=alert(1)>,1\n'
        b'1,"=HYPERLINK(""http://x"")",ok,0\n'
    )
    at = upload(open_page(PAGE), "evil.csv", data)
    assert not at.exception
    warnings = "\n".join(texts(at, "warning"))
    assert "formula" not in warnings  # it matters only in a CSV, and those are guarded
    assert "Row 1, column completion" in warnings and "HTML" in warnings
    assert "<img" not in warnings  # escaped: &lt;img


def test_an_upload_over_the_limit_is_refused_by_the_app(monkeypatch):
    from grpo_core import rollouts

    monkeypatch.setattr(rollouts, "MAX_BYTES", 10)
    at = upload(open_page(PAGE), "big.csv", b"prompt,reward\na,1\na,0\n")
    assert any("the limit is 0 MB" in e for e in texts(at, "error"))


def test_a_column_can_be_remapped_by_hand():
    at = open_page(PAGE)
    digest_key = next(k for k in at.session_state if str(k).endswith(".advantage"))
    at.selectbox(key=digest_key).select_index(0).run()  # "(none)"
    assert not at.exception
    assert any("no advantage column" in t for t in texts(at, "info"))


def test_a_worst_group_opens_in_the_playground():
    at = open_page(PAGE)
    at.button(key="tl.open.playground").click().run()
    assert not at.exception
    assert at.session_state["rewards_grid"] in (
        [["1.1"] * 8],
        [["1"] * 8],
        [["0"] * 8],
        [["0.1"] * 8],
    )


def test_the_playground_rewards_are_aggregated_both_ways():
    at = open_page(PAGE, state={"rewards_grid": [["1", "0", "0", "1"]]})
    both = table_with(at, "sign_changed")
    assert both["accuracy"].tolist() == [1.0, 0.0, 0.0, 1.0]
    assert {"sum then normalise", "normalise then sum", "sign_changed"} <= set(both.columns)


def test_the_playground_rewards_keep_their_grid_rows_when_a_cell_is_left_out():
    at = open_page(PAGE, state={"rewards_grid": [["1", "oops", "0", "", "1"]]})
    assert not at.exception
    typed = next(d.value for d in at.dataframe if "format" in d.value.columns)
    assert typed.index.tolist() == ["answer 1", "answer 3", "answer 5"]
    assert typed["accuracy"].tolist() == [1.0, 0.0, 1.0]


def test_the_gallery_shows_every_bug_with_its_numbers():
    at = open_page(BUGS_PAGE)
    assert not at.exception
    tables = [d.value for d in at.dataframe]
    assert len(tables) == len(BUGS)
    for bug, shown in zip(BUGS.values(), tables, strict=True):
        assert len(shown) == np.asarray(bug.rewards).size
        assert bug.url in page_text(at)


def test_a_bug_opens_in_the_playground_with_its_settings():
    at = open_page(BUGS_PAGE)
    at.button(key="tb.trl-scale-swap.open.playground").click().run()
    assert not at.exception
    s = at.session_state
    assert s["rewards_grid"] == [["1", "0", "0", "0"], ["1", "1", "1", "0"]]
    assert s["settings.convention"] == "trl" and s["settings.custom"]
    assert s["settings.scale"] == "none"
    table = at.dataframe[-1].value  # the playground's step table
    np.testing.assert_allclose(
        table["advantage"], [0.75, -0.25, -0.25, -0.25, 0.25, 0.25, 0.25, -0.75]
    )


def test_the_gallery_describes_trl_0_22_exactly_and_nemo_rl_as_a_fixed_default():
    at = open_page(BUGS_PAGE)
    headers = [h.value for h in at.subheader]
    default = 'the default "group" computed the batch std and divided by nothing'
    assert f"TRL: v0.22.0 and v0.22.1: {default}" in headers
    assert 'TRL: v0.22.0 and v0.22.1: "none" divided by the group std anyway' in headers
    assert "NVIDIA NeMo-RL: The default estimator divided by an std of 0" in headers
    assert not any("swap" in h.lower() for h in headers)
    text = " ".join(page_text(at).split())
    assert "Dr. GRPO users silently trained GRPO" in text and "on GPU reductions" in text


def test_the_none_bug_opens_the_playground_on_trl_which_reproduces_it():
    at = open_page(BUGS_PAGE)
    at.button(key="tb.trl-scale-none.open.playground").click().run()
    assert not at.exception
    assert at.session_state["settings.convention"] == "trl"
    table = at.dataframe[-1].value
    expected = group_advantages([[1, 0, 0, 0], [1, 1, 1, 0]], convention="trl").ravel()
    np.testing.assert_allclose(table["advantage"], expected)


# --- a folder of real TRL files (tests/trl_logs: GRPOTrainer on CPU, cached) --------------


def trl_files(root, run):
    paths = sorted((root / run / "completions").glob("*.parquet"))
    return [(p.name, p.read_bytes()) for p in paths]


def upload_files(at, files):
    at.segmented_control(key="tl.source").set_value("upload").run()
    typed = [(name, data, "application/octet-stream") for name, data in files]
    at.file_uploader(key="tl.upload").set_value(typed).run()
    return at


@pytest.mark.trainer
def test_a_folder_of_trl_files_is_read_as_one_run(trl_logs):
    at = upload_files(open_page(PAGE), trl_files(trl_logs, "log_extra"))
    assert not at.exception
    text = page_text(at)
    assert "Read as PARQUET: 32 answers in 8 groups over 4 steps" in text
    assert "blocks of **K = 4** consecutive rows" in text
    assert "the reward columns is_right and length_penalty summed" in text
    assert "computed in float32 (every logged value is a float32 number)" in text
    roles = table_with(at, "role").set_index("column")["role"]
    assert roles["num_digits"] == "extra" and roles["is_right"] == "reward"
    warnings = [w.replace("\\", "") for w in texts(at, "warning")]
    assert any("'num_digits' holds numbers" in w for w in warnings), warnings


@pytest.mark.trainer
def test_a_gdpo_run_is_reported_as_gdpo(trl_logs):
    at = upload_files(open_page(PAGE), trl_files(trl_logs, "gdpo"))
    assert "This run matches **GDPO**" in page_text(at)
    assert not any("match no convention" in w for w in texts(at, "warning"))


@pytest.mark.trainer
def test_k_can_be_changed_by_hand_and_the_page_says_so(trl_logs):
    at = upload_files(open_page(PAGE), trl_files(trl_logs, "repeated_prompts"))
    assert "blocks of **K = 4**" in page_text(at)
    k_key = next(k for k in at.session_state if str(k).endswith(".k"))
    at.number_input(key=k_key).set_value(8).run()
    assert not at.exception
    assert (
        "blocks of **K = 8** consecutive rows in each step, as TRL's sampler orders them "
        "(K chosen by hand" in page_text(at)
    )
    assert "This run matches" not in page_text(at)  # K = 8 reproduces nothing
    warnings = [w.replace("\\", "") for w in texts(at, "warning")]
    assert any(
        w.startswith("K = 8, chosen by hand, does not reproduce the logged advantages")
        and "; K = 4 does. Set K to 4 under Columns." in w
        for w in warnings
    ), warnings
    at.number_input(key=k_key).set_value(4).run()
    assert "These blocks reproduce the logged advantages." in page_text(at)
    assert "This run matches" in page_text(at)


@pytest.mark.trainer
def test_a_reward_column_can_be_given_back_by_hand(trl_logs):
    at = upload_files(open_page(PAGE), trl_files(trl_logs, "log_extra"))
    rewards_key = next(k for k in at.session_state if str(k).endswith(".rewards"))
    at.multiselect(key=rewards_key).select("num_digits").run()
    assert not at.exception
    roles = table_with(at, "role").set_index("column")["role"]
    assert roles["num_digits"] == "reward"
    assert "No listed convention reproduces these advantages" in page_text(at)


@pytest.mark.trainer
def test_files_of_two_runs_get_a_clear_message(trl_logs):
    files = trl_files(trl_logs, "defaults")[:1] + trl_files(trl_logs, "two_rewards")[1:2]
    at = upload_files(open_page(PAGE), files)
    assert not at.exception
    errors = [e.replace("\\", "") for e in texts(at, "error")]
    assert any("do not have the same columns" in e for e in errors), errors


@pytest.mark.trainer
def test_a_zip_of_a_trl_folder_with_repeated_prompts_is_read_by_position(trl_logs):
    import zipfile

    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as z:
        for name, data in trl_files(trl_logs, "repeated_prompts"):
            z.writestr(f"completions/{name}", data)
    at = upload_files(open_page(PAGE), [("completions.zip", archive.getvalue())])
    assert not at.exception
    text = page_text(at)
    assert "Read as PARQUET: 64 answers in 16 groups over 4 steps" in text
    assert "blocks of **K = 4** consecutive rows" in text
    assert "These blocks reproduce the logged advantages." in text
    assert not any("Mixed group sizes" in w for w in texts(at, "warning"))
