"""ui.secret: where the certificate secret comes from, and the file it is generated into."""

import logging
import os
import stat

import pytest

from practice.certificates import issue, verify
from ui.secret import default_secret_path, resolve_secret


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
