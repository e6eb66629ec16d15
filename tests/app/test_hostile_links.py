"""The attacker's links (issue 24): every page opened with every URL key the app reads set
to hostile values (huge, negative, non-finite, non-ASCII, empty, very long, and whatever
hypothesis draws). No page may raise; a page that binds numbers to the URL says which
values it could not use. `/epsilon?eps.k=-inf`, `/difficulty?dif.k=inf` and
`/dynamic-sampling?dyn.batch=` + 400 nines raised OverflowError before."""

import ast

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from practice import class_link
from tests.app.conftest import PAGES, ROOT
from ui import state

CATEGORIES = {
    "huge": "9" * 400,
    "huge integer": str(2**70),
    "negative": "-1000000000000",
    "non-finite": "-inf",
    "nan": "nan",
    "non-ASCII": "ü𝟙\u202e٣",
    "empty": "",
    "very long": "x" * 5000,
}


def bound_keys() -> set[str]:
    """Every constant ``key=`` of a widget bound to the URL, and every key a page reads by
    hand (``read_link_choice``), in pages/ and ui/."""
    keys = set()
    for path in [*(ROOT / "pages").glob("*.py"), *(ROOT / "ui").rglob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            kw = {k.arg: k.value for k in node.keywords}
            bound = isinstance(kw.get("bind"), ast.Constant) and kw["bind"].value == "query-params"
            if bound and isinstance(kw.get("key"), ast.Constant):
                keys.add(kw["key"].value)
            name = getattr(node.func, "attr", getattr(node.func, "id", ""))
            if name == "read_link_choice" and isinstance(node.args[0], ast.Constant):
                keys.add(node.args[0].value)
    return keys


URL_KEYS = sorted(
    bound_keys()
    | set(state.LINK_PARAMS)
    | {state.QUIZ_PROGRESS_PARAM, state.PRESENT_PARAM, state.GUIDE_SECTION_PARAM}
    | {state.CRITIC_GROUP_PARAM, state.CERTIFICATE_PARAM, state.LEARNER_PARAM}
    | {class_link.CODE_PARAM, class_link.LECTURER_PARAM, class_link.TOKEN_PARAM}
    | {class_link.PENDING_PARAM}
)
REPORTING = {  # pages that bind numbers to the URL and say what a link held that they ignored
    p
    for p in PAGES
    if 'bind="query-params"' in (src := (ROOT / p).read_text()) and "share_link()" in src
}


def open_with(page: str, values: dict[str, str]) -> AppTest:
    """``page`` opened directly by a link carrying ``values`` (its first run in a session)."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=90)
    at.switch_page(page)
    for key, value in values.items():
        at.query_params[key] = value
    return at.run()


def assert_no_exception(at: AppTest, values: dict) -> None:
    assert not at.exception, (values, [e.value for e in at.exception])
    assert at.title, "the page drew nothing"


def test_the_sweep_covers_the_keys_the_red_team_used():
    assert {"eps.k", "dif.k", "dyn.batch", "lecturer"} <= set(URL_KEYS)
    assert {"pages/epsilon.py", "pages/difficulty.py", "pages/dynamic-sampling.py"} <= REPORTING


@pytest.mark.parametrize(
    "page, key, value",
    [
        ("pages/epsilon.py", "eps.k", "-inf"),
        ("pages/difficulty.py", "dif.k", "inf"),
        ("pages/dynamic-sampling.py", "dyn.batch", "9" * 400),
    ],
)
def test_the_red_teams_links_show_a_message(page, key, value):
    at = open_with(page, {key: value})
    assert_no_exception(at, {key: value})
    assert any(key.replace(".", "\\.") in w.value for w in at.warning), [
        w.value for w in at.warning
    ]


@pytest.mark.parametrize("category", sorted(CATEGORIES))
@pytest.mark.parametrize("page", PAGES)
def test_every_key_of_every_page_takes_a_hostile_value(page, category):
    values = dict.fromkeys(URL_KEYS, CATEGORIES[category])
    at = open_with(page, values)
    assert_no_exception(at, values)
    if page in REPORTING and category in ("non-finite", "nan", "non-ASCII", "very long"):
        assert any("cannot use" in w.value or "could not be used" in w.value for w in at.warning)


hostile_text = st.one_of(
    st.text(max_size=40),
    st.floats().map(repr),
    st.integers(-(10**30), 10**30).map(str),
    st.sampled_from(list(CATEGORIES.values())),
)


@settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
@pytest.mark.parametrize("page", PAGES)
def test_every_page_survives_drawn_links(page, data):
    keys = data.draw(st.lists(st.sampled_from(URL_KEYS), min_size=1, max_size=8, unique=True))
    values = {key: data.draw(hostile_text) for key in keys}
    assert_no_exception(open_with(page, values), values)
