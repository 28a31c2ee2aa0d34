# feedweb — see README.md. `make run` starts the demo dashboard, `make test` runs every test.
.PHONY: run release release-check install build test format lint clean bench bench-micro bench-cluster smoke fuzz soak

ARGS ?=
PREFIX ?= /usr/local
FUZZ_SECONDS ?= 60
export FUZZ_SECONDS
SOAK_MINUTES ?= 30

# The release binary: Swift's runtime and Foundation linked in (--static-swift-stdlib), so
# it runs on a machine without Swift and needs only libmicrohttpd12 (docs/deploy.md). The
# commit checked out is linked in as the value of the symbol feedweb_git_commit, which
# `feedweb --version` prints; only the link step changes with it.
COMMIT := $(shell git rev-parse HEAD 2>/dev/null | cut -c1-16)
RELEASE_BUILD = swift build -c release --static-swift-stdlib --product feedweb \
  $(if $(COMMIT),-Xlinker --defsym=feedweb_git_commit=0x$(COMMIT) -Xlinker --export-dynamic-symbol=feedweb_git_commit)

# The demo, soon: a debug build of the product without the PostgresCluster trait (no
# --cluster: postgres-nio and swift-crypto, whose BoringSSL alone took ~95 s of a first
# build here, are not built), in a folder of its own so that it and `make test`'s build
# never rebuild each other, with no index store and no debug information (the demo needs
# neither; about a tenth of the build; the times: BENCHMARKS.md, "Build and test times").
# For a server, `make release` or `make install`.
run:
	@scripts/install-deps.sh
	swift build --product feedweb --scratch-path .build-run --disable-default-traits \
	  --disable-index-store -Xswiftc -gnone -Xcc -g0
	.build-run/debug/feedweb $(ARGS)

release:
	@scripts/install-deps.sh
	$(RELEASE_BUILD)
	@size=$$(stat -c %s .build/release/feedweb); stripped=$$(strip -o /dev/stdout .build/release/feedweb | wc -c); \
	  echo "feedweb: $$((size / 1048576)) MB as built, $$((stripped / 1048576)) MB stripped (make install installs it stripped)"

# The release binary as `make release` builds it: no Swift library among what it loads,
# `feedweb --version` running with the toolchain hidden and naming the commit checked out
# (before a release; not in CI, where the release build alone would take ~15 min).
release-check: release
	scripts/check-static-binary.sh .build/release/feedweb
	.build/release/feedweb --version | grep -q "(commit $(COMMIT))" || \
	  { echo "feedweb --version does not name commit $(COMMIT): $$(.build/release/feedweb --version)" >&2; exit 1; }

# The binary to PREFIX/bin, stripped of its symbols (half its size; a crash's backtrace
# then names addresses, not functions: keep .build/release/feedweb to read them), the
# static files to PREFIX/share/feedweb/Public.
install: release
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/feedweb
	install -m 755 -s .build/release/feedweb $(DESTDIR)$(PREFIX)/bin/feedweb
	rm -rf $(DESTDIR)$(PREFIX)/share/feedweb/Public
	cp -R Public $(DESTDIR)$(PREFIX)/share/feedweb/Public

build:
	@scripts/install-deps.sh
	swift build

# In parallel, at most 16 tests at a time (SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH):
# every wait in the tests is async and bounded, the tests that do I/O or time what they see
# run on threads of their own (`.onThreadsOfItsOwn`), and the pure ones share Swift's
# cooperative pool. All at once (the default), every thread waits and tests see a
# reconnect, a pong or a close seconds late.
# Some suites run after the rest, each kind on its own, because they time what they see
# and would make each other, or be made, late: the floods (StreamBackpressureTests: readers
# keep getting a flood while another client stalls; SlowHeadsTests: a fresh client's answer
# in < 1 s beside 14,000 open heads), then the crowds (CrowdTests: every answer in < 1 s to
# 300 streams opened at once and to 512 keep-alive clients), then the shutdowns
# (ShutdownTests: exit 0 within 2 s of SIGTERM with 200 and 3,000 streams open; beside
# sixteen other tests and their browsers it once took 2.11 s, its niced stream senders
# starved), then `/inspect`'s
# (InspectTests: an event's way to the sockets of 1,000 clients to the millisecond,
# Chromium's log to 100 ms), then the wall of pages (SharedPageStreamTests: 12 pages in one
# browser, each showing a change in < 1 s), then the end-to-end cluster suites (each test
# starts a PostgreSQL and three feedweb processes, which starve the tests that time a
# server's deadlines). What was seen when they ran together: BENCHMARKS.md, "Build and test
# times".
FLOOD_SUITES = FeedwebTests\.(StreamBackpressureTests|SlowHeadsTests)
CROWD_SUITES = FeedwebTests\.CrowdTests
SHUTDOWN_SUITES = FeedwebTests\.ShutdownTests
INSPECT_SUITES = FeedwebTests\.InspectTests
WALL_SUITES = FeedwebTests\.SharedPageStreamTests
CLUSTER_SUITES = FeedwebTests\.Cluster
TEST_WIDTH = SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=16
test:
	@scripts/install-deps.sh --test
	$(TEST_WIDTH) swift test --skip '$(FLOOD_SUITES)' --skip '$(CROWD_SUITES)' --skip '$(SHUTDOWN_SUITES)' \
	  --skip '$(INSPECT_SUITES)' --skip '$(WALL_SUITES)' --skip '$(CLUSTER_SUITES)'
	$(TEST_WIDTH) swift test --skip-build --filter '$(FLOOD_SUITES)'
	$(TEST_WIDTH) swift test --skip-build --filter '$(CROWD_SUITES)'
	$(TEST_WIDTH) swift test --skip-build --filter '$(SHUTDOWN_SUITES)'
	$(TEST_WIDTH) swift test --skip-build --filter '$(INSPECT_SUITES)'
	$(TEST_WIDTH) swift test --skip-build --filter '$(WALL_SUITES)'
	$(TEST_WIDTH) swift test --skip-build --filter '$(CLUSTER_SUITES)'

# feedweb next to nginx-nchan (SSE fan-out at 1k/5k/10k/15k clients) and nginx (pages), then
# the ingest benchmark (append mode at 100/2,000/10,000 changes/s) and a page's DOM latency
# under 10,000 clients (headless Chromium); waits for a quiet
# machine; about 35 minutes from a fresh clone. See BENCHMARKS.md.
# Options through the environment (Benchmarks/bench.sh): SIZES, ROUNDS, DURATION, OUT, ...
bench:
	@scripts/install-deps.sh --bench
	$(RELEASE_BUILD)
	Benchmarks/bench.sh .build/release/feedweb

# A cluster of three on a PostgreSQL of its own: added latency through the log, takeover
# times, clients held behind nginx (Benchmarks/cluster.sh; ~6 min after the build).
bench-cluster:
	@scripts/install-deps.sh --bench
	$(RELEASE_BUILD)
	Benchmarks/cluster.sh .build/release/feedweb

# The engine's and the server's hot paths (ordo-one/benchmark: time and allocations).
bench-micro:
	@scripts/install-deps.sh
	cd Benchmarks/Micro && swift package benchmark $(ARGS)

# libFuzzer with the address sanitizer over every parser of outside bytes (Fuzz/): each
# target for FUZZ_SECONDS (default 60); fails on a crash, a leak or a timeout. The first
# build of the sanitized package takes a while (see Fuzz/fuzz.sh).
fuzz:
	@scripts/install-deps.sh
	Fuzz/fuzz.sh

# The release binary for SOAK_MINUTES (default 30) against an upstream that changes 10 times a
# second, drops every minute and answers 500 now and then, with 2,000 stream clients coming
# and going, slow readers and reference clients that apply every patch; fails unless RSS
# and descriptors stay flat and every client ends with /api/state (Benchmarks/soak.sh).
soak:
	@scripts/install-deps.sh --soak
	$(RELEASE_BUILD)
	Benchmarks/soak.sh .build/release/feedweb $(SOAK_MINUTES)

# What CI runs: 200 clients on /events for 10 s (Benchmarks/smoke.sh).
smoke:
	@scripts/install-deps.sh
	swift build --product feedweb
	Benchmarks/smoke.sh .build/debug/feedweb 10

format:
	swift format format --in-place --recursive Package.swift Sources Tests

lint:
	swift format lint --strict --recursive Package.swift Sources Tests

clean:
	rm -rf .build .build-run
