# Two commands matter: `make demo` and `make test`. Both set the machine up first.
SHELL := /bin/bash
.DEFAULT_GOAL := help
NEXTEST := $(shell command -v cargo-nextest >/dev/null && echo "nextest run" || echo test)

.PHONY: test-security
# Attacks on a real `latch` (SECURITY.md), alone; `make test` runs them within test-rust.
test-security: setup
	scripts/with-postgres --require-use cargo $(NEXTEST) -p latch-server --test security

.PHONY: help setup build build-wasm build-web build-server build-catalogue demo test test-besides-e2e lint test-rust test-wasm test-web test-devnet test-solana test-catalogue test-e2e test-relay clean

help:
	@echo "make demo   set up, build, and serve the demo at http://127.0.0.1:8787/"
	@echo "make test   set up, build, and run every suite (Rust, Vitest, devnet, Playwright)"

setup:
	scripts/setup

build-wasm:
	scripts/build-wasm

# The web workspaces (@latch/<name>), in build order: the adapters after @latch/react. The dev
# wallet builds into apps/demo/dist/devwallet/ (served at /devwallet/, and cleaned with the demo's
# dist), so it comes after the demo, whose build empties dist/. The adapter examples build into
# apps/demo/dist/{wagmi,wagmi3,ethers,solana}-example/ likewise, so `make demo` serves them at those paths.
WEB_WORKSPACES := react wagmi ethers solana demo devwallet vault wagmi-example ethers-example solana-example

build-web: build-wasm
	set -e; for name in $(WEB_WORKSPACES); do npm run build -w @latch/$$name; done

build-server:
	cargo build -p latch-server

# The seed wallet catalogue (.latch/catalogue/seed.json) from MIT-licensed packages.
build-catalogue:
	npm run build -w @latch/catalogue-seed

build: build-web build-server build-catalogue

demo: setup build
	scripts/demo

# The wasm modules and the server build side by side (separate target folders): each has long
# single-threaded stretches (LTO, links, vite) that the other fills. The server is built once, by the
# workspace's test build (build-tests), which also leaves the target/debug/latch that the e2e and relay
# suites run: `cargo build -p latch-server` resolves fewer features than the workspace's tests do
# (cargo unifies features only over what one build compiles: members, dev-dependencies) and so would
# compile 66 crates, sqlx, rustls and axum among them, a second time.
# The browser suite waits on pages and blocks much of the time, so it runs beside the others (its
# stack takes free ports; -Otarget keeps each suite's output together).
test: setup
	$(MAKE) -j2 build-web build-catalogue build-tests
	$(MAKE) -j2 -Otarget SERVER_BUILD=build-tests test-e2e test-besides-e2e

test-besides-e2e:
	$(MAKE) -j1 lint size-gate test-rust test-wasm test-web test-devnet test-solana test-catalogue test-relay

# What builds target/debug/latch for the suites that run it: build-server, or build-tests in `make test`.
SERVER_BUILD ?= build-server

# Every workspace test binary, and target/debug/latch with the tests' features.
.PHONY: build-tests
build-tests:
	cargo $(NEXTEST) --workspace --no-run

# Every wasm module and chunk of the demo's production build against size-budget.json (bench/size-gate.mjs).
.PHONY: size-gate
size-gate:
	node bench/size-gate.mjs

# The fuzz crates (lint-fuzz) are checked here too, so a change to a fuzzed API cannot leave them
# broken until someone runs `make fuzz`.
lint: lint-fuzz
	cargo fmt --all --check
	cargo clippy --workspace --all-targets --quiet -- -D warnings
	set -e; for name in $(WEB_WORKSPACES) e2e; do npm run typecheck -w @latch/$$name; done

# The store's shared test story also runs on a throw-away PostgreSQL. The security suite
# (crates/latch-server/tests/security) is one of the workspace's test binaries, so it runs here.
# --require-use: the PostgreSQL tests skip without POSTGRES_TEST_URL, so fail if none used it.
test-rust:
	scripts/with-postgres --require-use cargo $(NEXTEST) --workspace

# The shared vectors against the built @latch/wasm in plain Node; @latch/wasm-vault against
# latch-vault's standard-tool vectors.
test-wasm:
	npx vitest run --config crates/latch-wasm/vitest.config.mjs
	npx vitest run --config crates/latch-wasm-vault/vitest.config.mjs

test-web:
	npm test -w @latch/react
	npm test -w @latch/wagmi
	npm test -w @latch/ethers
	npm test -w @latch/solana
	npm test -w @latch/devwallet
	npm test -w @latch/vault

# The committed 0.8 creation code (ERC-6492 validator, account factory) must match its source.
test-devnet:
	scripts/build-contracts --check
	node devnet/check.js

# @solana/web3.js@1 and @solana/spl-token against the litesvm-backed Solana devnet.
test-solana:
	npm test -w @latch/solana-devnet

test-catalogue:
	npm test -w @latch/catalogue-seed

# The official WalletConnect clients (2.21.8) as dapp and wallet through a real `latch serve`'s relay.
test-relay: $(SERVER_BUILD)
	scripts/with-postgres npm test -w @latch/relay-conformance

# The stack runs on free loopback ports with its files in .devnet/e2e-run-<pid>/ (ARCHITECTURE.md,
# `e2e/`), so two runs on one machine do not collide. Playwright empties its output folder when it
# starts, so give a second run its own: (cd e2e && npx playwright test tests/connect.spec.ts --output /tmp/mine).
test-e2e:
	npm test -w @latch/e2e

clean:
	rm -rf target target-wasm packages/wasm/web packages/wasm/extra packages/wasm-walletconnect/web packages/react/dist packages/wagmi/dist packages/ethers/dist packages/solana/dist apps/demo/dist e2e/test-results

# Slow suites, outside `make test`.
# The cargo-fuzz crates are workspaces of their own: check that their targets still build
# against today's APIs (on stable; running them needs nightly). Their committed lock files pin
# the workspace's versions, but the features cargo resolves for them differ from those of the
# workspace's own targets (its dev-dependencies among them), so on a fresh machine this checks
# most of the dependency graph again: 3 min 44 s, measured in a fresh clone. Hence not in
# `make test`; `make fuzz-smoke` runs it first.
.PHONY: lint-fuzz
lint-fuzz:
	CARGO_TARGET_DIR=$(CURDIR)/target cargo check --quiet --manifest-path fuzz/Cargo.toml --bins
	CARGO_TARGET_DIR=$(CURDIR)/target cargo check --quiet --manifest-path crates/latch-vault/fuzz/Cargo.toml --bins

.PHONY: fuzz fuzz-smoke fuzz-api bench-gateway
FUZZ_SECONDS ?= 60
# Every target of both fuzz crates for 30 s each (cargo-fuzz, with the nightly toolchain).
fuzz-smoke: lint-fuzz
	$(MAKE) fuzz FUZZ_SECONDS=30

fuzz:
	command -v cargo-fuzz >/dev/null || cargo install --quiet cargo-fuzz
	for dir in fuzz crates/latch-vault/fuzz; do (cd $$dir && for target in $$(cargo +nightly fuzz list); do \
	  cargo +nightly fuzz run $$target -- -max_total_time=$(FUZZ_SECONDS) || exit 1; done) || exit 1; done

fuzz-api:
	scripts/fuzz-api

bench-gateway:
	scripts/bench-gateway

.PHONY: bench-gateway-cpu
# CPU per proxied call with 1 and 2 tokio worker threads (THREADS, RUNS; issue 30: must not grow with threads).
bench-gateway-cpu:
	scripts/bench-gateway --cpu

.PHONY: bench-gateway-ir
# Instructions and allocations per proxied eth_blockNumber under callgrind (issue 30): latch, the
# bare proxy (examples/bare_proxy.rs) and axum's router alone (TARGETS, CALLS, WARMUP, WORKERS).
bench-gateway-ir:
	scripts/bench-gateway-ir

.PHONY: bench-onramp
# Options and quote latency from latch's cache (issue 26: p99 ≤ 20 ms); BENCH_LATCH picks the build.
bench-onramp:
	node bench/onramp.mjs

.PHONY: bench-relay
bench-relay:
	scripts/bench-relay

.PHONY: bench-relay-cpu
# CPU per relayed message with THREADS tokio workers and SHARDS mailbox shards (issue 30: must not grow with threads).
bench-relay-cpu:
	scripts/bench-relay --cpu

.PHONY: bench-chain-data
bench-chain-data:
	scripts/bench-chain-data

.PHONY: bench-names
# The name zone's CCIP-Read gateway (issue 27: answer p99 ≤ 10 ms) against a release latch and anvil.
bench-names:
	scripts/bench-names

.PHONY: bench-swap
bench-swap:
	scripts/bench-swap

.PHONY: bench-core
bench-core: build-wasm
	node bench/core.mjs

# The modal's budgets (issue 6): chunk sizes of the demo's production build, then click → modal
# and the AllWallets search in headless Chromium against a real `latch serve --dev` and devnet.
.PHONY: bench-ui
# The bench builds the demo into apps/demo/dist itself (emptying it); the normal build (precompressed
# files, the dev wallet at /devwallet/) is put back afterwards.
bench-ui: build-wasm build-server build-catalogue
	npm run build -w @latch/react
	npm run build -w @latch/vault
	node bench/ui.mjs
	npm run build -w @latch/demo
	npm run build -w @latch/devwallet

# What @latch/wagmi, @latch/ethers and @latch/solana add to a host bundle (issue 29: ≤ 3 kB gzip
# each), and that @latch/react bundles none of wagmi, ethers or @solana/web3.js.
.PHONY: bench-adapters
bench-adapters: build-wasm
	npm run build -w @latch/react
	npm run build -w @latch/wagmi
	npm run build -w @latch/ethers
	npm run build -w @latch/solana
	node bench/adapters.mjs
