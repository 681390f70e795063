"""Waiting for a condition without a fixed sleep: the browser tests' and the release smoke test's one
`wait_for`. Standard library only, so that Tests/release/smoke.py (run by the system's python3,
outside the tests' virtual environment) can use it too."""
from __future__ import annotations

import time
from typing import Callable, TypeVar

Value = TypeVar("Value")

# Generous: it costs nothing when the condition holds, and a machine busy with other work must not
# fail a test that would pass.
DEFAULT_TIMEOUT = 20.0


def wait_for(condition: Callable[[], Value], timeout: float = DEFAULT_TIMEOUT,
             message: str | Callable[[], str] | None = None, every: float = 0.1) -> Value:
    """Polls `condition` every `every` seconds until it returns something truthy, which is returned.

    Raises AssertionError when it has not within `timeout` seconds, with `message` (a text, or a
    function called then, for what is only known at the end), else the condition's docstring, and
    its last answer."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() >= deadline:
            what = message() if callable(message) else message
            raise AssertionError(f"{what or condition.__doc__ or 'the condition never held'} "
                                 f"(within {timeout:g} s; last: {value!r:.300})")
        time.sleep(every)
