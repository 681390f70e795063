#!/usr/bin/env bash
# Creates <repo>/.venv once and installs a requirements file into it (Tests/support/requirements.txt
# unless another is given: the browser tests' is Tests/browser/requirements.txt), again only when
# that file changed since. The Python servers the source tests start, and the browser tests, need them.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
venv="${VENV:-$repo/.venv}"
req="${1:-$repo/Tests/support/requirements.txt}"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
# One stamp per requirements file, named after its folder: .statedeck-support-requirements.
stamp="$venv/.statedeck-$(basename "$(dirname "$req")")-requirements"
if ! cmp -s "$req" "$stamp" 2>/dev/null; then
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$req"
  cp "$req" "$stamp"
fi
