"""Moments of a deck as fixture files (PROTOCOL.md, Fixtures), for the screens that are hard to
reach: recorded from live servers (`GET /api/state?format=fixture`) and served by
`statedeck --replay FILE`.

The committed ones live in Tests/browser/moments/; test_replay.py records them again from real
runs and holds the committed ones to what it recorded (`UPDATE_MOMENTS=1` writes them instead).
The 10,000-panel moment is made from a recorded one at test time: too large to commit."""
from __future__ import annotations

import copy
import json
import urllib.request
from pathlib import Path

MOMENTS_DIR = Path(__file__).resolve().parent / "moments"

# The catalogue's error kinds, in its order: the state document's settings.errorKinds, which the
# recording test compares with this list.
ERROR_KINDS = [
    "noNetwork", "unreachable", "timeout", "serverError", "serverMaintenance", "notFound", "unauthorized",
    "invalidResponse", "checkFailed", "commandFailed", "outOfSpace", "updateAvailable", "updateRequired",
    "dnsNameNotFound", "dnsServerFailure", "certificateExpiring", "certificateUntrusted", "pingMissed",
    "jobFailed", "unknown",
]


def download(srv) -> tuple[dict, str]:
    """The moment `srv` shows now, as a fixture, and the attachment's Content-Disposition."""
    with urllib.request.urlopen(srv.url + "/api/state?format=fixture", timeout=10) as res:
        return json.loads(res.read().decode()), res.headers["Content-Disposition"]


def write(fixture: dict, path: Path) -> Path:
    """Writes `fixture` with its keys sorted, indented, so two recordings compare line by line."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(fixture, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
    return path


def write_error_kinds_deck(folder: Path) -> Path:
    """A deck of one file panel per error kind (`kind_panel(kind)`, titled with the kind), grouped as "Every error kind", and
    one panel that stays up ("ok"), grouped as "Up"."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "ok.json").write_text(json.dumps({"summary": "All fine", "fields": [{"label": "Latency", "value": "12 ms"}]}))
    panels = "".join(
        f"  - id: {kind_panel(kind)}\n    title: {kind}\n    file: {{ path: ./ok.json }}\n    refresh: 10m\n    group: errors\n"
        for kind in ERROR_KINDS
    )
    config = folder / "deck.yaml"
    config.write_text(
        "title: Every error kind\nstatedeckPanel: false\n"
        "groups:\n  - { id: up, title: Up }\n  - { id: errors, title: Every error kind }\n"
        "panels:\n  - id: ok\n    title: Up and fine\n    file: { path: ./ok.json }\n    refresh: 10m\n    group: up\n"
        + panels
    )
    return config


def kind_panel(kind: str) -> str:
    """The id of the error-kinds deck's panel showing `kind` (ids are lowercase: `kind-03`)."""
    return f"kind-{ERROR_KINDS.index(kind) + 1:02d}"


def many_panels(recorded: dict, count: int = 10_000, failing: int = 300) -> dict:
    """A moment of `count` panels, `failing` of them down (spread evenly, their error kinds in the
    catalogue's order), made from the panels of the recorded error-kinds moment: the "ok" panel
    for the ones up, the `kind-…` ones for the ones down. No groups."""
    up = next(p for p in recorded["panels"] if p["id"] == "ok")
    down = [p for p in recorded["panels"] if p["id"].startswith("kind-")]
    step = count // failing
    panels = []
    for index in range(count):
        failed = index % step == 0 and index // step < failing
        template = down[(index // step) % len(down)] if failed else up
        panel = copy.deepcopy(template)
        panel["id"] = f"svc-{index:05d}"
        panel["title"] = f"Service {index:05d}"
        panel.pop("group", None)
        panels.append(panel)
    fixture = copy.deepcopy(recorded)
    fixture["deck"]["title"] = f"{count:,} panels, {failing} down"
    fixture["deck"]["groups"] = []
    fixture["panels"] = panels
    return fixture
