# feedweb — see README.md. `make run` starts the demo dashboard, `make test` runs every test.
.PHONY: run build test format lint clean

ARGS ?=

run:
	@scripts/install-deps.sh
	swift build -c release --product feedweb
	.build/release/feedweb $(ARGS)

build:
	@scripts/install-deps.sh
	swift build

# Serial: several end-to-end tests still wait synchronously while a scripted upstream answers
# from Swift's cooperative pool, which has only one thread per core; two such tests at once
# could starve it on a 2-core machine. Serial, the whole suite takes about a minute.
test:
	@scripts/install-deps.sh --test
	swift test --no-parallel

format:
	swift format format --in-place --recursive Package.swift Sources Tests

lint:
	swift format lint --strict --recursive Package.swift Sources Tests

clean:
	rm -rf .build
