"""Spaced review: the cards due today (mistakes first), mastery per topic, your data."""

import streamlit as st

from practice.class_qr import qr_png
from practice.review import due_today, next_card
from ui import learner, page, present
from ui import quiz_widgets as qw
from ui import review_page as rp
from ui.class_store import class_store

page.start()

st.title("Review")
st.markdown(
    "Every question of the quiz is a card that comes back when you are about to forget it "
    "(scheduled with [FSRS](https://github.com/open-spaced-repetition/py-fsrs), as Anki "
    "does). Cards you got wrong come first, once their short learning step has passed."
)

if st.session_state.get(learner.DELETED_KEY) and not learner.current():
    st.success("Your data was deleted: nothing is stored under your old key any more.")
    st.button("Start afresh with a new key", key="review.fresh", on_click=rp.new_key)
    st.stop()

if learner.current() is None:
    rp.no_key()
    st.stop()

key = learner.ensure()
store = class_store()
attempts = store.attempts(key)

if present.active():  # a shared screen: the private link, its key and QR code stay off it
    st.info(
        "Presentation mode is on, so your private learner link and its QR code are hidden. "
        "Leave presentation mode on your own screen to see them.",
        icon=":material/visibility_off:",
    )
else:
    with st.expander("Your learner link: keep it to come back", expanded=not attempts):
        link = learner.link(key)
        st.markdown(
            "Your progress is stored under this private link, not in your browser. Bookmark it, "
            "or scan it on another device. Anyone with the link sees your progress; it is never "
            "part of a share link."
        )
        st.code(link, language=None, wrap_lines=True)
        st.image(
            qr_png(link, scale=6),
            caption="Your learner link",
            width=220,
            alt="QR code of your learner link",
        )

# 1 · Due today ---------------------------------------------------------------------------------
st.header("1 · Due today")
now = learner.now()
due = due_today(qw.bank_ids(), store.cards(key), attempts, now)
st.caption(rp.due_summary(due, store.parameters(key) is not None))
if due:
    rp.answer_card(key, next_card(due, now), seed=len(attempts) % 2**32, now=now)
else:
    st.success("Nothing is due today. Come back tomorrow, or take a quiz.")
with st.expander("How the suggested rating is chosen"):
    rp.thresholds()

# 2 · Mastery -----------------------------------------------------------------------------------
st.header("2 · Mastery per topic")
rp.mastery(attempts)

# 3 · Points you flagged ------------------------------------------------------------------------
st.header("3 · Points you flagged")
rp.flags(key)

# 4 · Your data ---------------------------------------------------------------------------------
st.header("4 · Your data")
rp.your_data(key)
