"""The house's floors: pages -> ui -> practice -> grpo_core, every import pointing down.

Read from the source (every import statement), so a lazy import inside a function counts too.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("grpo_core", "practice", "ui", "pages", "content", "workers", "realmodel")
MAY_NOT_IMPORT = {
    "grpo_core": {"streamlit", "ui", "pages", "practice"},
    "practice": {"streamlit", "ui", "pages"},
    "content": {"streamlit", "ui", "pages", "practice"},
    "workers": {"streamlit", "ui", "pages", "practice"},
    "ui": {"pages"},
    "pages": {"pages"},
    "realmodel": {"streamlit", "ui", "pages", "practice"},  # the real model's glue (torch)
}
MAX_MODULE_LINES = 500
MAX_PAGE_LINES = 200
LONG_PAGES = {  # page file: why it may be longer (keep this list short)
}


def modules(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


def imported_roots(path: Path) -> set[str]:
    """The top-level names of every module ``path`` imports."""
    roots = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


@pytest.mark.parametrize("package", sorted(MAY_NOT_IMPORT))
def test_imports_point_down(package):
    wrong = {
        path.relative_to(ROOT).as_posix(): sorted(imported_roots(path) & MAY_NOT_IMPORT[package])
        for path in modules(package)
    }
    assert not {k: v for k, v in wrong.items() if v}


@pytest.mark.parametrize("package", ["grpo_core", "practice", "ui", "content"])
def test_no_module_holds_more_than_one_idea(package):
    long = {
        path.relative_to(ROOT).as_posix(): n
        for path in modules(package)
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert not long, f"split these by idea (over {MAX_MODULE_LINES} lines): {long}"


def test_pages_stay_short():
    long = {
        path.name: n
        for path in modules("pages")
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_PAGE_LINES
        and path.name not in LONG_PAGES
    }
    assert not long, (
        f"move what is not layout into ui/ or grpo_core (over {MAX_PAGE_LINES}): {long}"
    )
