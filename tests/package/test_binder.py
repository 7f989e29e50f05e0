"""Binder's set-up, rebuilt for real: a fresh virtual environment from ``binder/`` alone runs the notebooks.

Binder installs ``binder/requirements.txt`` (it ignores pyproject.toml) and then runs
``binder/postBuild`` in the repository. This test does the same in a new venv, outside ``.venv``:

1. ``python -m venv`` + ``pip install -r binder/requirements.txt`` (cached by the hash of the
   requirements, postBuild and the Python version under ``$WB_BINDER_CACHE`` or
   ``<tmp>/rules-workbench-binder``, so reruns are cheap; the cold build needs PyPI);
2. a copy of the working tree, where ``binder/postBuild`` runs with that venv first on ``PATH``
   (so the package is installed the way Binder installs it: ``pip install --no-deps .``, not editable);
3. every notebook in ``notebooks/`` is executed top to bottom with nbclient in that venv, from the
   copy, so a missing pin, a package file left out of the wheel or a notebook needing a package the
   pins lack fails here;
4. JupyterLab in that venv lists the widget extensions the panels need (ipywidgets, anywidget), and
   Voilà can be imported (the app link in the README opens ``voila/render/notebooks/app.ipynb``).

Marked ``slow``; it is part of ``python3 tasks.py test`` and never skipped.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BINDER = ROOT / "binder"
NOTEBOOKS = sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))
COPY_IGNORE = shutil.ignore_patterns(".venv", ".git", "__pycache__", "*.egg-info", "build", "dist",
                                     ".hypothesis", ".pytest_cache", ".ipynb_checkpoints", "artifacts")

pytestmark = pytest.mark.slow


def binder_key() -> str:
    """Return the cache key of the Binder venv: requirements, postBuild and the Python version."""
    h = hashlib.sha256()
    for name in ("requirements.txt", "postBuild"):
        h.update((BINDER / name).read_bytes())
    h.update(f"{sys.version_info[:3]}".encode())
    return h.hexdigest()[:16]


def cache_dir() -> Path:
    base = os.environ.get("WB_BINDER_CACHE") or Path(tempfile.gettempdir()) / "rules-workbench-binder"
    path = Path(base)
    path.mkdir(parents=True, exist_ok=True)
    return path


def run(cmd: list[str | Path], *, cwd: Path, env: dict[str, str] | None = None, timeout: float) -> str:
    """Run ``cmd``; return its stdout, or fail the test showing the tail of its output."""
    proc = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)
    if proc.returncode:
        tail = (proc.stdout[-3000:] + "\n" + proc.stderr[-3000:]).strip()
        pytest.fail(f"{' '.join(map(str, cmd))} exited {proc.returncode}:\n{tail}", pytrace=False)
    return proc.stdout


def venv_env(venv: Path) -> dict[str, str]:
    """Return an environment with ``venv`` activated (first on PATH) and no outer-venv leaks."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["VIRTUAL_ENV"] = str(venv)
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    env["JUPYTER_PLATFORM_DIRS"] = "1"
    return env


def binder_venv() -> Path:
    """Return a venv with ``binder/requirements.txt`` installed (built once per key, under a lock)."""
    cache = cache_dir()
    venv = cache / f"venv-{binder_key()}"
    with open(cache / f"venv-{binder_key()}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (venv / ".complete").exists():
            return venv
        shutil.rmtree(venv, ignore_errors=True)
        run([sys.executable, "-m", "venv", venv], cwd=cache, timeout=120)
        env = venv_env(venv)
        run([venv / "bin/python", "-m", "pip", "install", "--quiet", "-r", BINDER / "requirements.txt"],
            cwd=cache, env=env, timeout=480)
        (venv / ".complete").touch()
        for old in cache.glob("venv-*"):  # other keys: stale pins
            if old.is_dir() and old != venv:
                shutil.rmtree(old, ignore_errors=True)
    return venv


EXECUTE = textwrap.dedent("""
    import json, sys, time
    from pathlib import Path
    import nbformat
    from nbclient import NotebookClient
    import workbench
    here = Path.cwd()
    assert "site-packages" in workbench.__file__, workbench.__file__   # installed, not the checkout
    report = {}
    for name in sys.argv[1:]:
        nb = nbformat.read(here / name, as_version=4)
        start = time.perf_counter()
        NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(here)}}).execute()
        errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []) if o.output_type == "error"]
        report[name] = {"seconds": round(time.perf_counter() - start, 1), "errors": len(errors)}
    print(json.dumps(report))
""")


@pytest.fixture(scope="module")
def binder_checkout(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Return (venv, repo copy) after Binder's two steps: requirements, then postBuild in the copy."""
    venv = binder_venv()
    repo = tmp_path_factory.mktemp("binder") / "repo"
    shutil.copytree(ROOT, repo, ignore=COPY_IGNORE)
    env = venv_env(venv)
    run(["bash", repo / "binder/postBuild"], cwd=repo, env=env, timeout=300)
    return venv, repo


def execute(venv: Path, notebooks: Path, names: list[str], workers: int = 2) -> dict[str, dict]:
    """Execute ``names`` with nbclient in ``venv`` (``workers`` processes at once); return their reports."""
    groups = [names[i::workers] for i in range(workers) if names[i::workers]]
    procs = [subprocess.Popen([str(venv / "bin/python"), "-c", EXECUTE, *g], cwd=notebooks, env=venv_env(venv),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL)
             for g in groups]
    report: dict[str, dict] = {}
    try:
        for proc, group in zip(procs, groups):
            out, err = proc.communicate(timeout=800)
            if proc.returncode:
                pytest.fail(f"executing {group} in the Binder venv failed:\n{(out + err)[-4000:]}", pytrace=False)
            report.update(json.loads(out.strip().splitlines()[-1]))
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait(timeout=10)
    return report


@pytest.mark.timeout(900)
def test_binder_requirements_and_postbuild_run_every_notebook(binder_checkout: tuple[Path, Path]) -> None:
    """Every notebook runs without an error in an environment made from binder/ alone."""
    venv, repo = binder_checkout
    assert NOTEBOOKS, "no notebooks found"
    report = execute(venv, repo / "notebooks", NOTEBOOKS)
    assert sorted(report) == NOTEBOOKS
    assert all(r["errors"] == 0 for r in report.values()), report


@pytest.mark.timeout(300)
def test_binder_lab_has_the_widget_extensions_and_voila(binder_checkout: tuple[Path, Path]) -> None:
    """JupyterLab on Binder can show the panels (ipywidgets + anywidget extensions) and the Voilà
    server extension is enabled (the README's app link goes to ``/voila/render/...``)."""
    venv, repo = binder_checkout
    env = venv_env(venv)
    proc = subprocess.run([str(venv / "bin/jupyter"), "labextension", "list"], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=120)
    listing = proc.stdout + proc.stderr
    assert proc.returncode == 0, listing
    for ext in ("@jupyter-widgets/jupyterlab-manager", "anywidget"):
        assert ext in listing, f"{ext} missing from `jupyter labextension list`:\n{listing}"
    proc = subprocess.run([str(venv / "bin/jupyter"), "server", "extension", "list"], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=120)
    servers = re.sub(r"\x1b\[[0-9;]*m", "", proc.stdout + proc.stderr)   # no colour codes
    assert re.search(r"voila\S*\s+enabled", servers), f"Voilà is not an enabled server extension:\n{servers}"
    # (from the notebooks' folder, as Binder's kernels run: at the repository root the source folder
    # workbench/, which holds no widgets/, would shadow the installed package)
    out = run([venv / "bin/python", "-c", "import voila, workbench, workbench.widgets; print(voila.__version__)"],
              cwd=repo / "notebooks", env=env, timeout=120)
    assert out.strip(), out
    pins = {line.split("==")[0].lower() for line in (BINDER / "requirements.txt").read_text().splitlines()
            if "==" in line and not line.startswith("#")}
    assert {"voila", "jupyterlab", "ipywidgets", "anywidget", "altair"} <= pins
