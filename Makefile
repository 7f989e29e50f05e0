# Shorthands for the README's commands (tasks.py needs only Python; make is optional).
PYTHON ?= python3
.PHONY: lab test test-pyodide app bench lite docs clean
lab:
	$(PYTHON) tasks.py lab
test:
	$(PYTHON) tasks.py test
test-pyodide:
	$(PYTHON) tasks.py test-pyodide
lite:
	$(PYTHON) tasks.py lite
app:
	$(PYTHON) tasks.py app
bench:
	$(PYTHON) tasks.py bench
docs:
	.venv/bin/python docs/_regenerate.py
clean:
	rm -rf .venv
