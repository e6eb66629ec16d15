"""Presentation mode read from the link. (Its buttons live in app.py, outside the page, where
AppTest does not see them: tests/e2e/test_classroom.py clicks them in a real browser.)"""

from tests.app.conftest import open_page


def test_link_turns_presentation_mode_on():
    at = open_page("pages/walkthrough.py", query={"present": "1"})
    assert not at.exception
    assert at.session_state["present"] is True


def test_off_by_default_and_for_junk():
    assert open_page("pages/playground.py").session_state["present"] is False
    at = open_page("pages/playground.py", query={"present": "<script>"})
    assert not at.exception and at.session_state["present"] is False


def test_charts_get_larger_type_while_presenting():
    at = open_page("pages/walkthrough.py", query={"present": "1"})
    figure = at.get("plotly_chart")[0].proto.spec
    assert '"size":19' in figure.replace(" ", "")
    plain = open_page("pages/walkthrough.py").get("plotly_chart")[0].proto.spec
    assert '"size":19' not in plain.replace(" ", "")
