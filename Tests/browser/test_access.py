"""Roles on the page (PROTOCOL.md, "Roles"): the page asks GET /api/caller at start and disables
what the role cannot do, with the server's reason as the control's title. A viewer sees retry
disabled and why, an operator retries, a designer on --debug gets the debug controls, which no
other role gets at all."""
from __future__ import annotations

import http.client
import shutil
import socket
import subprocess
import time

import pytest
from playwright.sync_api import expect

from conftest import BIN
from helpers import panel, tid, wait_live


def add_token(access, name: str, role: str) -> str:
    """`statedeck token add`: the token it prints, alone on standard output."""
    res = subprocess.run([str(BIN), "token", "add", "--access", str(access), name, "--role", role],
                         capture_output=True, text=True, check=True, timeout=10)
    return res.stdout.strip()


@pytest.fixture
def team(make_server, tmp_path):
    """A --debug server of the test deck opened by three people, one of each role."""
    access = tmp_path / "access.yaml"
    tokens = {role: add_token(access, name, role)
              for name, role in [("vera", "viewer"), ("otto", "operator"), ("dana", "designer")]}
    return make_server(args=["--access", str(access)]), tokens


def open_as(new_context, srv, token: str):
    """A fresh browser that opens the dashboard with `?token=`, as its owner was told to."""
    page = new_context().new_page()
    page.goto(f"{srv.url}/?token={token}")
    wait_live(page)
    expect(panel(page, "alpha")).to_contain_text("Alpha is fine")
    return page


def refresh_as(team, new_context, role: str):
    """The page of the `role` of `team`, and its alpha panel's refresh button (a retry)."""
    srv, tokens = team
    page = open_as(new_context, srv, tokens[role])
    return page, panel(page, "alpha").locator(tid("panel-refresh"))


def test_a_viewer_sees_retry_disabled_with_the_reason(team, new_context):
    page, refresh = refresh_as(team, new_context, "viewer")
    expect(refresh).to_be_disabled()
    expect(refresh).to_have_attribute("title", "Needs the operator role; you are a viewer")
    # The Maintenance dialog opens (the windows are for all to read), but its Start cannot be pressed.
    page.locator(tid("maintenance-open")).click()
    start = page.locator(tid("maintenance-start"))
    expect(start).to_be_disabled()
    expect(start).to_have_attribute("title", "Needs the operator role; you are a viewer")
    page.keyboard.press("Escape")
    # Incidents are read, but the form that opens one is not offered.
    page.locator(tid("incident-open")).click()
    expect(page.locator(tid("incident-dialog"))).to_be_visible()
    expect(page.locator(tid("incident-new"))).to_be_hidden()
    page.keyboard.press("Escape")
    # No debug control at all, though the server runs with --debug.
    expect(page.locator(tid("debug-bar"))).to_have_count(0)
    expect(panel(page, "alpha").locator(tid("panel-debug"))).to_have_count(0)
    # What the page would have sent is refused by the server, naming the role.
    answer = page.evaluate("fetch('/api/panels/alpha/retry', {method: 'POST'}).then(async r => [r.status, await r.json()])")
    assert answer[0] == 403
    assert answer[1]["error"]["role"] == "operator"
    assert answer[1]["error"]["message"] == "retrying a panel needs the operator role; vera is a viewer"


def test_an_operator_can_retry_but_gets_no_debug_controls(team, new_context):
    page, refresh = refresh_as(team, new_context, "operator")
    expect(refresh).to_be_enabled()
    expect(refresh).to_have_attribute("title", "Refresh")
    with page.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/api/panels/alpha/retry")) as res:
        refresh.click()
    assert res.value.status == 202
    page.locator(tid("incident-open")).click()
    expect(page.locator(tid("incident-new"))).to_be_visible()
    expect(page.locator(tid("debug-bar"))).to_have_count(0)


def test_a_designer_on_debug_sees_the_debug_states(team, new_context):
    srv, tokens = team
    page = open_as(new_context, srv, tokens["designer"])
    expect(page.locator(tid("debug-bar"))).to_be_visible()
    page.locator(tid("debug-open")).click()
    dialog = page.locator(tid("debug-dialog"))
    expect(dialog).to_be_visible()
    dialog.locator(tid("debug-panel")).select_option("beta")
    dialog.locator(tid("debug-error")).click()
    expect(panel(page, "beta").locator(tid("error-card"))).to_be_visible()


NGINX_CONF = """worker_processes 1;
pid nginx.pid;
error_log nginx-error.log warn;
events {{ worker_connections 64; }}
http {{
    access_log off;
    client_body_temp_path tmp;
    proxy_temp_path tmp;
    fastcgi_temp_path tmp;
    uwsgi_temp_path tmp;
    scgi_temp_path tmp;
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass http://127.0.0.1:{upstream};
            # Its connections come from 127.0.0.2, the address named with --trusted-proxy: a
            # client on 127.0.0.1 reaches StateDeck directly as one that is no proxy.
            proxy_bind 127.0.0.2;
            proxy_set_header Host 127.0.0.1:{upstream};
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        }}
    }}
}}
"""


def status_of(url: str, token: str, forwarded_for: str = "", source: str = "127.0.0.1") -> int:
    """The status of GET /api/state with `token`, sent from the loopback address `source` with
    `X-Forwarded-For: forwarded_for` when given; 0 when nothing listens yet."""
    host, port = url.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=10, source_address=(source, 0))
    headers = {"Authorization": f"Bearer {token}", **({"X-Forwarded-For": forwarded_for} if forwarded_for else {})}
    try:
        connection.request("GET", "/api/state", headers=headers)
        return connection.getresponse().status
    except ConnectionRefusedError:
        return 0
    finally:
        connection.close()


@pytest.fixture
def behind_nginx(make_server, tmp_path):
    """A server asking a --token-file's token, behind a real nginx named with --trusted-proxy:
    (the server, nginx's address, the token)."""
    nginx = shutil.which("nginx") or pytest.fail("nginx is not installed (apt-get install nginx)")
    token = "proxy-test-token-" + "x" * 26
    token_file = tmp_path / "token"
    token_file.write_text(token + "\n")
    token_file.chmod(0o600)
    srv = make_server(args=["--token-file", str(token_file), "--trusted-proxy", "127.0.0.2"])
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    prefix = tmp_path / "nginx"
    (prefix / "tmp").mkdir(parents=True)
    (prefix / "tmp").chmod(0o1777)
    (prefix / "nginx.conf").write_text(NGINX_CONF.format(port=port, upstream=srv.port))
    proc = subprocess.Popen([nginx, "-p", str(prefix), "-c", "nginx.conf", "-g", "daemon off;"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while status_of(f"http://127.0.0.1:{port}", token) != 200:
            assert proc.poll() is None and time.monotonic() < deadline, (prefix / "nginx-error.log").read_text()
            time.sleep(0.1)
        yield srv, f"http://127.0.0.1:{port}", token
    finally:
        proc.terminate()
        proc.wait(10)


def test_behind_a_named_nginx_each_user_counts_by_the_address_it_saw(behind_nginx):
    srv, proxied, token = behind_nginx
    # Two users behind nginx, on 127.0.0.3 and 127.0.0.4; nginx appends the address it saw to what
    # the client wrote, so the guesser's own X-Forwarded-For spreads nothing.
    for guess in range(10):
        assert status_of(proxied, f"guess-{guess}", f"192.0.2.{guess}", source="127.0.0.3") == 403
    assert status_of(proxied, token, source="127.0.0.3") == 429
    assert status_of(proxied, token, source="127.0.0.4") == 200, "another user behind the same proxy"
    # Straight to StateDeck, X-Forwarded-For is ignored: the guesses count against the peer.
    for guess in range(10):
        assert status_of(srv.url, f"guess-{guess}", f"192.0.2.{guess}", source="127.0.0.5") == 403
    assert status_of(srv.url, token, "192.0.2.50", source="127.0.0.5") == 429
    assert status_of(proxied, token, source="127.0.0.4") == 200
