"""GET /metrics read by Prometheus' own Python client's parser: what a scraper sees (PROTOCOL.md,
"Metrics")."""
from __future__ import annotations

import urllib.request

from prometheus_client.parser import text_string_to_metric_families

from conftest import flag_path
from polling import wait_for


def scrape(server) -> dict:
    """The families of one scrape, by name."""
    with urllib.request.urlopen(server.url + "/metrics", timeout=10) as answer:
        assert answer.status == 200
        assert answer.headers["Content-Type"] == "text/plain; version=0.0.4; charset=utf-8"
        return {family.name: family for family in text_string_to_metric_families(answer.read().decode())}


def value(families: dict, family: str, sample: str, **labels) -> float | None:
    for s in families[family].samples:
        if s.name == sample and all(s.labels.get(k) == v for k, v in labels.items()):
            return s.value
    return None


def test_a_scrape_parses_and_tells_each_panel_its_source_and_state(server):
    families = scrape(server)
    assert families["statedeck_panel_up"].type == "gauge"
    assert families["statedeck_load_duration_seconds"].type == "histogram"
    assert families["statedeck_transitions"].type == "counter"
    up = {s.labels["panel"]: (s.labels["source"], s.value) for s in families["statedeck_panel_up"].samples}
    assert up == {"alpha": ("file", 1), "beta": ("file", 1), "slow": ("command", 1), "flaky": ("command", 0)}
    assert value(families, "statedeck_load_failures", "statedeck_load_failures_total",
                 source="command", kind="commandFailed") == 1
    buckets = [s for s in families["statedeck_load_duration_seconds"].samples
               if s.name.endswith("_bucket") and s.labels["source"] == "command"]
    assert buckets[-1].labels["le"] == "+Inf" and buckets[-1].value == 2
    assert value(families, "statedeck_panel_load_duration_seconds", "statedeck_panel_load_duration_seconds",
                 panel="slow") >= 1.0, "the slow command sleeps a second"


def test_a_recovery_is_one_transition_up(server):
    flag_path(server).touch()
    status, _ = server.request("POST", "/api/panels/flaky/retry")
    assert status == 202
    wait_for(lambda: value(scrape(server), "statedeck_panel_up", "statedeck_panel_up", panel="flaky") == 1, 15,
             "flaky never came up in the metrics")
    families = scrape(server)
    assert value(families, "statedeck_transitions", "statedeck_transitions_total", source="command", to="up") == 1
    assert value(families, "statedeck_transitions", "statedeck_transitions_total", source="command", to="down") == 0
