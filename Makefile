# Homeostat: build, serve and test. On a fresh machine `make serve` and `make test` install what they need.

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := build
.DELETE_ON_ERROR:

# Port of `make serve`.
PORT ?= 8000

WASM_TARGET := wasm32-unknown-unknown
# The wasm-bindgen CLI must match the library exactly; the pin lives in crates/web/Cargo.toml only.
WASM_BINDGEN_VERSION := $(shell sed -n 's/^wasm-bindgen *= *"=*\([0-9][0-9.]*\)".*/\1/p' crates/web/Cargo.toml)
TARGET_DIR := $(or $(CARGO_TARGET_DIR),target)
WASM_RAW := $(TARGET_DIR)/$(WASM_TARGET)/release/homeostat_web.wasm
# The same crate built with its `rules` feature only, for size (profile wasm-rules): the page's module, which it
# needs before the first move.
RULES_WASM_RAW := $(TARGET_DIR)/$(WASM_TARGET)/wasm-rules/homeostat_web.wasm
PKG_DIR := www/pkg
PKG_WASM := $(PKG_DIR)/homeostat_web_bg.wasm
RULES_PKG_WASM := $(PKG_DIR)/homeostat_rules_bg.wasm
# Checkers has a module of its own (www/pkg-checkers/), so chess pages never download it, nor checkers pages the chess engine.
CHECKERS_WASM_RAW := $(TARGET_DIR)/$(WASM_TARGET)/release/homeostat_checkers_web.wasm
CHECKERS_PKG_DIR := www/pkg-checkers
CHECKERS_PKG_WASM := $(CHECKERS_PKG_DIR)/homeostat_checkers_web_bg.wasm
WASM_OPT := node_modules/.bin/wasm-opt
# For the rules module: a function called from one place is inlined only when small (20 bytes). Inlining each into
# its one caller, wasm-opt's default, gives fewer bytes but 2.4 KB more with gzip (measured: 55.8 against 53.4 KB).
RULES_WASM_OPT_FLAGS := --one-caller-inline-max-function-size=20
# The features rustc enables by default for wasm32-unknown-unknown, which wasm-bindgen's output uses.
WASM_FEATURES := --enable-bulk-memory --enable-bulk-memory-opt --enable-nontrapping-float-to-int \
	--enable-sign-ext --enable-mutable-globals --enable-reference-types --enable-multivalue

# Debian packages for the browser tests: the three engines and a virtual X server for WebKit.
APT_PACKAGES := chromium firefox-esr webkit2gtk-driver xvfb xauth
SUDO := $(if $(filter 0,$(shell id -u)),,sudo)

# puppeteer-core never downloads a browser; this keeps any other puppeteer package from trying.
export PUPPETEER_SKIP_DOWNLOAD := 1
FMT_CHECK := cargo fmt --all -- --check
# Tests run optimised (the perft tests are heavy) but without release's fat LTO, which would link every test
# binary for minutes. The profile is defined in Cargo.toml and builds into target/test-release/. The lints and docs
# are checked under it too, so that `cargo test` reuses the build scripts' output (SQLite's C source) and the
# procedural macros they built: on two cores the lints, docs and test build took 352 s this way against 405 s under the
# dev profile (one run each).
TEST_PROFILE := --profile test-release
CLIPPY := cargo clippy $(TEST_PROFILE) --workspace --all-targets -- -D warnings
# The page's rules module as make wasm builds it: its allocator (crates/web/src/allocator.rs) exists only there.
WASM_CLIPPY := CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-C target-feature=+simd128" cargo clippy $(TEST_PROFILE) \
	--target $(WASM_TARGET) -p homeostat-web --no-default-features --features rules,compact-keys,ray-sliders,no-forced-inline -- -D warnings
# The API docs, whose broken or private links fail like lints.
DOC_CHECK := RUSTDOCFLAGS="-D warnings" cargo doc $(TEST_PROFILE) --workspace --no-deps -q
CARGO_TEST := cargo test --workspace $(TEST_PROFILE)
# The rules crate again, with the features the browser's rules module is built with (compact keys, ray-walked sliders,
# nothing forced inline).
RULES_MODULE_TEST := cargo test -q -p homeostat-chess $(TEST_PROFILE) --features compact-keys,ray-sliders,no-forced-inline --lib --tests

# $(call stage,NAME,COMMAND): runs one stage of `make test` and prints its wall-clock time (all of COMMAND's, when it chains several with &&).
stage = @echo "==> $(1)"; TIMEFORMAT='==> $(1): %1R s'; time { $(2); }

.PHONY: build native wasm dist serve test lint fmt-check clippy cargo-test node-test browser-test \
	deps rust-deps node-deps test-deps apt-deps clean

# Native release build of the workspace and the optimised wasm package in www/pkg.
build: native wasm

native:
	cargo build --release --workspace

# simd128 (Chromium 91+, Firefox 89+, Safari 16.4+; the page checks for it) lets the compiler copy boards with
# 16-byte loads and stores: about 4 % more search speed in Chromium. Set for the wasm target only.
# The chess bindings are built twice, in two profiles: the page's rules module and the engine worker's module.
wasm: export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS = -C target-feature=+simd128
wasm: deps
	cargo build --profile wasm-rules -p homeostat-web --no-default-features --features rules,compact-keys,ray-sliders,no-forced-inline --target $(WASM_TARGET)
	cargo build --release -p homeostat-web --no-default-features --features engine --target $(WASM_TARGET)
	cargo build --release -p homeostat-checkers-web --target $(WASM_TARGET)
	wasm-bindgen --target web --out-dir $(PKG_DIR) --out-name homeostat_rules $(RULES_WASM_RAW)
	$(WASM_OPT) -Oz $(RULES_WASM_OPT_FLAGS) $(WASM_FEATURES) --enable-simd $(RULES_PKG_WASM) -o $(RULES_PKG_WASM)
	wasm-bindgen --target web --out-dir $(PKG_DIR) $(WASM_RAW)
	$(WASM_OPT) -O3 $(WASM_FEATURES) --enable-simd $(PKG_WASM) -o $(PKG_WASM)
	cargo run -q -p homeostat-engine --example nnue_pack -- crates/engine/nets/default.nnue $(PKG_DIR)/homeostat.nnue
	cargo run -q -p homeostat-engine --example book-file -- $(PKG_DIR)/openings.bin
	node tools/engine-identity.mjs
	wasm-bindgen --target web --out-dir $(CHECKERS_PKG_DIR) $(CHECKERS_WASM_RAW)
	$(WASM_OPT) -O3 $(WASM_FEATURES) --enable-simd $(CHECKERS_PKG_WASM) -o $(CHECKERS_PKG_WASM)
	node tools/offline-build.mjs
	@ls -l $(RULES_PKG_WASM) $(PKG_WASM) $(CHECKERS_PKG_WASM)

# The embeddable player: exactly the files a page needs, in a folder homeostat/, as target/dist/homeostat.tar.gz
# and .zip, its scripts minified and its stylesheets without comments (tools/minify.mjs; www/ keeps them). Prints the gzip size of
# what a browser downloads and fails above the budgets (see the README's Size paragraph): what the page needs before a
# person can make the first move, 120,000 bytes (issue 11's budget), of which the rules module 60,000 (issue 11's
# target); a game against the engine, its net aside, 290,000; the whole player with its net and the modules
# loaded on demand, 450,000.
DIST_DIR := $(TARGET_DIR)/dist
DIST_FIRST_BUDGET := 120000
DIST_RULES_BUDGET := 60000
DIST_BUDGET := 290000
DIST_WHOLE_BUDGET := 450000
# The engine: the client and worker scripts and the search's wasm package, loaded when the engine is first needed
# (the engine-identity file when a memory is asked).
DIST_ENGINE := engine/engine-client.js engine/protocol.js engine/worker.js \
	pkg/homeostat_web.js pkg/homeostat_web_bg.wasm pkg/engine-identity.json
DIST_RULES := pkg/homeostat_rules.js pkg/homeostat_rules_bg.wasm
# Before the first move: the element, its board, views and controller, and the rules' wasm package. (embed.html and
# its script and stylesheet are the iframe embed's page around the same element.)
DIST_FIRST := homeostat.js homeostat-chess.js homeostat-chess.css embed.html embed-frame.js embed-frame.css \
	$(filter-out $(DIST_ENGINE),$(patsubst www/%,%,$(sort $(wildcard www/board/*.js www/ui/*.js www/engine/*.js www/game/*.js)))) \
	$(DIST_RULES)
DIST_FILES := $(DIST_FIRST) $(DIST_ENGINE)
# Fetched after the board is playable: the neural net level 8 evaluates with (by the engine's worker) and the opening
# book with its names (by the page).
DIST_NET := pkg/homeostat.nnue
DIST_BOOK := pkg/openings.bin
# Modules the player imports only when they are asked for (the position editor, clocks, review, the shared memory of
# the memory attribute): shipped, and counted apart from the budget, which is what a page downloads for a game.
DIST_LAZY := $(patsubst www/%,%,$(sort $(wildcard www/extras/*.js www/extras/*.css)))
# $(call gzip_total,FILES): the sum of the files' gzip -9 sizes in the packed folder.
gzip_total = $$(t=0; for f in $(addprefix $(DIST_DIR)/homeostat/,$(1)); do t=$$((t + $$(gzip -9 -c "$$f" | wc -c))); done; echo $$t)

dist: wasm
	rm -rf $(DIST_DIR)/homeostat $(DIST_DIR)/homeostat.tar.gz $(DIST_DIR)/homeostat.zip
	mkdir -p $(DIST_DIR)/homeostat
	cd www && cp --parents $(DIST_FILES) $(DIST_NET) $(DIST_BOOK) $(DIST_LAZY) $(abspath $(DIST_DIR))/homeostat/
	node tools/minify.mjs $(addprefix $(DIST_DIR)/homeostat/,$(filter %.js %.css,$(DIST_FILES) $(DIST_LAZY)))
	tar -czf $(DIST_DIR)/homeostat.tar.gz -C $(DIST_DIR) homeostat
	cd $(DIST_DIR) && python3 -m zipfile -c homeostat.zip homeostat/
	@echo "homeostat/: $(words $(DIST_FILES) $(DIST_NET) $(DIST_BOOK) $(DIST_LAZY)) files, $$(du -sb $(DIST_DIR)/homeostat | cut -f1) bytes; gzip -9:"
	@check() { echo "  $$1: $$2 bytes (budget $$3)"; test "$$2" -le "$$3" || { echo "$$1 is over its size budget" >&2; exit 1; }; }; \
	check "before the first move, $(words $(DIST_FIRST)) files" $(call gzip_total,$(DIST_FIRST)) $(DIST_FIRST_BUDGET); \
	check "  of which the rules module" $(call gzip_total,$(DIST_RULES)) $(DIST_RULES_BUDGET); \
	echo "  the engine, $(words $(DIST_ENGINE)) files: $(call gzip_total,$(DIST_ENGINE)) bytes; its net: $(call gzip_total,$(DIST_NET)) bytes; the opening book: $(call gzip_total,$(DIST_BOOK)) bytes"; \
	check "a game against the engine, net aside (the above and the book)" $(call gzip_total,$(DIST_FILES) $(DIST_BOOK)) $(DIST_BUDGET); \
	echo "  loaded on demand, $(words $(DIST_LAZY)) files: $(call gzip_total,$(DIST_LAZY)) bytes"; \
	check "the whole player" $(call gzip_total,$(DIST_FILES) $(DIST_NET) $(DIST_BOOK) $(DIST_LAZY)) $(DIST_WHOLE_BUDGET)
	@ls -l $(DIST_DIR)/homeostat.tar.gz $(DIST_DIR)/homeostat.zip

# Serves www/ on http://127.0.0.1:$(PORT)/ after building the wasm package.
serve: wasm
	@echo "Homeostat: http://127.0.0.1:$(PORT)/"
	python3 -m http.server --bind 127.0.0.1 --directory www $(PORT)

# Everything CI checks: formatting, lints, Rust tests, the wasm build and the embeddable package (with its size
# budget), and the browser tests (which also check the package).
# The browser tests run the memory service's binary that `cargo test` built, rather than building a release one.
test: test-deps
	$(call stage,cargo fmt,$(FMT_CHECK))
	$(call stage,cargo clippy and doc,$(CLIPPY) && $(WASM_CLIPPY) && $(DOC_CHECK))
	$(call stage,cargo test,$(CARGO_TEST) && $(RULES_MODULE_TEST))
	$(call stage,memory service tests on PostgreSQL,$(MAKE) --no-print-directory memory-test)
	$(call stage,wasm build and dist,$(MAKE) --no-print-directory dist)
	$(call stage,node tests,$(MAKE) --no-print-directory node-test)
	$(call stage,browser tests,HOMEOSTAT_MEMORY_BIN=$(TARGET_DIR)/test-release/homeostat-memory $(MAKE) --no-print-directory browser-test)

# The chess memory service (crates/memory) on http://127.0.0.1:$(MEMORY_PORT)/ with the embedded store memory.db.
MEMORY_PORT ?= 8001
.PHONY: memory memory-test memory-bench

memory:
	cargo run --release -p homeostat-memory -- --listen 127.0.0.1:$(MEMORY_PORT) --store sqlite:memory.db

# The memory service's tests against a private PostgreSQL server that tools/with-postgres.sh installs (when
# missing), starts and stops; their SQLite half runs in `cargo test` above. Built as `cargo test` builds (the whole
# workspace), so that the stage reuses its build instead of compiling the dependencies again with other features.
memory-test:
	tools/with-postgres.sh $(CARGO_TEST) postgres

# Lookups and submissions a second on SQLite, PostgreSQL and two servers sharing one PostgreSQL.
memory-bench:
	tools/memory-bench

lint: fmt-check clippy

fmt-check:
	$(FMT_CHECK)

clippy:
	$(CLIPPY)
	$(WASM_CLIPPY)
	$(DOC_CHECK)

cargo-test:
	$(CARGO_TEST)
	$(RULES_MODULE_TEST)

# The game controller and the worker protocol in Node with the real wasm module (needs a prior `make wasm`): the
# configuration matrix (every level, think setting, side and start), the play policy, and the protocol's field lists.
# Two files at a time: Node's default on two cores is one, and the matrix file alone takes about 60 s, as long as all
# the others together; more at once would not finish sooner.
node-test: node-deps
	node --test --test-force-exit --test-concurrency=2 tests/node/*.test.js

# Browser tests in Chromium, Firefox and WebKit; WebKit's MiniBrowser needs the virtual X server. A browser left
# running must not hold the run open: each file's process exits when its tests are done, and the whole stage is
# stopped, as a failure, after BROWSER_TEST_LIMIT seconds. The engines run in two groups side by side (Firefox, the
# slowest, alone), each group's files one at a time (tests/browser/run.sh says why): on two cores the stage took
# about 550 s one file at a time; BROWSERS=… runs the engines it names as one group.
BROWSER_TEST_LIMIT ?= 1800
comma := ,
BROWSER_TEST_GROUPS := $(or $(BROWSERS),firefox chromium$(comma)webkit)
browser-test: node-deps
	timeout --kill-after=30 $(BROWSER_TEST_LIMIT) \
		xvfb-run -a --server-args="-screen 0 1280x1024x24" tests/browser/run.sh $(BROWSER_TEST_GROUPS)

# Tools for building: the wasm target, wasm-bindgen CLI and the npm packages. Each is installed only when missing.
deps: rust-deps node-deps

rust-deps:
	@rustup target list --installed | grep -qx '$(WASM_TARGET)' || rustup target add $(WASM_TARGET)
	@test -n '$(WASM_BINDGEN_VERSION)' || { echo "no wasm-bindgen pin in crates/web/Cargo.toml" >&2; exit 1; }
	@if [ "$$(wasm-bindgen --version 2>/dev/null | cut -d' ' -f2)" != '$(WASM_BINDGEN_VERSION)' ]; then \
		cargo install wasm-bindgen-cli --version '$(WASM_BINDGEN_VERSION)'; \
	fi

node-deps: node_modules/.package-lock.json

# npm writes this file on every install, so it dates node_modules.
node_modules/.package-lock.json: package-lock.json package.json
	npm ci --no-audit --no-fund
	@touch $@

# Also the browsers and X server from Debian, installed only when missing.
test-deps: deps apt-deps

apt-deps:
	@missing=""; \
	for package in $(APT_PACKAGES); do \
		dpkg-query -W -f='$${Status}' "$$package" 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "Installing Debian packages:$$missing"; \
		$(SUDO) apt-get update; \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y $$missing; \
	fi

clean:
	cargo clean
	rm -rf $(PKG_DIR) $(CHECKERS_PKG_DIR) node_modules
