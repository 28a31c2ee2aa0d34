# feedweb — see README.md. `make run` starts the demo dashboard, `make test` runs every test.
.PHONY: run build test format lint clean bench bench-micro bench-cluster smoke

ARGS ?=

run:
	@scripts/install-deps.sh
	swift build -c release --product feedweb
	.build/release/feedweb $(ARGS)

build:
	@scripts/install-deps.sh
	swift build

# In parallel: every wait in the tests is async and bounded, and the scripted upstream plays
# its scripts on its own event loop, so no test holds a thread of Swift's cooperative pool.
test:
	@scripts/install-deps.sh --test
	swift test

# feedweb next to nginx-nchan (SSE fan-out at 1k/5k/10k/15k clients) and nginx (pages), then
# the ingest benchmark (append mode at 100/2,000/10,000 changes/s) and a page's DOM latency
# under 10,000 clients (headless Chromium); waits for a quiet
# machine; about 35 minutes from a fresh clone. See BENCHMARKS.md.
# Options through the environment (Benchmarks/bench.sh): SIZES, ROUNDS, DURATION, OUT, ...
bench:
	@scripts/install-deps.sh --bench
	swift build -c release --product feedweb
	Benchmarks/bench.sh .build/release/feedweb

# A cluster of three on a PostgreSQL of its own: added latency through the log, takeover
# times, clients held behind nginx (Benchmarks/cluster.sh; ~6 min after the build).
bench-cluster:
	@scripts/install-deps.sh --bench
	swift build -c release --product feedweb
	Benchmarks/cluster.sh .build/release/feedweb

# The engine's and the server's hot paths (ordo-one/benchmark: time and allocations).
bench-micro:
	@scripts/install-deps.sh
	cd Benchmarks/Micro && swift package benchmark $(ARGS)

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
	rm -rf .build
