"""Maintenance windows for the tests of notifications kept quiet: one declared in the deck file,
ending by itself, or one started and ended through the API (PROTOCOL.md's maintenance routes)."""
from __future__ import annotations

import time
from datetime import datetime, timezone

from polling import wait_for

REASON = "Upgrade"


def active(server) -> list[str]:
    """The ids of the windows `server` says hold now (GET /api/maintenance)."""
    status, document = server.request("GET", "/api/maintenance")
    assert status == 200, document
    return [window["id"] for window in document["active"]]


def stamp(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, timezone.utc)


class Window:
    """A window over one panel, "Upgrade": declared in the deck file ("file") from a minute ago
    until `seconds` after it is made, ending by itself; or started with `POST /api/maintenance`
    ("api"), a minute long (the shortest the API starts), and ended with `DELETE`."""

    def __init__(self, kind: str, panel: str, seconds: float):
        assert kind in ("file", "api"), kind
        self.kind = kind
        self.panel = panel
        self.until: float | None = time.time() + seconds if kind == "file" else None
        self.id: str | None = "upgrade" if kind == "file" else None

    def declared(self) -> str:
        """The deck file's top-level `maintenance:` for a window of the file, else nothing."""
        if self.kind != "file":
            return ""
        begins = stamp(time.time() - 60).isoformat(timespec="milliseconds").replace("+00:00", "Z")
        ends = stamp(self.until).isoformat(timespec="milliseconds").replace("+00:00", "Z")
        return (f"maintenance:\n  - {{ id: {self.id}, reason: {REASON}, panels: [{self.panel}], "
                f"from: \"{begins}\", to: \"{ends}\" }}\n")

    def start(self, server) -> None:
        """Has `server` (the one running the deck) hold the window now. Of several processes, each
        lists what the store told it: the window started here a moment later."""
        if self.kind == "api":
            status, window = server.request("POST", "/api/maintenance",
                                            {"panels": [self.panel], "minutes": 1, "reason": REASON})
            assert status == 201, window
            self.id = window["id"]
        wait_for(lambda: self.id in active(server), 5, lambda: f"the window never held ({self.seconds_left():.1f} s left)")

    def seconds_left(self) -> float:
        return self.until - time.time() if self.until is not None else 60.0

    def end(self, server) -> float:
        """Ends the window (one of the file: waits for its end, its alarm on `server`) and returns
        when it ended, in seconds since 1970."""
        if self.kind == "api":
            status, window = server.request("DELETE", f"/api/maintenance/{self.id}")
            assert status == 200, window
            return datetime.fromisoformat(window["until"]).timestamp()
        wait_for(lambda: self.id not in active(server), self.seconds_left() + 10, "the window never ended")
        return self.until

    def end_telling_the_failure(self, server, receiver) -> dict:
        """Ends the window with its panel still down: the failure it kept quiet is told then, as
        new, and is the first `receiver` takes. Returns it."""
        ended = self.end(server)
        failure = receiver.wait(1)[0]["json"]
        assert failure["event"] == "failure" and failure["panel"] == self.panel, failure
        told_at = datetime.fromisoformat(failure["at"]).timestamp()
        assert failure["downSince"] == failure["at"] and ended - 0.001 <= told_at < ended + 2, \
            ("told as new, when the window ended", ended, failure)
        return failure
