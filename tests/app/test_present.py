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


def test_presentation_mode_survives_a_page_change():
    """Streamlit clears the query parameters on a page change; the session keeps presenting
    (and puts ?present=1 back into the URL: tests/e2e/test_classroom.py checks the URL)."""
    at = open_page("pages/home.py", query={"present": "1"})
    at.query_params.clear()  # what the top bar's navigation does to the URL
    at.switch_page("pages/epsilon.py")
    at.run()
    assert not at.exception
    assert at.session_state["present"] is True


def test_links_between_pages_keep_presentation_mode():
    presenting = open_page("pages/guide.py", query={"present": "1"}).get("page_link")
    assert presenting and all(link.proto.query_string == "present=1" for link in presenting)
    plain = open_page("pages/guide.py").get("page_link")
    assert plain and all(link.proto.query_string == "" for link in plain)
