"""In a real browser, both modes of "A real model's group": the saved groups on a server
without the model (GRPO_REAL_MODEL=off), and live sampling with the real model."""

from pathlib import Path
from urllib.parse import urlencode

import pytest

from deploy.run import SERVER_FLAGS
from realmodel import groups, model
from tests.e2e.conftest import (
    assert_healthy,
    free_port,
    open_path,
    settle,
    shot,
    start_streamlit,
    stop_streamlit,
    whole_page_shot,
)

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group(__name__)]
"""All on one xdist worker: the live tests share one server (``live_url``), which loads the
model once, and the later tests find the first one's group and step in that server's cache."""
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def saved_only_url():
    """A server of its own with live sampling off, as on a machine without the extra."""
    port = free_port()
    process = start_streamlit(port, env={"GRPO_REAL_MODEL": "off"})
    yield f"http://127.0.0.1:{port}"
    stop_streamlit(process)


@pytest.fixture(scope="module")
def live_url(app_server):
    """A server of its own for live sampling, in the session server's test environment: the
    model it loads (about 1 GB resident after a step) must not stay in the session's server,
    whose memory other tests bound (tests/e2e/test_hostile_files.py: 1 GB after every
    hostile upload). The module's tests share it, so the model loads once."""
    port = free_port()
    process = start_streamlit(port, env=app_server.env, flags=tuple(SERVER_FLAGS))
    yield f"http://127.0.0.1:{port}"
    stop_streamlit(process)


def main_text(page) -> str:
    return page.locator('[data-testid="stMain"]').inner_text()


@pytest.mark.parametrize(
    ("name", "width", "path"),
    [
        ("1440", 1440, "/real-model"),
        ("390", 390, "/real-model"),
        ("present", 1280, "/real-model?present=1"),
    ],
)
def test_saved_groups_in_the_browser(saved_only_url, clean_page, name, width, path):
    page = clean_page({"width": width, "height": 3000}, is_mobile=width < 500)
    page.set_default_timeout(60_000)
    open_path(page, saved_only_url, path)
    settle(page)
    assert_healthy(page)
    text = main_text(page)
    assert "python3 dev.py run --with-model" in text
    assert "moved in the direction of their advantage" in text
    page.wait_for_selector(".js-plotly-plot .main-svg")
    assert page.evaluate(
        "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1"
    )
    shot(page, f"real_model_saved_{name}")


@pytest.mark.model
@pytest.mark.skipif(not model.available(), reason="the real model's extra is not installed")
def test_live_sampling_reproduces_a_saved_group_and_takes_a_step(live_url, clean_page):
    """Live with the saved group's settings (6 + 7, K = 8, seed 0, temperature 0.8): the same
    answers as scripts/sample_real_groups.py wrote, then one real step in the browser."""
    saved = next(g for g in groups.load_committed()[1] if g.task.label.endswith("6 + 7"))
    page = clean_page({"width": 1440, "height": 3000})
    page.set_default_timeout(60_000)
    open_path(page, live_url, "/real-model")
    page.get_by_text("Sample live").click()
    settle(page)
    page.get_by_label("Task").click()
    page.get_by_role("option", name=saved.task.label).click()
    settle(page)
    page.get_by_role("button", name="Sample K answers").click()
    page.wait_for_selector('[data-testid="stDataFrame"]', timeout=600_000)
    settle(page)
    assert_healthy(page)
    right = int(saved.rewards.sum())
    assert f"{right} of 8 answers right" in main_text(page)
    page.get_by_role("button", name="Take one real GRPO step").click()
    page.get_by_text("moved in the direction of their advantage").wait_for(timeout=600_000)
    settle(page)
    assert_healthy(page)
    page.wait_for_selector(".js-plotly-plot .main-svg")
    shot(page, "real_model_live_1440")


LIVE = pytest.mark.skipif(not model.available(), reason="the real model's extra is not installed")
SAVED_6_7 = "Arithmetic: 6 + 7"
LONG = 900_000  # ms: a job under heavy load on a shared 2-core machine


def live_path(task: str = SAVED_6_7, k: int = 8, seed: int = 0, present: bool = False) -> str:
    """The page in live mode with these settings, as its share link carries them."""
    query = {"rm.mode": "Sample live", "rm.task": task, "rm.k": k, "rm.seed": seed, "rm.temp": 0.8}
    return "/real-model?" + urlencode({**query, **({"present": 1} if present else {})})


def sample(page) -> None:
    """Press "Sample K answers" and wait for the group's table."""
    page.get_by_role("button", name="Sample K answers").click()
    page.wait_for_selector('[data-testid="stDataFrame"]', timeout=LONG)
    settle(page)


def sample_and_step(page) -> None:
    sample(page)
    page.get_by_role("button", name="Take one real GRPO step").click()
    page.get_by_text("moved in the direction of their advantage").wait_for(timeout=LONG)
    settle(page)
    assert_healthy(page)
    page.wait_for_selector(".js-plotly-plot .main-svg")


@pytest.mark.model
@LIVE
@pytest.mark.parametrize(
    ("name", "viewport", "present"),
    [
        ("390", {"width": 390, "height": 844}, False),
        ("present", {"width": 1280, "height": 720}, True),
    ],
)
def test_live_mode_on_a_phone_and_presenting(live_url, clean_page, name, viewport, present):
    """Opened from a link with the settings, then one real step (group and step come from
    the server's cache once the first live test has made them); nothing wider than the
    screen."""
    page = clean_page(viewport, is_mobile=not present)
    page.set_default_timeout(60_000)
    open_path(page, live_url, live_path(present=present))
    sample_and_step(page)
    assert page.evaluate(
        "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1"
    )
    whole_page_shot(page, f"real_model_live_{name}")


@pytest.mark.model
@LIVE
def test_two_sessions_at_once_the_second_sees_the_queue(live_url, clean_page):
    """Two browsers ask for groups nobody sampled yet; the second waits its turn and says so.
    The first asks for 8 answers of up to 48 tokens (5 s on a quiet machine), long enough for
    the second's click to arrive while it runs; the second for 2, which only has to wait."""
    pages = []
    for k, seed in ((8, 11), (2, 12)):
        page = clean_page({"width": 1440, "height": 2000})  # two browsers
        page.set_default_timeout(60_000)
        open_path(page, live_url, live_path(k=k, seed=seed))
        pages.append(page)
    first, second = pages
    first.get_by_role("button", name="Sample K answers").click()
    first.get_by_text("of 8 answers").first.wait_for(timeout=LONG)  # its progress bar: running
    second.get_by_role("button", name="Sample K answers").click()
    second.get_by_text("Waiting: 1 ahead of you").wait_for(timeout=60_000)
    shot(second, "real_model_live_queue")
    for page, k in zip(pages, (8, 2), strict=True):
        page.wait_for_selector('[data-testid="stDataFrame"]', timeout=LONG)
        settle(page)
        assert_healthy(page)
        assert f"of {k} answers right" in main_text(page)
    assert second.get_by_text("ahead of you").count() == 0


@pytest.mark.model
@LIVE
def test_a_few_steps_draw_a_curve_and_a_second_run_meets_the_rate_limit(live_url, clean_page):
    """K = 2 keeps it short: one group (1 job) and a few steps (4 jobs) fit in the session's
    6 a minute; asking for the few steps again at once is refused with a wait."""
    page = clean_page({"width": 1440, "height": 2400})
    page.set_default_timeout(60_000)
    open_path(page, live_url, live_path(k=2, seed=3))
    sample(page)
    page.get_by_role("button", name="Run 3 steps").click()
    page.get_by_text("group by group").wait_for(timeout=LONG)
    settle(page)
    assert_healthy(page)
    text = main_text(page)
    assert "The model is back to its shipped weights" in text
    assert page.locator(".js-plotly-plot").count() >= 1
    whole_page_shot(page, "real_model_live_curve")
    page.get_by_role("button", name="Run 3 steps").click()
    page.get_by_text("Too many runs in a minute").wait_for(timeout=60_000)
    settle(page)
    assert_healthy(page)
    assert "group by group" in main_text(page)  # the refused run left the curve on screen
    shot(page, "real_model_live_rate_limit")
