"""What a reader saw on the learning and lab pages that the other tests did not catch
(session 10's QA pass): each test opens one page once and checks what it shows."""

from tests.e2e.conftest import assert_healthy, open_path, settle, shot


def test_epsilon_rewards_box_emptied_or_infinite_is_a_message(page, app_url):
    """Emptying the near-tie box (or typing inf in it) put "eps.group=" in the URL, and the
    next run's link check tried to delete that widget-bound parameter: a traceback."""
    open_path(page, app_url, "/epsilon")
    box = page.get_by_label("Rewards of one group", exact=True)
    for typed, message in [("", "Type at least two rewards"), ("inf, 1", "infinite")]:
        box.fill(typed)
        box.press("Enter")
        settle(page)
        assert_healthy(page)
        alerts = page.locator('[data-testid="stAlert"]').all_inner_texts()
        assert any(message in a for a in alerts), alerts
    shot(page, "qa-epsilon-infinite-reward")
