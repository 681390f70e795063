"""Fixture documents (PROTOCOL.md shapes) for component and screenshot tests (snapshot
tests: the view is given a fixed configuration and drawn). Their panel ids start with "fx-" so no
server event ever touches them."""
from __future__ import annotations

import copy

AT = "2025-01-15T09:30:00.000Z"

INFO = {
    "summary": "All endpoints healthy",
    "fields": [
        {"label": "p95 latency", "value": "42 ms"},
        {"label": "Requests/s", "value": "1 180"},
        {"label": "Uptime", "value": "12 d 4 h"},
        {"label": "Version", "value": "2.14.1"},
    ],
}

LIST_INFO = {
    "summary": "3 jobs queued",
    "items": [
        {"id": "nightly", "title": "Nightly export", "subtitle": "Runs at 02:00 · last took 4 min",
         "actions": [{"id": "run", "label": "Run now", "role": "primary"}]},
        {"id": "reindex", "title": "Search re-index", "subtitle": "Queued 3 min ago",
         "actions": [{"id": "cancel", "label": "Cancel", "role": "destructive"}]},
        {"id": "thumbs", "title": "Thumbnail backfill", "subtitle": "12 408 of 40 000 images",
         "actions": [{"id": "pause", "label": "Pause"}, {"id": "cancel", "label": "Cancel", "role": "destructive"}]},
    ],
}

ERROR = {
    "kind": "serverMaintenance",
    "title": "API is under maintenance",
    "description": "The service is down for planned maintenance.",
    "icon": "wrench",
    "showPreloader": False,
    "failureReason": "HTTP 503 with Retry-After: 600",
    "recoverySuggestion": "Check again in a few minutes.",
    "detail": "GET http://127.0.0.1:3000/health\n503 Service Unavailable\nRetry-After: 600",
    "options": [
        {"id": "retry", "label": "Check again", "role": "primary"},
        {"id": "dismiss", "label": "Dismiss", "role": "cancel"},
        {"id": "status", "label": "Open status page", "role": "secondary"},
        {"id": "restart", "label": "Restart service", "role": "destructive"},
    ],
}


def panel_state(panel_id: str, title: str, history: list[str], info=None, error=None, **extra) -> dict:
    """A PanelState whose derived flags follow PROTOCOL.md from a list of history states."""
    nonl = [s for s in history if s not in ("initial", "loading")]
    phase = history[-1] if history else "initial"
    last = nonl[-1] if nonl else None
    state = {
        "id": panel_id,
        "title": title,
        "phase": phase,
        "isInitialLoading": phase == "loading" and not nonl,
        "isLoading": phase == "loading",
        "latestValidInfo": info if last == "loaded" else None,
        "latestInfo": info if "loaded" in history else None,
        "latestValidError": error if last == "error" else None,
        "latestError": error if "error" in history else None,
        "latestNonLoading": ({"info": info} if last == "loaded" else {"error": error} if last == "error" else None),
        "modifyingIds": None,
        "history": [{"state": s, "at": AT} for s in history],
        "presentation": {},
        "placeholder": None,
        "retry": None,
        "debugPinned": False,
        "stale": False,
    }
    state.update(copy.deepcopy(extra))
    return state


def loading_fixture(kind: str) -> dict:
    """One panel per loading presentation, with its options."""
    pid = f"fx-loading-{kind}"
    if kind == "material":
        return panel_state(pid, "Material", ["loading"], placeholder=INFO,
                           presentation={"initialLoading": {"type": "material"}})
    if kind == "redacted":
        return panel_state(pid, "Redacted", ["loading"], placeholder=LIST_INFO,
                           presentation={"initialLoading": {"type": "redacted"}})
    if kind == "horizontal":
        return panel_state(pid, "Horizontal", ["loading", "loaded", "loading"], info=INFO,
                           presentation={"loadingAfterInfo": {"type": "horizontal", "position": "leading",
                                                              "contentOpacity": 0.3, "alignment": "center", "spacing": 32}})
    if kind == "vertical":
        return panel_state(pid, "Vertical", ["loading", "loaded", "loading"], info=INFO,
                           presentation={"loadingAfterInfo": {"type": "vertical", "position": "bottom",
                                                              "alignment": "center", "spacing": 12}})
    if kind == "overCurrentContent":
        return panel_state(pid, "Over current content", ["loading", "error", "loading"], error=ERROR,
                           presentation={"loadingAfterError": {"type": "overCurrentContent", "contentOpacity": 0.5,
                                                               "alignment": "bottomTrailing"}})
    if kind == "custom":
        return panel_state(pid, "Custom", ["loading", "loaded", "loading"], info=INFO,
                           presentation={"loadingAfterInfo": {"type": "custom", "message": "Checking the release…",
                                                              "icon": "download"}})
    raise ValueError(kind)


LOADING_KINDS = ["material", "horizontal", "vertical", "overCurrentContent", "redacted", "custom"]


def error_fixture(**extra) -> dict:
    return panel_state("fx-error", "API", ["loading", "error"], error=ERROR, **extra)


def list_in_progress_fixture() -> dict:
    return panel_state("fx-list", "Jobs", ["loading", "loaded"], info=LIST_INFO, modifyingIds=["reindex"])


def toast_fixture(**extra) -> dict:
    toast = {
        "id": "fx-toast-1",
        "style": "success",
        "message": "API is back: all endpoints healthy",
        "panelId": "fx-error",
        "durationMs": 600_000,
        "position": "bottom",
        "action": {"id": "retry", "label": "Undo"},
    }
    toast.update(extra)
    return toast
