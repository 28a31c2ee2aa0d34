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

test:
	@scripts/install-deps.sh --test
	swift test

format:
	swift format format --in-place --recursive Package.swift Sources Tests

lint:
	swift format lint --strict --recursive Package.swift Sources Tests

clean:
	rm -rf .build
