"""tasks.py, its commands recorded instead of run: the first ``lab`` installs only what a designer
needs with pip's progress shown, roots JupyterLab at notebooks/ with the quickstart open and the
news prompt off; ``test`` adds the test tools; a second run installs nothing."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def tasks(tmp_path, monkeypatch):
    spec = importlib.util.spec_from_file_location("tasks_under_test", ROOT / "tasks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    venv = tmp_path / ".venv"
    monkeypatch.setattr(module, "VENV", venv)
    monkeypatch.setattr(module, "BIN", venv / "bin")
    monkeypatch.setattr(module, "PY", venv / "bin" / "python")
    calls: list[list[str]] = []

    def run(*cmd, **kw):
        calls.append([str(c) for c in cmd])
        if "venv" in calls[-1]:  # python -m venv: the interpreter now exists
            (venv / "bin").mkdir(parents=True, exist_ok=True)
            (venv / "bin" / "python").touch()

    monkeypatch.setattr(module, "run", run)
    module.calls = calls
    return module


def test_first_lab_installs_the_designer_extras_with_progress_and_opens_on_notebooks(tasks, capsys):
    tasks.lab([])
    installs = [c for c in tasks.calls if "install" in c]
    assert installs, tasks.calls
    for c in installs:
        assert "--quiet" not in c and "-q" not in c
        assert c[c.index("--progress-bar") + 1] == "on"
    assert installs[-1][-1] == ".[lab]"  # no test tools (pytest, playwright, mypy, ...)
    assert "first time takes a few minutes" in capsys.readouterr().out
    lab = tasks.calls[-1]
    assert lab[1] == "lab"
    assert f"--ServerApp.root_dir={ROOT / 'notebooks'}" in lab
    assert str(ROOT / "notebooks" / "00-quickstart.ipynb") in lab
    assert "--ContentsManager.hide_globs=_build.py" in lab and "--ContentsManager.hide_globs=__pycache__" in lab
    overrides = json.loads((tasks.VENV / "share/jupyter/lab/settings/overrides.json").read_text())
    assert overrides["@jupyterlab/apputils-extension:notification"]["fetchNews"] == "false"


def test_second_lab_installs_nothing_and_test_adds_the_test_tools(tasks):
    tasks.lab([])
    tasks.calls.clear()
    tasks.lab([])
    assert not [c for c in tasks.calls if "install" in c]
    tasks.calls.clear()
    tasks.ensure_env(tasks.TEST_EXTRAS)
    installs = [c for c in tasks.calls if "install" in c]
    assert installs[-1][-1] == ".[lab,test]"
    tasks.calls.clear()
    tasks.ensure_env()  # lab is within lab,test: nothing more
    assert tasks.calls == []


def test_an_older_stamp_counts_as_everything_installed(tasks):
    import hashlib

    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()[:16]
    tasks.VENV.mkdir(parents=True)
    (tasks.VENV / f".installed-{digest}").touch()
    tasks.ensure_env(tasks.TEST_EXTRAS)
    assert tasks.calls == []


def test_binder_lock_compiles_the_in_file_with_uv_for_binders_linux(tasks):
    tasks.binder_lock([])
    cmd = tasks.calls[-1]
    assert cmd[0].endswith("/bin/uv") and cmd[1:3] == ["pip", "compile"]
    assert cmd[3:6] == ["binder/requirements.in", "-o", "binder/requirements.txt"]
    assert cmd[cmd.index("--python-version") + 1] == "3.11" and cmd[cmd.index("--python-platform") + 1] == "linux"


def test_binder_lock_pins_every_transitive_dependency():
    """binder/requirements.txt is the compiled lock of requirements.in: every line a `==` pin, each
    direct pin kept at its version, and the transitive dependencies (jsonschema via altair, tornado
    via ipykernel, jupyter-server via jupyterlab) pinned too."""
    def pins(name):
        lines = [line.split("#")[0].strip() for line in (ROOT / "binder" / name).read_text().splitlines()]
        return {a.lower().replace("_", "-"): b for a, b in (line.split("==") for line in lines if line)}

    direct, lock = pins("requirements.in"), pins("requirements.txt")
    assert all(v.strip() for v in lock.values())
    assert direct.items() <= lock.items()
    assert {"jsonschema", "tornado", "jupyter-server", "narwhals", "traitlets"} <= set(lock)
    assert len(lock) > 3 * len(direct)
    assert "python3 tasks.py binder-lock" in (ROOT / "binder" / "requirements.txt").read_text()


def test_docs_builds_strict_and_serves(tasks):
    tasks.docs([])
    assert tasks.calls[-1][-4:] == ["-m", "mkdocs", "build", "--strict"]
    tasks.docs(["--serve"])
    assert tasks.calls[-1][-3:] == ["-m", "mkdocs", "serve"]
