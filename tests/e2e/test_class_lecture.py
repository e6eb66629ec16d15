"""A full round of the lecture tools in a real browser: the lecturer (1280x720, presenting)
types a question, the room answers it on a 390x844 phone with a confidence, votes again,
sees the transitions; then a round with a short countdown that the store ends; a 5 MB
question file gets a message. Waits are on conditions only.
Screenshots: artifacts/screenshots/class_lecture_*.png (lecturer, projector, phone)."""

from __future__ import annotations

import csv
import io
import re

import pytest

from tests.e2e.conftest import (
    SHORTEST_COUNTDOWN,
    assert_healthy,
    download_of,
    open_path,
    settle,
    shot,
)
from tests.e2e.test_class_fold import above_the_fold
from tests.e2e.test_class_mode import vote
from tests.e2e.test_class_screens import PHONE, PROJECTOR, shown_options, start_session

pytestmark = pytest.mark.e2e
TARGET = 44
PROMPT = "Which group gets a zero advantage everywhere?"
OPTIONS = ("A group of mixed rewards", "A group where every reward is equal", "No group")


def shots(stage: str, lect, room, phone) -> None:
    for name, page in (("lecturer", lect), ("projector", room), ("phone", phone)):
        settle(page, 300)
        shot(page, f"class_lecture_{stage}_{name}")
        assert_healthy(page)


def type_question(lect) -> None:
    lect.get_by_text("Your own questions: type one, import or export").click()
    lect.get_by_label("Question (Markdown, maths between dollar signs; no HTML)").fill(PROMPT)
    for letter, text in zip("ABC", OPTIONS, strict=False):
        lect.get_by_label(re.compile(f"^Option {letter}")).fill(text)
    lect.locator('[data-testid="stRadio"]').filter(has_text="Right option").get_by_text(
        "B", exact=True
    ).click()
    lect.get_by_role("button", name="Add to this session").click()
    lect.get_by_text("Added, and picked for the next round").wait_for()


def confidence(phone, level: str) -> None:
    phone.locator('[data-testid="stRadioOption"]').filter(has_text=re.compile(f"^{level}$")).click()


def lecturer_fits(lect, *, chart: bool) -> None:
    """The lecturer's live moment at 1280x720 presenting, scrolled to the top by the page
    after a step taken further down: the round's title, its options, the next step's
    buttons, the count and (once closed) the distribution."""
    settle(lect, 600)
    top = "document.querySelector('[data-testid=stMain]').scrollTop"
    lect.wait_for_function(f"{top} === 0")  # the screen scrolls up by itself
    above_the_fold(lect, ".st-key-cls-lecturer h1")
    above_the_fold(lect, '.st-key-cls-lecturer [data-testid="stMarkdownContainer"] strong')
    last_option = lect.locator("p").filter(has_text=re.compile(r"^C\. "))
    assert last_option.first.bounding_box()["y"] + 20 <= PROJECTOR["height"]
    above_the_fold(lect, '.st-key-cls-lecturer [data-testid="stBaseButton-primary"]')
    above_the_fold(lect, '.st-key-cls-lecturer [data-testid="stMetric"]')
    if chart:
        lect.locator(".js-plotly-plot").first.wait_for()
        shot(lect, "class_lecture_fold_lecturer")
        above_the_fold(lect, ".st-key-cls-lecturer .js-plotly-plot")


def letter_of(page, text: str) -> str:
    return next(x for x, shown in shown_options(page).items() if text in shown)


def test_a_typed_question_with_confidence_revote_and_a_countdown(clean_page, app_url, tmp_path):
    lect = start_session(clean_page, app_url)
    # the room and two students: each a clean page of its own (no cookie another has)
    room, phone = clean_page(PROJECTOR), clean_page(**PHONE)
    other = clean_page({"width": 1000, "height": 800})
    href = lect.get_by_role("link", name="Open the projector screen").get_attribute("href")
    code = re.search(r"class=(\w+)", href).group(1)
    open_path(room, "", href)
    for page in (phone, other):
        open_path(page, app_url, f"/class?class={code}")
        page.get_by_role("button", name="Join").click()
        page.get_by_text("first question appears here").wait_for()

    type_question(lect)
    shots("typed", lect, room, phone)
    lect.get_by_role("button", name="Open this round").click()
    for page in (phone, room, other):
        page.get_by_text(PROMPT).wait_for()
    settle(phone)
    right, wrong = letter_of(phone, OPTIONS[1]), letter_of(phone, OPTIONS[0])
    assert shown_options(room) == shown_options(phone), "one order for the room"
    sure = phone.locator('[data-testid="stRadioOption"]').filter(has_text="certain")
    b = sure.bounding_box()
    assert b["width"] >= TARGET and b["height"] >= TARGET, b
    confidence(phone, "certain")  # wrong and certain: the lecturer should see it
    vote(phone, wrong, expect=PROMPT)
    phone.get_by_text(f"You voted {wrong} (certain)").wait_for()
    vote(other, right, expect=PROMPT)
    room.get_by_text("2 of 2", exact=True).wait_for()
    lect.get_by_text("2 of 2", exact=True).wait_for()  # not "Seats: 2 of 200 taken"
    lecturer_fits(lect, chart=False)
    shots("vote", lect, room, phone)

    lect.get_by_role("button", name="Close & show the distribution").click()
    lect.get_by_text("how sure").wait_for()
    table = lect.locator("table").filter(has_text="how sure").inner_text()
    assert re.search(r"certain\s+0\s+1", table), table
    assert room.get_by_text("how sure").count() == 0
    room.locator(".js-plotly-plot").first.wait_for()
    lecturer_fits(lect, chart=True)
    shots("distribution", lect, room, phone)

    lect.get_by_role("button", name="Convince your neighbour: vote again").click()
    phone.get_by_text("Vote again").first.wait_for()
    settle(phone)
    confidence(phone, "fairly sure")
    vote(phone, right, expect="Vote again")
    phone.get_by_text(f"You voted {right} (fairly sure)").wait_for()
    vote(other, right, expect="Vote again")
    lect.get_by_text("2 of 2", exact=True).wait_for()
    lect.get_by_role("button", name="Close & reveal the answer").click()
    lect.get_by_text("wrong → right").wait_for()
    table = lect.locator("table").filter(has_text="wrong → right").inner_text()
    assert re.search(r"wrong → right\s+1", table) and re.search(r"right → right\s+1", table)
    lect.get_by_text("Normalised gain (post − pre) / (1 − pre): 1").wait_for()
    phone.get_by_text("Right.").wait_for()
    room.get_by_text("Why each option").wait_for()
    shots("revote", lect, room, phone)

    # A bank question with the shortest countdown (the test server's, SHORTEST_COUNTDOWN
    # seconds, a lecturer's 10 s): the store ends the round by itself.
    lect.get_by_text("Ask the next question").click()
    shortest = f"{SHORTEST_COUNTDOWN} s"
    for label, typed in (("Question", "choice-which-rewards"), ("Time to answer", shortest)):
        lect.get_by_role("combobox", name=re.compile(f"^{label}")).click()
        lect.keyboard.type(typed)
        lect.keyboard.press("Enter")
    lect.get_by_role("button", name="Open this round").click()
    room.locator(".cls-clock").filter(has_text="left").wait_for()
    phone.locator(".cls-clock").filter(has_text="left to answer").wait_for()
    lect.get_by_text("Time left").wait_for()
    shots("countdown", lect, room, phone)
    room.get_by_text("Time is up").wait_for(timeout=20_000)
    phone.get_by_text("Time is up. This round is closed").wait_for(timeout=20_000)
    lect.get_by_role("button", name="Time is up: reveal the answer").wait_for()
    shots("time_up", lect, room, phone)
    lect.get_by_role("button", name="Time is up: reveal the answer").click()
    room.get_by_text("Why each option").wait_for()
    for page in (room, phone, other):  # their last moment: what follows is the lecturer's
        assert_healthy(page)
        page.goto("about:blank")  # its Streamlit session ends: it polls no more

    results = download_of(lect, lect.get_by_role("button", name="Download the results (CSV)"))
    with open(results, encoding="utf-8") as f:
        rows = list(csv.reader(io.StringIO(f.read())))
    assert rows[0][4] == "confidence"
    assert sorted(r[4] for r in rows[1:] if r[0] == "own-1") == [
        "",
        "",
        "certain",
        "fairly sure",
    ]

    # A 5 MB "question set" is refused with a message; nothing changes.
    big = tmp_path / "huge.toml"
    big.write_text("<script>alert(1)</script>\n" * 200_000)
    tab = lect.get_by_role("tab", name="Import or export (TOML)")
    if not tab.is_visible():
        lect.get_by_text("Your own questions: type one, import or export").click()
    tab.click()
    lect.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(big))
    settle(lect)
    lect.get_by_role("button", name="Import", exact=True).click()
    try:
        lect.get_by_text("The file is 5.2 MB: a question set is at most 100 KB").wait_for()
    finally:
        shot(lect, "class_lecture_big_file")
    tab.click()  # the set is unchanged: one question to export
    lect.get_by_role("button", name="Export this session's 1 question").wait_for()
    assert_healthy(lect)
