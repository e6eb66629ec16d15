"""practice.progress_link: a quiz's place (quiz id, seed) in a short URL parameter, never its
answers, and its HMAC signature."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grpo_core.links import b64url_encode
from practice.bank import load_bank
from practice.progress_link import (
    Place,
    decode_progress,
    encode_progress,
    sign_progress,
    unsign_progress,
)
from practice.session import record_answer, retry_missed, start_quiz, stored_quiz
from practice.store.base import new_quiz_id

IDS = [q.id for q in load_bank()]
SECRET = b"a-test-secret-of-32-bytes-length"
OTHER = b"another-secret-also-long-enough!"


def stored(seed: int, only=None):
    """A quiz as the store would hand it back, with a fresh random quiz id."""
    state = start_quiz(IDS, seed, only=only)
    return stored_quiz(IDS, new_quiz_id(), seed, state.order, {})


@pytest.mark.parametrize("seed", [0, 1, 2**32 - 1])
def test_progress_round_trip_is_short(seed):
    state = stored(seed)
    text = encode_progress(state)
    assert len(text) == 34 and text.isascii()
    assert all(c.isalnum() or c in "-_" for c in text)
    assert decode_progress(text, IDS) == Place(state.quiz_id, seed)


@settings(max_examples=100, deadline=None)
@given(st.binary(min_size=16, max_size=16), st.integers(0, 2**32 - 1))
def test_progress_round_trip_any_quiz_id_and_seed(raw_id, seed):
    state = stored_quiz(IDS, b64url_encode(raw_id), seed, IDS, {})
    assert decode_progress(encode_progress(state), IDS) == Place(b64url_encode(raw_id), seed)


def test_a_link_carries_the_place_never_the_answers():
    """The same quiz before and after its answers has one and the same link: reopening an
    older link (or the browser's Back) restores the place, and the score is the store's."""
    state = stored(9)
    answered = state
    for n, qid in enumerate(state.order):
        answered = record_answer(answered, qid, n % 2 == 0)
    assert encode_progress(answered) == encode_progress(state)


def test_only_a_stored_quiz_has_a_progress_link():
    with pytest.raises(ValueError, match="quiz id"):
        encode_progress(start_quiz(IDS, 3))
    with pytest.raises(ValueError, match="quiz id"):
        encode_progress(retry_missed(record_answer(stored(3), stored(3).order[0], False)))


@pytest.mark.parametrize(
    "junk",
    [None, 12, "", "q1", "q2AAAA", "hello", "q1!!!!", "q1" + "A" * 10_000, "x" * 1_000_000,
     "q1AAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "q2" + "A" * 32, "\x00", "q1😀"],
)  # fmt: skip
def test_decode_progress_junk_is_none(junk):
    assert decode_progress(junk, IDS) is None


def test_decode_progress_refuses_a_changed_bank_and_tampering():
    state = stored(3)
    text = encode_progress(state)
    assert decode_progress(text, [*IDS, "a-new-question"]) is None
    assert decode_progress(text, IDS[1:]) is None
    for i in range(2, len(text)):
        tampered = text[:i] + ("B" if text[i] != "B" else "C") + text[i + 1 :]
        decoded = decode_progress(tampered, IDS)
        assert decoded is None or decoded != Place(state.quiz_id, state.seed)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80))
def test_decode_progress_never_raises(text):
    result = decode_progress(text, IDS)
    assert result is None or (len(result.quiz_id) == 22 and 0 <= result.seed < 2**32)


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
