#!/usr/bin/env python3
"""Judges the history a chaos run wrote (chaos.py beside it): prints a report of the faults
injected, the invariants checked and every violation, and exits 1 on any violation (2 when the
history cannot be judged at all).

    python3 Tests/chaos/checker.py OUT/history.jsonl [--long-minutes 30] [--tolerance 0.01]

It knows the product only by its wire contract (docs/PROTOCOL.md): nothing of the product's code
is imported or copied. The invariants:

1. Events. Within one connection of one client, event ids only go up. Across every member, an id
   names one thing: every event of that id carries the same name and data (compared by a digest
   of both). A `snapshot` sent on connect carries the id of the newest event its document holds,
   so snapshots are compared with snapshots and other events with other events. At the end every
   member's client holds the same newest id.
2. Notifications, counted by notification id (the `Idempotency-Key`; of a gathered message, each
   of its `notifications`' ids). Each is matched to the scripted outage of its panel whose down
   stretch holds its `downSince` (from the outage's start to a second past its end, the lag of
   one check). Violations: a failure or recovery matching no scripted outage (told while the
   script had the panel up), an outage told by two failure ids or two recovery ids, a recovery
   without its failure or a failure without its recovery (every panel is up at the end, long
   before the last reads), and an outage that had to be told but was not. An outage has to be
   told when, leaving out the time faults disturbed (a fault from its start to 10 s after its end:
   the lock's 6 s and a takeover), it lasted at least two checks plus 3 s. The same id received
   more than once is reported as information (a kill -9 between a target's answer and its record
   may resend it; a receiver drops it).
3. Uptime. Every member's 24 h ratio of every panel, read at the end (faults over, every panel up,
   the members read at once, each in a thread), agrees with every other member's, within what
   the spread of the reading times and 2 s more can move it (every panel is up then: a ratio
   read t s later is higher by (1 - ratio) t / (time counted)). Against the truth: the script's up time out of
   the time from the first leader to the read, leaving out the stretches the member said it did
   not watch (`unwatched`); within --tolerance (1 %) for runs of --long-minutes (30) or more;
   shorter runs report the difference only.
4. Actions. Each action answered 2xx is in the audit exactly once, none lost. Incidents are
   opened with a title unique to the action, and resolved with it: matched by action and title,
   exactly one entry each for a 2xx answer, at most one for an action without a 2xx answer (no
   answer, a 502 from nginx: it may have been applied). Retries carry nothing unique, so they are
   counted per panel: the audit's retries of a panel number at least the 2xx answers and at most
   the 2xx answers plus those without a definite refusal (no answer, 5xx); a refused action (4xx
   but 408/429) adds none. At the end every member's incidents show each incident opened with a
   2xx once, and each resolved with a 2xx resolved.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from datetime import datetime, timezone


def instant(text: str) -> float:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


class Report:
    def __init__(self):
        self.sections: list[tuple[str, list[str]]] = []
        self.violations: list[str] = []
        self.infos: list[str] = []

    def section(self, title: str, lines: list[str]) -> None:
        self.sections.append((title, lines))

    def violation(self, text: str) -> None:
        self.violations.append(text)

    def info(self, text: str) -> None:
        self.infos.append(text)


def load(path: str) -> list[dict]:
    records = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                records.append(json.loads(line))
            except ValueError:
                # A run killed mid-line leaves the last one cut: anything else is a broken file.
                print(f"checker: line {number} is not JSON: {line[:80]}", file=sys.stderr)
    return records


def overlap(a0: float, a1: float, spans: list[tuple[float, float]]) -> float:
    """How much of [a0, a1] the (possibly overlapping) spans cover."""
    covered = 0.0
    cursor = a0
    for s0, s1 in sorted(spans):
        s0, s1 = max(s0, cursor), min(s1, a1)
        if s1 > s0:
            covered += s1 - s0
            cursor = s1
    return covered


def differences(a: dict, b: dict) -> str:
    """Where two snapshot documents differ: the top-level fields, and each panel's fields."""
    try:
        x, y = json.loads(a["data"]), json.loads(b["data"])
    except (KeyError, TypeError, ValueError):
        return ""
    said = [k for k in sorted(set(x) | set(y)) if k != "panels" and x.get(k) != y.get(k)]
    px = {p["id"]: p for p in x.get("panels", [])}
    py = {p["id"]: p for p in y.get("panels", [])}
    for pid in sorted(set(px) | set(py)):
        one, two = px.get(pid, {}), py.get(pid, {})
        for k in sorted(set(one) | set(two)):
            if one.get(k) != two.get(k):
                said.append(f"{pid}.{k}: {json.dumps(one.get(k))[:80]} vs {json.dumps(two.get(k))[:80]}")
    return ("; differing: " + ", ".join(said[:8]) + (f" and {len(said) - 8} more" if len(said) > 8 else "")) if said else ""


# ---- 1. events -----------------------------------------------------------------------------------


def check_events(records: list[dict], report: Report) -> None:
    events = [r for r in records if r["kind"] == "sse"]
    last: dict[tuple[str, int], int] = {}
    backwards = 0
    for e in events:
        key = (e["member"], e["conn"])
        if key in last and e["id"] <= last[key]:
            backwards += 1
            if backwards <= 10:
                report.violation(f"events: {e['member']} connection {e['conn']}: id {e['id']} ({e['event']}) "
                                 f"after id {last[key]}")
        last[key] = e["id"]
    if backwards > 10:
        report.violation(f"events: {backwards - 10} more ids not going up")

    named: dict[tuple[int, bool], dict] = {}
    conflicts = 0
    shared = 0
    for e in events:
        key = (e["id"], e["event"] == "snapshot")
        seen = named.get(key)
        if seen is None:
            named[key] = e
        else:
            shared += 1
            if (seen["event"], seen["digest"]) != (e["event"], e["digest"]):
                conflicts += 1
                if conflicts <= 10:
                    report.violation(f"events: id {e['id']} is {seen['event']} {seen['digest']} on {seen['member']} "
                                     f"but {e['event']} {e['digest']} on {e['member']}" + differences(seen, e))
    if conflicts > 10:
        report.violation(f"events: {conflicts - 10} more ids naming two different events")
    # At the end (faults over, every panel up, nothing changing) every member still serving has
    # sent its client the same newest id: none was left behind.
    reads = next((r["t"] for r in records if r["kind"] == "final_reads"), None)
    serving = {r["member"] for r in records if r["kind"] == "uptime"}
    newest = {}
    for e in events:
        if reads is not None and e["t"] < reads:
            newest[e["member"]] = e["id"]
    ends = {m: newest.get(m) for m in sorted(serving | ({"nginx"} & set(newest)))}
    if len(set(ends.values())) > 1:
        report.violation("events: the members' clients end at different ids: " +
                         ", ".join(f"{m} {i}" for m, i in ends.items()))
    members = sorted({e["member"] for e in events})
    per_member = Counter(e["member"] for e in events)
    connects = Counter(r["member"] for r in records if r["kind"] == "sse_connect")
    noid = Counter(r["member"] for r in records if r["kind"] == "sse_noid")
    report.section("events", [
        f"{len(events)} events with ids from {len(members)} clients: "
        + ", ".join(f"{m} {per_member[m]} in {connects[m]} connections" for m in members),
        f"{shared} receipts of an id some client had already received, compared: {conflicts} differ",
        f"ids going down within a connection: {backwards}",
        f"newest id of each member's client at the end: " + ", ".join(f"{m} {i}" for m, i in ends.items()),
        f"snapshots without id (a member's own news): {sum(noid.values())}",
    ])
    if not events:
        report.violation("events: no event was recorded at all")


# ---- faults --------------------------------------------------------------------------------------


def faults(records: list[dict], report: Report) -> list[tuple[float, float]]:
    """The stretches the faults disturbed, each from its start to 10 s after its end."""
    disturbed = []
    kinds = Counter()
    started = None
    for r in records:
        if r["kind"] == "fault" and r["phase"] == "start":
            kinds[r["fault"]] += 1
            started = r["t"]
        elif r["kind"] == "fault" and r["phase"] == "end" and started is not None:
            disturbed.append((started, r["t"] + 10))
            started = None
    if started is not None:
        disturbed.append((started, float("inf")))
    skipped = Counter(r["fault"] for r in records if r["kind"] == "fault_skipped")
    errors = [r for r in records if r["kind"] == "fault_error"]
    lines = [f"{sum(kinds.values())} faults: " + (", ".join(f"{k} {n}" for k, n in sorted(kinds.items())) or "none")]
    if skipped:
        lines.append("skipped (no leader to strike): " + ", ".join(f"{k} {n}" for k, n in sorted(skipped.items())))
    for e in errors:
        lines.append(f"could not inject {e['fault']}: {e['error']}")
    report.section("faults", lines)
    for e in errors:
        report.info(f"fault {e['fault']} failed to inject: {e['error']}")
    return disturbed


# ---- 2. notifications ----------------------------------------------------------------------------


def outages(records: list[dict]) -> dict[str, list[list[float]]]:
    """Each panel's scripted down stretches [start, end]."""
    down: dict[str, list[list[float]]] = defaultdict(list)
    for r in records:
        if r["kind"] == "flip":
            if r["state"] == "down":
                down[r["panel"]].append([r["t"], None])
            elif down[r["panel"]] and down[r["panel"]][-1][1] is None:
                down[r["panel"]][-1][1] = r["t"]
    end = next((r["t"] for r in records if r["kind"] == "chaos_end"), records[-1]["t"])
    for stretches in down.values():
        for s in stretches:
            if s[1] is None:
                s[1] = end
    return down


def check_notifications(records: list[dict], disturbed, refresh: float, report: Report) -> None:
    down = outages(records)
    hooks = [r for r in records if r["kind"] == "hook"]
    raw: Counter = Counter()
    told: dict[str, dict] = {}
    bad_key = 0
    for h in hooks:
        body = h["body"] if isinstance(h["body"], dict) else {}
        key = next((v for k, v in h["headers"].items() if k.lower() == "idempotency-key"), None)
        if key != body.get("id"):
            bad_key += 1
            report.violation(f"notifications: Idempotency-Key {key!r} is not the message's id {body.get('id')!r}")
        listed = body.get("notifications") if isinstance(body.get("notifications"), list) else [body]
        if body.get("notifications") is not None and body.get("more"):
            report.violation(f"notifications: message {body.get('id')} leaves {body['more']} out")
        for n in listed:
            raw[n.get("id")] += 1
            told.setdefault(n.get("id"), {**n, "received": h["t"]})
    repeats = {i: c for i, c in raw.items() if c > 1}
    for i, c in repeats.items():
        report.info(f"notification {i} ({told[i].get('event')} of {told[i].get('panel')}) received {c} times")

    # Each notification to the outage whose stretch holds its downSince.
    matched: dict[tuple[str, int], dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    kinds = Counter()
    for i, n in told.items():
        kinds[n.get("event")] += 1
        if n.get("event") not in ("failure", "recovery"):
            report.violation(f"notifications: {i} is a {n.get('event')!r} notification, which this deck never "
                             f"asks for: {json.dumps(n)[:300]}")
            continue
        panel, since = n.get("panel"), n.get("downSince")
        if since is None:
            report.violation(f"notifications: {i} ({n.get('event')} of {panel}) has no downSince")
            continue
        at = instant(since)
        hit = [k for k, (s0, s1) in enumerate(down.get(panel, [])) if s0 - 0.2 <= at <= s1 + refresh + 1]
        if not hit:
            report.violation(f"notifications: {n.get('event')} {i} of {panel} down since {since} matches no "
                             f"scripted outage: told while the script had it up")
            continue
        matched[(panel, hit[0])][n["event"]].append(i)

    must = may = told_outages = 0
    for panel, stretches in sorted(down.items()):
        for k, (s0, s1) in enumerate(stretches):
            quiet = (s1 - s0) - overlap(s0, s1, disturbed)
            required = quiet >= 2 * refresh + 3
            must += required
            may += not required
            got = matched.get((panel, k), {})
            failures, recoveries = got.get("failure", []), got.get("recovery", [])
            told_outages += bool(failures)
            what = f"outage of {panel} {datetime.fromtimestamp(s0, timezone.utc).strftime('%H:%M:%S')}–" \
                   f"{datetime.fromtimestamp(s1, timezone.utc).strftime('%H:%M:%S')} ({s1 - s0:.0f} s, {quiet:.0f} s undisturbed)"
            if len(failures) > 1:
                report.violation(f"notifications: {what} told by {len(failures)} failures: {failures}")
            if len(recoveries) > 1:
                report.violation(f"notifications: {what} told recovered by {len(recoveries)} recoveries: {recoveries}")
            if recoveries and not failures:
                report.violation(f"notifications: {what}: a recovery {recoveries} without a failure told")
            if failures and not recoveries:
                report.violation(f"notifications: {what}: failure {failures} told, its recovery never")
            if required and not failures:
                report.violation(f"notifications: {what} was never told")
    report.section("notifications", [
        f"{len(hooks)} webhook posts, {len(told)} distinct notifications "
        f"({', '.join(f'{k} {n}' for k, n in sorted(kinds.items(), key=str))}), {sum(repeats.values()) - len(repeats)} "
        f"raw repeats of {len(repeats)} ids",
        f"{must + may} scripted outages: {must} had to be told, {may} fell mostly in disturbed time; "
        f"{told_outages} told",
        f"Idempotency-Key differing from the id: {bad_key}",
    ])


# ---- 3. uptime -----------------------------------------------------------------------------------


def check_uptime(records: list[dict], long_run: bool, tolerance: float, report: Report) -> None:
    reads = [r for r in records if r["kind"] == "uptime"]
    if not reads:
        report.violation("uptime: no uptime was read at the end")
        return
    down = outages(records)
    first_lead = next((r["t"] for r in records if r["kind"] == "lead" and r["leading"]), None)
    spread = max(r["t"] for r in reads) - min(r["t"] for r in reads)
    by_panel: dict[str, list[dict]] = defaultdict(list)
    for r in reads:
        if r["status"] != 200 or not isinstance(r["answer"], dict):
            report.violation(f"uptime: {r['member']} answered {r['status']} for {r['panel']}: {r['answer']}")
            continue
        by_panel[r["panel"]].append(r)
    worst_agree = worst_truth = 0.0
    lines = []
    for panel, rs in sorted(by_panel.items()):
        truth = truth_all = float("nan")
        ratios = [r["answer"]["24h"] for r in rs]
        if any(x is None for x in ratios):
            report.violation(f"uptime: {panel} has no 24 h ratio on " +
                             ", ".join(r["member"] for r in rs if r["answer"]["24h"] is None))
            continue
        # How far the reading times can move a ratio: every panel is up by then, so a read t s
        # later counts t s more up, moving the ratio by (1 - ratio) t / (time counted). Allowed:
        # the spread of the reads and 2 s more (a member hears of the leader's tallies a little
        # later), plus the 4 decimals ratios are given with.
        counted = max(1.0, rs[0]["t"] - first_lead)
        allowed = (1 - min(ratios)) * (spread + 2) / counted + 1.5e-4
        gap = max(ratios) - min(ratios)
        worst_agree = max(worst_agree, gap)
        if gap > allowed:
            report.violation(f"uptime: members disagree on {panel}: " +
                             ", ".join(f"{r['member']} {r['answer']['24h']}" for r in rs) + f" (allowed {allowed:.4f})")
        for r in rs:
            read_at = r["t"]
            unwatched = [(instant(u["from"]), instant(u["to"])) for u in (r["answer"].get("unwatched") or [])]
            unwatched = [(max(a, first_lead), min(b, read_at)) for a, b in unwatched if b > first_lead]
            watched = (read_at - first_lead) - overlap(first_lead, read_at, unwatched)
            down_all = sum(max(0.0, min(s1, read_at) - max(s0, first_lead)) for s0, s1 in down.get(panel, []))
            down_watched = down_all - sum(overlap(max(s0, first_lead), min(s1, read_at), unwatched)
                                          for s0, s1 in down.get(panel, []) if s1 > first_lead)
            truth = 1 - down_watched / watched if watched > 0 else None
            truth_all = 1 - down_all / (read_at - first_lead)
            if truth is None:
                truth = float("nan")
                continue
            diff = r["answer"]["24h"] - truth
            worst_truth = max(worst_truth, abs(diff))
            if long_run and abs(diff) > tolerance:
                report.violation(f"uptime: {r['member']} says {panel} was up {r['answer']['24h']:.4f}, the script "
                                 f"{truth:.4f} over the {watched:.0f} s watched ({truth_all:.4f} over all)")
        lines.append(f"{panel}: " + " ".join(f"{x:.4f}" for x in ratios) + f"; truth {truth:.4f} (all {truth_all:.4f})")
    report.section("uptime", [
        f"{len(reads)} reads ({len(by_panel)} panels) within {spread:.2f} s; largest disagreement {worst_agree:.4f}",
        f"largest difference from the script's truth {worst_truth:.4f} "
        + (f"(required within {tolerance})" if long_run else "(reported only: a short run)"),
        "truth: 1 - (scripted down time) / (time from the first leader to the read), both leaving out the "
        "stretches the member reports unwatched",
        *lines,
    ])


# ---- 4. actions ----------------------------------------------------------------------------------


def check_actions(records: list[dict], report: Report) -> None:
    actions = [r for r in records if r["kind"] == "action"]
    audits = [r for r in records if r["kind"] == "audit"]
    if not audits:
        report.violation("actions: the audit was never read")
        return
    entries = audits[-1]["entries"]
    ok = [a for a in actions if a["status"] is not None and 200 <= a["status"] < 300]
    refused = [a for a in actions if a["status"] is not None and 400 <= a["status"] < 500 and a["status"] not in (408, 429)]
    decided = {a["aid"] for a in ok} | {a["aid"] for a in refused}
    unsure = [a for a in actions if a["aid"] not in decided]
    ok_ids, refused_ids = {a["aid"] for a in ok}, {a["aid"] for a in refused}
    # Incidents: by title.
    by_title = Counter((e["action"], e.get("subject")) for e in entries if e["action"].startswith("incident_"))
    for a in actions:
        if not a["action"].startswith("incident_"):
            continue
        n = by_title[(a["action"], a["title"])]
        if a["aid"] in ok_ids and n != 1:
            report.violation(f"actions: {a['action']} {a['title']} (action {a['aid']}, sent "
                             f"{datetime.fromtimestamp(a['sent'], timezone.utc).strftime('%H:%M:%S.%f')[:-3]}) answered {a['status']} "
                             f"by {a['member']} at {datetime.fromtimestamp(a['t'], timezone.utc).strftime('%H:%M:%S.%f')[:-3]} "
                             f"has {n} audit entries")
        elif a["aid"] in refused_ids and n != 0 and a["action"] == "incident_opened":
            report.violation(f"actions: {a['action']} {a['title']} refused {a['status']} by {a['member']} "
                             f"has {n} audit entries")
        elif n > 1:
            report.violation(f"actions: {a['action']} {a['title']} (answer {a['status']}) has {n} audit entries")
    # What the incidents show at the end, on every member: each opened with a 2xx is there once,
    # each resolved with a 2xx is resolved.
    for r in (r for r in records if r["kind"] == "incidents"):
        if r["status"] != 200:
            report.violation(f"actions: {r['member']} answered {r['status']} for the incidents: {r['incidents']}")
            continue
        shown = Counter(i["title"] for i in r["incidents"])
        resolved = {i["title"] for i in r["incidents"] if i["status"] == "resolved"}
        for a in actions:
            if a["aid"] not in ok_ids:
                continue
            if a["action"] == "incident_opened" and shown[a["title"]] != 1:
                report.violation(f"actions: incident {a['title']} opened ({a['status']} from {a['member']}) is "
                                 f"shown {shown[a['title']]} times by {r['member']} at the end")
            if a["action"] == "incident_updated" and a["title"] not in resolved:
                report.violation(f"actions: incident {a['title']} resolved ({a['status']} from {a['member']}, action "
                                 f"{a['aid']}) is not resolved on {r['member']} at the end")
    sent_titles = {(a["action"], a["title"]) for a in actions if a["action"].startswith("incident_")}
    for key, n in by_title.items():
        if key not in sent_titles:
            report.violation(f"actions: the audit has {n} {key[0]} of {key[1]!r}, which no client sent")
    # Retries: counted per panel.
    audited = Counter(e.get("panel") for e in entries if e["action"] == "retry")
    panels = sorted({a["panel"] for a in actions if a["action"] == "retry"} | set(audited))
    for p in panels:
        low = sum(1 for a in ok if a["action"] == "retry" and a["panel"] == p)
        high = low + sum(1 for a in unsure if a["action"] == "retry" and a["panel"] == p)
        if not low <= audited[p] <= high:
            report.violation(f"actions: {p}: {audited[p]} retries in the audit, {low} answered 2xx and "
                             f"{high - low} unanswered (expected {low}…{high})")
    statuses = Counter(str(a["status"]) for a in actions)
    others = Counter(e["action"] for e in entries if e["action"] not in ("retry", "incident_opened", "incident_updated"))
    if others:
        report.violation(f"actions: the audit has actions no client took: {dict(others)}")
    report.section("actions", [
        f"{len(actions)} actions sent: " + ", ".join(f"{k} {n}" for k, n in sorted(Counter(a['action'] for a in actions).items())),
        "answers: " + ", ".join(f"{k} {n}" for k, n in sorted(statuses.items())),
        f"{len(ok)} answered 2xx, {len(refused)} refused, {len(unsure)} without a definite answer",
        f"audit: {len(entries)} entries",
    ])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("history")
    parser.add_argument("--long-minutes", type=float, default=30)
    parser.add_argument("--tolerance", type=float, default=0.01)
    args = parser.parse_args()
    records = load(args.history)
    run = next((r for r in records if r["kind"] == "run"), None)
    if run is None or not any(r["kind"] == "chaos_end" for r in records):
        print("checker: the history holds no finished run", file=sys.stderr)
        return 2
    report = Report()
    disturbed = faults(records, report)
    check_events(records, report)
    check_notifications(records, disturbed, run["refresh_s"], report)
    check_uptime(records, run["minutes"] >= args.long_minutes, args.tolerance, report)
    check_actions(records, report)

    print(f"chaos run: seed {run['seed']}, {run['minutes']:g} min, {run['panels']} panels")
    for title, lines in report.sections:
        print(f"\n== {title}")
        for line in lines:
            print(f"  {line}")
    print(f"\n== information ({len(report.infos)})")
    for line in report.infos:
        print(f"  {line}")
    print(f"\n== violations ({len(report.violations)})")
    for line in report.violations:
        print(f"  {line}")
    print("\nchaos: " + ("PASS" if not report.violations else f"FAIL: {len(report.violations)} violations"))
    return 1 if report.violations else 0


if __name__ == "__main__":
    sys.exit(main())
