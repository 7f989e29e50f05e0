"""The package as a user gets it: build the wheel and the sdist, install the wheel (not editable)
into a fresh virtual environment, and use it from a folder outside the repository.

1. ``python -m build`` in a copy of the working tree writes ``dist/*.whl`` and ``dist/*.tar.gz``;
   its output must carry no setuptools deprecation banner (the licence is an SPDX string,
   ``license = "MIT"`` with ``license-files``, PEP 639);
2. the wheel holds every ``workbench/catalog/**/*.toml`` of the tree and the LICENSE; the sdist
   holds the catalogs, the LICENSE and pyproject.toml;
3. a venv made with ``python -m venv`` (no system site-packages) gets the wheel with its
   dependencies. The venv is cached by the hash of pyproject.toml and the Python version under
   ``$WB_WHEEL_CACHE`` or ``<tmp>/rules-workbench-wheel``; a rerun only reinstalls the new wheel
   (``--no-deps --force-reinstall``), so it takes seconds; the first run needs PyPI (pip's own cache
   is used) for the dependencies;
4. from an empty temporary folder: ``workbench systems``, ``workbench catalog annulus``, one
   ``wb.compare`` and the app's construction (``from workbench.widgets import Workbench;
   Workbench()``) run against the installed copy (its ``__file__`` is in the venv's site-packages,
   not in the checkout), beside a small local package with its own top-level ``widgets`` (issue 40,
   item 1: the wheel installs the panels as ``workbench.widgets``, so neither breaks the other);
5. a user's mypy on a small script, against that venv, sees real types (``workbench/py.typed``):
   ``reveal_type(wb.duel)``, ``reveal_type(wb.compare(...))`` and the app are not ``Any``.

Marked ``slow``; it is part of ``python3 tasks.py test`` and never skipped.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import textwrap
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
COPY_IGNORE = shutil.ignore_patterns(".venv", ".git", "__pycache__", "*.egg-info", "build", "dist",
                                     ".hypothesis", ".pytest_cache", ".ipynb_checkpoints", "artifacts",
                                     "notebooks", "benchmarks", "binder")
CATALOGS = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "workbench/catalog").rglob("*.toml"))

pytestmark = pytest.mark.slow


def run(cmd: list[str | Path], *, cwd: Path, env: dict[str, str] | None = None, timeout: float,
        stdout: bool = False) -> str:
    """Run ``cmd``; return its stdout and stderr together (with ``stdout``, its stdout alone: output a
    test compares, never a progress line or a warning, issue 34), or fail the test showing their tail."""
    proc = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)
    out = proc.stdout + "\n" + proc.stderr
    if proc.returncode:
        pytest.fail(f"{' '.join(map(str, cmd))} exited {proc.returncode}:\n{out[-4000:]}", pytrace=False)
    return proc.stdout if stdout else out


def venv_env(venv: Path | None = None) -> dict[str, str]:
    """Return an environment without the outer venv and PYTHONPATH (so the checkout cannot leak in),
    with ``venv`` first on PATH when given."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    if venv is not None:
        env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
        env["VIRTUAL_ENV"] = str(venv)
    return env


def venv_key() -> str:
    """Return the cache key of the wheel venv: pyproject.toml (the dependencies) and the Python version."""
    h = hashlib.sha256((ROOT / "pyproject.toml").read_bytes())
    h.update(f"{sys.version_info[:3]}".encode())
    return h.hexdigest()[:16]


def cache_dir() -> Path:
    base = os.environ.get("WB_WHEEL_CACHE") or Path(tempfile.gettempdir()) / "rules-workbench-wheel"
    path = Path(base)
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, str]:
    """Return (wheel, sdist, build output) built with ``python -m build`` from a copy of the tree."""
    repo = tmp_path_factory.mktemp("wheel") / "repo"
    shutil.copytree(ROOT, repo, ignore=COPY_IGNORE)
    out = run([sys.executable, "-m", "build", "--outdir", repo / "dist", repo], cwd=repo, env=venv_env(),
              timeout=600)
    wheels, sdists = sorted((repo / "dist").glob("*.whl")), sorted((repo / "dist").glob("*.tar.gz"))
    assert len(wheels) == 1 and len(sdists) == 1, (wheels, sdists)
    return wheels[0], sdists[0], out


#: someone else's package with a top-level ``widgets`` of its own, installed beside the wheel
OTHER_WIDGETS = {
    "pyproject.toml": textwrap.dedent("""
        [build-system]
        requires = ["setuptools"]
        build-backend = "setuptools.build_meta"

        [project]
        name = "someone-elses-widgets"
        version = "1.0"

        [tool.setuptools]
        packages = ["widgets"]
    """),
    "widgets/__init__.py": 'WHO = "someone else\'s widgets"\n',
}


def install_other_widgets(venv: Path, where: Path) -> None:
    """Install :data:`OTHER_WIDGETS` (built from a folder in ``where``) into ``venv``."""
    folder = where / "someone-elses-widgets"
    for name, text in OTHER_WIDGETS.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    run([venv / "bin/python", "-m", "pip", "install", "--quiet", "--no-deps", "--force-reinstall", folder],
        cwd=where, env=venv_env(venv), timeout=300)


@pytest.fixture(scope="module")
def installed(built: tuple[Path, Path, str], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Return a venv (cached by :func:`venv_key`) with the freshly built wheel installed, not editable,
    and :data:`OTHER_WIDGETS` beside it."""
    wheel = built[0]
    cache = cache_dir()
    venv = cache / f"venv-{venv_key()}"
    with open(cache / f"venv-{venv_key()}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        env = venv_env(venv)
        pip = [venv / "bin/python", "-m", "pip", "install", "--quiet"]
        if (venv / ".complete").exists():
            run([*pip, "--no-deps", "--force-reinstall", wheel], cwd=cache, env=env, timeout=300)
            install_other_widgets(venv, tmp_path_factory.mktemp("other"))
            return venv
        shutil.rmtree(venv, ignore_errors=True)
        run([sys.executable, "-m", "venv", venv], cwd=cache, env=venv_env(), timeout=120)
        run([*pip, wheel], cwd=cache, env=env, timeout=900)
        install_other_widgets(venv, tmp_path_factory.mktemp("other"))
        (venv / ".complete").touch()
        for old in cache.glob("venv-*"):  # other keys: an older pyproject.toml
            if old.is_dir() and old != venv:
                shutil.rmtree(old, ignore_errors=True)
    return venv


def test_build_prints_no_deprecation_banner_and_declares_the_spdx_licence(built: tuple[Path, Path, str]) -> None:
    wheel, _, out = built
    assert "SetuptoolsDeprecationWarning" not in out and "License classifiers are deprecated" not in out, out
    assert not [line for line in out.splitlines() if "licen" in line.lower() and "deprecat" in line.lower()], out
    with zipfile.ZipFile(wheel) as z:
        meta = z.read(next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))).decode()
        names = z.namelist()
    assert "License-Expression: MIT" in meta.splitlines(), meta[:800]
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names), names


def test_wheel_and_sdist_hold_every_catalog(built: tuple[Path, Path, str]) -> None:
    wheel, sdist, _ = built
    assert len(CATALOGS) >= 7, CATALOGS  # 4 systems: annulus 2, unbound 2, glass_empires 2, last_odyssey 1
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
    assert set(CATALOGS) <= names, sorted(set(CATALOGS) - names)
    assert {"workbench/__init__.py", "workbench/py.typed", "workbench/widgets/__init__.py"} <= names
    # the panels (the folder widgets/) install as workbench.widgets: no top-level `widgets` (issue 40)
    assert {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")} == {"workbench"}, names
    # every module of the tree is in the wheel (pyproject.toml lists the packages, it does not find them)
    sources = {p.relative_to(ROOT).as_posix() for top in ("workbench", "widgets") for p in (ROOT / top).rglob("*.py")
               if "__pycache__" not in p.parts}
    installed = {s if s.startswith("workbench/") else f"workbench/{s}" for s in sources}
    assert installed <= names, sorted(installed - names)
    with tarfile.open(sdist) as t:
        members = {n.split("/", 1)[1] for n in t.getnames() if "/" in n}
    assert set(CATALOGS) <= members, sorted(set(CATALOGS) - members)
    assert {"LICENSE", "pyproject.toml", "README.md"} <= members


SMOKE = textwrap.dedent("""
    import sys, workbench as wb
    assert "workbench.widgets" not in sys.modules, "import workbench loaded the panels"
    import widgets  # someone else's package, installed beside the wheel
    from workbench.widgets import Workbench
    import workbench.widgets
    assert widgets.WHO == "someone else's widgets", widgets.__file__
    assert "site-packages" in wb.__file__ and "site-packages" in workbench.widgets.__file__, (wb.__file__, workbench.widgets.__file__)
    assert sys.prefix != sys.base_prefix, "not in the venv"
    app = Workbench()  # the app's construction
    assert type(app).__module__ == "workbench.widgets.app" and app.tabs.selected_index == 0
    grid = wb.compare(["annulus:Wolf"], ["annulus:Rat"])
    row = grid.filter(grid["attack"] == "Bite").row(0, named=True)
    print(grid.height, row["mean_damage"], row["mean_rounds"] > 0)
""")


@pytest.mark.timeout(1500)
def test_installed_wheel_works_from_outside_the_repository(installed: Path, tmp_path: Path) -> None:
    venv = installed
    env = venv_env(venv)
    where = tmp_path / "elsewhere"
    where.mkdir()
    assert ROOT not in where.parents
    assert not (venv / "pyvenv.cfg").read_text().count("include-system-site-packages = true")
    out = run([venv / "bin/workbench", "systems"], cwd=where, env=env, timeout=120, stdout=True)
    assert [line.split()[0] for line in out.split("\n") if line.strip()] == [
        "annulus", "unbound", "last_odyssey", "glass_empires"], out
    out = run([venv / "bin/workbench", "catalog", "annulus"], cwd=where, env=env, timeout=120, stdout=True)
    for name in ("Rat", "Wolf", "Hill Giant", "Town Guard"):
        assert name in out, out
    out = run([venv / "bin/python", "-c", SMOKE], cwd=where, env=env, timeout=300, stdout=True)
    # The same compare in this (checkout) interpreter: the installed copy gives the same numbers.
    import workbench as wb
    grid = wb.compare(["annulus:Wolf"], ["annulus:Rat"])
    row = grid.filter(grid["attack"] == "Bite").row(0, named=True)
    assert out.split() == [str(grid.height), str(row["mean_damage"]), "True"], out


#: a user's script: what their mypy shows of the public API (``reveal_type`` is mypy's, never run)
USER_SCRIPT = textwrap.dedent("""
    import workbench as wb
    from workbench.widgets import Workbench

    reveal_type(wb.duel)
    reveal_type(wb.compare(["annulus:Wolf"], ["annulus:Rat"]))
    reveal_type(wb.Dist.die(6).mean())
    reveal_type(Workbench())
""")


@pytest.mark.timeout(900)
def test_a_users_mypy_sees_real_types(installed: Path, tmp_path: Path) -> None:
    """The wheel ships workbench/py.typed: mypy, run on a user's script against the venv the wheel is
    installed in (``--python-executable``), reveals the real types, not ``Any``."""
    pytest.importorskip("mypy")
    where = tmp_path / "user"
    where.mkdir()
    (where / "script.py").write_text(USER_SCRIPT)
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--python-executable", str(installed / "bin/python"), "--no-incremental",
         "--cache-dir", str(tmp_path / "mypy-cache"), "script.py"],
        cwd=where, env=venv_env(), capture_output=True, text=True, timeout=800, stdin=subprocess.DEVNULL)
    out = proc.stdout + proc.stderr
    revealed = re.findall(r'Revealed type is "(.*)"', out)
    assert len(revealed) == 4 and "error:" not in out, out
    assert not [t for t in revealed if re.search(r"\bAny\b", t.split("->")[-1])], revealed
    duel, grid, mean, app = revealed
    assert duel.startswith("def (") and duel.endswith("-> workbench.duel_result.DuelResult"), duel
    assert grid == "polars.dataframe.frame.DataFrame", grid
    assert mean in ("float", "builtins.float"), mean
    assert app == "workbench.widgets.app.Workbench", app
