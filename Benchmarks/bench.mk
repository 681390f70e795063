# Benchmarks: included from the top Makefile (`include Benchmarks/bench.mk`), or on its own:
#   make -f Benchmarks/bench.mk bench
#
#   make bench                          everything, 3 interleaved rounds (about 90 minutes)
#   make bench-quick                    a short smoke run of everything (a few minutes)
#   make bench BENCH_ARGS="--only fanout --n 1000,10000"
#
# Benchmarks/run.py does the work: it installs the Debian packages of its DEBS that are missing
# (wrk, nginx with nchan, PostgreSQL, Chromium and the build's libraries among them), builds the C
# helpers and a release statedeck in .build-bench, runs everything on loopback, stops every process it started,
# and writes the tables into BENCHMARKS.md (raw JSON in bench-results/).
# `python3 Benchmarks/run.py --help` lists the options.

PYTHON3    ?= python3
BENCH_ARGS ?=

.PHONY: bench bench-quick

bench:
	$(PYTHON3) Benchmarks/run.py $(BENCH_ARGS)

bench-quick:
	$(PYTHON3) Benchmarks/run.py --quick $(BENCH_ARGS)
