# Shorthands for the README's commands (tasks.py needs only Python; make is optional).
PYTHON ?= python3
.PHONY: lab test app bench clean
lab:
	$(PYTHON) tasks.py lab
test:
	$(PYTHON) tasks.py test
app:
	$(PYTHON) tasks.py app
bench:
	$(PYTHON) tasks.py bench
clean:
	rm -rf .venv
