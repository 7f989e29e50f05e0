#!/usr/bin/env python3
"""The README's commands, in plain Python so they need nothing but Python 3.11 and pip.

    python3 tasks.py lab     create/refresh .venv with what a designer needs (the workbench, JupyterLab,
                             Voila; pip's progress shown), open JupyterLab on the notebooks folder
                             with the quickstart open and the Jupyter news prompt off
    python3 tasks.py test    the same .venv plus the test tools, then every test (unit, notebooks, browser)
    python3 tasks.py test --busy 8 [--busy-seconds S] [--select PATH ...]
                             the same beside 8 CPU-burning processes (a busy machine; each ends after
                             S seconds, default 3 hours, and all are stopped when the run ends);
                             --select runs only those test paths
    python3 tasks.py app     the Workbench app in Voila
    python3 tasks.py bench   the benchmarks (side by side with icepool and dyce)
    python3 tasks.py test-pyodide [pytest args]
                             the engine tests (PYODIDE_TESTS) in a second venv, .venv-pyodide, on the
                             versions of numpy, scipy, polars, pandas... that Pyodide ships
                             (.ci/pyodide-versions.txt): the JupyterLite site runs on those
    python3 tasks.py lite [--output DIR]
                             build the JupyterLite site (lite/_output: the app and the notebooks in
                             the browser, no server; docs/lite.md says how to publish it)
    python3 tasks.py docs [--serve]
                             build the docs site into site/ (mkdocs-material, the API reference from
                             the docstrings; warnings are errors), or serve it with live reload
    python3 tasks.py binder-lock
                             compile binder/requirements.in (the direct pins) into
                             binder/requirements.txt, every transitive dependency pinned (uv pip
                             compile for Linux and Python 3.11, as Binder runs)

The environment lives in .venv next to this file and is reinstalled only when pyproject.toml
changes (or a command needs extras not installed yet: the test tools come with the first
``test``), so running a command twice is cheap and safe. Works from a clone in any folder.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / "python"


def run(*cmd: str | Path, **kw) -> None:
    print("+", " ".join(map(str, cmd)), flush=True)
    subprocess.run([str(c) for c in cmd], check=True, cwd=ROOT, **kw)


#: the extras a designer needs (lab, app, bench) and those the tests add
DESIGNER_EXTRAS = ("lab",)
TEST_EXTRAS = ("test", "lab")
#: JupyterLab settings that tasks.py lab sets as defaults in .venv (overrides.json): no "Would you
#: like to get notified about official Jupyter news?" prompt, no update check
LAB_OVERRIDES = {"@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False}}
#: what Lab's file browser does not list in notebooks/: Jupyter's own defaults, then the files that
#: build and test the notebooks (a designer opens the notebooks; the helpers they import stay listed)
LAB_HIDDEN = ("__pycache__", "*.pyc", "*.pyo", ".DS_Store", "*~", "_build.py", "conftest.py", "sanitize.cfg", "src")


def installed(digest: str) -> set[str]:
    """Return the extras installed for the pyproject of ``digest`` (from the stamps in .venv)."""
    out: set[str] = set()
    for stamp in VENV.glob(f".installed-{digest}*"):
        rest = stamp.name[len(f".installed-{digest}") :].lstrip("-")
        out |= set(rest.split("-")) if rest else {"test", "lab"}  # an older stamp: everything
    return out


def ensure_env(extras: tuple[str, ...] = DESIGNER_EXTRAS) -> None:
    """Create .venv and install the package with ``extras``, once per pyproject; pip shows its
    progress (the first run downloads JupyterLab: a few minutes)."""
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()[:16]
    have = installed(digest)
    if set(extras) <= have:
        return
    print(
        f"tasks.py: installing the workbench with {', '.join(extras)} into {VENV} "
        "(the first time takes a few minutes; later runs start at once)",
        flush=True,
    )
    if not PY.exists():
        if VENV.is_symlink():  # a dangling link (say, one a copy of the tree carried) blocks venv
            VENV.unlink()
        run(sys.executable, "-m", "venv", VENV)
    pip = [PY, "-m", "pip", "install", "--disable-pip-version-check", "--progress-bar", "on"]
    run(*pip, "--upgrade", "pip")
    wanted = sorted(set(extras) | (have if PY.exists() else set()))
    run(*pip, "-e", f".[{','.join(wanted)}]")
    for old in VENV.glob(".installed-*"):
        old.unlink()
    (VENV / f".installed-{digest}-{'-'.join(wanted)}").touch()


def lab_overrides() -> Path:
    """Write :data:`LAB_OVERRIDES` as JupyterLab's default settings in .venv (``overrides.json`` in
    its application settings folder; a person's own settings still win); return its path."""
    import json

    path = VENV / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    current = json.loads(path.read_text()) if path.is_file() else {}
    for plugin, values in LAB_OVERRIDES.items():
        current.setdefault(plugin, {}).update(values)
    path.write_text(json.dumps(current, indent=2) + "\n")
    return path


def lab_command(extra: list[str]) -> list[str | Path]:
    """Return the command of ``tasks.py lab``: JupyterLab rooted at notebooks/ (the file browser
    shows the notebooks, not the developer files), the quickstart open, news off."""
    notebooks = ROOT / "notebooks"
    return [
        BIN / "jupyter",
        "lab",
        *root_flag(),
        f"--ServerApp.root_dir={notebooks}",
        "--LabApp.news_url=",
        *[f"--ContentsManager.hide_globs={glob}" for glob in LAB_HIDDEN],
        notebooks / "00-quickstart.ipynb",
        *extra,
    ]


PYODIDE_VENV = ROOT / ".venv-pyodide"
PYODIDE_PY = PYODIDE_VENV / ("Scripts" if os.name == "nt" else "bin") / "python"
PYODIDE_PINS = ROOT / ".ci" / "pyodide-versions.txt"
#: the engine's test folders run on Pyodide's versions: its numbers, chains, fights, files and
#: systems, without the widgets, notebooks, browser and packaging (a few minutes on 2 cores)
PYODIDE_TESTS = ["tests/dist", "tests/chains", "tests/combat", "tests/state_chain", "tests/io", "tests/fight",
                 "tests/simulate", "tests/comparison", "tests/races", "tests/sweeps", "tests/arguments"]  # fmt: skip
#: left out there: every row of the three big catalogs (3 of the 6 minutes; test_one_fight.py runs the
#: same code on each system) and the hostile-file tests, which drive the panels
PYODIDE_SKIP = ["tests/comparison/test_whole_catalogs.py", "tests/io/test_hostile.py"]
#: what those tests need besides the package: the runners and the oracles, at the test extra's pins
PYODIDE_TEST_TOOLS = ["pytest", "pytest-timeout", "pytest-xdist", "hypothesis", "icepool", "dyce", "jsonschema"]


def ensure_pyodide_env() -> None:
    """Create .venv-pyodide: the package (editable, no extras) on Pyodide's versions and the test
    tools, once per pyproject and pins."""
    import tomllib

    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + PYODIDE_PINS.read_bytes()).hexdigest()[:16]
    stamp = PYODIDE_VENV / f".installed-{digest}"
    if stamp.exists():
        return
    if not PYODIDE_PY.exists():
        run(sys.executable, "-m", "venv", PYODIDE_VENV)
    extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["test"]
    tools = [r.split("#")[0].strip() for r in extra if re.split(r"[\s<>=\[]", r)[0] in PYODIDE_TEST_TOOLS]
    quiet = ["--quiet", "--disable-pip-version-check"]
    run(PYODIDE_PY, "-m", "pip", "install", *quiet, "--upgrade", "pip")
    run(PYODIDE_PY, "-m", "pip", "install", *quiet, "-c", PYODIDE_PINS, "-e", ".", *tools)
    for old in PYODIDE_VENV.glob(".installed-*"):
        old.unlink()
    stamp.touch()


def test_pyodide(extra: list[str]) -> None:
    ensure_pyodide_env()
    run(PYODIDE_PY, "-m", "pip", "check")  # the pins agree with the package's own requirements
    workers = [] if any(a == "-n" or a.startswith(("-n", "--numprocesses")) for a in extra) else ["-n", "auto"]
    skip = [f"--ignore={path}" for path in PYODIDE_SKIP]
    args = [PYODIDE_PY, "-m", "pytest", *PYODIDE_TESTS, *skip, "-p", "no:cacheprovider", *workers, "--dist", "loadscope"]
    print("+", " ".join(map(str, [*args, *extra])), flush=True)
    sys.exit(subprocess.run([str(a) for a in [*args, *extra]], cwd=ROOT).returncode)


def root_flag() -> list[str]:
    return ["--allow-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []


def lab(extra: list[str]) -> None:
    ensure_env()
    lab_overrides()
    run(*lab_command(extra))


def app(extra: list[str]) -> None:
    ensure_env()
    run(BIN / "voila", "notebooks/app.ipynb", *extra)  # voila runs as root without a flag


def _take(extra: list[str], flag: str, many: bool = False) -> tuple[list[str], list[str]]:
    """Return (the values given after ``flag`` in ``extra``, ``extra`` without them): one value,
    or with ``many`` every value up to the next option."""
    if flag not in extra:
        return [], extra
    i = extra.index(flag)
    j = i + 1
    while j < len(extra) and not extra[j].startswith("-") and (many or j == i + 1):
        j += 1
    if j == i + 1:
        sys.exit(f"tasks.py test: {flag} needs a value")
    return extra[i + 1 : j], extra[:i] + extra[j:]


def test(extra: list[str]) -> None:
    ensure_env(TEST_EXTRAS)
    busy, extra = _take(extra, "--busy")
    busy_seconds, extra = _take(extra, "--busy-seconds")
    select, extra = _take(extra, "--select", many=True)
    # pytest-xdist, one worker per core; --dist loadscope keeps each file on one worker, so a
    # notebook's cells run in order in one kernel and a module's servers and built environments
    # are set up once
    workers = [] if any(a == "-n" or a.startswith(("-n", "--numprocesses")) for a in extra) else ["-n", "auto"]
    where = select or ["tests", "notebooks", "--nbval", "--nbval-sanitize-with", "notebooks/sanitize.cfg"]
    args = [PY, "-m", "pytest", *where, "-p", "no:cacheprovider", *workers, "--dist", "loadscope", *extra]
    print("+", " ".join(map(str, args)), flush=True)
    if not busy:
        sys.exit(subprocess.run([str(a) for a in args], cwd=ROOT).returncode)
    # a busy machine: N burners beside the run, each ending by itself after --busy-seconds
    # (default 3 hours) and all stopped when the run ends (tests/busy.py)
    import importlib.util

    spec = importlib.util.spec_from_file_location("busy", ROOT / "tests" / "busy.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    n, seconds = int(busy[0]), float(busy_seconds[0]) if busy_seconds else 3 * 3600.0
    print(f"+ beside {n} CPU-burning processes (each for at most {seconds:g} s)", flush=True)
    import signal

    def stop(signum, frame):  # a `kill` (SIGTERM) stops as Ctrl-C does: the burners end with the run
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    with module.busy(n, seconds):
        code = subprocess.run([str(a) for a in args], cwd=ROOT).returncode
    sys.exit(code)


def bench(extra: list[str]) -> None:
    ensure_env(TEST_EXTRAS)  # it compares against icepool and dyce (test extras)
    run(PY, "benchmarks/run.py", *extra)


def lite(extra: list[str]) -> None:
    ensure_env()
    run(PY, "lite/build.py", *extra)


def docs(extra: list[str]) -> None:
    ensure_env(TEST_EXTRAS)  # mkdocs comes with the test tools (tests/docs/test_site.py builds the site)
    if "--serve" in extra:
        run(PY, "-m", "mkdocs", "serve", *[e for e in extra if e != "--serve"])
    else:
        run(PY, "-m", "mkdocs", "build", "--strict", *extra)


def binder_lock(extra: list[str]) -> None:
    ensure_env(TEST_EXTRAS)  # uv comes with the test tools
    run(BIN / "uv", "pip", "compile", "binder/requirements.in", "-o", "binder/requirements.txt",
        "--python-version", "3.11", "--python-platform", "linux", "--annotation-style", "line",
        "--custom-compile-command", "python3 tasks.py binder-lock", "--quiet", *extra)


COMMANDS = {"binder-lock": binder_lock, "docs": docs, "lab": lab, "test": test, "test-pyodide": test_pyodide, "app": app, "bench": bench, "lite": lite}

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        print(__doc__)
        sys.exit(2)
    try:
        COMMANDS[sys.argv[1]](sys.argv[2:])
    except subprocess.CalledProcessError as exc:
        sys.exit(exc.returncode)
