"""The command line of PROTOCOL.md, run as a person would: the start-up line, exit status 2 with a
message naming the file, key path and line, a clean exit on SIGTERM, and every flag `--help`
prints documented in README.md and docs/PROTOCOL.md."""
from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from conftest import BIN, REPO, START_LINE

LONG_FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")
# Debian's faketime package: its constructor adds FAKETIME_SHARED to the environment.
LIBFAKETIME = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"


def run(*args: str, timeout: float = 10) -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN), *args], capture_output=True, text=True, timeout=timeout)


@pytest.mark.parametrize("args, says", [
    (["--port", "70000"], "--port must be between 0 and 65535"),
    (["--port", "eight"], "eight"),
    (["--no-such-flag"], "--no-such-flag"),
    (["--public", "/nonexistent-folder"], "/nonexistent-folder"),
    (["--config", "/nonexistent/deck.yaml"], "/nonexistent/deck.yaml"),
])
def test_a_bad_flag_exits_2_with_the_reason_and_binds_nothing(args, says):
    result = run("--port", "0", *args)
    assert result.returncode == 2, result.stderr
    assert says in result.stderr
    assert not START_LINE.search(result.stdout)


def test_a_broken_deck_file_names_every_problem_with_its_line_and_key(tmp_path: Path):
    deck = tmp_path / "broken.yaml"
    deck.write_text("title: Broken\npanels:\n  - id: Not Valid\n    htp: { url: x }\n"
                    "  - id: db\n    tcp: { host: 127.0.0.1 }\n    refresh: soon\n")
    result = run("--port", "0", "--config", str(deck))
    assert result.returncode == 2
    assert "broken.yaml:3: panels[0].id:" in result.stderr
    assert "broken.yaml:4: panels[0].htp: unknown key; did you mean http?" in result.stderr
    assert "broken.yaml:6: panels[1].tcp.port: is required" in result.stderr
    assert "broken.yaml:7: panels[1].refresh:" in result.stderr
    assert not START_LINE.search(result.stdout)


def test_help_exits_0():
    result = run("--help")
    assert result.returncode == 0
    assert "--config" in result.stdout and "--debug" in result.stdout


def printed_flags() -> set[str]:
    """The long flags `statedeck --help` lists under OPTIONS."""
    result = run("--help")
    assert result.returncode == 0, result.stderr
    options = result.stdout.split("OPTIONS:", 1)
    assert len(options) == 2, result.stdout
    flags = set()
    for line in options[1].splitlines():
        # "  --port <port>           The port to bind…": the flags come before the first wide gap.
        if line.lstrip().startswith("-"):
            flags.update(LONG_FLAG.findall(re.split(r"\s{2,}", line.strip())[0]))
    return flags


def documented_flags(doc: str) -> tuple[set[str], set[str]]:
    """The long flags of `doc`'s "## Command line" section: those in the first column of its
    table, and those in its synopsis (the code block that starts `statedeck`)."""
    text = (REPO / doc).read_text()
    section = re.search(r"^## Command line\n(.*?)(?=^## )", text, re.S | re.M)
    assert section, f"{doc} has no '## Command line' section"
    table = set()
    for row in re.findall(r"^\|(.*?)\|", section.group(1), re.M):
        table.update(LONG_FLAG.findall(row))
    synopsis = re.search(r"^```\n(statedeck .*?)\n```", section.group(1), re.S | re.M)
    assert synopsis, f"{doc}'s Command line section has no synopsis"
    return table, set(LONG_FLAG.findall(synopsis.group(1)))


def test_the_man_page_describes_every_flag_help_prints_and_every_subcommand(tmp_path: Path):
    """statedeck(1) is made from the definitions `--help` prints (packaging/man-pages): every flag
    of the command and of each subcommand is in it, and groff reads both pages without a warning."""
    subprocess.run([str(REPO / "packaging/man-pages"), str(BIN), str(tmp_path)], check=True, timeout=30)
    page = (tmp_path / "statedeck.1").read_text().replace("\\-", "-")
    for command in [[], ["check"], ["probe"], ["token", "add"]]:
        result = run(*command, "--help")
        assert result.returncode == 0, result.stderr
        flags = {flag for line in result.stdout.split("OPTIONS:", 1)[1].splitlines() if line.lstrip().startswith("-")
                 for flag in LONG_FLAG.findall(re.split(r"\s{2,}", line.strip())[0])}
        assert {"--help"} <= flags, command
        missing = {flag for flag in flags - {"--help"} if not re.search(rf"\\fB{flag}\\fR", page)}
        assert missing == set(), f"statedeck {' '.join(command)}: printed by --help, not in statedeck(1)"
        if command:
            assert f".SS statedeck {' '.join(command)}" in page, f"statedeck(1) has no section for {command}"
    for name in ["statedeck.1", "statedeck-deck.5"]:
        rendered = subprocess.run(["groff", "-man", "-Tutf8", "-ww", "-z", str(tmp_path / name)],
                                  capture_output=True, text=True, timeout=30)
        assert rendered.returncode == 0 and rendered.stderr == "", f"{name}: {rendered.stderr}"
    assert "--version" in page and "http" in (tmp_path / "statedeck-deck.5").read_text()


@pytest.mark.parametrize("doc", ["README.md", "docs/PROTOCOL.md"])
def test_the_documented_flags_are_the_ones_help_prints(doc: str):
    printed = printed_flags()
    assert {"--config", "--port", "--help"} <= printed, printed
    table, synopsis = documented_flags(doc)
    assert printed - table == set(), f"printed by --help but not in {doc}'s command-line table"
    assert table - printed == set(), f"in {doc}'s command-line table but not printed by --help"
    assert printed - {"--help", "--version"} - synopsis == set(), f"printed by --help but not in {doc}'s synopsis"
    assert synopsis - printed == set(), f"in {doc}'s synopsis but not printed by --help"


def test_sigterm_with_a_stream_open_exits_0_within_2_seconds(tmp_path: Path):
    # The demo deck keeps its history in the test's folder, not in the user's state folder.
    proc = subprocess.Popen([str(BIN), "--port", "0", "--seed", "1", "--data", str(tmp_path / "data")],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        match = START_LINE.search(proc.stdout.readline())
        assert match, "no start-up line"
        port = int(match.group(2))
        stream = socket.create_connection(("127.0.0.1", port), timeout=5)
        stream.sendall(f"GET /events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        received = b""
        while b"event: snapshot" not in received:
            received += stream.recv(65536)
        started = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(3) == 0
        assert time.monotonic() - started < 2
        # The stream ends with the server: reads drain to end of file.
        while stream.recv(65536):
            pass
        stream.close()
    finally:
        if proc.poll() is None:
            proc.kill()


def test_libcurl_is_opened_only_when_an_http_panel_first_loads(make_server, tmp_path: Path):
    """libcurl and the TLS, SSH and LDAP libraries it brings cost megabytes of resident memory:
    StateDeck opens it (dlopen) for the first http request, not at start."""
    def mapped(srv) -> bool:
        return "libcurl" in Path(f"/proc/{srv.proc.pid}/maps").read_text()

    without = make_server()
    without.settle()
    assert not mapped(without)
    deck = tmp_path / "http.yaml"
    deck.write_text(f"panels:\n  - id: web\n    http: {{ url: '{without.url}/api/state' }}\n")
    with_http = make_server(deck)
    with_http.wait_panel("web", lambda p: p["phase"] == "loaded")
    assert mapped(with_http)


def test_a_preloaded_library_that_moves_the_environment_leaves_the_arguments_read(tmp_path: Path):
    """libfaketime's constructor adds a variable with setenv, which moves `environ` off the stack,
    where the Swift runtime looks for argv: preloaded into statedeck itself (no `env` in between to
    load it first), it once left no arguments, and the demo deck served on port 8080."""
    assert Path(LIBFAKETIME).exists(), "faketime is not installed (make test-deps installs it)"
    (tmp_path / "state.json").write_text("{}")
    deck = tmp_path / "deck.yaml"
    deck.write_text("title: Preloaded\npanels:\n  - id: argv-panel\n    file: { path: state.json }\n")
    environment = {**os.environ, "LD_PRELOAD": LIBFAKETIME, "FAKETIME": "+10d", "DONT_FAKE_MONOTONIC": "1"}
    proc = subprocess.Popen([str(BIN), "--port", "0", "--config", str(deck), "--data", str(tmp_path / "data")],
                            env=environment, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        match = START_LINE.search(proc.stdout.readline())
        assert match, "no start-up line"
        assert "libfaketime" in Path(f"/proc/{proc.pid}/maps").read_text()
        assert match.group(2) != "8080"
        with urllib.request.urlopen(f"http://127.0.0.1:{match.group(2)}/api/state", timeout=5) as res:
            state = json.load(res)
        assert state["title"] == "Preloaded"
        assert [p["id"] for p in state["panels"]] == ["argv-panel", "statedeck"]
    finally:
        proc.kill()
        proc.wait()
