#!/bin/sh
# Builds and runs every Swift test under a sanitizer:
#
#   scripts/sanitize.sh address [swift test arguments…]   # AddressSanitizer (+ LeakSanitizer)
#   scripts/sanitize.sh thread  [swift test arguments…]   # ThreadSanitizer
#
# e.g. scripts/sanitize.sh thread --filter HardeningTests
#
# Swift Testing only (--disable-xctest): LeakSanitizer reports leaks inside XCTest's own runner,
# and every suite here is Swift Testing. Each sanitizer builds in its own scratch folder
# (.build-asan, .build-tsan), so the plain build is left alone.
set -eu

kind=${1:-}
case "$kind" in
    address) scratch=.build-asan ;;
    thread) scratch=.build-tsan ;;
    *)
        echo "usage: $0 address|thread [swift test arguments...]" >&2
        exit 2
        ;;
esac
shift

cd "$(dirname "$0")/.."
# A finding fails the run: ASan stops at the first, TSan reports all and exits non-zero.
# scripts/lsan.supp silences leaks of third-party globals (libcurl under URLSession) only.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$(pwd)/scripts/lsan.supp:print_suppressions=0}"
export TSAN_OPTIONS="${TSAN_OPTIONS:-second_deadlock_stack=1}"
swift build --build-tests --sanitize="$kind" --scratch-path "$scratch"
# One test at a time: instrumented code runs several times slower, and the live tests that bound
# a timeout's effect in real time (a hung command killed within 2 s) would not hold on 2 busy cores.
exec swift test --skip-build --sanitize="$kind" --scratch-path "$scratch" --disable-xctest --no-parallel "$@"
