#!/bin/sh
# Runs every Swift test under strace, watching close(2) and epoll_ctl(2) only, and fails on:
# - a close of a descriptor that was not open (EBADF) by the test process: a double close, which
#   in a process full of threads can close another thread's new socket (libmicrohttpd then
#   aborts: "Close socket failed"). Spawned commands are left out: posix_spawn's close actions
#   there close descriptors that may not exist, on purpose.
# - an epoll_ctl that finds nothing registered (ENOENT, EBADF): a descriptor closed before it
#   was unregistered, or unregistered twice; inside libdispatch that ends in a crash in
#   `_dispatch_event_loop_drain` (URLSession, and Dispatch read sources on pipes, did it).
#
#   scripts/fd-audit.sh [swift test arguments…]
#
# Needs strace (installed if missing).
set -eu
cd "$(dirname "$0")/.."
scripts/ensure-packages.sh strace
swift build --build-tests
log=$(mktemp)
output=$(mktemp)
trap 'rm -f "$log" "$output"' EXIT
bundle=.build/debug/StateDeckPackageTests.xctest
# -Z: failed calls only; -k: the stack of each; --seccomp-bpf: other calls run at full speed.
status=0
strace -f -Z -k --seccomp-bpf -e trace=close,epoll_ctl -o "$log" \
    "$bundle" --testing-library swift-testing "$@" >"$output" 2>&1 || status=$?
if [ "$status" -ne 0 ]; then
    echo "the tests failed under strace (exit $status):"
    failures=$(grep -a -E "✘|crashed|Fatal error" "$output" | head -40)
    if [ -n "$failures" ]; then echo "$failures"; else tail -30 "$output"; fi
fi
python3 - "$log" <<'PY'
import sys
lines = open(sys.argv[1]).read().split("\n")
found = 0
for index, line in enumerate(lines):
    if "EBADF" not in line and "ENOENT" not in line:
        continue
    stack = []
    for frame in lines[index + 1:]:
        if not frame.startswith(" > "):
            break
        stack.append(frame)
    if "epoll_ctl" in line:
        kind = "a descriptor unregistered after its close"
    elif " close(" in line and "EBADF" in line:
        # The test process's own frames name the bundle; a spawned child's do not (or show posix_spawn).
        ours = any("StateDeckPackageTests.xctest" in frame for frame in stack)
        if not ours or any("spawni" in frame for frame in stack):
            continue
        kind = "a double close"
    else:
        continue
    found += 1
    print(f"{kind}: {line}")
    print("\n".join(stack[:12]))
print(f"{found} descriptor misuse(s)" if found else "no double close, no late unregistering")
sys.exit(1 if found else 0)
PY
exit "$status"
