"""The pages issue 22 changed, in headless Chromium: guide, conventions, bug gallery, and
the playground's several-rewards mode. Screenshots are saved for a person to look at."""

from tests.e2e.conftest import assert_healthy, follow_path, open_path, settle, shot


def test_guide_new_sections_render(page, app_url):
    open_path(page, app_url, "/guide?s=where-the-kl-goes-in-the-loss-or-in-the-reward")
    assert_healthy(page)
    main = page.locator('[data-testid="stMain"]')
    assert "k_3" not in main.inner_text()  # the KaTeX rendered, no raw LaTeX
    assert "Three estimators" in main.inner_text()
    shot(page, "content-guide-kl")
    open_path(page, app_url, "/guide?s=several-rewards-sum-first-or-normalise-first-gdpo")
    assert_healthy(page)
    shot(page, "content-guide-gdpo")


def assert_conventions_page_shows_the_new_conventions(page) -> None:
    assert_healthy(page)
    text = page.locator('[data-testid="stMain"]').inner_text()
    assert "nemo-rl (NeMo-RL's default)" in text and "reinforce-pp (OpenRLHF's" in text
    shot(page, "content-conventions")


def assert_bug_gallery(page) -> None:
    assert_healthy(page)
    text = page.locator('[data-testid="stMain"]').inner_text()
    assert '"none" divided by the group std anyway' in text
    shot(page, "content-trainer-bugs")
    page.get_by_text('"none" divided by the group std anyway').scroll_into_view_if_needed()
    settle(page)
    page.screenshot(path=str(shot(page, "content-trainer-bugs-trl")), full_page=False)


def assert_playground_several_rewards(page) -> None:
    page.get_by_text("Several reward functions: sum first or normalise first (GDPO)").click()
    settle(page, 1500)
    assert_healthy(page)
    text = page.locator('[data-testid="stMain"]').inner_text()
    assert "Summed first, 6 answers share an advantage" in text  # K = 8: the pattern twice
    assert "normalised first, 0 answers do" in text
    shot(page, "content-playground-gdpo")


def assert_cheat_sheet_kl_lines(page) -> None:
    assert_healthy(page)
    page.get_by_text("Where the KL goes").first.scroll_into_view_if_needed()
    settle(page)
    page.screenshot(path=str(shot(page, "content-cheatsheet")), full_page=False)


def test_a_reader_finds_the_new_content_on_four_pages(page, app_url):
    """One reader, one load, the app's navigation: the conventions page lists the new
    conventions, the bug gallery its bugs, the playground's several-rewards mode compares
    sum-first and normalise-first, the cheat sheet has its KL lines. (Four tests with a
    load each until session 11.)"""
    open_path(page, app_url, "/conventions")
    assert_conventions_page_shows_the_new_conventions(page)
    follow_path(page, app_url, "/trainer-bugs")
    assert_bug_gallery(page)
    follow_path(page, app_url, "/playground")
    assert_playground_several_rewards(page)
    follow_path(page, app_url, "/cheatsheet")
    assert_cheat_sheet_kl_lines(page)
