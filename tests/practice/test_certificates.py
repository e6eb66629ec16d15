"""practice.certificates: Ed25519 round trips, tampering, foreign keys, keyrings, junk names
and scores, the offline check; version-1 (HMAC) certificates still verify."""

import base64
import datetime as dt
import json
import subprocess
import sys
from fractions import Fraction

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import given, settings
from hypothesis import strategies as st

from practice.certificates import (
    MAX_NAME_CHARS,
    OFFLINE_CHECK,
    SHORT_CHARS,
    check_name,
    issue,
    key_id,
    keyring_json,
    pasted_id,
    read_keyring,
    short_id,
    short_key,
    verify,
    verify_legacy,
)
from practice.session import PASS_PERCENT, Score

KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
OTHER = Ed25519PrivateKey.from_private_bytes(bytes(range(1, 33)))
PUBLIC = KEY.public_key()
DAY = dt.date(2025, 3, 14)
LEGACY_SECRET = "legacy-test-secret-0123456789"
LEGACY = {  # issued by the version-1 code with LEGACY_SECRET before Ed25519 signing
    "GRPO1-ACgALQALSZlBZGEgTG92ZWxhY2XYPTxy-_BfHEbVEPFRqR84": ("Ada Lovelace", 40, 45),
    "GRPO1-AC0ALQALSbk8Yj5ab8OrPC9iPkaS5nobqMy0zDdaXXbbuBE": ("<b>Zoë</b>", 45, 45),
}


def cert(name="Ada", correct=9, total=10, **details):
    return issue(name, correct, total, private_key=KEY, date=DAY, **details)


@pytest.mark.parametrize(
    "name",
    ["Ada Lovelace", "Zoë Ångström", "李雷", "Ольга", "محمد", "👩‍🔬 Marie", "<b>x</b>",
     "<script>alert(1)</script>", "O'Brien & \"Sons\"", "**bold** _it_ [link](x)", "x" * 80],
)  # fmt: skip
def test_round_trip_keeps_the_name_as_typed(name):
    assert verify(cert(name, 45, 50), public_key=PUBLIC) == {
        "name": name,
        "correct": 45,
        "total": 50,
        "percent": 90.0,
        "date": "2025-03-14",
        "key_id": key_id(PUBLIC),
    }


def test_details_and_fractional_scores_round_trip():
    details = {"topics": ["std", "eps"], "kinds": ["choice", "followup"], "scoring": "machine"}
    info = verify(cert("Ada", Fraction(147, 4), 45, **details), public_key=PUBLIC)
    assert info["correct"] == 36.75 and info["percent"] == 81.7
    assert {k: info[k] for k in details} == details


def test_id_is_url_safe_versioned_and_carries_its_key_id():
    c = cert(topics=["formula"] * 13, kinds=["choice"] * 5, scoring="x" * 120)
    assert c.startswith("GRPO2-") and c.count(".") == 1
    assert all(ch.isalnum() or ch in "-_." for ch in c)
    assert len(c) < 1000
    body = c.removeprefix("GRPO2-").split(".")[0]
    claims = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    assert claims["kid"] == key_id(PUBLIC) and len(key_id(PUBLIC)) == 16


def test_name_is_stripped_and_nfc_normalised():
    assert verify(cert("  Zoe\u0308  "), public_key=PUBLIC)["name"] == "Zoë"


def test_default_date_is_today_and_percent_is_rounded():
    info = verify(issue("Ada", 41, 47, private_key=KEY), public_key=PUBLIC)
    assert info["date"] == dt.date.today().isoformat()
    assert info["percent"] == 87.2


def test_a_keyring_picks_the_key_by_id_and_a_rotated_key_still_verifies():
    ring = read_keyring(keyring_json([PUBLIC, OTHER.public_key()]))
    old = cert()
    new = issue("Ada", 9, 10, private_key=OTHER, date=DAY)
    assert verify(old, public_key=ring)["name"] == verify(new, public_key=ring)["name"] == "Ada"
    assert verify(new, public_key={key_id(PUBLIC): PUBLIC}) is None


def test_the_offline_check_on_the_verify_page_runs():
    namespace = {"__builtins__": __builtins__}
    code = OFFLINE_CHECK.replace(
        'json.load(open("grpo-certificate-keys.json"))', "json.loads(KEYRING)"
    ).replace('"GRPO2-..."', "CERT")
    printed = []
    namespace.update(KEYRING=keyring_json([PUBLIC]), CERT=cert("Ada"), print=printed.append)
    exec(code, namespace)  # the page's snippet, with the keyring and ID filled in
    assert printed[0]["name"] == "Ada"
    namespace["CERT"] = cert("Ada")[:-2] + "AA"
    with pytest.raises(InvalidSignature):
        exec(code, namespace)


# --- anything else is None ----------------------------------------------------------------


def test_changing_any_character_gives_none():
    c = cert("Zoë Ångström", 45, 50, topics=["std"])
    for i in range(len(c)):
        for replacement in "ABCabc019-_.=":
            if replacement != c[i]:
                assert verify(c[:i] + replacement + c[i + 1 :], public_key=PUBLIC) is None, i


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_no_changed_character_makes_another_valid_certificate(data):
    c = cert("Ada", Fraction(37, 2), 20, kinds=["blanks"])
    i = data.draw(st.integers(0, len(c) - 1))
    char = data.draw(st.characters(codec="utf-8").filter(lambda ch: ch != c[i]))
    assert verify(c[:i] + char + c[i + 1 :], public_key=PUBLIC) is None


def test_truncating_or_extending_gives_none():
    c = cert()
    for n in range(len(c)):
        assert verify(c[:n], public_key=PUBLIC) is None
    for extra in ("A", "AAAA", ".", ".AAAA"):
        assert verify(c + extra, public_key=PUBLIC) is None


def test_another_key_gives_none():
    assert verify(cert(), public_key=OTHER.public_key()) is None
    assert verify(cert(), public_key={}) is None


def test_other_versions_give_none():
    c = cert()
    assert verify("GRPO1-" + c.removeprefix("GRPO2-"), public_key=PUBLIC) is None
    assert verify(c.removeprefix("GRPO2-"), public_key=PUBLIC) is None
    assert verify(c.lower(), public_key=PUBLIC) is None
    assert verify(next(iter(LEGACY)), public_key=PUBLIC) is None


@pytest.mark.parametrize(
    "junk",
    [None, 123, 1.5, b"GRPO2-AAAA", ["GRPO2-"], {}, "", "GRPO2-", "GRPO2-.", "GRPO2-A.A",
     "GRPO2-!!!!.AAAA", "GRPO2-AAAA====.AA", "GRPO2-" + "A" * 40 + "." + "A" * 86,
     "x" * 1_000_000, "GRPO2-" + "A" * 1_000_000, "GRPO2-\x00.\x00", "GRPO2-😀.😀",
     "<script>alert(1)</script>"],
    ids=lambda j: repr(j)[:24],
)  # fmt: skip
def test_garbage_gives_none(junk):
    assert verify(junk, public_key=PUBLIC) is None
    assert verify(junk, public_key={key_id(PUBLIC): PUBLIC}) is None


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_verify_never_raises_on_text(text):
    assert verify(text, public_key=PUBLIC) is None


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200), st.binary(min_size=64, max_size=64))
def test_verify_never_raises_on_signed_looking_junk(body, sig):
    b64 = lambda raw: base64.urlsafe_b64encode(raw).decode().rstrip("=")  # noqa: E731
    assert verify(f"GRPO2-{b64(body)}.{b64(sig)}", public_key=PUBLIC) is None


@settings(max_examples=50, deadline=None)
@given(st.text(min_size=1, max_size=MAX_NAME_CHARS), st.integers(1, 500))
def test_round_trip_any_valid_name(name, total):
    try:
        clean = check_name(name)
    except ValueError:
        return
    correct = -(-4 * total // 5)  # the least score that passes
    info = verify(cert(name, correct, total), public_key=PUBLIC)
    assert info["name"] == clean and info["correct"] == correct and info["total"] == total


# --- what issue refuses -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "message"),
    [("", "empty"), ("   ", "empty"), ("x" * 81, "81 characters"), ("Ada\x00", "U\\+0000"),
     ("Ada\nLovelace", "control"), ("\u202eadA", "U\\+202E"), (None, "text"), (42, "text")],
)  # fmt: skip
def test_issue_refuses_bad_names(name, message):
    with pytest.raises(ValueError, match=message):
        cert(name, 10, 10)


@pytest.mark.parametrize(
    ("correct", "total", "message"),
    [(7, 10, "at least 80%"), (39, 50, "at least 80%"), (11, 10, "between 0 and total"),
     (-1, 10, "between 0 and total"), (0, 0, "total must be"), (True, 1, "a number"),
     ("8", 10, "a number"), (1, 70_000, "total must be"), (8, 10.0, "total must be")],
)  # fmt: skip
def test_issue_refuses_bad_scores(correct, total, message):
    with pytest.raises(ValueError, match=message):
        cert("Ada", correct, total)


@pytest.mark.parametrize(
    "details",
    [{"color": "red"}, {"topics": "std"}, {"topics": [""]}, {"kinds": [1]},
     {"scoring": "x" * 201}, {"topics": ["std"] * 31}],
)  # fmt: skip
def test_issue_refuses_unknown_or_oversized_details(details):
    with pytest.raises(ValueError):
        cert(**details)


@pytest.mark.parametrize("key", [None, b"0" * 32, "key", PUBLIC])
def test_issue_needs_an_ed25519_private_key(key):
    with pytest.raises(ValueError, match="Ed25519 private key"):
        issue("Ada", 9, 10, private_key=key)


def test_exactly_eighty_percent_passes():
    assert verify(cert("Ada", 40, 50), public_key=PUBLIC)["percent"] == 80.0


def test_the_quiz_pass_mark_and_the_certificate_agree():
    """One pass mark: a score passes the quiz exactly when a certificate can be issued for it."""
    assert PASS_PERCENT == 80
    for total in range(1, 41):
        for quarters in range(4 * total + 1):
            correct = Fraction(quarters, 4)
            try:
                cert("Ada", correct, total)
                issued = True
            except ValueError:
                issued = False
            assert Score(correct, total, total).passing == issued, (correct, total)


# --- version 1 ----------------------------------------------------------------------------


@pytest.mark.parametrize("cert_id", LEGACY)
def test_certificates_already_issued_still_verify(cert_id):
    name, correct, total = LEGACY[cert_id]
    info = verify_legacy(cert_id, secret=LEGACY_SECRET)
    assert (info["name"], info["correct"], info["total"]) == (name, correct, total)
    assert verify_legacy(cert_id, secret="another-secret-0123456789") is None
    for i in range(len(cert_id)):
        forged = cert_id[:i] + ("B" if cert_id[i] != "B" else "C") + cert_id[i + 1 :]
        assert verify_legacy(forged, secret=LEGACY_SECRET) is None


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=120))
def test_verify_legacy_never_raises_on_text(text):
    assert verify_legacy(text, secret=LEGACY_SECRET) is None


@pytest.mark.parametrize("secret", [b"", b"short", "", None, 12345])
def test_a_weak_legacy_secret_is_a_configuration_error(secret):
    with pytest.raises(ValueError, match="at least 16 bytes"):
        verify_legacy("GRPO1-AAAA", secret=secret)


# --- the published offline check decodes exactly as the server does (issue 24, item 9) -----

LENIENT_CHECK = """import base64, json
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

def b64(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))

keys = json.load(open("grpo-certificate-keys.json"))["keys"]  # key id -> public key
cert_id = "GRPO2-..."  # the certificate ID to check
body, signature = cert_id.removeprefix("GRPO2-").split(".")
claims = json.loads(b64(body))
public_key = Ed25519PublicKey.from_public_bytes(b64(keys[claims["kid"]]))
public_key.verify(b64(signature), body.encode())  # raises InvalidSignature if forged
print(claims)"""
"""The snippet the verify page published before: it decoded base64 leniently."""


def run_snippet(snippet: str, cert_id: str, tmp_path) -> dict | None:
    """Run a published snippet in a fresh Python beside the keyring file: the claims it
    prints, or None when it raises (a forged or malformed ID)."""
    (tmp_path / "grpo-certificate-keys.json").write_text(keyring_json([PUBLIC]), "utf-8")
    code = snippet.replace('"GRPO2-..."', repr(cert_id)).replace(
        "print(claims)", "print(json.dumps(claims))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    return json.loads(out.stdout) if out.returncode == 0 else None


def forged_ids(genuine: str) -> dict[str, str]:
    """Altered IDs: the two that lenient base64 let through, and the other classic forgeries."""
    body, sig = genuine.removeprefix("GRPO2-").split(".")
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    last = alphabet.index(sig[-1])  # 86 characters carry 512 bits: the last 4 bits are spare
    spare_bits = sig[:-1] + alphabet[last ^ 0b0001]
    plus_slash = sig.replace("-", "+").replace("_", "/")
    if plus_slash == sig:  # the signature has neither character: a padded one then
        plus_slash = sig + "=="
    return {
        "spare bits of the signature": f"GRPO2-{body}.{spare_bits}",
        "standard base64 alphabet in the signature": f"GRPO2-{body}.{plus_slash}",
        "a changed body": f"GRPO2-{body[:-2]}{'B' if body[-2] != 'B' else 'C'}{body[-1]}.{sig}",
        "a cut signature": genuine[:-2],
        "another version": "GRPO3-" + genuine.removeprefix("GRPO2-"),
        "a signature by another key": issue("Ada", 9, 10, private_key=OTHER, date=DAY),
        "two dots": genuine + ".AAAA",
    }


def test_the_published_check_and_the_server_refuse_the_same_forged_ids(tmp_path):
    genuine = cert("Zoë Ångström", 45, 50, topics=["std"])
    assert run_snippet(OFFLINE_CHECK, genuine, tmp_path)["name"] == "Zoë Ångström"
    for what, forged in forged_ids(genuine).items():
        assert verify(forged, public_key=PUBLIC) is None, what
        assert run_snippet(OFFLINE_CHECK, forged, tmp_path) is None, what


def test_the_lenient_check_let_two_altered_ids_through(tmp_path):
    """The break of issue 24 reproduced: the old snippet accepted both, the server neither."""
    forged = forged_ids(cert("Zoë Ångström", 45, 50, topics=["std"]))
    for what in ("spare bits of the signature", "standard base64 alphabet in the signature"):
        assert forged[what] != cert("Zoë Ångström", 45, 50, topics=["std"])
        assert run_snippet(LENIENT_CHECK, forged[what], tmp_path) is not None, what
        assert verify(forged[what], public_key=PUBLIC) is None, what


@pytest.mark.parametrize("width", [1, 40, 64, 76])
def test_a_wrapped_or_spaced_id_verifies_on_the_server_and_offline(width, tmp_path):
    genuine = cert("Ada", 9, 10)
    wrapped = "\n".join(genuine[i : i + width] for i in range(0, len(genuine), width))
    for pasted in (f"  {wrapped}\r\n", genuine.replace(".", " . "), "\t" + genuine + " "):
        assert verify(pasted, public_key=PUBLIC)["name"] == "Ada"
        assert pasted_id(pasted) == genuine
    assert run_snippet(OFFLINE_CHECK, wrapped, tmp_path)["name"] == "Ada"


def test_a_short_id_is_a_prefix_of_the_signature():
    genuine = cert("Ada", 9, 10)
    short = short_id(genuine)
    assert short.startswith("GRPO2-") and len(short) == 6 + SHORT_CHARS
    assert genuine.endswith("." + short.removeprefix("GRPO2-") + genuine[len(genuine) - 86 + 16 :])
    assert short_key(" " + short[:10] + "\n" + short[10:]) == short.removeprefix("GRPO2-")
    assert short_key(genuine) is None and short_key(short + "A") is None
    assert verify(short, public_key=PUBLIC) is None  # only the server's store resolves it


# --- names (issue 24, item 9) --------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    ["Ada\u200bLovelace", "Ada\u200d", "\u2066Ada\u2069", "Ada\u200e", "Ada\u00ad", "Ada\ufeff",
     "\u202eecalevoL", "Ada\U000e0041", "Ada\ue000", "Ada\u2028Lovelace"],
)  # fmt: skip
def test_invisible_format_and_bidi_characters_are_refused(name):
    with pytest.raises(ValueError, match="invisible or control character"):
        cert(name, 10, 10)


@pytest.mark.parametrize(
    "name", ["\u0410da Lovelace", "Ada L\u043evelace", "\u0391lex", "Pa\u0443pal"]
)
def test_mixed_script_look_alikes_are_refused(name):
    with pytest.raises(ValueError, match="alphabets that look alike"):
        cert(name, 10, 10)


@pytest.mark.parametrize(
    ("typed", "issued"),
    [("\uff21\uff44\uff41", "Ada"), ("Ada  \u3000 Lovelace", "Ada Lovelace"),
     ("\ufb01ona", "fiona"),
     ("Ольга Smith", "Ольга Smith"), ("やまだ太郎", "やまだ太郎"), ("Ahmed أحمد", "Ahmed أحمد"),
     ("Bruce李", "Bruce李"), ("Σωκράτης", "Σωκράτης")],
)  # fmt: skip
def test_names_are_nfkc_and_other_scripts_side_by_side_are_fine(typed, issued):
    assert verify(cert(typed), public_key=PUBLIC)["name"] == issued
