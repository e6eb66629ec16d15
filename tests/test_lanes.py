"""The full suite's scheduler (tests/lanes.py), in a real xdist run of a small suite whose
tests without a browser are collected first: with three workers the last one starts on
them and the other two skip to the browser tests; with two it is loadgroup, which hands out
units in collection order."""

import json
from pathlib import Path

import pytest

from tests.lanes import opens_a_browser

ROOT = Path(__file__).resolve().parents[1]

pytest_plugins = ["pytester"]

CONFTEST = f"""
import json, os, sys, time
sys.path.insert(0, {str(ROOT)!r})
import pytest
from tests.lanes import BrowserLanes

@pytest.hookimpl(optionalhook=True, tryfirst=True)
def pytest_xdist_make_scheduler(config, log):
    return BrowserLanes(config, log)

@pytest.fixture(autouse=True)
def record(request):
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    with open(os.environ["LANES_OUT"], "a") as f:
        f.write(json.dumps([worker, request.node.nodeid, time.monotonic()]) + "\\n")
    yield
    time.sleep(0.3)  # long enough for every worker to take its first units
"""


def first_tests(out: Path) -> dict[str, str]:
    """Worker -> the node id of the first test it ran."""
    firsts: dict[str, str] = {}
    for worker, nodeid, _ in map(json.loads, out.read_text().splitlines()):
        firsts.setdefault(worker, nodeid)
    return firsts


def test_a_unit_opens_a_browser_when_a_test_of_it_is_under_tests_e2e():
    assert opens_a_browser({"tests/e2e/test_sweep.py::test_page[home]": False})
    assert opens_a_browser({"tests/app/test_a.py::t@g": True, "tests/e2e/test_b.py::t@g": False})
    assert not opens_a_browser({"tests/realmodel/test_model.py::test_x@real-model": False})


@pytest.fixture
def small_suite(pytester, monkeypatch):
    """Eight tests without a browser (tests/core, collected first), then eight browser tests."""
    monkeypatch.setenv("LANES_OUT", str(pytester.path / "ran.jsonl"))
    pytester.makeconftest(CONFTEST)
    for folder, name in (("tests/e2e", "test_pages"), ("tests/core", "test_math")):
        (pytester.path / folder).mkdir(parents=True)
        (pytester.path / folder / f"{name}.py").write_text(
            "import pytest\n\n@pytest.mark.parametrize('n', range(8))\ndef test_it(n):\n    pass\n"
        )
    return pytester


def test_with_three_workers_the_last_starts_on_the_tests_without_a_browser(small_suite):
    result = small_suite.runpytest_subprocess("-n", "3", "--dist", "loadgroup", "tests")
    result.assert_outcomes(passed=16)
    firsts = first_tests(small_suite.path / "ran.jsonl")
    assert firsts["gw2"].startswith("tests/core/"), firsts
    assert firsts["gw0"].startswith("tests/e2e/") and firsts["gw1"].startswith("tests/e2e/")


def test_with_two_workers_units_go_out_in_collection_order(small_suite):
    result = small_suite.runpytest_subprocess("-n", "2", "--dist", "loadgroup", "tests")
    result.assert_outcomes(passed=16)
    firsts = first_tests(small_suite.path / "ran.jsonl")
    assert all(nodeid.startswith("tests/core/") for nodeid in firsts.values()), firsts
