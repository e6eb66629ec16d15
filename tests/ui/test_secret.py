"""ui.secret: where the certificate secret comes from, and the file it is generated into."""

import logging
import os
import stat

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from practice.certificates import issue, key_id, keyring_json, verify
from practice.progress_link import sign_progress, unsign_progress
from ui.secret import (
    default_key_path,
    default_keyring_path,
    default_secret_path,
    private_key_text,
    published_keys,
    resolve_private_key,
    resolve_secret,
)


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
    with caplog.at_level(logging.INFO, logger="ui.secret"):
        secret, source = resolve_secret({}, None, path)
    assert source == f"generated and saved to {path}"
    assert len(secret) >= 32
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert source in caplog.text and secret.decode() not in caplog.text
    again, source2 = resolve_secret({}, "", path)
    assert again == secret and source2 == f"read from {path}"
    assert unsign_progress(sign_progress("q1AAAA", secret=secret), secret=again) == "q1AAAA"


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


# --- the Ed25519 signing key and the published keyring --------------------------------------


def test_signing_key_from_the_environment_or_st_secrets(tmp_path):
    key = Ed25519PrivateKey.generate()
    text = private_key_text(key)
    got, source = resolve_private_key({"GRPO_CERT_KEY": f" {text} "}, None, tmp_path / "k")
    assert source == "environment GRPO_CERT_KEY" and private_key_text(got) == text
    got, source = resolve_private_key({}, text, tmp_path / "k")
    assert source == "st.secrets" and private_key_text(got) == text
    assert not (tmp_path / "k").exists()


def test_signing_key_generated_once_with_0600_never_logged(tmp_path, caplog):
    path = tmp_path / "config" / "key"
    with caplog.at_level(logging.INFO, logger="ui.secret"):
        key, source = resolve_private_key({}, None, path)
    assert source == f"generated and saved to {path}"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert private_key_text(key) not in caplog.text
    again, source2 = resolve_private_key({}, "", path)
    assert source2 == f"read from {path}" and private_key_text(again) == private_key_text(key)
    cert = issue("Ada", 9, 10, private_key=key)
    assert verify(cert, public_key=again.public_key())


@pytest.mark.parametrize("text", ["hunter2", "A" * 44, "not base64 !"])
def test_a_key_that_is_not_one_is_refused_naming_its_source(tmp_path, text):
    with pytest.raises(ValueError, match="environment GRPO_CERT_KEY"):
        resolve_private_key({"GRPO_CERT_KEY": text}, None, tmp_path / "k")


def test_a_rotated_keys_public_half_stays_published(tmp_path):
    path = tmp_path / "keyring.json"
    old, new = Ed25519PrivateKey.generate(), Ed25519PrivateKey.generate()
    assert set(published_keys(old.public_key(), path)) == {key_id(old.public_key())}
    ring = published_keys(new.public_key(), path)  # the key was rotated
    assert set(ring) == {key_id(old.public_key()), key_id(new.public_key())}
    old_cert = issue("Ada", 9, 10, private_key=old)
    assert verify(old_cert, public_key=ring)["name"] == "Ada"
    other = Ed25519PrivateKey.generate().public_key()
    extra = keyring_json([other])  # GRPO_CERT_PUBLIC_KEYS: another server's key
    assert key_id(other) in published_keys(new.public_key(), path, extra)
    path.write_text("junk")  # a broken keyring file is skipped, not fatal
    assert set(published_keys(new.public_key(), path)) == {key_id(new.public_key())}


def test_default_key_files_are_git_ignored():
    gitignore = (default_key_path().parent / ".gitignore").read_text().split()
    assert default_key_path().name in gitignore and default_keyring_path().name in gitignore
