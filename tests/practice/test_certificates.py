"""practice.certificates: round trips, tampering, foreign secrets, junk names and scores."""

import base64
import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from practice.certificates import MAX_NAME_CHARS, check_name, issue, verify
from practice.session import PASS_PERCENT, Score

SECRET = b"a-test-secret-of-32-bytes-length"
OTHER = b"another-secret-also-long-enough!"
DAY = dt.date(2025, 3, 14)


@pytest.mark.parametrize(
    "name",
    ["Ada Lovelace", "Zoë Ångström", "李雷", "Ольга", "محمد", "👩‍🔬 Marie", "<b>x</b>",
     "<script>alert(1)</script>", "O'Brien & \"Sons\"", "**bold** _it_ [link](x)", "x" * 80],
)  # fmt: skip
def test_round_trip_keeps_the_name_as_typed(name):
    cert = issue(name, 45, 50, secret=SECRET, issued=DAY)
    assert verify(cert, secret=SECRET) == {
        "name": name,
        "correct": 45,
        "total": 50,
        "percent": 90.0,
        "date": "2025-03-14",
    }


def test_id_is_compact_url_safe_and_versioned():
    cert = issue("Ada Lovelace", 40, 50, secret=SECRET, issued=DAY)
    assert cert.startswith("GRPO1-")
    assert all(c.isalnum() or c in "-_" for c in cert)
    assert len(cert) < 70


def test_name_is_stripped_and_nfc_normalised():
    decomposed = "Zoe\u0308"  # e + combining diaeresis
    cert = issue(f"  {decomposed}  ", 8, 10, secret=SECRET, issued=DAY)
    assert verify(cert, secret=SECRET)["name"] == "Zoë"


def test_default_date_is_today_and_percent_is_rounded():
    cert = issue("Ada", 41, 47, secret=SECRET)
    info = verify(cert, secret=SECRET)
    assert info["date"] == dt.date.today().isoformat()
    assert info["percent"] == 87.2


def test_str_secret_equals_its_utf8_bytes():
    cert = issue("Ada", 9, 10, secret=SECRET.decode(), issued=DAY)
    assert verify(cert, secret=SECRET) is not None


# --- anything else is None ----------------------------------------------------------------


def test_tampering_with_any_character_gives_none():
    cert = issue("Zoë Ångström", 45, 50, secret=SECRET, issued=DAY)
    alphabet = "ABCabc019-_"
    for i in range(len(cert)):
        for replacement in alphabet:
            if replacement != cert[i]:
                forged = cert[:i] + replacement + cert[i + 1 :]
                assert verify(forged, secret=SECRET) is None, (i, replacement)


def test_truncating_or_extending_gives_none():
    cert = issue("Ada", 9, 10, secret=SECRET, issued=DAY)
    for n in range(len(cert)):
        assert verify(cert[:n], secret=SECRET) is None
    assert verify(cert + "A", secret=SECRET) is None
    assert verify(cert + "AAAA", secret=SECRET) is None


def test_wrong_secret_gives_none():
    cert = issue("Ada", 9, 10, secret=SECRET, issued=DAY)
    assert verify(cert, secret=OTHER) is None


def test_other_version_prefix_gives_none():
    cert = issue("Ada", 9, 10, secret=SECRET, issued=DAY)
    assert verify("GRPO2-" + cert.removeprefix("GRPO1-"), secret=SECRET) is None
    assert verify(cert.removeprefix("GRPO1-"), secret=SECRET) is None
    assert verify(cert.lower(), secret=SECRET) is None


@pytest.mark.parametrize(
    "junk",
    [None, 123, 1.5, b"GRPO1-AAAA", ["GRPO1-"], {}, "", "GRPO1-", "GRPO1-=", "GRPO1-A",
     "GRPO1-!!!!", "GRPO1-AAAA====", "GRPO1-" + "A" * 40, "x" * 1_000_000,
     "GRPO1-" + "A" * 1_000_000, "GRPO1-\x00\x00", "GRPO1-😀", "<script>alert(1)</script>"],
    ids=lambda j: repr(j)[:24],
)  # fmt: skip
def test_garbage_gives_none(junk):
    assert verify(junk, secret=SECRET) is None


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=120))
def test_verify_never_raises_on_text(text):
    assert verify(text, secret=SECRET) is None


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=80))
def test_verify_never_raises_on_prefixed_base64(raw):
    text = "GRPO1-" + base64.urlsafe_b64encode(raw).decode().rstrip("=")
    assert verify(text, secret=SECRET) is None


@settings(max_examples=100, deadline=None)
@given(st.text(min_size=1, max_size=MAX_NAME_CHARS), st.integers(1, 500))
def test_round_trip_any_valid_name(name, total):
    try:
        clean = check_name(name)
    except ValueError:
        return
    correct = -(-4 * total // 5)  # the least score that passes
    info = verify(issue(name, correct, total, secret=SECRET, issued=DAY), secret=SECRET)
    assert info["name"] == clean and info["correct"] == correct and info["total"] == total


# --- what issue refuses -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "message"),
    [("", "empty"), ("   ", "empty"), ("x" * 81, "81 characters"), ("Ada\x00", "U\\+0000"),
     ("Ada\nLovelace", "control"), ("\u202eadA", "U\\+202E"), (None, "text"), (42, "text")],
)  # fmt: skip
def test_issue_refuses_bad_names(name, message):
    with pytest.raises(ValueError, match=message):
        issue(name, 10, 10, secret=SECRET)


@pytest.mark.parametrize(
    ("correct", "total", "message"),
    [(7, 10, "at least 80%"), (39, 50, "at least 80%"), (11, 10, "between 0 and total"),
     (-1, 10, "between 0 and total"), (0, 0, "total must be between"),
     (True, 1, "whole number"), (8.0, 10, "whole number"), (1, 70_000, "total must be")],
)  # fmt: skip
def test_issue_refuses_bad_scores(correct, total, message):
    with pytest.raises(ValueError, match=message):
        issue("Ada", correct, total, secret=SECRET)


def test_exactly_eighty_percent_passes():
    assert verify(issue("Ada", 40, 50, secret=SECRET), secret=SECRET)["percent"] == 80.0


@pytest.mark.parametrize("secret", [b"", b"short", "", None, 12345])
def test_a_weak_or_missing_secret_is_a_configuration_error(secret):
    with pytest.raises(ValueError, match="at least 16 bytes"):
        issue("Ada", 9, 10, secret=secret)
    with pytest.raises(ValueError, match="at least 16 bytes"):
        verify("GRPO1-AAAA", secret=secret)


def test_the_quiz_pass_mark_and_the_certificate_agree():
    """One pass mark: a score passes the quiz exactly when a certificate can be issued for it."""
    assert PASS_PERCENT == 80
    for total in range(1, 41):
        for correct in range(total + 1):
            try:
                issue("Ada", correct, total, secret=SECRET, issued=DAY)
                issued = True
            except ValueError:
                issued = False
            assert Score(correct, total, total).passing == issued, (correct, total)
