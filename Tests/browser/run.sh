#!/usr/bin/env bash
# StateDeck browser tests. Creates <repo>/.venv once, installs requirements.txt into it (Tests/support/venv.sh), then runs
# pytest here with any arguments given (e.g. -k snapshot, -x, -v).
#
#   Tests/browser/run.sh                                # all browser tests
#   UPDATE_SNAPSHOTS=1 Tests/browser/run.sh -k snapshot # rewrite the reference screenshots
#
# Needs: python3 (with venv), Debian's chromium (/usr/bin/chromium, or CHROMIUM=...), and the server
# binary (STATEDECK_BIN, default .build/debug/statedeck: run `swift build` first).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
venv="${VENV:-$repo/.venv}"
VENV="$venv" "$repo/Tests/support/venv.sh" "$repo/Tests/browser/requirements.txt"
export STATEDECK_BIN="${STATEDECK_BIN:-$repo/.build/debug/statedeck}"
cd "$repo/Tests/browser"
exec "$venv/bin/python" -m pytest "$@"
