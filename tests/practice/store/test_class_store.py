"""One suite, every backend: sessions, rounds, one answer per student, idempotent
submits, refusals, expiry by a fake clock, and concurrent submits from threads."""

from __future__ import annotations

import threading
from collections import Counter

import pytest

from practice.store import open_store, store_url
from practice.store.base import (
    CODE_LENGTH,
    JOIN_ALPHABET,
    MAX_ANSWER_CHARS,
    MAX_JOINS_PER_MINUTE,
    MAX_NICKNAME_CHARS,
    MAX_SUBMITS_PER_SECOND,
    SESSION_TTL,
    JoinsLimited,
    JoinsLocked,
    NicknameTaken,
    RateLimited,
    RoundClosed,
    TextRefused,
    UnknownSession,
)


def room(store, students: int = 3):
    session = store.create_session()
    return session.code, [store.join(session.code, f"s{i}") for i in range(students)]


def test_a_session_has_a_code_from_the_unambiguous_alphabet(make_store):
    store = make_store()
    codes = {store.create_session().code for _ in range(20)}
    assert len(codes) == 20
    for code in codes:
        assert len(code) == CODE_LENGTH and set(code) <= set(JOIN_ALPHABET)
    assert not set("01OIL") & set(JOIN_ALPHABET)
    code = next(iter(codes))
    assert store.session(code.lower()).code == code, "a typed code is read in any case"
    assert store.session(f" {code[:3]}-{code[3:]} ").code == code


def test_an_unknown_code_is_refused_with_a_message(make_store):
    store = make_store()
    with pytest.raises(UnknownSession, match="No class session has the code"):
        store.session("ZZZZZZ")
    with pytest.raises(UnknownSession):
        store.join("<script>", "x")


def test_students_get_tokens_and_labels(make_store):
    store = make_store()
    code = store.create_session().code
    ann, anon = store.join(code, "  Ann  Lee "), store.join(code)
    assert ann.label == "Ann Lee" and anon.label == "Student 2"
    assert ann.token != anon.token and len(ann.token) >= 16
    assert store.student(code, ann.token) == ann
    assert store.student(code, "not-a-token") is None
    assert store.students(code) == [ann, anon]
    assert store.join(code, "<b>x</b>").label == "<b>x</b>", "stored as text, escaped on display"
    with pytest.raises(TextRefused, match="at most 40"):
        store.join(code, "x" * (MAX_NICKNAME_CHARS + 1))


def test_rounds_open_close_and_reveal(make_store):
    store = make_store()
    code, _ = room(store)
    assert store.current_round(code) is None
    first = store.open_round(code, "q1")
    assert (first.number, first.open, first.reveal, first.revote_of) == (1, True, "none", None)
    second = store.open_round(code, "q1", revote_of=1)
    assert second.number == 2 and second.revote_of == 1
    rounds = store.rounds(code)
    assert [r.open for r in rounds] == [False, True], "opening a round closes the one before"
    store.set_reveal(code, 2, "distribution")
    store.close_round(code, 2)
    now = store.current_round(code)
    assert (now.number, now.open, now.reveal, now.question) == (2, False, "distribution", "q1")
    with pytest.raises(ValueError, match="reveal must be one of"):
        store.set_reveal(code, 2, "everything")


def test_one_answer_per_student_per_round_and_a_change_replaces_it(make_store):
    store = make_store()
    code, (a, b, c) = room(store)
    n = store.open_round(code, "q").number
    store.submit(code, n, a.token, "A", "a1")
    store.submit(code, n, b.token, "A", "b1")
    store.submit(code, n, c.token, "B", "c1")
    assert store.tally(code, n) == {"A": 2, "B": 1}
    store.submit(code, n, a.token, "C", "a2")  # Ann changes her mind
    assert store.tally(code, n) == {"A": 1, "B": 1, "C": 1}
    store.submit(code, n, b.token, "C", "b2")
    assert store.tally(code, n) == {"B": 1, "C": 2}, "a count that drops to 0 is gone"
    answers = store.answers(code, n)
    assert [(x.label, x.answer) for x in answers] == [("s0", "C"), ("s1", "C"), ("s2", "B")]
    assert store.tally(code, n) == Counter(x.answer for x in answers)


def test_a_retried_submit_never_counts_twice(make_store):
    store = make_store()
    code, (a, *_) = room(store)
    n = store.open_round(code, "q").number
    assert not store.submit(code, n, a.token, "A", "same-id").duplicate
    assert store.submit(code, n, a.token, "A", "same-id").duplicate
    store.submit(code, n, a.token, "B", "newer")
    late = store.submit(code, n, a.token, "A", "same-id")  # the first send, arriving late
    assert late.duplicate
    assert store.tally(code, n) == {"B": 1}, "a late retry must not undo a newer answer"
    store.close_round(code, n)
    assert store.submit(code, n, a.token, "B", "newer").duplicate, "acknowledged again"


def test_a_vote_after_the_round_closed_is_refused(make_store):
    store = make_store()
    code, (a, *_) = room(store)
    n = store.open_round(code, "q").number
    store.close_round(code, n)
    with pytest.raises(RoundClosed, match="closed"):
        store.submit(code, n, a.token, "A", "x")
    with pytest.raises(RoundClosed):
        store.submit(code, 99, a.token, "A", "y")
    assert store.tally(code, n) == {}


def test_an_unknown_student_or_bad_input_is_refused(make_store):
    store = make_store()
    code, (a, *_) = room(store)
    n = store.open_round(code, "q").number
    with pytest.raises(UnknownSession):
        store.submit(code, n, "forged-token", "A", "x")
    with pytest.raises(TextRefused, match="at most 500"):
        store.submit(code, n, a.token, "x" * (MAX_ANSWER_CHARS + 1), "y")
    with pytest.raises(TextRefused):
        store.submit(code, n, a.token, "A", "i" * 5000)
    with pytest.raises(TextRefused):
        store.submit(code, n, a.token, None, "z")
    assert store.tally(code, n) == {}


def test_one_token_cannot_flood_a_round(make_store, clock):
    store = make_store(clock)
    code, (a, b, _) = room(store)
    n = store.open_round(code, "q").number
    for i in range(MAX_SUBMITS_PER_SECOND):
        store.submit(code, n, a.token, f"A{i}", f"id{i}")
    with pytest.raises(RateLimited, match="a second"):
        store.submit(code, n, a.token, "flood", "id-flood")
    store.submit(code, n, b.token, "B", "b")  # another student is not slowed down
    clock.now += 1.0
    store.submit(code, n, a.token, "calm", "id-calm")
    assert store.tally(code, n) == {"B": 1, "calm": 1}


def test_sessions_expire_after_a_day_by_the_stores_clock(make_store, clock):
    store = make_store(clock)
    code, (a, *_) = room(store)
    n = store.open_round(code, "q").number
    store.submit(code, n, a.token, "A", "x")
    clock.now += SESSION_TTL - 1
    assert store.tally(code, n) == {"A": 1}
    assert store.purge_expired() == 0
    clock.now += 2
    with pytest.raises(UnknownSession):
        store.session(code)
    with pytest.raises(UnknownSession):
        store.submit(code, n, a.token, "B", "y")
    assert store.purge_expired() == 1
    assert store.purge_expired() == 0


def test_starting_a_session_purges_the_expired_ones(make_store, clock):
    store = make_store(clock)
    old = store.create_session().code
    clock.now += SESSION_TTL + 1
    store.create_session()
    assert store.purge_expired() == 0, "the old session went when the new one started"
    clock.now -= SESSION_TTL + 1  # even by the old clock, its data is gone
    with pytest.raises(UnknownSession):
        store.session(old)


def test_an_ended_session_keeps_its_results_but_takes_no_more(make_store):
    store = make_store()
    code, (a, *_) = room(store)
    n = store.open_round(code, "q").number
    store.submit(code, n, a.token, "A", "x")
    store.end_session(code)
    assert store.session(code).ended
    assert store.tally(code, n) == {"A": 1}
    with pytest.raises(RoundClosed):
        store.submit(code, n, a.token, "B", "y")
    with pytest.raises(UnknownSession):
        store.open_round(code, "q2")
    with pytest.raises(UnknownSession):
        store.join(code)


def test_concurrent_submits_from_threads_keep_the_tally_equal_to_the_answers(make_store):
    store = make_store()
    code, students = room(store, students=24)
    n = store.open_round(code, "q").number
    errors = []

    def student(i: int, s) -> None:
        try:
            for k in range(4):  # changes their mind, retries one send
                store.submit(code, n, s.token, "ABC"[(i + k) % 3], f"{i}-{k}")
            store.submit(code, n, s.token, "ABC"[(i + 3) % 3], f"{i}-3")
        except Exception as err:
            errors.append(err)

    threads = [threading.Thread(target=student, args=(i, s)) for i, s in enumerate(students)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    answers = store.answers(code, n)
    assert len(answers) == 24
    assert store.tally(code, n) == Counter(a.answer for a in answers)
    assert {a.token: a.answer for a in answers} == {
        s.token: "ABC"[(i + 3) % 3] for i, s in enumerate(students)
    }


def test_open_store_reads_the_url(tmp_path):
    assert store_url({}).startswith("sqlite:///") and store_url({}).endswith("grpo.sqlite3")
    assert store_url({"GRPO_STORE": "redis://h:1/0"}) == "redis://h:1/0"
    store = open_store(f"sqlite://{tmp_path}/x/y.sqlite3")
    assert store.path == tmp_path / "x" / "y.sqlite3"
    mode = store._db().execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"
    with pytest.raises(ValueError, match="GRPO_STORE must look like"):
        open_store("mysql://x")


def test_nicknames_are_unique_and_never_a_default_label(make_store):
    store = make_store()
    code = store.create_session().code
    store.join(code, "Ann Lee")
    for copy in ("ann lee", "  ANN   LEE ", "Student 1", "student 7", "STUDENT #2", "Student12"):
        with pytest.raises(NicknameTaken, match="pick another"):
            store.join(code, copy)
    assert store.join(code).label == "Student 2", "anonymous students are numbered as before"
    assert store.join(code, "Students 1").label == "Students 1"
    other = store.create_session().code
    assert store.join(other, "Ann Lee").label == "Ann Lee", "unique within a session only"
    assert len(store.students(code)) == 3


@pytest.mark.parametrize(
    "nickname",
    ["Stu\u200bdent 3", "Ann\u202eeeL", "\u200b", "Ѕtudent 3", "Аnn Lee", "bell\x07"],
)
def test_a_nickname_that_could_pass_for_another_is_refused(make_store, nickname):
    """Red team: a zero-width space, a bidi override or a Cyrillic letter made a nickname
    that reads as "Student 3" or as another student's on the lecturer's screen."""
    store = make_store()
    code = store.create_session().code
    store.join(code, "Ann Lee")
    with pytest.raises(TextRefused, match="Pick another nickname"):
        store.join(code, nickname)
    assert store.join(code, "Ольга Smith 🎓").label == "Ольга Smith 🎓", "scripts side by side"


def test_joins_are_rate_limited_per_client(make_store, clock):
    store = make_store(clock)
    code = store.create_session().code
    for _ in range(MAX_JOINS_PER_MINUTE):
        store.join(code, client="browser-1")
    with pytest.raises(JoinsLimited, match="Too many joins"):
        store.join(code, client="browser-1")
    store.join(code, client="browser-2")
    store.join(code)  # no client key: not counted (the page always gives one)
    clock.now += 60
    store.join(code, client="browser-1")
    assert len(store.students(code)) == MAX_JOINS_PER_MINUTE + 3


def test_a_locked_session_takes_no_new_students_but_keeps_its_own(make_store):
    store = make_store()
    code, (a, *_) = room(store, 2)
    assert not store.joins_locked(code)
    store.lock_joins(code, True)
    assert store.joins_locked(code)
    with pytest.raises(JoinsLocked, match="closed this session to new students"):
        store.join(code, "late")
    n = store.open_round(code, "q").number
    store.submit(code, n, a.token, "x", "id")  # the students in the room still vote
    assert store.tally(code, n) == {"x": 1}
    store.lock_joins(code, False)
    assert store.join(code, "late").label == "late"
