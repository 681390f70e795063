"""docs/openapi.yaml against the server: the document is valid OpenAPI, and schemathesis's generated
requests to a live `statedeck --debug` get no 5xx and only answers the document describes (status,
content type, body), after which the server still answers."""
from __future__ import annotations

import zlib
from collections import Counter
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from openapi_spec_validator import validate
from openapi_spec_validator.readers import read_from_filename
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from conftest import REPO, Server

DOCUMENT = REPO / "docs" / "openapi.yaml"

# `GET /events` is a stream that never ends, so no generated request opens it; the stream's own
# tests read it (test_stream.py, and the Swift suites).
schema = schemathesis.openapi.from_path(DOCUMENT).exclude(path="/events")

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]

# The deck's ids, items, actions and recovery options: generated ids alone would almost never name
# one, and only the 404 would be tested.
PANELS = ["status", "workers", "broken"]
ITEMS = ["w1", "w2"]
ACTIONS = ["restart"]
OPTIONS = ["try-again", "cancel", "repair"]
TARGETS = ["command true"]

# Cases sent, by the operation they were generated for and the method and status of the exchange
# (the coverage phase also sends other methods): the summary, and proof that every operation ran.
sent: Counter[tuple[str, str]] = Counter()


def write_deck(folder: Path) -> Path:
    """A file panel with info and a notify target, a list whose items have an action, and a command
    that fails with a recovery option of its own; nothing reloads on a timer, so only the requests
    change state."""
    (folder / "status.json").write_text('{"summary": "All good", "fields": [{"label": "Queue", "value": "3"}]}')
    config = folder / "deck.yaml"
    config.write_text(
        "title: OpenAPI checks\n"
        "groups:\n  - { id: files, title: Files }\n"
        "panels:\n"
        "  - { id: status, title: Status, group: files, file: { path: ./status.json }, refresh: manual,\n"
        '      notify: [{ command: { run: ["true"] } }] }\n'
        "  - id: workers\n"
        "    title: Workers\n"
        '    command: { run: [printf, "w1\\tWorker one\\tup\\nw2\\tWorker two\\tup\\n"], output: lines }\n'
        "    refresh: manual\n"
        '    actions: [{ id: restart, label: Restart, run: ["true"] }]\n'
        "  - id: broken\n"
        "    title: Broken\n"
        '    command: { run: [sh, -c, "exit 3"] }\n'
        "    refresh: manual\n"
        '    recovery: [{ id: repair, label: Repair, run: ["true"] }]\n'
    )
    return config


@pytest.fixture(scope="module")
def api_server(tmp_path_factory) -> Server:
    folder = tmp_path_factory.mktemp("openapi-deck")
    srv = Server(["--config", str(write_deck(folder)), "--debug"], "openapi-server").start()
    srv.settle()
    yield srv
    srv.stop()
    srv.remove_data()


def test_document_is_valid_openapi():
    document, _ = read_from_filename(str(DOCUMENT))
    assert document["openapi"].startswith("3.1")
    validate(document)


def deck_value(generated: str, choices: list[str]) -> str:
    """One of `choices`, or `generated` itself, picked by a checksum of `generated`: the same on
    every run, and most cases still name something the deck lacks."""
    options = [generated, *choices]
    return options[zlib.crc32(generated.encode("utf-8", "surrogatepass")) % len(options)]


@schema.parametrize()
# About 40 generated cases an operation (more from the examples and coverage phases), the same on
# every run, so a failure can be replayed; no deadline, since a load takes the server a moment.
@settings(max_examples=40, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
def test_generated_requests_get_documented_answers(case, api_server):
    for name, choices in (("id", PANELS), ("itemId", ITEMS), ("actionId", ACTIONS)):
        if isinstance((case.path_parameters or {}).get(name), str):
            case.path_parameters[name] = deck_value(case.path_parameters[name], choices)
    if isinstance(case.body, dict) and isinstance(case.body.get("option"), str):
        case.body["option"] = deck_value(case.body["option"], OPTIONS)
    if isinstance(case.body, dict) and isinstance(case.body.get("target"), str):
        case.body["target"] = deck_value(case.body["target"], TARGETS)
    assert api_server.proc.poll() is None, "the server has exited"
    # The gate answers only a `Host` naming the server's own address and port (requests would send
    # the same; said here so that no client default decides it), and no `Origin` is sent.
    response = case.call_and_validate(base_url=api_server.url, headers={"Host": f"{api_server.host}:{api_server.port}"},
                                      checks=CHECKS, timeout=10)
    sent[(case.operation.label, f"{case.method} {response.status_code}")] += 1


def test_server_still_answers_after_the_generated_requests(api_server):
    if not sent:
        pytest.skip("no generated request ran in this session (deselected)")
    total = sum(sent.values())
    print(f"\n{total} generated requests, by operation, then method and status sent back:")
    for (operation, answer), count in sorted(sent.items()):
        print(f"  {operation}: {answer} x{count}")
    operations = {operation for operation, _ in sent}
    documented = {f"{method.upper()} {path}" for path, methods in schema.raw_schema["paths"].items()
                  for method in methods if method != "parameters" and path != "/events"}
    assert operations == documented, f"operations never exercised: {documented - operations}"
    assert total >= 200, f"only {total} generated requests"
    assert api_server.proc.poll() is None, "the server has exited"
    status, state = api_server.request("GET", "/api/state")
    assert status == 200 and [p["id"] for p in state["panels"]] == [*PANELS, "statedeck"], "the deck file's, then StateDeck's own"
