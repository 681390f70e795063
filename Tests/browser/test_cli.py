"""The command line of PROTOCOL.md, run as a person would: the start-up line, exit status 2 with a
message naming the file, key path and line, and a clean exit on SIGTERM."""
from __future__ import annotations

import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

from conftest import BIN, PUBLIC, START_LINE


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


def test_sigterm_with_a_stream_open_exits_0_within_2_seconds():
    proc = subprocess.Popen([str(BIN), "--port", "0", "--public", str(PUBLIC), "--seed", "1"],
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
