#!/bin/sh
# Instructions StateDeck spends per request in its libmicrohttpd callbacks: the URI-log, access
# and request-completed handlers, with everything they call (the Swift path: target parsing,
# headers, gate, routing, the response queued). Counted by callgrind, so the number does not
# move with the host's noise the way requests per second do (docs/PERFORMANCE-FINDINGS.md, finding f).
#
#   Benchmarks/callback-instructions.sh [BINARY] [PATH]
#
# BINARY: a StateDeck build (default: the release build `make bench` uses); PATH: what to ask
# for (default /bench-2k.txt, a 2 KB static file, as the throughput benchmark does).
# Needs valgrind (apt-get install -y valgrind) and wrk.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
binary=${1:-$root/.build-bench/release/statedeck}
path=${2:-/bench-2k.txt}
work=$(mktemp -d)
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT

cp -r "$root/Public" "$work/public"
python3 -c "import sys; open(sys.argv[1], 'wb').write((b'StateDeck benchmark static file, 2,048 bytes. ' * 50)[:2047] + b'\n')" \
    "$work/public/bench-2k.txt"

# Collect only inside the three callbacks' C entry points (their `@convention(c)` thunks).
toggles=$(nm "$binary" | grep -oE '\$s9MicroHTTP[0-9]+(handleAccess|requestStarted|requestFinished)[A-Za-z0-9_]*FTo$' \
    | sort -u | sed 's/^/--toggle-collect=/')
[ -n "$toggles" ] || { echo "no request callbacks found in $binary" >&2; exit 1; }

# shellcheck disable=SC2086  # one option per toggle
valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.out" --collect-atstart=no $toggles \
    "$binary" --host 127.0.0.1 --port 0 --public "$work/public" --seed 1 > "$work/stdout" 2> "$work/stderr" &
server=$!
for _ in $(seq 100); do
    port=$(grep -oE 'serving on http://127\.0\.0\.1:[0-9]+' "$work/stdout" | grep -oE '[0-9]+$' || true)
    [ -n "$port" ] && break
    sleep 0.2
done
[ -n "$port" ] || { echo "StateDeck did not start under valgrind; see its stderr:" >&2; cat "$work/stderr" >&2; exit 1; }

requests=$(wrk -t1 -c4 -d4s "http://127.0.0.1:$port$path" | awk '/requests in/ { print $1 }')
kill -INT "$server"
wait "$server" || true
total=$(callgrind_annotate "$work/callgrind.out" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
echo "$((total / requests)) instructions per request in the callbacks ($requests requests of $path)"
