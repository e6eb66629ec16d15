"""The suite's CPU counter names each process kind the suite starts."""

import pytest

from bench.suite_cpu import kind


@pytest.mark.parametrize(
    ("cmdline", "expected"),
    [
        ("/usr/lib/chromium/chromium --type=renderer --enable-features=X", "chromium renderer"),
        ("/usr/lib/chromium/chromium --type=gpu-process --headless", "chromium gpu-process"),
        (
            "/usr/lib/chromium/chromium --type=utility "
            "--utility-sub-type=network.mojom.NetworkService",
            "chromium utility (network.mojom.NetworkService)",
        ),
        ("/usr/bin/chromium --headless --no-sandbox --remote-debugging-pipe", "chromium browser"),
        (
            "/work/.venv/bin/python -m streamlit run app.py --server.port 50181",
            "streamlit server",
        ),
        (
            "/work/.venv/bin/python -u -c import sys;exec(eval(sys.stdin.readline()))",
            "pytest worker",
        ),
        ("/work/.venv/bin/python -m pytest -n 2 --dist loadgroup", "pytest main"),
        (
            "/work/.venv/lib/python3.11/site-packages/playwright/driver/node "
            "/work/.venv/lib/python3.11/site-packages/playwright/driver/package/cli.js run-driver",
            "playwright driver",
        ),
        ("/usr/bin/redis-server 127.0.0.1:40027", "redis-server"),
        ("nginx: worker process", "nginx"),
        (
            "/usr/bin/python3 -c from multiprocessing.spawn import spawn_main",
            "python multiprocessing child",
        ),
        ("/bin/sleep 5", "other: sleep"),
    ],
)
def test_each_process_the_suite_starts_has_its_kind(cmdline, expected):
    assert kind(cmdline) == expected
