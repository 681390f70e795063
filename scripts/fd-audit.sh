#!/bin/sh
# Runs every Swift test under strace, watching close(2) only, and fails if the test process ever
# closed a descriptor that was not open (EBADF): a double close, which in a process full of
# threads can close another thread's new socket (libmicrohttpd then aborts: "Close socket failed").
#
#   scripts/fd-audit.sh [swift test arguments…]
#
# Child processes (commands run by the tests) are left out: posix_spawn's close actions there
# close descriptors that may not exist, on purpose. Needs strace (installed if missing).
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
strace -f -Z -k --seccomp-bpf -e trace=close -o "$log" \
    "$bundle" --testing-library swift-testing "$@" >"$output" 2>&1 || status=$?
if [ "$status" -ne 0 ]; then
    echo "the tests failed under strace (exit $status):"
    grep -E "✘|crashed|Fatal error" "$output" | head -40
fi
python3 - "$log" <<'PY'
import sys
lines = open(sys.argv[1]).read().split("\n")
found = 0
for index, line in enumerate(lines):
    if "EBADF" not in line:
        continue
    stack = []
    for frame in lines[index + 1:]:
        if not frame.startswith(" > "):
            break
        stack.append(frame)
    # The test process's own frames name the bundle; a spawned child's do not (or show posix_spawn).
    ours = any("StateDeckPackageTests.xctest" in frame for frame in stack)
    if ours and not any("spawni" in frame for frame in stack):
        found += 1
        print(line)
        print("\n".join(stack[:12]))
print(f"{found} double close(s) in the test process" if found else "no double close")
sys.exit(1 if found else 0)
PY
exit "$status"
