#!/usr/bin/env bash
# The cluster example: PROCESSES StateDeck processes sharing deck.yaml through one PostgreSQL,
# behind nginx at http://127.0.0.1:PORT/ (the processes on PORT+1, PORT+2, …). Ctrl-C (or
# SIGTERM) stops everything it started.
#
#   examples/cluster/run.sh [PROCESSES] [PORT]        defaults: 2 processes, port 8080
#
# The store is STATEDECK_STORE (a postgres:// URL, its password in PGPASSWORD or ~/.pgpass) when
# set, otherwise a throwaway PostgreSQL of its own (scripts/temporary-postgres). The binary is
# STATEDECK_BIN, otherwise the release build `make run` makes; STATEDECK_ARGS adds flags to every
# process (--debug, say).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
processes=${1:-2}
port=${2:-8080}
bin=${STATEDECK_BIN:-$root/.build/release/statedeck}
[ -x "$bin" ] || { echo "run.sh: no statedeck at $bin: run 'make run' once, or set STATEDECK_BIN" >&2; exit 2; }
command -v nginx >/dev/null || { echo "run.sh: nginx is not installed (apt-get install nginx)" >&2; exit 2; }

work=$(mktemp -d /tmp/statedeck-cluster-XXXXXX)
chmod 755 "$work"   # the throwaway PostgreSQL runs as nobody under root
pids=()
cleanup() {
    trap - EXIT INT TERM
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    [ -n "${STATEDECK_STORE:-}" ] || "$root/scripts/temporary-postgres" stop "$work/postgres"
    rm -rf "$work"
}
trap cleanup EXIT INT TERM

store=${STATEDECK_STORE:-$("$root/scripts/temporary-postgres" start "$work/postgres")}
mkdir -p "$work/nginx/tmp"
chmod 1777 "$work/nginx/tmp"
for i in $(seq 1 "$processes"); do
    "$bin" --config "$here/deck.yaml" --cluster "$store" --public "$root/Public" \
        --port $((port + i)) --public-url "http://127.0.0.1:$port" ${STATEDECK_ARGS:-} &
    pids+=($!)
    echo "server 127.0.0.1:$((port + i));" >>"$work/nginx/statedeck-upstream.conf"
done
sed "s/listen 127.0.0.1:8080;/listen 127.0.0.1:$port;/" "$here/nginx.conf" >"$work/nginx/nginx.conf"
nginx -p "$work/nginx" -c nginx.conf -g "daemon off;" &
pids+=($!)
echo "StateDeck cluster of $processes processes behind nginx on http://127.0.0.1:$port/"
# A process that dies leaves the others serving (that is the point); nginx ending ends the example.
wait "${pids[-1]}" || true
