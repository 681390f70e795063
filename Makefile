# StateDeck: `make run` serves the dashboard, `make test` runs every test.
# Both install what they need on a fresh Debian machine with Swift (you are root there).

SWIFT        ?= swift
HOST         ?= 127.0.0.1
PORT         ?= 8080
ARGS         ?=
BUILD_DEBS   := libmicrohttpd-dev libcurl4-openssl-dev libyaml-dev libsqlite3-dev libpq-dev libmariadb-dev libssl-dev libc-ares-dev libpcre2-dev pkg-config tzdata
TEST_DEBS    := chromium fonts-dejavu-core node-typescript postgresql mariadb-server redis-server nginx iproute2 procps curl faketime python3-venv
PACKAGE_DEBS := dpkg-dev binutils lintian debootstrap systemd
# The standard library linked in and relative relocations packed (lld): fewer pages to map and
# relocate at start, so less resident memory (docs/PERFORMANCE-FINDINGS.md, finding d). Generic
# code of one module specialized in the others (cross-module optimization): the locks and lines a
# check goes through otherwise look up their generic metadata at run time, about 5 % of its CPU.
RELEASE_FLAGS := -c release --static-swift-stdlib -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs \
                 -Xswiftc -cross-module-optimization --disable-local-rpath
RELEASE_BIN  := .build/release/statedeck
DEBUG_BIN    := .build/debug/statedeck

.PHONY: run build test test-swift test-browser test-release deb package-test sim chaos chaos-run deps test-deps package-deps \
        snapshots clean release-flags

## Build a release binary and serve the built-in demo deck on http://$(HOST):$(PORT)/
run: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product statedeck
	$(RELEASE_BIN) --host $(HOST) --port $(PORT) $(ARGS)

build: deps
	$(SWIFT) build

## Every test: Swift unit and live tests, browser tests in headless Chromium, then the release
## binary `make run` builds against a deck of every kind of source, and its Debian package.
test: deps test-deps test-swift test-browser test-release package-test

# One test at a time: the live suites start servers, time what they do on this machine's two
# cores, and some load them on purpose; run beside each other, one suite's load fails another's
# timing. Serial costs little, since the live suites were serialized already.
test-swift:
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --no-parallel

# Two workers: the browser tests mostly wait (for loads, timers, restarts), seldom compute, so two
# at once take half the time without loading the cores much; a file's tests stay on one worker,
# in order, with the servers, Postgres and nginx they start.
test-browser:
	$(SWIFT) build --product statedeck
	STATEDECK_BIN=$(CURDIR)/$(DEBUG_BIN) Tests/browser/run.sh -q -n 2 --dist loadfile

# The optimizer changes code paths: a release-only crash once passed every debug test. Then the
# same binary under libfaketime, its wall clock moved while it runs (about two minutes), and a
# cluster of it through a chaos run of a minute, judged by the checker (about two minutes).
test-release:
	$(SWIFT) build $(RELEASE_FLAGS) --product statedeck
	python3 Tests/release/smoke.py $(RELEASE_BIN)
	python3 Tests/release/alone.py $(RELEASE_BIN)
	python3 Tests/release/clock_jump.py $(RELEASE_BIN)
	python3 Tests/chaos/test_checker.py
	$(MAKE) --no-print-directory chaos-run MINUTES=1 SEED=1 CHAOS_OUT=.build/chaos/test

DEB_OUT      := .build/deb
## A Debian package of the release build, $(DEB_OUT)/statedeck_VERSION-1_ARCH.deb, that lintian
## finds nothing wrong with (packaging/debian/lintian-overrides says why of each tag it keeps).
deb: deps package-deps
	$(SWIFT) build $(RELEASE_FLAGS) --product statedeck
	rm -rf $(DEB_OUT)
	packaging/build-deb $(RELEASE_BIN) $(DEB_OUT)
	lintian --fail-on error,warning $(DEB_OUT)/statedeck_*-1_*.deb

## The package installed, served by its unit's command line, upgraded to a newer build (revision 2),
## removed and purged, in a throw-away Debian root (packaging/package-test; about a minute and a half).
package-test: deb
	packaging/build-deb $(RELEASE_BIN) $(DEB_OUT) 2
	packaging/package-test $(DEB_OUT)/statedeck_*-1_*.deb $(DEB_OUT)/statedeck_*-2_*.deb

SEEDS        ?= 2000
SEED         ?=
SIM_DAYS     ?= 3
# Its own release build, with the Swift runtime linked dynamically: the simulator runs every task
# on one thread through the runtime's global-executor hook, which a static runtime does not export.
SIM_FLAGS    := -c release --scratch-path .build-sim
SIM_BIN      := .build-sim/release/statedeck-sim

## The deterministic simulation on a release build: SEEDS seeds (2000) of SIM_DAYS simulated days
## (3) each against the model; SEED=S replays one seed and prints its steps; STORE=postgres://…
## runs them on a PostgreSQL database (emptied first) instead of SQLite; FOR=TEXT shrinks a seed for
## its first divergence whose finding holds TEXT ("moment", "changes", "recovery").
sim: deps
	$(SWIFT) build $(SIM_FLAGS) --product statedeck-sim
	$(SIM_BIN) $(if $(SEED),--seed $(SEED),--seeds $(SEEDS)) --days $(SIM_DAYS) $(if $(STORE),--store $(STORE)) \
		$(if $(FOR),--shrink-for "$(FOR)")

MINUTES      ?= 30
CHAOS_OUT    ?= .build/chaos/$(if $(SEED),$(SEED),latest)
## A Jepsen-style chaos run (Tests/chaos): three processes behind nginx on one PostgreSQL, panels
## flipping and faults injected (kill -9, SIGTERM, SIGSTOP, PostgreSQL restarted, partitions, a
## member added and one removed) for MINUTES (30) from SEED (random, printed), then the checker
## judges CHAOS_OUT/history.jsonl and fails on any violation.
chaos: deps test-deps
	$(SWIFT) build $(RELEASE_FLAGS) --product statedeck
	$(MAKE) --no-print-directory chaos-run

chaos-run:
	rm -rf $(CHAOS_OUT)
	python3 Tests/chaos/chaos.py --bin $(RELEASE_BIN) --minutes $(MINUTES) --out $(CHAOS_OUT) $(if $(SEED),--seed $(SEED))
	python3 Tests/chaos/checker.py $(CHAOS_OUT)/history.jsonl

## Rewrite the committed reference screenshots from the current page.
snapshots: deps test-deps
	$(SWIFT) build --product statedeck
	UPDATE_SNAPSHOTS=1 STATEDECK_BIN=$(CURDIR)/$(DEBUG_BIN) Tests/browser/run.sh -q -k snapshot

deps:
	@scripts/ensure-packages.sh $(BUILD_DEBS)

## Debian packages the browser tests need; Tests/browser/run.sh keeps Playwright in .venv. The
## Python servers the source tests start (SMTP, WebSocket, gRPC) need packages in .venv too.
test-deps:
	@scripts/ensure-packages.sh $(TEST_DEBS)
	@Tests/support/venv.sh

## What building and testing the Debian package needs.
package-deps:
	@scripts/ensure-packages.sh $(PACKAGE_DEBS)

## The flags of a release build, for Benchmarks/run.py.
release-flags:
	@echo $(RELEASE_FLAGS)

clean:
	rm -rf .build .venv

include Benchmarks/bench.mk
