"""Learn pages: the concept guide (every section, its Try-it link, the one-section view)
and the length normalisation page (numbers against grpo_core.lengthnorm, bad input, links)."""

import json

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import content
from content.citations import cite
from grpo_core.lengthnorm import LOSS_TYPES, explain_length_bias, length_bias_table
from tests.app.conftest import ROOT, open_page, texts
from ui import learn, nav
from ui.nav import PAGES as NAV

GUIDE = "pages/guide.py"
LENGTH = "pages/length-normalisation.py"
DOC = learn.parse(cite(content.read_text("guide.md")))  # as the page shows it


def page_links(at) -> dict[str, str]:
    """label -> page of every st.page_link on the page, as its url path. (AppTest may
    report a file's stem instead of its url path: both name the same page.)"""
    stems = {file: url for entries in NAV.values() for file, *_, url in entries}
    return {e.proto.label: stems.get(e.proto.page, e.proto.page) for e in at.get("page_link")}


# --- content parsing ----------------------------------------------------------------------


def test_parse_splits_title_intro_sections_and_try_it():
    doc = learn.parse(
        "# Title\n\nIntro $x$.\n\n## First part\n\nBody.\n\nTry it: [Quiz](quiz)\n"
        "## Second: part\n\nNo link here.\n"
    )
    assert doc.title == "Title" and doc.intro == "Intro $x$."
    first, second = doc.sections
    assert (first.title, first.anchor, first.body) == ("First part", "first-part", "Body.")
    assert (first.try_title, first.try_slug) == ("Quiz", "quiz")
    assert second.anchor == "second-part" and second.try_slug is None
    assert second.body == "No link here."


def test_guide_file_has_a_try_it_line_in_every_section():
    assert len(DOC.sections) >= 8
    assert all(s.try_slug for s in DOC.sections)
    assert not any("Try it:" in s.body for s in DOC.sections)


# --- the concept guide ----------------------------------------------------------------------


def test_guide_renders_every_section_with_its_try_it_link():
    at = open_page(GUIDE)
    assert not at.exception
    assert at.title[0].value == DOC.title
    headers = [(h.value, h.proto.anchor) for h in at.header]
    assert headers == [(s.title, s.anchor) for s in DOC.sections]
    markdown = texts(at, "markdown")
    links = page_links(at)
    for section in DOC.sections:
        assert section.body in markdown, section.title
        label = f"Try it: {section.try_title}"
        if nav.by_url(section.try_slug):
            assert links[label] == section.try_slug, section.title
        else:
            assert f"Try it: **{section.try_title}** (this page is coming soon)." in markdown
            assert label not in links
    assert links["Try it: Reward playground"] == "playground"
    assert links["Try it: Length normalisation"] == "length-normalisation"


def test_guide_table_of_contents_links_every_anchor():
    at = open_page(GUIDE)
    contents = next(t for t in texts(at, "markdown") if t.startswith("1. ["))
    for i, section in enumerate(DOC.sections, start=1):
        assert f"{i}. [{section.title}](#{section.anchor})" in contents


def test_guide_formulas_keep_their_dollar_fences():
    at = open_page(GUIDE)
    formula = next(s for s in DOC.sections if s.anchor == "the-formula")
    assert formula.body.count("$$") == 4  # two display formulas, rendered by KaTeX
    assert "\\hat A_i = \\frac{R_i - \\mu}{\\sigma + \\epsilon}" in formula.body
    assert formula.body in texts(at, "markdown")


def test_a_try_it_page_that_does_not_exist_yet_is_plain_text():
    def app():
        from ui import learn

        learn.section(learn.Section("Soon", "soon", "Body.", "Future lab", "future-lab"))

    at = AppTest.from_function(app).run()
    assert not at.exception
    assert "Try it: **Future lab** (this page is coming soon)." in texts(at, "markdown")
    assert not at.get("page_link")
    assert nav.by_url("future-lab") is None
    assert nav.by_url("playground") == "playground"


def test_guide_one_section_view_steps_and_keeps_the_link():
    at = open_page(GUIDE)
    at.selectbox(key="guide.s").set_value("the-formula").run()
    assert not at.exception
    assert [h.value for h in at.header] == ["The formula"]
    assert at.query_params["s"] == ["the-formula"] or at.query_params["s"] == "the-formula"
    at.button(key="guide.next").click().run()
    assert [h.value for h in at.header] == ["A worked example, by hand"]
    at.button(key="guide.prev").click().run()
    at.button(key="guide.prev").click().run()
    assert [h.value for h in at.header] == ["The mechanics, step by step"]
    at.selectbox(key="guide.s").set_value("all").run()
    assert len(at.header) == len(DOC.sections)
    assert "s" not in at.query_params


def test_guide_next_brings_the_next_section_up_from_its_start():
    """Next and Previous stand at a section's end; the next section was shown from its end,
    where they were, so a projected section began off screen. Each newly shown section
    scrolls its heading up once; a rerun of the same section leaves the reader's scroll."""

    def scrolls_to(at) -> list[str]:
        return [
            anchor
            for e in at.get("html")
            for anchor in [s.anchor for s in DOC.sections]
            if "scrollTo" in e.proto.body and f'getElementById("{anchor}")' in e.proto.body
        ]

    at = open_page(GUIDE)
    at.selectbox(key="guide.s").set_value("the-formula").run()
    assert scrolls_to(at) == ["the-formula"]
    at.button(key="guide.next").click().run()
    assert scrolls_to(at) == ["a-worked-example-by-hand"]
    at.run()
    assert scrolls_to(at) == []


def test_guide_link_opens_one_section_and_a_bad_one_is_ignored():
    at = open_page(GUIDE, query={"s": "primary-sources"})
    assert not at.exception
    assert [h.value for h in at.header] == ["Primary sources"]
    assert at.button(key="guide.next").disabled
    for bad in ("nope", "<script>alert(1)</script>", "x" * 5000):
        at = open_page(GUIDE, query={"s": bad})
        assert not at.exception
        assert len(at.header) == len(DOC.sections)


def test_home_links_to_the_guide_first():
    at = open_page("pages/home.py")
    assert not at.exception
    first = next(iter(page_links(at).items()))
    assert first == ("Read the concept guide", "guide")


# --- length normalisation -------------------------------------------------------------------


def table(at):
    return at.dataframe[0].value


def check_numbers(at, lengths, advantages, **options):
    expected = length_bias_table(lengths, advantages, **options)
    shown = table(at)
    assert shown.loss_type.tolist() == expected.loss_type.tolist()
    for column in ("length", "advantage", "token_weight", "per_token_push", "sequence_push"):
        np.testing.assert_allclose(shown[column], expected[column], rtol=1e-12, err_msg=column)
    sentences = [t.removeprefix("- ") for t in texts(at, "markdown") if t.startswith("- Under")]
    assert sentences == explain_length_bias(lengths, advantages)


def test_length_page_defaults_are_the_worked_numbers():
    at = open_page(LENGTH)
    assert not at.exception
    assert len(at.get("plotly_chart")) == 2
    check_numbers(at, [2, 8], [1.0, -1.0], max_completion_length=8)
    captions = " ".join(texts(at, "caption"))
    # per token: grpo +0.25 / -0.0625, bnpo and dapo +0.1 / -0.1, dr_grpo ±0.0625
    assert '"grpo" A +0.25, B −0.0625; "bnpo" A +0.1, B −0.1' in captions
    assert '"dr_grpo" A +0.0625, B −0.0625; "dapo" A +0.1, B −0.1' in captions
    # totals: grpo ±0.5, token-level +0.2 / -0.8, dr_grpo +0.125 / -0.5
    assert '"grpo" A +0.5, B −0.5; "bnpo" A +0.2, B −0.8; "dr_grpo" A +0.125, B −0.5' in captions


def test_length_page_prose_and_try_it_links():
    doc = learn.parse(cite(content.read_text("length_normalisation.md")))
    at = open_page(LENGTH)
    headers = [h.value for h in at.header]
    assert headers == [s.title for s in doc.sections[:3]] + ["Your own two answers"] + [
        s.title for s in doc.sections[3:]
    ]
    markdown = texts(at, "markdown")
    assert all(s.body in markdown for s in doc.sections)
    assert page_links(at)["Try it: Step-by-step walkthrough"] == "walkthrough"
    assert "[Your own two answers](#your-own-two-answers)" in markdown[2]


def test_length_page_follows_the_inputs():
    at = open_page(LENGTH)
    at.number_input(key="ln.len_a").set_value(3)
    at.number_input(key="ln.adv_a").set_value(0.5)
    at.number_input(key="ln.len_b").set_value(300)
    at.number_input(key="ln.adv_b").set_value(-2.0)
    at.number_input(key="ln.lmax").set_value(1024).run()
    assert not at.exception
    check_numbers(at, [3, 300], [0.5, -2.0], max_completion_length=1024)


def test_max_completion_length_shorter_than_an_answer_is_explained():
    at = open_page(LENGTH)
    at.number_input(key="ln.len_b").set_value(100).run()  # L_max stays 8
    assert not at.exception
    warning = " ".join(texts(at, "warning"))
    assert "max_completion_length 8 is shorter than a completion of 100 tokens" in warning
    check_numbers(at, [2, 100], [1.0, -1.0])  # dr_grpo falls back to the longest answer
    assert len(at.get("plotly_chart")) == 2


def test_equal_lengths_say_normalisation_makes_no_difference():
    at = open_page(LENGTH)
    at.number_input(key="ln.len_b").set_value(2).run()
    assert any("same length" in t for t in texts(at, "markdown"))
    frame = table(at)
    assert frame[frame.loss_type == "grpo"].per_token_push.tolist() == [0.25, -0.25]


def test_zero_and_same_sign_advantages_render():
    at = open_page(LENGTH)
    at.number_input(key="ln.adv_a").set_value(0.0)
    at.number_input(key="ln.adv_b").set_value(3.5).run()
    assert not at.exception
    check_numbers(at, [2, 8], [0.0, 3.5], max_completion_length=8)


def test_length_link_reproduces_the_view():
    query = {"ln.len_a": "5", "ln.adv_a": "0.75", "ln.len_b": "40", "ln.adv_b": "-1.5"}
    at = open_page(LENGTH, query={**query, "ln.lmax": "64"})
    assert not at.exception
    check_numbers(at, [5, 40], [0.75, -1.5], max_completion_length=64)


@pytest.mark.parametrize(
    "query",
    [
        {"ln.len_a": "0", "ln.len_b": "513"},
        {"ln.len_a": "abc", "ln.adv_a": "nan", "ln.adv_b": "inf"},
        {"ln.len_a": "inf", "ln.len_b": "-inf", "ln.lmax": "1e400", "ln.adv_a": "1e400"},
        {"ln.lmax": "-3", "ln.adv_b": "<script>alert(1)</script>", "ln.len_b": ""},
        {"ln.lmax": "40000", "ln.len_a": "1e300"},
    ],
)
def test_invalid_link_values_fall_back_to_the_defaults(query):
    at = open_page(LENGTH, query=query)
    assert not at.exception
    check_numbers(at, [2, 8], [1.0, -1.0], max_completion_length=8)


def test_a_fractional_length_is_refused_in_plain_words():
    at = open_page(LENGTH, query={"ln.len_a": "2.5"})
    assert not at.exception
    assert any(
        "Answer A's length must be a whole number of tokens, got 2.5" in w
        for w in texts(at, "warning")
    )
    assert not at.get("plotly_chart")
    at.number_input(key="ln.len_a").set_value(3).run()
    assert not texts(at, "warning")
    check_numbers(at, [3, 8], [1.0, -1.0], max_completion_length=8)
    at.number_input(key="ln.lmax").set_value(8.5).run()
    assert any("max_completion_length must be a whole number" in w for w in texts(at, "warning"))
    check_numbers(at, [3, 8], [1.0, -1.0])


def test_every_loss_type_has_a_panel():
    at = open_page(LENGTH)
    figure = json.loads(at.get("plotly_chart")[0].proto.spec)
    titles = [a["text"] for a in figure["layout"]["annotations"]]
    assert titles == [f'"{name}" · w = {LOSS_TYPES[name].weight}' for name in LOSS_TYPES]
    assert len(figure["data"]) == 2 * len(LOSS_TYPES)


def test_panels_share_a_scale_unless_switched_off():
    at = open_page(LENGTH)
    layout = json.loads(at.get("plotly_chart")[0].proto.spec)["layout"]
    assert all(layout[f"yaxis{k}"]["matches"] == "y" for k in (2, 3, 4))
    at.toggle(key="ln.same").set_value(False).run()
    assert not at.exception
    layout = json.loads(at.get("plotly_chart")[0].proto.spec)["layout"]
    assert not any("matches" in layout[f"yaxis{k}"] for k in (2, 3, 4))
    assert "each panel has its own vertical scale" in " ".join(texts(at, "caption"))


def test_home_points_interview_candidates_to_the_cheat_sheet_and_the_drill():
    links = page_links(open_page("pages/home.py"))
    assert links["Read the one-page cheat sheet"] == "cheatsheet"
    assert links["Take a mock interview drill"] == "interview"


LISTENING = sorted(
    p.stem for p in (ROOT / "pages").glob("*.py") if "narrate.listen(" in p.read_text()
)


@pytest.mark.parametrize("name", LISTENING)
def test_the_listen_control_follows_the_page_intro(name):
    """On every page that has it, Listen comes right under the title and the intro, where a
    reader looks for it, above the fold at 1280x720 and on a phone. The guide's stood under
    its table of contents (1,041 px down, presenting) and the walkthrough's under the
    step, below the settings (1,076 px on a phone)."""
    at = open_page(f"pages/{name}.py")
    kinds = [node.type for node in _depth_first(at.main)]
    before = kinds[: kinds.index("iframe")]
    assert "title" in before and set(before) <= {"title", "markdown", "html", "flex_container"}


def _depth_first(block):
    for node in block.children.values():
        yield node
        if hasattr(node, "children"):
            yield from _depth_first(node)
