"""Presentation mode read from the link. (Its buttons live in app.py, outside the page, where
AppTest does not see them: tests/e2e/test_classroom.py clicks them in a real browser.)"""

import plotly.graph_objects as go

from tests.app.conftest import open_page
from ui import present
from ui.present import BODY_PX


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
    assert f'"size":{BODY_PX}' in figure.replace(" ", "")
    plain = open_page("pages/walkthrough.py").get("plotly_chart")[0].proto.spec
    assert f'"size":{BODY_PX}' not in plain.replace(" ", "")


def test_every_text_of_a_presented_chart_is_body_size_in_the_text_colour():
    figure = go.Figure(
        [go.Bar(y=[1, -1], text=["+1", "−1"]), go.Heatmap(z=[[1, -1]], colorbar={"title": "A"})],
        layout={
            "title": "t",
            "annotations": [{"text": "eps", "x": 0, "y": 1, "font": {"size": 12}}],
            "xaxis2": {"title": "x"},
        },
    )
    figure = present.readable(figure, "#123456", BODY_PX)
    layout = figure.layout
    for axis in (layout.xaxis, layout.xaxis2, layout.yaxis):
        assert axis.tickfont.size == BODY_PX and axis.tickfont.color == "#123456"
        assert axis.title.font.size == BODY_PX
    assert layout.annotations[0].font.size == BODY_PX
    assert layout.annotations[0].font.color == "#123456"
    assert layout.legend.font.size == BODY_PX and layout.title.font.size > BODY_PX
    assert figure.data[0].textfont.size == BODY_PX
    assert figure.data[1].colorbar.tickfont.size == BODY_PX


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


def _in_order(block) -> list[str]:
    """The page's elements and blocks depth first, as they are drawn: a type and a label."""
    out = []
    for node in block.children.values():
        label = getattr(node, "label", None) or getattr(node, "value", None)
        out.append(f"{node.type}:{label}")
        if hasattr(node, "children"):
            out += _in_order(node)
    return out


def test_presenting_the_quiz_shows_the_question_before_its_settings(tmp_path, monkeypatch):
    """At 1280x720 the folded "How practice works" and the new-quiz settings pushed a
    choice question's options and its Check button below the fold: presenting, they come
    after the question; read on a screen of one's own, before it."""
    monkeypatch.setenv("GRPO_STORE", f"sqlite://{tmp_path}/grpo.sqlite3")
    shown = _in_order(open_page("pages/quiz.py", query={"present": "1"}).main)
    question = next(i for i, n in enumerate(shown) if n == "button:Check")
    settings = next(i for i, n in enumerate(shown) if "How practice works" in n)
    new_quiz = next(i for i, n in enumerate(shown) if "New practice quiz" in n)
    assert question < settings < new_quiz
    plain = _in_order(open_page("pages/quiz.py").main)
    question = next(i for i, n in enumerate(plain) if n == "button:Check")
    assert next(i for i, n in enumerate(plain) if "New practice quiz" in n) < question
