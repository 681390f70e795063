"""Moments of a deck as fixture files (PROTOCOL.md, Fixtures), for the screens that are hard to
reach: recorded from live servers (`GET /api/state?format=fixture`) and served by
`statedeck --replay FILE`.

The committed ones live in Tests/browser/moments/: every-error-kind.json and
incident-while-down.json, which test_replay.py records again from real runs, and
incident-mid-failover.json (a server of a cluster between the leader's `kill -9` and its own
takeover, an incident open and a panel down), which test_cluster.py records beside its PostgreSQL.
Each recording holds the committed one to what it recorded (`UPDATE_MOMENTS=1` writes it instead).
The 10,000-panel moment is made from a recorded one at test time: too large to commit."""
from __future__ import annotations

import copy
import json
import os
import urllib.request
from pathlib import Path

MOMENTS_DIR = Path(__file__).resolve().parent / "moments"

# The catalogue's error kinds, in its order: the state document's settings.errorKinds, which the
# recording test compares with this list.
ERROR_KINDS = [
    "noNetwork", "unreachable", "timeout", "serverError", "serverMaintenance", "notFound", "unauthorized",
    "invalidResponse", "checkFailed", "commandFailed", "outOfSpace", "updateAvailable", "updateRequired",
    "dnsNameNotFound", "dnsServerFailure", "dnsAnswerTooLarge", "certificateExpiring", "certificateUntrusted",
    "pingMissed", "jobFailed", "domainExpiring", "domainExpired", "domainNotRegistered", "noRDAPServer",
    "containerNotRunning", "containerUnhealthy", "containerNotFound", "queryFailed", "serviceNotServing",
    "unknown",
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


def recorded(fixture: dict) -> dict:
    """A recorded moment as committed: the debug pins that forced its states taken off, so the page
    draws them as a source's results."""
    for panel in fixture["panels"]:
        panel.pop("debugPinned", None)
    return fixture


def shape(fixture: dict) -> list[tuple]:
    """What a moment shows, without its times: each panel's id, phase, health and error kind."""
    return [(p["id"], p.get("phase"), p.get("health"), (p.get("latestValidError") or {}).get("kind"))
            for p in fixture["panels"]] + [(i["title"], i["status"], tuple(i["panels"])) for i in fixture["incidents"]]


def keep_or_compare(fixture: dict, name: str) -> None:
    """Writes the moment under Tests/browser/moments/ with UPDATE_MOMENTS=1; else holds the
    committed one to it (the same panels in the same states, in the current format)."""
    path = MOMENTS_DIR / f"{name}.json"
    if os.environ.get("UPDATE_MOMENTS") == "1":
        write(fixture, path)
        return
    assert path.exists(), f"no {path.name}: record it with UPDATE_MOMENTS=1 Tests/browser/run.sh test_replay.py test_cluster.py -k record"
    committed = json.loads(path.read_text())
    assert committed["version"] == fixture["version"]
    assert shape(committed) == shape(fixture), f"{path.name} no longer is what a real run records: UPDATE_MOMENTS=1"


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
