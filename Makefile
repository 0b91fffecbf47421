# One command sets up a fresh machine and runs everything: `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup test lab play lint bench chromium clean

setup: $(STAMP) chromium

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

test: setup
	$(BIN)/ruff check workbench tests
	$(BIN)/python -m pytest -q

lab: setup
	$(BIN)/jupyter lab notebooks/

play: setup
	$(BIN)/voila notebooks/01_play.ipynb

lint: setup
	$(BIN)/ruff check workbench tests

bench: setup
	$(BIN)/python -m workbench bench --games 50 --seed 1

clean:
	rm -rf $(VENV) .pytest_cache
