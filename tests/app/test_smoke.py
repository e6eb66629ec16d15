"""Every page renders without an exception, from the navigation."""

import pytest

from tests.app.conftest import PAGES, open_page
from ui.nav import PAGES as NAV


def test_every_page_is_in_the_navigation():
    listed = {f"pages/{file}.py" for entries in NAV.values() for file, *_ in entries}
    assert listed == set(PAGES), "ui/nav.py must list exactly the files in pages/"


@pytest.mark.parametrize("page", PAGES)
def test_page_renders_without_exception(page):
    at = open_page(page)
    assert not at.exception, at.exception
    assert at.title, f"{page} has no title"
