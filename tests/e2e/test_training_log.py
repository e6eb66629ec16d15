"""In a real browser: the training-log page reads the sample, an uploaded log and a bad file
(the page stays up, the text is shown, nothing runs); the bugs gallery opens a preset in the
playground."""

import pytest

import content
from tests.e2e.conftest import assert_healthy, chart_marks, open_path, settle, shot

pytestmark = pytest.mark.e2e


def alerts(page) -> str:
    return " ".join(page.locator('[data-testid="stAlert"]').all_inner_texts())


def choose_upload(page) -> None:
    # A fresh server's first visit by URL may show Streamlit's "Page not found" notice
    # (its older multipage mode looks for pages/training-log.py) before app.py takes over.
    if page.get_by_role("dialog").count():
        page.keyboard.press("Escape")
    page.get_by_text("Upload your own", exact=True).click()
    settle(page)


def test_sample_log_and_an_uploaded_one(app_url, page, tmp_path):
    open_path(page, app_url, "/training-log")
    assert_healthy(page)
    assert "This is a sample log, not a real run" in alerts(page)
    assert chart_marks(page) > 0
    assert "This run matches trl" in page.inner_text("body")
    shot(page, "training_log_sample")

    choose_upload(page)
    path = tmp_path / "my_run.csv"
    path.write_bytes(content.path("sample_log.csv").read_bytes())
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(path))
    settle(page, 1500)
    assert_healthy(page)
    assert "Read as CSV: 320 answers in 40 groups over 8 steps" in page.inner_text("body")
    shot(page, "training_log_uploaded")


def test_a_bad_file_is_explained_and_nothing_runs(app_url, page, tmp_path):
    open_path(page, app_url, "/training-log")
    choose_upload(page)
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    bad = tmp_path / "bad.csv"
    bad.write_text(
        'step,prompt,completion,reward\n1,"=1+1",<img src=x onerror=alert(1)>,1\n'
        "1,b,<b>bold</b>,oops\n"
    )
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(bad))
    settle(page, 1500)
    assert_healthy(page)
    assert "Row 2, column reward" in alerts(page)
    assert page.locator("h1").first.inner_text() == "Inspect a training log"
    assert dialogs == [] and page.locator("img[src=x]").count() == 0
    shot(page, "training_log_bad_file")


def test_a_bug_opens_in_the_playground(app_url, page):
    open_path(page, app_url, "/trainer-bugs")
    assert_healthy(page)
    assert page.locator('[data-testid="stDataFrame"]').count() == 5  # TRL's "none" since issue 22
    shot(page, "trainer_bugs")
    page.get_by_role("button", name="Open in the playground").nth(3).click()  # the TRL preset
    settle(page, 1500)
    assert_healthy(page)
    assert page.locator("h1").first.inner_text() == "Reward playground"
    shot(page, "trainer_bugs_in_playground")


@pytest.mark.trainer
def test_a_folder_of_real_trl_files_is_read_as_one_run(app_url, page, trl_logs):
    open_path(page, app_url, "/training-log")
    choose_upload(page)
    folder = trl_logs / "log_extra" / "completions"
    files = sorted(str(p) for p in folder.glob("completions_*.parquet"))
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(files)
    settle(page, 2500)
    assert_healthy(page)
    body = page.inner_text("body")
    assert "Read as PARQUET: 32 answers in 8 groups over 4 steps" in body
    assert "K = 4" in body
    assert "computed in float32 (every logged value is a float32 number)" in body
    assert chart_marks(page) > 0
    shot(page, "training_log_trl_folder")
    page.get_by_text("4 · Which convention did this run use?").scroll_into_view_if_needed()
    settle(page)
    shot(page, "training_log_trl_convention")


def upload_paths(page, paths) -> None:
    """Choose ``paths`` in the uploader; return once the page has read them (its summary
    line or a message) or the browser has refused one (a file chip marked in red)."""
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(
        [str(p) for p in paths]
    )
    page.wait_for_function(DONE, timeout=120_000)
    settle(page, 500)


DONE = """() => document.body.innerText.includes('Read as ')
    || document.querySelector('[data-testid="stFileChipIconError"]')
    || [...document.querySelectorAll('[data-testid="stAlert"]')]
        .some(a => !a.innerText.includes('Choose CSV'))"""


@pytest.mark.trainer
def test_a_zip_of_a_real_trl_folder_is_read_as_one_run(app_url, page, trl_logs, tmp_path):
    import zipfile

    folder = trl_logs / "repeated_prompts" / "completions"
    archive = tmp_path / "completions.zip"
    with zipfile.ZipFile(archive, "w") as z:
        for path in sorted(folder.glob("completions_*.parquet")):
            z.write(path, f"completions/{path.name}")
    open_path(page, app_url, "/training-log")
    choose_upload(page)
    upload_paths(page, [archive])
    assert_healthy(page)
    body = page.inner_text("body")
    assert "Read as PARQUET: 64 answers in 16 groups over 4 steps" in body
    assert "K = 4" in body and "These blocks reproduce the logged advantages." in body
    assert "This run matches trl" in body
    assert "Mixed group sizes" not in body  # repeated prompt texts are not merged
    shot(page, "training_log_trl_zip")


@pytest.mark.trainer
def test_two_runs_files_together_get_a_message(app_url, page, trl_logs):
    """Files of two runs in one upload box are refused in words: run A's step 1 beside run
    B's step 2 by their columns (B logged a second reward), and then run B's step 1 too by
    its name, which run A's file already has (grpo_core.log_files)."""
    a1, b1, b2 = (
        sorted((trl_logs / run / "completions").glob("*.parquet"))[step]
        for run, step in (("defaults", 0), ("two_rewards", 0), ("two_rewards", 1))
    )
    open_path(page, app_url, "/training-log")
    choose_upload(page)
    upload_paths(page, [a1, b2])
    assert_healthy(page)
    assert "The files do not have the same columns" in alerts(page)
    upload_paths(page, [b1])  # the box adds it: now two different completions_00001.parquet
    page.get_by_text("Two different files are named completions_00001.parquet").wait_for()
    assert "these look like the files of two runs" in alerts(page)
    assert_healthy(page)
    assert page.locator("h1").first.inner_text() == "Inspect a training log"


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("bomb.zip", "The files unpack to 1,024 MB; the limit is 100 MB"),
        ("many.zip", "The .zip holds 10,000 files; at most 1,000 are read"),
    ],
)
def test_a_hostile_zip_is_refused_and_the_page_stays_up(app_url, page, tmp_path, name, message):
    from tests import hostile_files

    make = {"bomb.zip": hostile_files.zip_bomb, "many.zip": hostile_files.zip_of_many}[name]
    path = tmp_path / name
    path.write_bytes(make())
    open_path(page, app_url, "/training-log")
    choose_upload(page)
    upload_paths(page, [path])
    assert_healthy(page)
    assert message in alerts(page)
    assert page.locator("h1").first.inner_text() == "Inspect a training log"
    shot(page, f"training_log_hostile_{name.replace('.', '_')}")


def test_a_200_mb_upload_is_refused_in_the_browser(app_url, page, tmp_path):
    path = tmp_path / "big.csv"
    with open(path, "wb") as f:  # sparse: 200 MB on paper, nothing written
        f.write(b"prompt,reward\n")
        f.truncate(200 * 2**20)
    open_path(page, app_url, "/training-log")
    choose_upload(page)
    upload_paths(page, [path])
    assert_healthy(page)
    body = page.inner_text("body")
    assert "File must be 100.0MB or smaller" in body  # Streamlit's, read aloud as an alert
    assert "100 MB at most in all. A larger file is marked in red above" in alerts(page)
    assert page.locator("h1").first.inner_text() == "Inspect a training log"
    shot(page, "training_log_200_mb")
