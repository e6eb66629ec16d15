#!/usr/bin/env python3
"""Run R replicas of the app behind an nginx reverse proxy with session affinity.

    .venv/bin/python deploy/run.py --replicas 2 --port 8080      # http://127.0.0.1:8080
    .venv/bin/python deploy/run.py --replicas 3 --listen 0.0.0.0 --duration 3600

Each replica is `streamlit run app.py` on its own loopback port, with the settings a
shared server wants (no file watcher, no forced GC after every run), the same
certificate signing key GRPO_CERT_KEY and the same GRPO_CERT_SECRET (each taken from
the environment, else generated once into <run-dir>/cert_key and <run-dir>/cert_secret),
so a certificate or a progress link made on one replica verifies on any other, and the
same store (GRPO_STORE from the environment, else a redis-server this script starts on
loopback with append-only persistence in <run-dir>/redis), so a lecturer and students on
different replicas share one class, and a Redis restart loses no acknowledged vote.
nginx (Debian's package; only the binary is used) runs in the foreground
with a config written from deploy/nginx.conf.template into the run directory,
its own pid file, logs and temp paths. Every few seconds each replica's
/_stcore/health is polled and Redis is pinged; a replica or a Redis that died or stopped
answering is restarted (Redis on the same port, with the same data).
Ctrl-C (or --duration) stops everything this script started.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = Path(__file__).with_name("nginx.conf.template")
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
CERT_ENV = "GRPO_CERT_SECRET"
KEY_ENV = "GRPO_CERT_KEY"
STORE_ENV = "GRPO_STORE"
REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"
REDIS_FLAGS = [
    # Every write goes to <dir>/appendonlydir and is fsynced before Redis replies, so neither a
    # killed redis-server (SIGTERM or SIGKILL) nor a crash of the machine loses an
    # acknowledged vote (tests/deploy/test_rehearsal.py). Not "everysec": while a background
    # fsync is slow, Redis 7 postpones writing its AOF buffer for up to 2 s and replies all
    # the same (aof.c, flushAppendOnlyFile), and a SIGKILL then lost an acknowledged write
    # (tests/app/test_store_outage.py on a busy machine, session 10: a session's hash kept
    # its "expires" field and lost "created").
    "--appendonly", "yes",
    "--appendfsync", "always",
    "--save", "",  # no RDB snapshots besides the append-only file
    "--protected-mode", "yes",
]  # fmt: skip
"""How deploy/run.py runs its redis-server (with --port, --bind 127.0.0.1 and --dir)."""

SERVER_FLAGS = [
    "--server.headless", "true",
    "--browser.gatherUsageStats", "false",
    # Watching source files costs CPU per session, and a change on disk drops the
    # app's modules mid-run: a server that is not being edited does not watch.
    "--server.fileWatcherType", "none",
    "--server.runOnSave", "false",
    # Streamlit runs a full gc.collect() after every script run by default: about
    # 100-150 ms holding the GIL with plotly and pandas loaded, which serialises a class.
    "--runner.postScriptGC", "false",
]  # fmt: skip
"""How every replica (and bench/bench_load.py's server) runs `streamlit run app.py`."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def healthy(url: str, timeout: float = 2.0) -> bool:
    """Whether ``url`` (a /_stcore/health) answers 200 "ok"."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return r.status == 200
    except OSError:
        return False


def wait_healthy(url: str, process: subprocess.Popen | None, seconds: float = 90) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"{url}: the process exited with status {process.returncode}")
        if healthy(url):
            return
        time.sleep(0.3)
    raise RuntimeError(f"{url} did not become healthy within {seconds:.0f} s")


def start_app(port: int, *, env: dict | None = None, log: Path | None = None) -> subprocess.Popen:
    """`streamlit run app.py` on 127.0.0.1:``port`` with SERVER_FLAGS (does not wait)."""
    out = open(log, "ab") if log else subprocess.DEVNULL  # noqa: SIM115 (kept by the child)
    return subprocess.Popen(
        [
            sys.executable, "-m", "streamlit", "run", "app.py",
            "--server.port", str(port), "--server.address", "127.0.0.1", *SERVER_FLAGS,
        ],
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        stdout=out,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )  # fmt: skip


def shared_value(run_dir: Path, name: str, file_name: str, make) -> str:
    """``name`` from the environment, else from (or generated with ``make`` into) a 0600 file
    of the run directory: the one value every replica is handed."""
    value = os.environ.get(name, "").strip()
    if value:
        return value
    path = run_dir / file_name
    if path.exists():
        return path.read_text().strip()
    value = make()
    path.touch(mode=0o600)
    path.write_text(value + "\n")
    return value


def cert_secret(run_dir: Path) -> str:
    """GRPO_CERT_SECRET from the environment, else from (or generated into) run_dir/cert_secret."""
    return shared_value(run_dir, CERT_ENV, "cert_secret", lambda: secrets.token_urlsafe(32))


def cert_key(run_dir: Path) -> str:
    """GRPO_CERT_KEY (an Ed25519 private key, base64url of 32 random bytes) from the
    environment, else from (or generated into) run_dir/cert_key."""
    return shared_value(
        run_dir,
        KEY_ENV,
        "cert_key",
        lambda: base64.urlsafe_b64encode(secrets.token_bytes(32)).decode().rstrip("="),
    )


def render_config(ports: list[int], *, listen: str, port: int, run_dir: Path) -> str:
    servers = "\n".join(f"        server 127.0.0.1:{p} max_fails=0;" for p in ports)
    replica_map = "\n".join(
        f'        "~127\\.0\\.0\\.1:{p}$" "{i}";' for i, p in enumerate(ports, start=1)
    )
    user = "user nobody nogroup;" if os.geteuid() == 0 else ""
    text = TEMPLATE.read_text()
    for name, value in {
        "USER": user,
        "RUN_DIR": str(run_dir),
        "SERVERS": servers,
        "REPLICA_MAP": replica_map,
        "LISTEN": listen,
        "PORT": str(port),
    }.items():
        text = text.replace(f"@@{name}@@", value)
    return text


class Deployment:
    """R app replicas and one nginx, all children of this process, all on loopback."""

    def __init__(
        self, replicas: int = 2, *, port: int = 0, listen: str = "127.0.0.1", run_dir=None
    ):
        if not 1 <= replicas <= 16:
            raise ValueError("replicas must be between 1 and 16.")
        self.run_dir = Path(run_dir or ROOT / "deploy" / "run").resolve()
        self.listen = listen
        self.port = port or free_port()
        self.ports = [free_port() for _ in range(replicas)]
        self.apps: list[subprocess.Popen | None] = [None] * replicas
        self.nginx: subprocess.Popen | None = None
        self.env: dict[str, str] = {}
        self.restarts = [0] * replicas
        self.redis: RedisServer | None = None
        """The redis-server started here (None when GRPO_STORE names the store)."""
        self.redis_restarts = 0

    @property
    def url(self) -> str:
        host = "127.0.0.1" if self.listen in ("0.0.0.0", "*") else self.listen
        return f"http://{host}:{self.port}"

    def replica_url(self, i: int) -> str:
        return f"http://127.0.0.1:{self.ports[i]}"

    def start(self) -> Deployment:
        if not Path(NGINX).exists():
            raise RuntimeError(f"{NGINX} not found: install Debian's nginx (apt-get install nginx)")
        for sub in ("tmp/client_body", "tmp/proxy", "tmp/fastcgi", "tmp/uwsgi", "tmp/scgi"):
            (self.run_dir / sub).mkdir(parents=True, exist_ok=True)
        if os.geteuid() == 0:  # workers run as nobody: let them reach and use the temp paths
            self.run_dir.chmod(self.run_dir.stat().st_mode | 0o711)
            for sub in (self.run_dir / "tmp").iterdir():
                shutil.chown(sub, "nobody", "nogroup")
        self.env = {CERT_ENV: cert_secret(self.run_dir), KEY_ENV: cert_key(self.run_dir)}
        try:
            self.env[STORE_ENV] = self.class_store()
            for i in range(len(self.ports)):
                self.start_replica(i, wait=False)
            for i, process in enumerate(self.apps):
                wait_healthy(self.replica_url(i) + "/_stcore/health", process)
            config = self.run_dir / "nginx.conf"
            config.write_text(
                render_config(self.ports, listen=self.listen, port=self.port, run_dir=self.run_dir)
            )
            check = subprocess.run(
                [NGINX, "-t", "-q", "-p", str(self.run_dir), "-c", str(config),
                 "-e", str(self.run_dir / "nginx-error.log")],
                capture_output=True, text=True,
            )  # fmt: skip
            if check.returncode:
                raise RuntimeError(f"nginx rejected {config}: {check.stderr.strip()}")
            self.nginx = subprocess.Popen(
                [NGINX, "-p", str(self.run_dir), "-c", str(config),
                 "-e", str(self.run_dir / "nginx-error.log")],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
            )  # fmt: skip
            wait_healthy(self.url + "/_stcore/health", self.nginx, 30)
        except BaseException:
            self.stop()
            raise
        return self

    def class_store(self) -> str:
        """GRPO_STORE for every replica: the environment's, else a ``RedisServer`` started
        here on a free loopback port with append-only persistence (its data in
        <run-dir>/redis); without Debian's redis-server, one SQLite file in the run
        directory, which replicas on this one machine can share (WAL)."""
        if os.environ.get(STORE_ENV, "").strip():
            return os.environ[STORE_ENV].strip()
        if not Path(REDIS_SERVER).exists():
            print("note: redis-server not found: the replicas share a SQLite file", flush=True)
            return f"sqlite://{self.run_dir / 'grpo.sqlite3'}"
        self.redis = RedisServer(self.run_dir / "redis", log=self.run_dir / "redis.log").start()
        return self.redis.url

    def kill_replica(self, i: int, sig: int = signal.SIGKILL) -> None:
        """Send ``sig`` to replica ``i`` (a crash, for rehearsals); the supervisor
        restarts it."""
        process = self.apps[i]
        if process is not None and process.poll() is None:
            process.send_signal(sig)
            process.wait(timeout=30)

    def start_replica(self, i: int, *, wait: bool = True) -> None:
        log = self.run_dir / f"replica-{i + 1}.log"
        self.apps[i] = start_app(self.ports[i], env=self.env, log=log)
        if wait:
            wait_healthy(self.replica_url(i) + "/_stcore/health", self.apps[i])

    def stop_replica(self, i: int) -> None:
        """Stop one replica as a crash or a redeploy would (its sessions are lost)."""
        process, self.apps[i] = self.apps[i], None
        if process is not None:
            _terminate(process)

    def check(self) -> list[bool]:
        """Each replica's /_stcore/health, polled directly."""
        return [healthy(self.replica_url(i) + "/_stcore/health") for i in range(len(self.ports))]

    def supervise(
        self,
        seconds: float,
        every: float = 5.0,
        max_restarts: int = 5,
        stop: threading.Event | None = None,
    ) -> None:
        """Poll every replica's health and ping Redis until ``seconds`` pass (or ``stop``
        is set); restart a replica whose process died, or that failed three polls in a
        row (a busy replica is not restarted on one slow answer), and the redis-server
        when its process died or it refused three polls in a row (one loading its
        append-only file is left to load). At most ``max_restarts`` each."""
        deadline = time.monotonic() + seconds
        stop = stop or threading.Event()
        failures = [0] * (len(self.ports) + 1)  # the replicas', then Redis's
        while time.monotonic() < deadline and not stop.is_set():
            if self.nginx is not None and self.nginx.poll() is not None:
                raise RuntimeError("nginx exited; see " + str(self.run_dir / "nginx-error.log"))
            self._check_redis(failures, max_restarts)
            for i, ok in enumerate(self.check()):
                failures[i] = 0 if ok else failures[i] + 1
                process = self.apps[i]
                dead = process is None or process.poll() is not None
                if ok or not (dead or failures[i] >= 3) or self.restarts[i] >= max_restarts:
                    continue
                print(f"replica {i + 1} is not healthy: restarting it", flush=True)
                self.stop_replica(i)
                self.restarts[i] += 1
                failures[i] = 0
                with contextlib.suppress(RuntimeError):
                    self.start_replica(i)
            stop.wait(min(every, max(0.0, deadline - time.monotonic())))

    def _check_redis(self, failures: list[int], max_restarts: int) -> None:
        """One supervision poll of the redis-server started here (none: nothing to do)."""
        if self.redis is None or self.redis_restarts >= max_restarts:
            return
        dead = not self.redis.running()
        failures[-1] = failures[-1] + 1 if dead or self.redis.state() == "down" else 0
        if not (dead or failures[-1] >= 3):
            return
        print("redis-server is not answering: restarting it with its data", flush=True)
        self.redis.stop()
        self.redis_restarts += 1
        failures[-1] = 0
        with contextlib.suppress(RuntimeError):
            self.redis.start()

    def stop(self) -> None:
        if self.nginx is not None:
            _terminate(self.nginx)
            self.nginx = None
        for i in range(len(self.apps)):
            self.stop_replica(i)
        if self.redis is not None:
            self.redis.stop()

    def __enter__(self) -> Deployment:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


class RedisServer:
    """A redis-server on a loopback port with append-only persistence (``REDIS_FLAGS``) in
    ``data_dir``: started again (``start``) it listens on the same port and loads the same
    data, so the replicas' clients reconnect to it by themselves."""

    def __init__(self, data_dir: Path, *, port: int = 0, log: Path | None = None):
        self.data_dir = Path(data_dir)
        self.port = port or free_port()
        self.log = log
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, seconds: float = 60) -> RedisServer:
        """Start it; return once it answers PING (its append-only file loaded)."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        out = open(self.log, "ab") if self.log else subprocess.DEVNULL  # noqa: SIM115
        self.process = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1",
             "--dir", str(self.data_dir), *REDIS_FLAGS],
            stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        deadline = time.monotonic() + seconds
        while self.state() != "up":
            if time.monotonic() > deadline or self.process.poll() is not None:
                self.stop()
                raise RuntimeError(f"redis-server did not start on port {self.port} ({self.log})")
            time.sleep(0.05)
        return self

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def state(self) -> str:
        """ "up" (answers PING), "loading" (reading its append-only file) or "down"."""
        return _redis_state(self.port)

    def kill(self, sig: int = signal.SIGKILL) -> None:
        """Send ``sig`` (SIGKILL: a crash; SIGTERM: an operator's restart) and wait for the
        process to end."""
        if self.running():
            self.process.send_signal(sig)
            self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process is not None:
            _terminate(self.process)
            self.process = None


def _redis_state(port: int) -> str:
    """ "up" when a Redis server on 127.0.0.1:``port`` answers PING, "loading" while it
    reads its append-only file, "down" otherwise."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
            s.sendall(b"PING\r\n")
            answer = s.recv(64)
    except OSError:
        return "down"
    if answer.startswith(b"+PONG"):
        return "up"
    return "loading" if answer.startswith(b"-LOADING") else "down"


def _terminate(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--replicas", type=int, default=2, help="app processes (default 2)")
    parser.add_argument("--port", type=int, default=8080, help="the proxy's port (default 8080)")
    parser.add_argument("--listen", default="127.0.0.1", help="the proxy's address")
    parser.add_argument("--run-dir", default=str(ROOT / "deploy" / "run"))
    parser.add_argument(
        "--duration", type=float, default=7 * 24 * 3600, help="stop after this many seconds"
    )
    args = parser.parse_args(argv)
    deployment = Deployment(args.replicas, port=args.port, listen=args.listen, run_dir=args.run_dir)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    with deployment:
        print(
            f"{args.replicas} replicas on ports {deployment.ports} behind nginx at "
            f"{deployment.url}, class store {deployment.env[STORE_ENV]}"
            + (f" (append-only in {deployment.redis.data_dir})" if deployment.redis else "")
            + f" (logs and config in {deployment.run_dir}); Ctrl-C stops",
            flush=True,
        )
        with contextlib.suppress(KeyboardInterrupt):
            deployment.supervise(args.duration)
    return 0


if __name__ == "__main__":
    sys.exit(main())
