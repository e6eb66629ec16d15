"""The suite's tiers and scheduling.

Every test under tests/e2e is marked ``e2e`` and every test under tests/deploy ``deploy``, by
folder, so ``-m`` selects exactly; a test that uses a fixture of ``TRAINER_FIXTURES`` or
``*_trainer`` is marked ``trainer``. The real model's tests mark themselves ``model`` and the
long statistical simulations ``simulation``. ``python3 dev.py test --fast`` runs the rest.

Under xdist, ``--dist load`` becomes ``loadgroup``, and tests that share an expensive
session fixture or server are grouped onto one worker, so none is made twice
(``SESSION_GROUPS``): the tests that use the session's ``deployment`` form one group, those
that load the real model (``loaded``) another, and those that read the real TRL logs
(``trl_logs``, built on first use in a clean clone) a third; a module's tests that use a
module-scoped fixture of the e2e or deploy folders (a server of the module's own, such as
``private_deployment``) form one group per module. xdist sends the largest groups first, so
these start while the other workers take single tests. With three workers or more (the full
suite, ``dev.py``), the last is a side lane that takes the units without a browser first and
the others take the browser tests first (``tests/lanes.py``). The session's browser app
server (``app_server``) starts once on each worker that runs a browser test.

Hypothesis runs without its per-example deadline (the ``suite`` profile).
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
from _pytest.mark.expression import Expression
from hypothesis import settings

from tests.lanes import BrowserLanes
from tests.trl_logs.fixture import trl_logs  # noqa: F401  (real TRL logs, shared across folders)

# Speed is measured by the benchmarks in bench/, never by a test: a property test's example
# may take as long as a loaded machine needs (hypothesis' 200 ms deadline failed at load 10).
settings.register_profile("suite", deadline=None)
settings.load_profile("suite")

try:  # pytest >= 9: a test's id is a NodeId in ``item._id``
    from _pytest.nodeid import NodeId
except ImportError:  # pragma: no cover (older pytest: xdist tags ``item._nodeid`` itself)
    NodeId = None

HERE = Path(__file__).resolve().parent
FOLDER_MARKS = {"e2e": "e2e", "deploy": "deploy"}
SERVER_FOLDERS = ("e2e", "deploy")


def pytest_configure(config):
    if getattr(config.option, "dist", None) == "load":
        config.option.dist = "loadgroup"
    if getattr(config, "workerinput", {}).get("loadgroup"):  # a worker of such a run
        config.option.loadgroup = True


@pytest.hookimpl(optionalhook=True, tryfirst=True)
def pytest_xdist_make_scheduler(config, log):
    """loadgroup's scheduler with a side lane for the units that open no browser, when there
    are three workers or more (tests/lanes.py)."""
    return BrowserLanes(config, log) if config.getvalue("dist") == "loadgroup" else None


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    """Tell each xdist worker whether the run groups (a worker parses only the command line,
    where ``-n 2`` alone means ``--dist load``)."""
    node.workerinput["loadgroup"] = node.config.getvalue("dist") == "loadgroup"


def pytest_ignore_collect(collection_path, config):
    """Leave a folder of FOLDER_MARKS unimported when ``-m`` deselects every test in it
    (the fast tier's e2e and deploy): importing them (Playwright, their helpers) cost each
    worker about a second of collection for tests it then deselected."""
    mark = FOLDER_MARKS.get(collection_path.name) if collection_path.parent == HERE else None
    markexpr = config.getoption("markexpr", "")
    return True if mark and markexpr and deselects_every_test(markexpr, mark) else None


def deselects_every_test(markexpr: str, mark: str) -> bool:
    """Whether ``markexpr`` is false for every test marked ``mark``, whatever other marks it
    has: tried with each combination of the other names the expression uses."""
    expression = Expression.compile(markexpr)
    names = sorted(set(re.findall(r"[\w:+\-.\[\]\\/]+", markexpr)) - {"and", "or", "not", mark})
    for values in itertools.product((False, True), repeat=len(names)):
        marks = frozenset({mark, *itertools.compress(names, values)})
        if expression.evaluate(lambda name, /, marks=marks, **_: name in marks):
            return False
    return True


TRAINER_FIXTURES = frozenset({"trainer", "trl_logs"})
"""Fixtures that run a real trainer (or read its cached output): ``trl_logs`` runs TRL's
GRPOTrainer on CPU the first time (tests/trl_logs/fixture.py)."""


SESSION_GROUPS = {"deployment": "deployment", "loaded": "real-model", "trl_logs": "trl-logs"}
"""Session fixture -> the xdist group of every test that uses it: each is expensive to make
(two app replicas behind nginx; the real model, about 20 s and 3 GB; GRPOTrainer's runs),
so one worker makes it once and runs all its tests."""


def session_group(item) -> str | None:
    """The group of the first fixture of SESSION_GROUPS the test uses, else None."""
    return next((g for name, g in SESSION_GROUPS.items() if name in item.fixturenames), None)


def uses_trainer(item) -> bool:
    return any(name in TRAINER_FIXTURES or name.endswith("_trainer") for name in item.fixturenames)


def module_server_group(item) -> str | None:
    """The xdist group of a test that uses a module-scoped fixture defined under the e2e or
    deploy folders (its module's name), else None."""
    for defs in item._fixtureinfo.name2fixturedefs.values():
        for fixturedef in defs:
            where = fixturedef.baseid.split("::")[0].split("/")  # "tests/e2e/test_x.py"
            folder = where[1] if len(where) > 1 and where[0] == "tests" else None
            if fixturedef.scope == "module" and folder in SERVER_FOLDERS:
                return item.module.__name__
    return None


LONG_FIRST = (
    "tests/e2e/test_class_mode.py",
    "tests/e2e/test_class_lecture.py",
    "tests/e2e/test_class_phone.py",
    "tests/e2e/test_learner_loop.py",
    "tests/e2e/test_practice.py",
    "tests/e2e/test_policy_loss.py",
    "tests/e2e/test_share_links.py",
)
"""Modules whose tests are the longest single tests (15 to 35 s each on a quiet machine,
`--durations`): they run first. xdist hands out groups largest first and single tests in
collection order; a long test collected last could leave the other worker idle for its whole
length at the end of the run."""


def long_first(items: list) -> None:
    """Move the tests of LONG_FIRST's modules to the front, in LONG_FIRST's order; every
    module stays contiguous (module-scoped fixtures are made once) and the rest keep their
    order."""
    rank = {module: n for n, module in enumerate(LONG_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(rank)))


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    long_first(items)
    for item in items:
        path = Path(str(item.path)).resolve()
        folder = path.relative_to(HERE).parts[0] if path.is_relative_to(HERE) else None
        if folder in FOLDER_MARKS:
            item.add_marker(FOLDER_MARKS[folder])
        if uses_trainer(item):
            item.add_marker("trainer")
        if group := session_group(item) or (folder in SERVER_FOLDERS and module_server_group(item)):
            item.add_marker(pytest.mark.xdist_group(group))
        if getattr(config.option, "loadgroup", False):
            tag_with_group(item)


def tag_with_group(item) -> None:
    """Append "@<group>" to the test's id, as xdist's loadgroup does: its scheduler reads the
    group from the id. xdist 3.8 writes the id to ``item._nodeid``, which pytest 9 no longer
    reads (the id lives in ``item._id``), so without this every group would be scattered."""
    names = sorted(
        str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
        for mark in item.iter_markers("xdist_group")
    )
    if not names or NodeId is None or not isinstance(getattr(item, "_id", None), NodeId):
        return
    item._id = NodeId.parse(f"{item.nodeid}@{'_'.join(dict.fromkeys(names))}")
