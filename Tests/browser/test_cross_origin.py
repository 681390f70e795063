"""A page the user happens to visit, served by another local server on another port (same
site as the dashboard, another origin), can neither read the live state nor press a button."""
from __future__ import annotations

import http.server
import threading

import pytest

from polling import wait_for

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
    assert loads_of(server, "alpha") == loads, "a retry from another origin ran"

    # The same calls from the dashboard's own page work, so the refusal above is the gate's. Sent
    # after both of the other origin's requests were answered, this retry comes after any load
    # they could have started: it would join that load if it still ran (coalesced), and count
    # after it if it had ended. Neither: the only load since is this one.
    page.goto(f"{server.url}/")
    answer = page.evaluate("""async () => {
        const answer = await fetch('/api/panels/alpha/retry', { method: 'POST' });
        return { status: answer.status, body: await answer.json() };
    }""")
    assert answer == {"status": 202, "body": {"accepted": True, "coalesced": False}}, answer
    wait_for(lambda: server.panel("alpha")["phase"] == "loaded" and loads_of(server, "alpha") > loads,
             10, "the dashboard's own retry never loaded")
    assert loads_of(server, "alpha") == loads + 1, "a retry from another origin ran"
