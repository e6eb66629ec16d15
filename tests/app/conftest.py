"""AppTest helpers: run a page as the navigation would, with state or a link."""

from pathlib import Path

import pytest
from streamlit.components.v2.component_manager import BidiComponentManager
from streamlit.runtime.scriptrunner.script_cache import ScriptCache
from streamlit.testing.v1 import AppTest, app_test, local_script_runner

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "pages").glob("*.py"))
CERT_KEY = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8"
"""The certificate signing key of the app tests: base64url of bytes 0..31."""


@pytest.fixture(scope="session", autouse=True)
def streamlit_setup_once():
    """What a streamlit server sets up once, made once for every AppTest: the scripts'
    bytecode cache (AppTest makes a new one on each run, so every click re-parsed and
    re-compiled app.py and the page: a third of a quiz question's run) and the registry of
    installed custom components (a new AppTest read the metadata of every installed
    package, about 90 ms, before its first run; the app has no custom component)."""
    scripts = ScriptCache()
    components = BidiComponentManager()
    components.discover_and_register_components(start_file_watching=False)
    with pytest.MonkeyPatch.context() as patch:
        for module in (app_test, local_script_runner):
            patch.setattr(module, "ScriptCache", lambda: scripts)
        patch.setattr(components, "discover_and_register_components", lambda **_: None)
        patch.setattr(app_test, "BidiComponentManager", lambda: components)
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
