"""The full suite's xdist scheduler: two browser lanes and a side lane.

A browser test's worker is one pipeline (pytest, the Playwright driver, Chromium, the app
server, each waiting on the next): alone on this 2-core machine it keeps 0.85 of a core
busy (the sweep's desktop half, 57.5 CPU-s in 67.5 s, /proc/stat). Two such workers left
the machine 15 % idle, and a third like them added a third Chromium and app server (+79
CPU-s, session 16) and gained nothing (session 18). So the third worker is a side lane:
it takes the work units that open no browser (the real model's group, the deployment's
rehearsals, AppTest, the practice engine, the simulations) before any that does, and the
two browser lanes take the browser tests (tests/e2e) first. Each takes the other kind
once its own kind has run out, so no worker waits while work is left; the side lane then
starts a browser of its own only if it reaches the last browser tests.

Units are xdist's loadgroup units (a group, or one test), in loadgroup's order: the largest
groups first, then single tests in collection order (tests/conftest.py's LONG_FIRST). With
fewer than three workers this is loadgroup unchanged.
"""

from __future__ import annotations

from xdist.scheduler import LoadGroupScheduling

BROWSER_FOLDER = "tests/e2e/"
"""Every test that opens Chromium is under this folder (tests/conftest.py marks it e2e)."""


def opens_a_browser(unit: dict[str, bool]) -> bool:
    """Whether a work unit (node id -> done) holds a browser test."""
    return any(nodeid.startswith(BROWSER_FOLDER) for nodeid in unit)


class BrowserLanes(LoadGroupScheduling):
    """loadgroup, with the last worker of three or more kept for units without a browser."""

    def side_lane(self, node) -> bool:
        """Whether ``node`` is the side lane: the last of three or more workers."""
        nodes = self.nodes
        return len(nodes) >= 3 and node is max(nodes, key=lambda n: int(n.gateway.id[2:]))

    def _assign_work_unit(self, node) -> None:
        """Send ``node`` the first unit of its lane's kind, else the first unit left."""
        if len(self.nodes) < 3:
            return super()._assign_work_unit(node)
        wants_browser = not self.side_lane(node)
        scope = next(
            (s for s, unit in self.workqueue.items() if opens_a_browser(unit) == wants_browser),
            next(iter(self.workqueue)),
        )
        work_unit = self.workqueue.pop(scope)
        self.assigned_work.setdefault(node, {})[scope] = work_unit
        collection = self.registered_collections[node]
        node.send_runtest_some(
            [collection.index(nodeid) for nodeid, done in work_unit.items() if not done]
        )
