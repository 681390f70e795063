"""Fixtures for StateDeck's browser tests: the real server binary and headless Chromium.

Environment:
  STATEDECK_BIN     the server binary (default: <repo>/.build/debug/statedeck)
  CHROMIUM          the browser (default: /usr/bin/chromium, Debian's; no browser is downloaded)
  UPDATE_SNAPSHOTS  1 rewrites the reference screenshots in Tests/browser/reference/
"""
from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

from helpers import OUTPUT_DIR, wait_live
from polling import wait_for
from receivers import Receiver

REPO = Path(__file__).resolve().parents[2]
BIN = Path(os.environ.get("STATEDECK_BIN", str(REPO / ".build" / "debug" / "statedeck")))
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
START_LINE = re.compile(r"StateDeck serving on http://(\[[^\]]+\]|[^:/\s]+):(\d+)/")


def whole_panel(compact: dict, settings: dict) -> dict:
    """A panel of the state document with what its compact form leaves out put back (PROTOCOL.md,
    "Panels on the wire"): defaults, and the three fields that repeat others."""
    panel = {
        "title": compact["id"], "group": None, "phase": "initial", "since": None, "isInitialLoading": False,
        "isLoading": False, "latestValidInfo": None, "latestInfo": None, "latestValidError": None,
        "latestError": None, "modifyingIds": None, "presentation": settings["presentation"],
        "placeholder": None, "retry": None, "debugPinned": False, "stale": False, "restored": False, "queued": False,
        "locations": None, "locationsSummary": None, "loadMs": None, "readings": None, "heartbeat": None,
        **compact,
    }
    if panel["latestValidInfo"] is not None:
        panel["latestInfo"] = panel["latestValidInfo"]
    if panel["latestValidError"] is not None:
        panel["latestError"] = panel["latestValidError"]
    panel["latestNonLoading"] = (
        {"info": panel["latestValidInfo"]} if panel["latestValidInfo"] is not None
        else {"error": panel["latestValidError"]} if panel["latestValidError"] is not None else None
    )
    return panel


class Server:
    """One run of the server binary. `restart()` starts it again on the same port.

    Every server keeps its history in a fresh temporary folder (`--data DIR`, removed by
    `remove_data()`), never in the user's state folder, unless the test passes its own `--data`
    (or a `--cluster`, or `--replay`, which keeps none).
    The folder outlives `stop()` and `kill()`, so a restarted server finds what it stored."""

    def __init__(self, args: list[str], log_name: str):
        self.data_dir: Path | None = None
        # A replay keeps no history, and takes no --data.
        if not any(a in ("--data", "--cluster", "--replay") or a.startswith(("--data=", "--cluster=")) for a in args):
            self.data_dir = Path(tempfile.mkdtemp(prefix="statedeck-data-"))
            args = [*args, "--data", str(self.data_dir)]
        self.args = args
        self.port = 0
        self.host = "127.0.0.1"
        self.proc: subprocess.Popen | None = None
        self.log_path = OUTPUT_DIR / f"{log_name}.log"
        self.log_lines: list[str] = []

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def start(self, port: int = 0, timeout: float = 20.0) -> "Server":
        if not BIN.exists():
            pytest.fail(f"server binary not found: {BIN} (build it with `swift build`, or set STATEDECK_BIN)")
        cmd = [str(BIN), "--port", str(port), *self.args]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
        found: dict[str, str] = {}
        ready = threading.Event()

        def pump(stream, tag):
            for line in stream:
                self.log_lines.append(f"[{tag}] {line.rstrip()}")
                m = START_LINE.search(line)
                if m and not ready.is_set():
                    found["host"], found["port"] = m.group(1), m.group(2)
                    ready.set()

        threading.Thread(target=pump, args=(self.proc.stdout, "out"), daemon=True).start()
        threading.Thread(target=pump, args=(self.proc.stderr, "err"), daemon=True).start()
        deadline = time.monotonic() + timeout
        while not ready.wait(0.05):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.kill()
                raise RuntimeError(f"server did not start: {' '.join(cmd)}\n" + "\n".join(self.log_lines[-30:]))
        self.host = found["host"].strip("[]") if found["host"] not in ("0.0.0.0", "::") else "127.0.0.1"
        self.port = int(found["port"])
        return self

    def restart(self, timeout: float = 15.0) -> "Server":
        """Starts again on the same port (retrying while the old socket lingers)."""
        assert self.port, "restart() needs a server that ran before"
        deadline = time.monotonic() + timeout
        while True:
            try:
                return self.start(port=self.port, timeout=10)
            except RuntimeError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def kill(self) -> None:
        """Kills the process abruptly (SIGKILL), as a crash would."""
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(5)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(3)
            except subprocess.TimeoutExpired:
                self.kill()
        self.save_log()

    def remove_data(self) -> None:
        """Removes the temporary history folder this object made (the server must be stopped)."""
        if self.data_dir is not None:
            shutil.rmtree(self.data_dir, ignore_errors=True)
            self.data_dir = None

    def save_log(self) -> None:
        OUTPUT_DIR.mkdir(parents=True, exist_ok=True)
        self.log_path.write_text("\n".join(self.log_lines) + "\n")

    # ---- HTTP helpers (PROTOCOL.md) ----------------------------------------------------------

    def request(self, method: str, path: str, body: object | None = None) -> tuple[int, object]:
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.url + path, data=data, method=method)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=10) as res:
                text = res.read().decode()
                return res.status, (json.loads(text) if text else None)
        except urllib.error.HTTPError as err:
            text = err.read().decode()
            try:
                return err.code, json.loads(text)
            except ValueError:
                return err.code, text

    def state(self) -> dict:
        """GET /api/state with each panel's compact form made whole, as the page holds it."""
        status, doc = self.request("GET", "/api/state")
        assert status == 200, doc
        doc["panels"] = [whole_panel(p, doc["settings"]) for p in doc["panels"]]  # type: ignore[index]
        return doc  # type: ignore[return-value]

    def panel(self, panel_id: str) -> dict:
        status, doc = self.request("GET", f"/api/panels/{panel_id}")
        assert status == 200, doc
        return doc  # type: ignore[return-value]

    def force(self, panel_id: str, body: dict) -> dict:
        """POST /api/debug/panels/{id}/state; returns the new PanelState."""
        status, doc = self.request("POST", f"/api/debug/panels/{panel_id}/state", body)
        assert status == 200, f"debug state {body} for {panel_id}: {status} {doc}"
        return doc  # type: ignore[return-value]

    def settle(self, timeout: float = 20.0) -> None:
        """Waits until every panel is done with its first load (showing info or an error), so that
        no start-up toast races a test."""
        deadline = time.monotonic() + timeout
        for p in self.state()["panels"]:
            self.wait_panel(p["id"], lambda s: s["phase"] in ("loaded", "error") and not s["isLoading"],
                            timeout=max(0.5, deadline - time.monotonic()))

    def wait_panel(self, panel_id: str, predicate, timeout: float = 15.0) -> dict:
        last: list[dict] = []

        def matched() -> dict | None:
            last[:] = [self.panel(panel_id)]
            return last[0] if predicate(last[0]) else None

        return wait_for(matched, timeout, lambda: f"panel {panel_id} never matched; last: {json.dumps(last[0])[:800]}")


# ---- decks ------------------------------------------------------------------------------------


def write_deck(folder: Path, slow_seconds: float = 1.0, grouped: bool = False) -> Path:
    """The test deck: two file panels, a slow command panel, and "flaky": a command that takes a
    second and fails (commandFailed, not retried automatically) until the file `flag` exists in
    the deck folder (flag_path(server) names it). Grouped, the file panels are in the group "files"
    ("File panels") and the commands in "commands" ("Commands"). Without StateDeck's own panel,
    whose numbers (memory, time up) change from run to run: the tests count and draw exactly these
    four (test_deck_file and test_notifications test that panel). Returns the config path."""
    folder.mkdir(parents=True, exist_ok=True)
    group = (lambda g: f"    group: {g}\n") if grouped else (lambda g: "")
    (folder / "alpha.json").write_text(json.dumps({"summary": "Alpha is fine", "fields": [{"label": "Latency", "value": "12 ms"}]}))
    (folder / "beta.json").write_text(json.dumps({"summary": "Beta is fine", "fields": [{"label": "Queue", "value": "3"}]}))
    config = folder / "deck.yaml"
    config.write_text(
        "title: Browser tests\n"
        "statedeckPanel: false\n"
        + ("groups:\n  - { id: files, title: File panels }\n  - { id: commands, title: Commands }\n" if grouped else "")
        + "panels:\n"
        "  - id: alpha\n"
        "    title: Alpha\n"
        "    file: { path: ./alpha.json }\n"
        "    refresh: 10m\n"
        + group("files")
        + "  - id: beta\n"
        "    title: Beta\n"
        "    file: { path: ./beta.json }\n"
        "    refresh: 10m\n"
        + group("files")
        + "  - id: slow\n"
        "    title: Slow command\n"
        f'    command: {{ run: ["sh", "-c", "sleep {slow_seconds}; echo ready"], timeout: 20s }}\n'
        "    refresh: 10m\n"
        + group("commands")
        + "  - id: flaky\n"
        "    title: Flaky command\n"
        f'    command: {{ run: ["sh", "-c", "sleep 1; test -f {folder / "flag"} && echo ready"], timeout: 20s }}\n'
        "    refresh: 10m\n"
        + group("commands")
    )
    return config


def flag_path(srv: "Server") -> Path:
    """The file whose existence makes the test deck's "flaky" panel load."""
    return Path(srv.args[srv.args.index("--config") + 1]).parent / "flag"


# ---- fixtures ---------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def browser() -> Browser:
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True)
        yield b
        b.close()


@pytest.fixture
def make_server(request, tmp_path):
    """make_server(config=None, debug=True, slow_seconds=1.0, args=(), grouped=False) → a started
    Server (stopped after the test). config=None uses the test deck written into tmp_path (its panels
    in two groups when grouped); config="demo" runs the built-in deck; args are further flags (e.g.
    ["--data", "none"])."""
    servers: list[Server] = []
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.name)

    def make(config: str | Path | None = None, debug: bool = True, slow_seconds: float = 1.0,
             args: list[str] | tuple[str, ...] = (), grouped: bool = False) -> Server:
        args = list(args)
        if config is None:
            config = write_deck(tmp_path / f"deck{len(servers)}", slow_seconds, grouped)
        if config != "demo":
            args += ["--config", str(config)]
        if debug:
            args.append("--debug")
        srv = Server(args, f"{name}-server{len(servers)}")
        servers.append(srv)
        return srv.start()

    yield make
    for s in servers:
        s.stop()
        s.remove_data()


@pytest.fixture
def make_replay(request):
    """make_replay(path, debug=False) → a started `statedeck --replay path`, serving that fixture
    frozen (stopped after the test)."""
    servers: list[Server] = []
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.name)

    def make(path: Path, debug: bool = False) -> Server:
        srv = Server(["--replay", str(path), *(["--debug"] if debug else [])], f"{name}-replay{len(servers)}")
        servers.append(srv)
        return srv.start()

    yield make
    for s in servers:
        s.stop()


@pytest.fixture
def server(make_server) -> Server:
    """The test deck with --debug, every panel done with its first load."""
    srv = make_server()
    srv.settle()
    return srv


def _new_context(browser: Browser, **overrides) -> BrowserContext:
    options = dict(
        viewport={"width": 1280, "height": 900},
        device_scale_factor=1,
        color_scheme="light",
        reduced_motion="no-preference",
        timezone_id="UTC",
        locale="en-US",
    )
    options.update(overrides)
    return browser.new_context(**options)


@pytest.fixture
def new_context(browser):
    """new_context(**options) → a fresh browser context (closed after the test)."""
    contexts: list[BrowserContext] = []

    def make(**overrides) -> BrowserContext:
        ctx = _new_context(browser, **overrides)
        contexts.append(ctx)
        return ctx

    yield make
    for c in contexts:
        c.close()


class PageProblems:
    """Uncaught page errors and Content-Security-Policy violations seen by a page."""

    def __init__(self):
        self.errors: list[str] = []

    def watch(self, page: Page) -> Page:
        page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))
        page.on(
            "console",
            lambda m: self.errors.append(f"console: {m.text}")
            if m.type == "error" and ("Content Security Policy" in m.text or "Uncaught" in m.text)
            else None,
        )
        return page


@pytest.fixture
def problems():
    p = PageProblems()
    yield p
    assert not p.errors, "the page reported problems:\n" + "\n".join(p.errors)


@pytest.fixture
def page(new_context, problems) -> Page:
    """A page in its own context; uncaught errors or CSP violations fail the test."""
    return problems.watch(new_context().new_page())


@pytest.fixture
def open_page(page):
    """open_page(server) → the page, loaded and live (its stream open)."""

    def go(srv: Server, target: Page | None = None) -> Page:
        p = target or page
        p.goto(srv.url + "/")
        wait_live(p)
        return p

    return go


@pytest.fixture
def receiver():
    """A webhook target on a free loopback port that keeps what it is sent (receivers.Receiver)."""
    target = Receiver()
    yield target
    target.stop()
