"""Panels that fail and succeed by turns, told to a webhook: what the notification outbox is
tested and measured with (test_notifications.py, Benchmarks/outbox_bench.py)."""
from __future__ import annotations

import sqlite3
from pathlib import Path


def flapping_deck(folder: Path, count: int, webhook_port: int | None) -> Path:
    """`count` command panels, each failing and succeeding by turns, one load a second, until the
    file `up` in `folder` exists; every failure and recovery is told to the webhook on
    `webhook_port` (none: nothing is told), each as it is decided (`gather: off`). The deck's
    flapping rule is off: the outbox is what is under test, not how flapping quiets it."""
    folder.mkdir(parents=True, exist_ok=True)
    up = folder / "up"
    panels = "".join(
        f"  - id: flap-{n}\n"
        f'    command: {{ run: ["sh", "-c", "test -f {up} || {{ test -f {folder}/{n} && rm {folder}/{n}; }} || {{ touch {folder}/{n}; exit 1; }}"] }}\n'
        for n in range(count))
    notify = (f'  notify: [{{ webhook: {{ url: "http://127.0.0.1:{webhook_port}/hook" }}, after: {{ failures: 1 }}, gather: off }}]\n'
              if webhook_port else "  notify: none\n")
    deck = folder / "deck.yaml"
    deck.write_text("title: Flapping\nflapping: off\n"
                    f"defaults:\n  refresh: 1s\n  retry: none\n  minimumLoading: 0ms\n{notify}"
                    f"panels:\n{panels}")
    return deck


def owed_rows(data_dir: Path) -> int:
    """Notifications the history in `data_dir` keeps as still to deliver."""
    with sqlite3.connect(f"file:{data_dir / 'history.sqlite3'}?mode=ro", uri=True, timeout=10) as db:
        return db.execute("SELECT count(*) FROM notify_outbox").fetchone()[0]
