"""Roles on the page (PROTOCOL.md, "Roles"): the page asks GET /api/caller at start and disables
what the role cannot do, with the server's reason as the control's title. A viewer sees retry
disabled and why, an operator retries, a designer on --debug gets the debug controls, which no
other role gets at all."""
from __future__ import annotations

import subprocess

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
