#!/usr/bin/env python3
"""The checker judged on histories made up here: a clean one passes, and each kind of violation,
put in alone, fails it with its own message (so no invariant of checker.py is one that cannot
fail).    python3 Tests/chaos/test_checker.py"""
from __future__ import annotations

import copy
import json
import subprocess
import sys
import tempfile
import unittest
from datetime import datetime, timezone
from pathlib import Path

CHECKER = Path(__file__).with_name("checker.py")
T0 = 1_800_000_000.0


def iso(t: float) -> str:
    return datetime.fromtimestamp(t, timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def clean() -> list[dict]:
    """Two members, one panel down from T0+20 to T0+40 (told once, recovered once), one retry and
    one incident answered and audited, uptimes agreeing with the script."""
    h = [{"t": T0 - 5, "kind": "run", "seed": 1, "minutes": 1, "panels": 1, "refresh_s": 1},
         {"t": T0, "kind": "lead", "member": "m1", "leading": True},
         {"t": T0 + 1, "kind": "chaos_start"},
         {"t": T0 + 20, "kind": "flip", "panel": "p00", "state": "down"},
         {"t": T0 + 40, "kind": "flip", "panel": "p00", "state": "up"},
         {"t": T0 + 50, "kind": "fault", "fault": "kill9", "phase": "start"},
         {"t": T0 + 52, "kind": "fault", "fault": "kill9", "phase": "end"},
         {"t": T0 + 60, "kind": "chaos_end"}]
    for member in ("m1", "m2"):
        h += [{"t": T0 + 2, "kind": "sse", "member": member, "conn": 1, "id": 5, "event": "snapshot", "digest": "s5"},
              {"t": T0 + 21, "kind": "sse", "member": member, "conn": 1, "id": 6, "event": "panel", "digest": "a"},
              {"t": T0 + 41, "kind": "sse", "member": member, "conn": 1, "id": 7, "event": "panel", "digest": "b"}]
    failure = {"id": "f1", "event": "failure", "panel": "p00", "downSince": iso(T0 + 20.5)}
    recovery = {"id": "r1", "event": "recovery", "panel": "p00", "downSince": iso(T0 + 20.5)}
    h += [{"t": T0 + 22, "kind": "hook", "headers": {"Idempotency-Key": "f1"}, "body": failure},
          {"t": T0 + 41, "kind": "hook", "headers": {"Idempotency-Key": "g1"},
           "body": {"id": "g1", "event": "recovery", "count": 1, "more": 0, "notifications": [recovery]}}]
    h += [{"t": T0 + 10, "kind": "action", "aid": "a1", "member": "m1", "action": "retry", "panel": "p00", "status": 202},
          {"t": T0 + 11, "kind": "action", "aid": "a2", "member": "m2", "action": "incident_opened", "title": "a2",
           "status": 201, "sent": T0 + 10.5},
          {"t": T0 + 12, "kind": "action", "aid": "a3", "member": "m2", "action": "retry", "panel": "p00",
           "status": None}]
    ratio = round(1 - 20 / 90, 4)
    h += [{"t": T0 + 90, "kind": "uptime", "member": m, "panel": "p00", "status": 200,
           "answer": {"24h": ratio, "unwatched": []}} for m in ("m1", "m2")]
    h += [{"t": T0 + 91, "kind": "audit", "member": "m1", "entries": [
        {"id": "e1", "at": iso(T0 + 10), "action": "retry", "panel": "p00", "subject": ""},
        {"id": "e2", "at": iso(T0 + 11), "action": "incident_opened", "panel": None, "subject": "a2"}]}]
    h += [{"t": T0 + 92, "kind": "incidents", "member": m, "status": 200,
           "incidents": [{"id": "i1", "title": "a2", "status": "investigating", "resolvedAt": None}]}
          for m in ("m1", "m2")]
    return sorted(h, key=lambda r: r["t"])


def judge(history: list[dict]) -> tuple[int, str]:
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        f.write("".join(json.dumps(r) + "\n" for r in history))
    done = subprocess.run([sys.executable, str(CHECKER), f.name], capture_output=True, text=True)
    Path(f.name).unlink()
    return done.returncode, done.stdout + done.stderr


def where(history: list[dict], **match) -> dict:
    return next(r for r in history if all(r.get(k) == v for k, v in match.items()))


class CheckerTests(unittest.TestCase):
    def fails(self, history: list[dict], text: str) -> None:
        code, out = judge(history)
        self.assertEqual(code, 1, out)
        self.assertIn(text, out)

    def test_a_clean_history_passes(self):
        code, out = judge(clean())
        self.assertEqual(code, 0, out)
        self.assertIn("kill9 1", out)

    def test_an_id_going_down_within_a_connection(self):
        h = clean()
        where(h, member="m2", id=7)["id"] = 4
        self.fails(h, "m2 connection 1: id 4")

    def test_an_id_naming_two_events(self):
        h = clean()
        where(h, member="m2", id=7)["digest"] = "other"
        self.fails(h, "id 7 is panel b on m1 but panel other on m2")

    def test_a_snapshot_may_share_the_id_of_an_event_but_two_snapshots_must_match(self):
        h = clean()
        h.append({"t": T0 + 42, "kind": "sse", "member": "m1", "conn": 2, "id": 7, "event": "snapshot", "digest": "s7"})
        h.sort(key=lambda r: r["t"])
        self.assertEqual(judge(h)[0], 0, judge(h)[1])
        h.append({"t": T0 + 43, "kind": "sse", "member": "m2", "conn": 2, "id": 7, "event": "snapshot", "digest": "x"})
        h.sort(key=lambda r: r["t"])
        self.fails(h, "id 7 is snapshot s7 on m1 but snapshot x on m2")

    def test_a_member_left_behind(self):
        h = [r for r in clean() if not (r["kind"] == "sse" and r["member"] == "m2" and r["id"] == 7)]
        h.append({"t": T0 + 89, "kind": "final_reads", "phase": "start"})
        h.sort(key=lambda r: r["t"])
        self.fails(h, "the members' clients end at different ids: m1 7, m2 6")

    def test_an_outage_told_twice(self):
        h = clean()
        h.append({"t": T0 + 30, "kind": "hook", "headers": {"Idempotency-Key": "f2"},
                  "body": {"id": "f2", "event": "failure", "panel": "p00", "downSince": iso(T0 + 25)}})
        h.sort(key=lambda r: r["t"])
        self.fails(h, "told by 2 failures")

    def test_an_outage_never_told(self):
        h = [r for r in clean() if r["kind"] != "hook"]
        self.fails(h, "was never told")

    def test_a_failure_told_while_up(self):
        h = clean()
        h.append({"t": T0 + 15, "kind": "hook", "headers": {"Idempotency-Key": "f3"},
                  "body": {"id": "f3", "event": "failure", "panel": "p00", "downSince": iso(T0 + 12)}})
        h.sort(key=lambda r: r["t"])
        self.fails(h, "matches no scripted outage")

    def test_a_recovery_never_told(self):
        h = [r for r in clean() if not (r["kind"] == "hook" and r["body"]["id"] == "g1")]
        self.fails(h, "its recovery never")

    def test_a_repeat_of_one_id_is_information_only(self):
        h = clean()
        h.append(copy.deepcopy(where(h, kind="hook")) | {"t": T0 + 23})
        h.sort(key=lambda r: r["t"])
        code, out = judge(h)
        self.assertEqual(code, 0, out)
        self.assertIn("notification f1 (failure of p00) received 2 times", out)

    def test_a_wrong_idempotency_key(self):
        h = clean()
        where(h, kind="hook")["headers"]["Idempotency-Key"] = "nope"
        self.fails(h, "Idempotency-Key 'nope'")

    def test_members_disagreeing_on_uptime(self):
        h = clean()
        where(h, kind="uptime", member="m2")["answer"]["24h"] = 0.70
        self.fails(h, "members disagree on p00")

    def test_uptime_far_from_the_truth_fails_a_long_run_only(self):
        h = clean()
        for r in h:
            if r["kind"] == "uptime":
                r["answer"]["24h"] = 0.70
        self.assertEqual(judge(h)[0], 0)
        where(h, kind="run")["minutes"] = 30
        self.fails(h, "the script 0.7778")

    def test_an_answered_action_missing_from_the_audit(self):
        h = clean()
        where(h, kind="audit")["entries"].pop(0)
        self.fails(h, "p00: 0 retries in the audit, 1 answered 2xx")

    def test_an_action_applied_twice(self):
        h = clean()
        entries = where(h, kind="audit")["entries"]
        entries.append(entries[1] | {"id": "e3"})
        self.fails(h, "incident_opened a2 (action a2, sent 08:00:10.500) answered 201 by m2")
        h = clean()
        entries = where(h, kind="audit")["entries"]
        entries += [entries[0] | {"id": "e4"}, entries[0] | {"id": "e5"}]
        self.fails(h, "p00: 3 retries in the audit, 1 answered 2xx and 1 unanswered")

    def test_an_answered_action_not_applied(self):
        h = clean()
        where(h, kind="incidents", member="m2")["incidents"] = []
        self.fails(h, "incident a2 opened (201 from m2) is shown 0 times by m2 at the end")
        h = clean()
        h.append({"t": T0 + 13, "kind": "action", "aid": "a4", "member": "m1", "action": "incident_updated",
                  "title": "a2", "status": 200, "sent": T0 + 12.5})
        where(h, kind="audit")["entries"].append({"id": "e7", "at": iso(T0 + 13), "action": "incident_updated",
                                                  "panel": None, "subject": "a2"})
        h.sort(key=lambda r: r["t"])
        self.fails(h, "incident a2 resolved (200 from m1, action a4) is not resolved on m1 at the end")

    def test_an_unanswered_action_may_be_applied_once(self):
        h = clean()
        entries = where(h, kind="audit")["entries"]
        entries.append(entries[0] | {"id": "e6"})
        self.assertEqual(judge(h)[0], 0, judge(h)[1])


if __name__ == "__main__":
    unittest.main()
