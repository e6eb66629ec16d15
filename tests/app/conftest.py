"""AppTest helpers: run a page as the navigation would, with state or a link."""

from pathlib import Path

import pytest
from streamlit.runtime.scriptrunner.script_cache import ScriptCache
from streamlit.testing.v1 import AppTest, app_test, local_script_runner

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "pages").glob("*.py"))
CERT_KEY = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8"
"""The certificate signing key of the app tests: base64url of bytes 0..31."""


@pytest.fixture(scope="session", autouse=True)
def one_script_cache():
    """One bytecode cache for every AppTest run, as a streamlit server keeps one for its
    scripts. AppTest makes a new cache on each run, so every click re-read, re-parsed and
    re-compiled app.py and the page: about a third of a quiz question's run."""
    cache = ScriptCache()
    with pytest.MonkeyPatch.context() as patch:
        for module in (app_test, local_script_runner):
            patch.setattr(module, "ScriptCache", lambda: cache)
        yield


@pytest.fixture(autouse=True)
def cert_key(monkeypatch, tmp_path):
    """Sign with a known key and keep the published keyring in a temporary file, so no key
    or keyring file is written into the repository during tests."""
    import ui.secret

    monkeypatch.setenv("GRPO_CERT_KEY", CERT_KEY)
    monkeypatch.setattr(ui.secret, "default_keyring_path", lambda: tmp_path / "keyring.json")


def open_page(page: str, *, query: dict | None = None, state: dict | None = None) -> AppTest:
    """Run app.py, then switch to ``page``, as a browser following a link would."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    for key, value in (query or {}).items():
        at.query_params[key] = value
    for key, value in (state or {}).items():
        at.session_state[key] = value
    at.run()
    if page != "pages/home.py":
        at.switch_page(page)
        at.run()
    return at


def texts(at: AppTest, kind: str) -> list[str]:
    """Every value of one kind of element (markdown, warning, latex, ...) on the page."""
    return [e.value for e in getattr(at, kind)]


@pytest.fixture
def page():
    return open_page


def latex(at: AppTest) -> list[str]:
    """The LaTeX bodies on the page, without the $$ fences st.latex adds."""
    return [e.value.strip().removeprefix("$$").removesuffix("$$").strip() for e in at.latex]
