# One command sets up a fresh machine and runs everything: `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

CARGO ?= cargo
NATIVE_DIR := native
# The extension's file name for this Python (e.g. _native.cpython-311-x86_64-linux-gnu.so).
.PHONY: setup test lab play lint bench chromium clean native native-check

setup: $(STAMP) native chromium

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

# Debian's Chromium for the browser tests (never a browser download of Playwright's own).
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "installing Debian's chromium"; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
	  || echo "warning: could not install chromium; browser tests will fail"; }

# The native core (issue 10): built in release mode when cargo is present; without cargo, one line
# says so and the pure-Python engine does everything (same API, same results, slower).
native: $(STAMP)
	@if command -v $(CARGO) >/dev/null 2>&1; then \
	  PYO3_PYTHON=$(abspath $(BIN)/python) $(CARGO) build --quiet --release --features python \
	    --manifest-path $(NATIVE_DIR)/Cargo.toml && \
	  suffix=$$($(BIN)/python -c "import sysconfig; print(sysconfig.get_config_var('EXT_SUFFIX'))") && \
	  cp $(NATIVE_DIR)/target/release/lib_native.so workbench/.tmp_native$$suffix && \
	  mv -f workbench/.tmp_native$$suffix workbench/_native$$suffix; \
	else \
	  echo "cargo not found: native core not built; the pure-Python engine is used (same results, slower)"; \
	fi

# Rust checks: formatting, lints (bindings included) and the Rust unit tests.
native-check:
	@if command -v $(CARGO) >/dev/null 2>&1; then \
	  cd $(NATIVE_DIR) && $(CARGO) fmt --check && \
	  PYO3_PYTHON=$(abspath $(BIN)/python) $(CARGO) clippy --quiet --all-targets --features python -- -D warnings && \
	  $(CARGO) clippy --quiet --all-targets -- -D warnings && \
	  $(CARGO) test --quiet; \
	else \
	  echo "cargo not found: Rust checks skipped; the pure-Python engine is tested"; \
	fi

test: setup native-check
	$(BIN)/ruff check workbench tests
	$(BIN)/python -m pytest -q

# The notebook servers listen on 127.0.0.1 only (a shared board is not a backdoor) and start as root
# too, as containers often run (--allow-root is harmless otherwise). Ports and extra flags:
# `make lab LAB_PORT=9000 LAB_ARGS=--no-browser`, `make play PLAY_PORT=9001`.
LAB_PORT ?= 8888
PLAY_PORT ?= 8866
LAB_ARGS ?=
PLAY_ARGS ?=

lab: setup
	$(BIN)/jupyter lab notebooks/ --ServerApp.ip=127.0.0.1 --ServerApp.port=$(LAB_PORT) \
	  --ServerApp.port_retries=0 --allow-root $(LAB_ARGS)

# The served board runs with limits (workbench/serving.py, docs/deployment.md): at most 8 kernels,
# a kernel whose page never opens its websocket shut down after 20 s, idle ones after 15 min,
# and a page template that fetches nothing from outside the machine.
play: setup
	PYTHONPATH=$(CURDIR) $(BIN)/python -m workbench.serving notebooks/01_play.ipynb --port $(PLAY_PORT) $(PLAY_ARGS)

lint: setup
	$(BIN)/ruff check workbench tests

bench: setup
	$(BIN)/python -m workbench bench --games 50 --seed 1

clean:
	rm -rf $(VENV) .pytest_cache $(NATIVE_DIR)/target workbench/_native*.so
