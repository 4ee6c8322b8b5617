# Two commands for a newcomer (see README.md):
#   make serve   install scatlab and serve the course (lessons/) as a web app on 127.0.0.1
#   make test    install scatlab with its test tools and run every check (ruff, mypy, pytest)
#   make coverage  the same tests with the coverage of scatlab/ and its floor
#   make docs    install the documentation tools and build the site into docs/_build/html
#   make install-class, then make class   install, then start JupyterHub for a class on this machine
#                (docs/deploying.md)
# Each creates the virtual environment .venv when no virtual environment is active.

PYTHON ?= python3
ifdef VIRTUAL_ENV
VENV_PY := python
else
VENV_PY := .venv/bin/python
endif

.PHONY: serve demo test coverage docs install install-test install-docs install-class class bench clean venv

.venv/bin/python:
	$(PYTHON) -m venv .venv

ifdef VIRTUAL_ENV
venv:
else
venv: .venv/bin/python
endif

# pip does not byte-compile an editable install: compile scatlab once, so that every process
# (a lesson's kernel, the command line, a test worker) reads bytecode instead of compiling
# the package again, even where PYTHONDONTWRITEBYTECODE is set (0.15-0.3 s per process).
install: venv
	$(VENV_PY) -m pip install --quiet --upgrade pip
	PYTHONWARNINGS=ignore $(VENV_PY) -m pip install --quiet -e '.[notebook]'
	$(VENV_PY) -m compileall -q scatlab

install-test: venv
	$(VENV_PY) -m pip install --quiet --upgrade pip
	PYTHONWARNINGS=ignore $(VENV_PY) -m pip install --quiet -e '.[test]'
	$(VENV_PY) -m compileall -q scatlab research

install-docs: venv
	$(VENV_PY) -m pip install --quiet --upgrade pip
	PYTHONWARNINGS=ignore $(VENV_PY) -m pip install --quiet -e '.[docs]'

PORT ?= 8866

serve: install
	@$(VENV_PY) -m scatlab serve --port $(PORT)

# A class on JupyterHub (deploy/jupyterhub_config.py), in two commands: `make install-class`
# installs the hub's extra from PyPI and its proxy (configurable-http-proxy) from the npm
# registry into deploy/node_modules; `make class` starts the hub on 127.0.0.1:$(HUB_PORT) and
# installs nothing. The codes come from SCATLAB_CLASS_CODE / SCATLAB_TEACHER_CODE in the
# environment, else from class/class-code and class/teacher-code (made at the first start),
# never from the command line, which ps shows to everyone on the machine.
# (SCATLAB_HUB_IP=0.0.0.0 for a classroom network; the other settings: docs/deploying.md)
HUB_PORT ?= 8000

install-class: venv
	@command -v npm >/dev/null || { echo "make install-class needs node and npm (Node.js 20 or newer) for the hub's proxy"; exit 2; }
	$(VENV_PY) -m pip install --quiet --upgrade pip
	PYTHONWARNINGS=ignore $(VENV_PY) -m pip install --quiet -e '.[class]'
	$(VENV_PY) -m compileall -q scatlab
	npm ci --no-audit --no-fund --loglevel=error --prefix deploy

class:
	@test -x deploy/node_modules/.bin/configurable-http-proxy && $(VENV_PY) -c "import jupyterhub, firstuseauthenticator" 2>/dev/null \
		|| { echo "make class: the class is not installed; run make install-class first"; exit 2; }
	@SCATLAB_HUB_PORT=$(HUB_PORT) exec $(VENV_PY) -m jupyterhub -f deploy/jupyterhub_config.py

demo: install
	$(VENV_PY) -m scatlab demo

# ruff (format, then lint), mypy --strict, then every test
test: install-test
	$(VENV_PY) -m ruff format --check --quiet
	$(VENV_PY) -m ruff check --quiet
	$(VENV_PY) -m mypy
	$(VENV_PY) -m pytest -n 2 --dist loadfile --durations=15

# the same tests, tracing which lines of scatlab/ they run: one line, the figure and its floor
# ([tool.coverage.report] in pyproject.toml). Not part of make test: tracing takes the suite
# from 9 to 11.5 minutes on two cores (docs/design/libraries.md).
coverage: install-test
	$(VENV_PY) -m pytest -n 2 --dist loadfile -q --cov --cov-report=

# sphinx-build, nitpicky (every cross-reference resolves), warnings as errors;
# open docs/_build/html/index.html
docs: install-docs
	$(VENV_PY) -m sphinx -n -W --keep-going -b html docs docs/_build/html

bench: install
	$(VENV_PY) benchmarks/bench_engine.py
	$(VENV_PY) benchmarks/bench_analysis.py
	$(VENV_PY) benchmarks/bench_tournament.py

clean:
	rm -rf .venv build *.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis .coverage .coverage.* docs/_build
