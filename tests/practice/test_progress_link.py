"""practice.progress_link: a quiz in a short URL parameter, and its HMAC signature."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from practice.bank import load_bank
from practice.progress_link import (
    decode_progress,
    encode_progress,
    sign_progress,
    unsign_progress,
)
from practice.session import record_answer, retry_missed, start_quiz

IDS = [q.id for q in load_bank()]
SECRET = b"a-test-secret-of-32-bytes-length"
OTHER = b"another-secret-also-long-enough!"


@pytest.mark.parametrize("seed", [0, 1, 2**32 - 1])
def test_progress_round_trip_is_short(seed):
    state = start_quiz(IDS, seed)
    for n, qid in enumerate(state.order[:20]):
        state = record_answer(state, qid, n % 3 != 0)
    text = encode_progress(state)
    assert len(text) <= 40 and text.isascii()
    assert all(c.isalnum() or c in "-_" for c in text)
    assert decode_progress(text, IDS) == state


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from([0, 1, 2, 3]), min_size=7, max_size=7), st.integers(0, 2**32 - 1))
def test_progress_round_trip_any_state(codes, seed):
    ids = [f"q{n}" for n in range(7)]
    pool = [q for q, c in zip(ids, codes, strict=True) if c] or ids
    state = start_quiz(ids, seed, only=pool)
    for q, c in zip(ids, codes, strict=True):
        if c >= 2 and q in pool:
            state = record_answer(state, q, c == 2)
    assert decode_progress(encode_progress(state), ids) == state


def test_progress_of_a_retry_round_trips():
    state = start_quiz(IDS, 9)
    for qid in state.order:
        state = record_answer(state, qid, qid.startswith("choice"))
    retry = record_answer(retry_missed(state), retry_missed(state).order[0], True)
    assert decode_progress(encode_progress(retry), IDS) == retry


@pytest.mark.parametrize(
    "junk",
    [None, 12, "", "q1", "q2AAAA", "hello", "q1!!!!", "q1" + "A" * 10_000, "x" * 1_000_000,
     "q1AAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "\x00", "q1😀"],
)  # fmt: skip
def test_decode_progress_junk_is_none(junk):
    assert decode_progress(junk, IDS) is None


def test_decode_progress_refuses_a_changed_bank_and_tampering():
    state = record_answer(start_quiz(IDS, 3), start_quiz(IDS, 3).order[0], True)
    text = encode_progress(state)
    assert decode_progress(text, [*IDS, "a-new-question"]) is None
    assert decode_progress(text, IDS[1:]) is None
    for i in range(2, len(text)):
        tampered = text[:i] + ("B" if text[i] != "B" else "C") + text[i + 1 :]
        decoded = decode_progress(tampered, IDS)
        assert decoded is None or decoded != state


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80))
def test_decode_progress_never_raises(text):
    result = decode_progress(text, IDS)
    assert result is None or result.order


def test_signed_progress_round_trips_and_refuses_edits():
    signed = sign_progress("q1AAAAAQ-_x", secret=SECRET)
    assert signed.startswith("q1AAAAAQ-_x.") and len(signed) == len("q1AAAAAQ-_x") + 17
    assert unsign_progress(signed, secret=SECRET) == "q1AAAAAQ-_x"
    assert unsign_progress(signed, secret=OTHER) is None
    assert unsign_progress("q1AAAAAQ-_y" + signed[11:], secret=SECRET) is None
    junk_links = ["", ".", "q1AAAAAQ-_x", signed + ".", signed[:-1], "<script>", None, 3]
    for junk in [*junk_links, "x" * 10**6, "q1AAAAAQ-_x.é", "q1AAAAAQ-_x.\udcff"]:
        assert unsign_progress(junk, secret=SECRET) is None
    with pytest.raises(ValueError):
        sign_progress("not url safe!", secret=SECRET)
