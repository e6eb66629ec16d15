"""Every page renders without an exception, from the navigation."""

import pytest

from tests.app.conftest import PAGES, ROOT, open_page


def test_every_page_is_in_the_navigation():
    app = (ROOT / "app.py").read_text()
    for page in PAGES:
        assert f'"{page}"' in app, f"{page} is not in app.py's navigation"


@pytest.mark.parametrize("page", PAGES)
def test_page_renders_without_exception(page):
    at = open_page(page)
    assert not at.exception, at.exception
    assert at.title, f"{page} has no title"
