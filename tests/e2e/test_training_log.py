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
