# Two commands for a newcomer (see README.md):
#   make serve   install scatlab and run the main job (for now: a seeded demo game)
#   make test    install scatlab with its test tools and run every check (mypy + pytest)
# Each creates the virtual environment .venv when no virtual environment is active.

PYTHON ?= python3
ifdef VIRTUAL_ENV
VENV_PY := python
else
VENV_PY := .venv/bin/python
endif

.PHONY: serve demo test install install-test bench clean venv

.venv/bin/python:
	$(PYTHON) -m venv .venv

ifdef VIRTUAL_ENV
venv:
else
venv: .venv/bin/python
endif

install: venv
	$(VENV_PY) -m pip install --quiet --upgrade pip
	$(VENV_PY) -m pip install --quiet -e '.[notebook]'

install-test: venv
	$(VENV_PY) -m pip install --quiet --upgrade pip
	$(VENV_PY) -m pip install --quiet -e '.[test]'

serve: install
	$(VENV_PY) -m scatlab demo

demo: serve

test: install-test
	$(VENV_PY) -m mypy
	$(VENV_PY) -m pytest

bench: install
	$(VENV_PY) benchmarks/bench_engine.py
	$(VENV_PY) benchmarks/bench_analysis.py
	$(VENV_PY) benchmarks/bench_tournament.py

clean:
	rm -rf .venv build *.egg-info .pytest_cache .mypy_cache .hypothesis
