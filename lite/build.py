"""Build the JupyterLite site: the app and the notebooks in a browser, with no server (issue 41, item 4).

    .venv/bin/python lite/build.py [--output DIR]      (or: python3 tasks.py lite)

The site (default ``lite/_output``, a folder of static files any web server or GitHub Pages can
serve) holds:

- ``app.html``: the app page. It opens ``notebooks/index.html?path=app.ipynb`` with the page's own
  query passed on, so a share link ``app.html?setup=wb1:...`` opens the app on that setup, as
  ``?setup=`` does in Voilà (:func:`workbench.widgets.page.follow_setup_link` reads it in the browser);
- the notebooks of ``notebooks/`` (the lessons, the quickstart and the workbench notebooks, saved
  outputs kept) and their helper modules, each notebook with a first cell that installs the
  workbench from the site (``%pip install``, served by piplite); ``app.ipynb`` is the app alone;
- ``pypi/``: the project's wheel and the pure-Python wheels of the dependencies Pyodide does not
  ship (:data:`PURE`), indexed in ``pypi/all.json`` (piplite); numpy, scipy, polars, pandas,
  pyarrow, altair and pydantic (with its compiled pydantic-core) come from Pyodide's own packages
  (:data:`PYODIDE_SHIPS`);
- ``jupyter-lite.json``: the site's configuration (its name, the piplite index).

Built with jupyterlite-core and jupyterlite-pyodide-kernel from PyPI, offline. Pyodide itself and its
packages are not in the site: the visitor's browser downloads them from Pyodide's CDN the first
time (then they are cached). voici (the Voilà-like app page) is not used: voici 0.10 needs
jupyterlite-xeus, which builds its kernel environment from emscripten-forge (not PyPI), and
voici-core 0.10 needs jupyterlite-core < 0.8, whose Pyodide kernel is an older Pyodide than the
one whose package versions CI tests (docs/lite.md).

Return code 0 and the site's path on the last line; the build takes seconds after the first run
(the dependency wheels are cached in ``$WB_CACHE_DIR``/lite-wheels, see workbench.widgets.offline.cache_dir).
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
DEFAULT_OUTPUT = ROOT / "lite" / "_output"

#: the dependencies that Pyodide's own package set holds (micropip takes them from its lock file)
PYODIDE_SHIPS = {
    "numpy",
    "scipy",
    "polars",
    "pandas",
    "pyarrow",
    "altair",
    "platformdirs",
    "tomli-w",
    "threadpoolctl",
    "pydantic",
}
#: the pure-Python wheels the site serves itself (the versions installed here, the ones tested);
#: the kernel extension ships a stand-in for widgetsnbextension, and Pyodide has typing-extensions
#: and traitlets
PURE = ["anywidget", "psygnal", "tqdm", "ipywidgets", "comm", "jupyterlab_widgets"]
#: the Python of the Pyodide that jupyterlite-pyodide-kernel 0.8 loads (Pyodide 314: CPython 3.14)
PYODIDE_PYTHON = "3.14"
#: the wheels the kernel extension itself serves (stand-ins of the real packages)
KERNEL_SERVES = {"widgetsnbextension": "4.0.999", "ipykernel": "6.9.2"}
#: the helper modules the notebooks import (beside them in the site, as in notebooks/)
HELPERS = ["classroom.py", "lesson_exercises.py", "saved_charts.py", "tables.py"]
#: JupyterLite's apps the site keeps (the app page opens the notebook one)
APPS = ["lab", "notebooks", "tree"]

INSTALL_CELL = (
    "# In the browser (JupyterLite): install the workbench from this site. The first time, Pyodide\n"
    "# and its packages download (tens of MB); then the browser has them cached.\n"
    "%pip install -q rules-workbench"
)

APP_CELLS = [
    (
        "markdown",
        "# Rules Workbench\n\n"
        "Pick a rule system, then an attack, an attacker and a target: the **Damage** tab shows the exact\n"
        "damage distribution, **Duel** pits the two creatures against each other, **Compare** sets the\n"
        "catalog's attacks against its creatures, **Build** assembles an attack set. It runs in your\n"
        "browser (Pyodide): **Run → Run All Cells** starts it; the first start downloads Python and its\n"
        "packages once. A share link (`app.html?setup=...`) opens the app on its setup.",
    ),
    ("code", INSTALL_CELL),
    (
        "code",
        "from IPython.display import display\n\n"
        "from workbench.widgets import Workbench, enable_offline\n"
        "from workbench.widgets.page import follow_setup_link\n\n"
        "enable_offline()  # in the browser charts load their JavaScript from the CDN (no vl-convert build)\n"
        '# share links made by "Get code" point at the site\'s app page, which passes ?setup= on to here\n'
        'app = Workbench("annulus", link_page="../app.html")\n'
        "display(app, follow_setup_link(app))",
    ),
]

APP_HTML = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Rules Workbench</title>
<script>
  // the app notebook, with this page's query passed on (?setup=wb1:... opens the app on that setup)
  var query = new URLSearchParams(window.location.search);
  query.set("path", "app.ipynb");
  window.location.replace("notebooks/index.html?" + query.toString());
</script>
</head>
<body>
<p>Opening <a href="notebooks/index.html?path=app.ipynb">the Rules Workbench app</a>&hellip;
The first visit downloads Python (Pyodide) and its packages, then your browser keeps them.</p>
</body>
</html>
"""


def _say(message: str) -> None:
    print(f"[lite] {message}", flush=True)


def requirements(wheel: Path) -> set[str]:
    """Return the normalised names of the wheel's dependencies (its extras left out)."""
    names = set()
    for line in _metadata(wheel).splitlines():
        if line.startswith("Requires-Dist:") and "extra ==" not in line:
            names.add(re.split(r"[\s<>=!~;\[(]", line.split(":", 1)[1].strip())[0].lower().replace("_", "-"))
    return names


def build_wheel(into: Path) -> Path:
    """Build the project's wheel into ``into`` and return its path."""
    done = subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--outdir", str(into), str(ROOT)], capture_output=True, text=True
    )
    if done.returncode != 0:
        raise SystemExit(f"lite: the wheel did not build:\n{done.stdout}\n{done.stderr}")
    (wheel,) = into.glob("rules_workbench-*.whl")
    return wheel


def pure_wheels(into: Path, cache: Path) -> list[Path]:
    """Copy into ``into`` the py3-none-any wheels of :data:`PURE` at the versions installed here
    (downloaded once from PyPI into ``cache``); return their paths."""
    pins = [f"{name}=={version(name)}" for name in PURE]
    cache.mkdir(parents=True, exist_ok=True)

    def cached(pin: str) -> Path | None:
        name, ver = pin.split("==")
        hits = list(cache.glob(f"{name.replace('-', '_')}-{ver}-*none-any.whl"))
        return hits[0] if hits else None

    missing = [pin for pin in pins if cached(pin) is None]
    if missing:
        _say(f"downloading {', '.join(missing)} from PyPI (once)")
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check", "--no-deps",
             "--only-binary=:all:", "--platform", "any", "--implementation", "py", "--abi", "none",
             "--python-version", PYODIDE_PYTHON, "--dest", str(cache), *missing],
            check=True,
        )  # fmt: skip
    out = []
    for pin in pins:
        found = cached(pin)
        if found is None:
            raise SystemExit(f"lite: no pure-Python wheel of {pin} on PyPI")
        out.append(Path(shutil.copy2(found, into / found.name)))
    return out


def pyodide_version() -> str:
    """Return the version of Pyodide the installed jupyterlite-pyodide-kernel loads from the CDN (the
    newest ``pyodide/v<version>/full`` its kernel extension's JavaScript names)."""
    ext = Path(sys.prefix) / "share/jupyter/labextensions/@jupyterlite/pyodide-kernel-extension/static"
    found = {
        m
        for js in ext.glob("*.js")
        for m in re.findall(r"pyodide/v([0-9][0-9.]*[0-9])/full", js.read_text("utf-8", "ignore"))
    }
    if not found:
        raise SystemExit(f"lite: no Pyodide version named in {ext}")
    return max(found, key=lambda v: tuple(int(p) for p in v.split(".")))


def pyodide_lock(version_: str, cache: Path) -> dict | None:
    """Return Pyodide ``version_``'s package lock (pyodide-lock.json, from the ``pyodide`` package on
    npm, cached in ``cache``), or None when npm cannot fetch it."""
    path = cache / f"pyodide-lock-{version_}.json"
    if not path.is_file():
        npm = shutil.which("npm")
        if npm is None:
            return None
        with tempfile.TemporaryDirectory() as tmp:
            done = subprocess.run(
                [npm, "pack", f"pyodide@{version_}", "--silent"], cwd=tmp, capture_output=True, text=True
            )
            tarballs = list(Path(tmp).glob("pyodide-*.tgz"))
            if done.returncode != 0 or not tarballs:
                return None
            import tarfile

            with tarfile.open(tarballs[0]) as tar:
                member = tar.extractfile("package/pyodide-lock.json")
                if member is None:
                    return None
                cache.mkdir(parents=True, exist_ok=True)
                path.write_bytes(member.read())
    return json.loads(path.read_text(encoding="utf-8"))


def unresolved(wheels: list[Path], lock: dict) -> list[str]:
    """Return the requirements of ``wheels`` (their extras left out; markers evaluated for Pyodide)
    that neither Pyodide's ``lock``, nor the wheels themselves, nor the kernel's stand-ins satisfy."""
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    available: dict[str, str] = {canonicalize_name(n): p["version"] for n, p in lock["packages"].items()}
    available.update(KERNEL_SERVES)
    for wheel in wheels:
        name, ver = wheel.name.split("-")[:2]
        available[canonicalize_name(name)] = ver
    env = {"sys_platform": "emscripten", "platform_system": "Emscripten", "python_version": PYODIDE_PYTHON,
           "platform_machine": "wasm32", "extra": ""}  # fmt: skip
    missing = []
    for wheel in wheels:
        for line in _metadata(wheel).splitlines():
            if not line.startswith("Requires-Dist:"):
                continue
            req = Requirement(line.split(":", 1)[1].strip())
            if req.marker is not None and not req.marker.evaluate(env):
                continue
            have = available.get(canonicalize_name(req.name))
            if have is None or not req.specifier.contains(have, prereleases=True):
                missing.append(f"{wheel.name}: {req} (Pyodide and the site have {have or 'none'})")
    return missing


def _metadata(wheel: Path) -> str:
    with zipfile.ZipFile(wheel) as z:
        return z.read(next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))).decode()


def site_notebook(source: Path) -> dict:
    """Return the notebook at ``source`` with the install cell first (its outputs kept)."""
    nb = json.loads(source.read_text(encoding="utf-8"))
    nb["cells"].insert(0, _cell("code", INSTALL_CELL, "lite-install"))
    nb["metadata"]["kernelspec"] = {"display_name": "Python (Pyodide)", "language": "python", "name": "python"}
    return nb


def app_notebook() -> dict:
    """Return the site's app notebook: the Workbench alone, opening a share link's setup."""
    cells = [_cell(kind, text, f"lite-app-{i}") for i, (kind, text) in enumerate(APP_CELLS)]
    return {
        "cells": cells,
        "metadata": {
            "kernelspec": {"display_name": "Python (Pyodide)", "language": "python", "name": "python"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def _cell(kind: str, text: str, cell_id: str) -> dict:
    cell: dict[str, object] = {
        "cell_type": kind,
        "id": cell_id,
        "metadata": {},
        "source": text.splitlines(keepends=True),
    }
    if kind == "code":
        cell.update(execution_count=None, outputs=[])
    return cell


def contents(into: Path) -> list[str]:
    """Write the site's notebooks and helper modules into ``into``; return the notebook names."""
    into.mkdir(parents=True, exist_ok=True)
    names = []
    for source in sorted(NOTEBOOKS.glob("*.ipynb")):
        if source.name == "app.ipynb":
            continue
        (into / source.name).write_text(json.dumps(site_notebook(source), indent=1, ensure_ascii=False) + "\n")
        names.append(source.name)
    (into / "app.ipynb").write_text(json.dumps(app_notebook(), indent=1) + "\n")
    names.append("app.ipynb")
    for helper in HELPERS:
        shutil.copy2(NOTEBOOKS / helper, into / helper)
    return names


def build(output: Path = DEFAULT_OUTPUT, cache: Path | None = None) -> Path:
    """Build the site into ``output`` (replaced) and return it."""
    sys.path.insert(0, str(ROOT))
    # by name: the panels install as workbench.widgets (pyproject's package-dir), which mypy, reading
    # the folder widgets/ of this checkout, cannot resolve
    offline = importlib.import_module("workbench.widgets.offline")

    cache = offline.cache_dir() / "lite-wheels" if cache is None else cache
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="wb-lite-") as tmp:
        lite_dir = Path(tmp)
        pypi = lite_dir / "pypi"  # wheels here are copied to the site and indexed (piplite)
        pypi.mkdir()
        wheel = build_wheel(pypi)
        needed = requirements(wheel)
        unmet = needed - PYODIDE_SHIPS - {n.lower().replace("_", "-") for n in PURE}
        if unmet:
            raise SystemExit(f"lite: add {sorted(unmet)} to lite/build.py's PURE or PYODIDE_SHIPS")
        served = [wheel, *pure_wheels(pypi, cache)]
        lock = pyodide_lock(pyodide_version(), cache)
        if lock is None:
            _say(f"not checked against Pyodide {pyodide_version()}'s packages: npm could not fetch its lock file")
        elif problems := unresolved(served, lock):
            raise SystemExit("lite: Pyodide cannot install these:\n  " + "\n  ".join(problems))
        names = contents(lite_dir / "contents")
        (lite_dir / "jupyter-lite.json").write_text(
            json.dumps(
                {
                    "jupyter-lite-schema-version": 0,
                    "jupyter-config-data": {
                        "appName": "Rules Workbench",
                        # a JupyterLab extension of the build environment that means nothing here
                        "disabledExtensions": ["@voila-dashboards/jupyterlab-preview"],
                    },
                }
            )
        )
        if output.exists():
            shutil.rmtree(output)
        apps = [arg for app in APPS for arg in ("--apps", app)]
        subprocess.run(
            [sys.executable, "-m", "jupyterlite_core", "build", "--lite-dir", str(lite_dir),
             "--contents", str(lite_dir / "contents"), "--output-dir", str(output), *apps],
            check=True, cwd=lite_dir, stdout=subprocess.DEVNULL,
        )  # fmt: skip
    (output / "app.html").write_text(APP_HTML, encoding="utf-8")
    size = sum(p.stat().st_size for p in output.rglob("*") if p.is_file())
    _say(f"{len(names)} notebooks, {wheel.name}, {len(PURE)} dependency wheels, for Pyodide {pyodide_version()}; "
         f"{size / 1e6:.0f} MB in {time.perf_counter() - started:.0f} s")  # fmt: skip
    return output


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help="the site's folder (replaced)")
    args = parser.parse_args(argv)
    print(build(args.output.resolve()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
