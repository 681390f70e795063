"""A page the user happens to visit, served by another local server on another port (same
site as the dashboard, another origin), can neither read the live state nor press a button."""
from __future__ import annotations

import http.server
import threading
import time

import pytest

ATTACK = """<!doctype html><title>Another local app</title><script>
window.outcome = (async () => {
  const target = new URL(location.search.slice(1));
  const result = {};
  try {
    const answer = await fetch(new URL("/api/state", target));
    result.read = "read " + answer.status + ": " + (await answer.text()).slice(0, 80);
  } catch (error) {
    result.read = "blocked";
  }
  // The request goes out; its answer is opaque to this page whatever it is.
  await fetch(new URL("/api/panels/alpha/retry", target), { method: "POST", mode: "no-cors" })
    .catch(() => {});
  return result;
})();
</script>
<form id="retry" method="post"></form>
"""


@pytest.fixture
def other_origin():
    """A second local web server, on its own port, serving the attacking page."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = ATTACK.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


def loads_of(server, panel_id: str) -> int:
    return sum(1 for entry in server.panel(panel_id)["history"] if entry["state"] == "loading")


def test_another_local_origin_can_neither_read_the_state_nor_retry(server, page, other_origin):
    loads = loads_of(server, "alpha")
    page.goto(f"{other_origin}?{server.url}/")
    outcome = page.evaluate("window.outcome")
    assert outcome["read"] == "blocked", outcome
    # A no-cors POST (above) and a plain form POST (which needs no script at all) both reach the
    # server, and both are refused before any route runs.
    with page.expect_navigation():
        page.evaluate("(url) => { const form = document.getElementById('retry'); form.action = url; form.submit(); }",
                      f"{server.url}/api/panels/alpha/retry")
    assert '"forbidden"' in page.content(), page.content()
    page.wait_for_timeout(1000)
    assert loads_of(server, "alpha") == loads, "a retry from another origin ran"

    # The same calls from the dashboard's own page work, so the refusal above is the gate's.
    page.goto(f"{server.url}/")
    status = page.evaluate("async () => (await fetch('/api/panels/alpha/retry', { method: 'POST' })).status")
    assert status == 202
    deadline = time.monotonic() + 10
    while loads_of(server, "alpha") == loads and time.monotonic() < deadline:
        time.sleep(0.05)
    assert loads_of(server, "alpha") == loads + 1
