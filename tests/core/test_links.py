"""grpo_core.links: share links round-trip exactly and refuse junk in plain words."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from grpo_core.links import decode_rewards, encode_rewards

LIMITS = {"max_prompts": 8, "max_answers": 64}


def test_compact_and_readable():
    assert encode_rewards([[1.0, 0.0, 0.5], [-2.0, 1e-7]]) == "1_0_0.5~-2_1e-07"


@given(
    st.lists(
        st.lists(st.floats(-1e100, 1e100, allow_nan=False), min_size=1, max_size=64),
        min_size=1,
        max_size=8,
    )
)
def test_round_trip_is_exact(groups):
    decoded, error = decode_rewards(encode_rewards(groups), **LIMITS)
    assert error is None
    assert [np.array(g).tobytes() for g in decoded] == [np.array(g).tobytes() for g in groups]


def test_a_prompt_with_no_rewards_round_trips_as_an_empty_group():
    assert encode_rewards([[1.0], [], [2.0, 3.0]]) == "1~~2_3"
    assert decode_rewards("1~~2_3", **LIMITS) == ([[1.0], [], [2.0, 3.0]], None)
    assert decode_rewards("~2", **LIMITS) == ([[], [2.0]], None)


def test_a_cell_left_out_keeps_its_place_so_later_answers_keep_their_numbers():
    # Answer 2 of prompt 1 and answers 1-2 of prompt 2 were left out (blank or not a number).
    text = encode_rewards([[1.0, 1.0, 0.0], [0.5]], [[1, 3, 4], [3]])
    assert text == "1__1_0~__0.5"
    decoded, error = decode_rewards(text, **LIMITS)
    assert error is None and decoded == [[1.0, None, 1.0, 0.0], [None, None, 0.5]]
    assert decode_rewards("1_", **LIMITS) == ([[1.0, None]], None)


@given(st.text(max_size=200))
def test_never_raises_on_junk(text):
    decoded, error = decode_rewards(text, **LIMITS)
    assert (decoded is None) != (error is None)


def test_junk_gets_a_reason():
    cases = {
        "": "no rewards",
        "1_x": "prompt 1, answer 2 in the link: 'x' is not a number",
        "~".join(["1_2"] * 9): "9 prompts",
        "_".join(["1"] * 65): "65 answers",
        "1_" * 3000: "characters long",
        "1_nan": "NaN",
        "~": "no rewards",
        "_~_": "no rewards",
    }
    for text, reason in cases.items():
        decoded, error = decode_rewards(text, **LIMITS)
        assert decoded is None and reason in error, (text[:20], error)


@given(st.binary(max_size=64))
def test_base64url_round_trip_and_strict_decoding(raw):
    from grpo_core.links import b64url_decode, b64url_encode

    text = b64url_encode(raw)
    assert "=" not in text and b64url_decode(text) == raw
    assert b64url_decode(text + "=") is None  # padding or foreign characters: not ours
    assert b64url_decode(text + "!") is None
