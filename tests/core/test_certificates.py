"""grpo_core.certificates: round trips, tampering, foreign secrets, junk and the secret's source."""

import base64
import datetime as dt
import logging
import os
import stat

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grpo_core.certificates import (
    MAX_NAME_CHARS,
    check_name,
    default_secret_path,
    issue,
    markdown_safe,
    resolve_secret,
    verify,
)

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


# --- showing a name -----------------------------------------------------------------------


def test_markdown_safe_shows_markup_as_typed():
    shown = markdown_safe("<b>x</b> **y** [z](javascript:alert(1))")
    assert "<" not in shown and ">" not in shown
    assert "\\*\\*y\\*\\*" in shown and "\\[z\\]" in shown


# --- the secret's source ------------------------------------------------------------------


def test_environment_wins(tmp_path):
    env = {"GRPO_CERT_SECRET": "  env-secret-0123456789  "}
    secret, source = resolve_secret(env, "st-secret-0123456789", tmp_path / "s")
    assert (secret, source) == (b"env-secret-0123456789", "environment GRPO_CERT_SECRET")
    assert not (tmp_path / "s").exists()


def test_st_secrets_when_no_environment(tmp_path):
    secret, source = resolve_secret({"GRPO_CERT_SECRET": " "}, "st-secret-0123456789", tmp_path)
    assert (secret, source) == (b"st-secret-0123456789", "st.secrets")


def test_generated_once_with_0600_then_read_back(tmp_path, caplog):
    path = tmp_path / "config" / "cert_secret"
    with caplog.at_level(logging.INFO, logger="grpo_core.certificates"):
        secret, source = resolve_secret({}, None, path)
    assert source == f"generated and saved to {path}"
    assert len(secret) >= 32
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert source in caplog.text and secret.decode() not in caplog.text
    again, source2 = resolve_secret({}, "", path)
    assert again == secret and source2 == f"read from {path}"
    assert verify(issue("Ada", 9, 10, secret=secret), secret=again)


def test_short_secret_is_refused_naming_its_source(tmp_path):
    with pytest.raises(ValueError, match="environment GRPO_CERT_SECRET"):
        resolve_secret({"GRPO_CERT_SECRET": "hunter2"}, None, tmp_path / "s")
    path = tmp_path / "s"
    path.write_text("short\n")
    with pytest.raises(ValueError, match="read from"):
        resolve_secret({}, None, path)


def test_default_secret_path_is_git_ignored():
    path = default_secret_path()
    assert path.name == ".grpo_cert_secret"
    gitignore = (path.parent / ".gitignore").read_text()
    assert ".grpo_cert_secret" in gitignore.split()


def test_signed_progress_round_trips_and_refuses_edits():
    from grpo_core.certificates import sign_progress, unsign_progress

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
