"""The app's start, before and after, side by side in one run (issue 38, item 6).

    .venv/bin/python benchmarks/bench_app_start.py [--before COMMIT] [--repeats 5] [--no-browser]

Two trees: **before**, the commit ``--before`` names (default: where this branch left main; ``git
archive`` into a temporary folder), and
**after**, this checkout. Run it with the venv of this checkout (its editable install). For each:

- **kernel**: fresh interpreters, from nothing imported to ``Workbench()`` returned (what the app
  notebook runs: ``import workbench``, ``import altair``, the panels, ``enable_offline()``, then
  ``Workbench()``), with the chart bundle cached (a later kernel; the first after an install also
  makes the bundle, ``bench_startup.py``). Wall times and the process's CPU time (every thread):
  on a shared machine the wall time grows with the load, the CPU time much less;
- **browser**: Voilà serves the tree's ``notebooks/app.ipynb`` and Debian's chromium (headless,
  Playwright) opens it; from ``page.goto`` (the kernel's start included) until the Damage chart is
  drawn and its mean shown, as in tests/browser/test_app_and_lab.py. Each page is a new kernel.

The two trees alternate run by run, so both see the same load. Medians of ``--repeats``, written to
benchmarks/results/app_start.md with the load average before and after. A benchmark, not a test:
nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
RESULTS = ROOT / "benchmarks" / "results" / "app_start.md"
KERNEL = """
import time; t0 = time.perf_counter(); c0 = time.process_time()
import workbench
import altair as alt
from {panels} import Workbench, enable_offline
enable_offline()
t1 = time.perf_counter(); app = Workbench(); t2 = time.perf_counter(); c2 = time.process_time()
import json; print(json.dumps([t1 - t0, t2 - t1, t2 - t0, c2 - c0]))
"""


def panels_module(tree: Path) -> str:
    """Return the import name of the tree's panels: ``workbench.widgets`` once pyproject.toml maps
    the folder there (issue 40, item 1), ``widgets`` before."""
    package_dir = tomllib.loads((tree / "pyproject.toml").read_text()).get("tool", {}).get("setuptools", {})
    return "workbench.widgets" if "workbench.widgets" in package_dir.get("package-dir", {}) else "widgets"


# The editable install maps ``workbench.widgets`` to this checkout's widgets/ folder by a finder on
# sys.meta_path, whatever PYTHONPATH says: without this shim both trees ran this checkout's panels.
# A sitecustomize put first on the path sends ``workbench.widgets`` (and its modules) to the tree's own.
TREE_WIDGETS = """
import importlib.machinery, importlib.util, sys
ROOT = {root!r}
class TreeWidgets:
    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if name == "workbench.widgets":
            return importlib.util.spec_from_file_location(
                name, ROOT + "/widgets/__init__.py", submodule_search_locations=[ROOT + "/widgets"])
        if name.startswith("workbench.widgets."):
            return importlib.machinery.PathFinder.find_spec(name, [ROOT + "/widgets"])
        return None
sys.meta_path.insert(0, TreeWidgets)
"""


def tree_env(tree: Path, cache: Path) -> dict[str, str]:
    # bytecode written and reused (PYTHONDONTWRITEBYTECODE dropped), as an installed package has it
    # (pip compiles it at install): every run after the first loads .pyc files, in both trees
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    shim = cache / "site"
    shim.mkdir(parents=True, exist_ok=True)
    (shim / "sitecustomize.py").write_text(TREE_WIDGETS.format(root=str(tree)))
    return {**env, "PYTHONPATH": f"{shim}{os.pathsep}{tree}", "WB_CACHE_DIR": str(cache), "JUPYTER_PLATFORM_DIRS": "1",
            "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}


def kernel_once(tree: Path, cache: Path) -> list[float]:
    code = KERNEL.format(panels=panels_module(tree))
    out = subprocess.run([sys.executable, "-c", code], cwd=tree, env=tree_env(tree, cache), capture_output=True,
                         text=True, timeout=300)
    if out.returncode:
        raise SystemExit(out.stderr[-3000:])
    return json.loads(out.stdout.splitlines()[-1])


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_voila(tree: Path, cache: Path, log: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    cmd = [str(BIN / "voila"), "--no-browser", f"--port={port}", "--Voila.ip=127.0.0.1", "--Voila.port_retries=0",
           "notebooks/app.ipynb"]
    with open(log, "w") as out:
        proc = subprocess.Popen(cmd, cwd=tree, env=tree_env(tree, cache), stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"voila exited:\n{log.read_text()[-3000:]}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return proc, f"http://127.0.0.1:{port}/"
        except OSError:
            time.sleep(0.25)
    proc.terminate()
    raise SystemExit(f"voila is not listening after 60 s:\n{log.read_text()[-3000:]}")


def first_chart(browser, url: str) -> float:
    """Return the seconds from ``page.goto`` until the Damage chart is drawn and its mean shown."""
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    try:
        started = time.monotonic()
        page.goto(url, timeout=60_000)
        page.locator(".wb-damage-stats .wb-mean").wait_for(timeout=120_000)
        page.locator(".wb-damage-chart svg, .wb-damage-chart canvas").first.wait_for(timeout=60_000)
        return time.monotonic() - started
    finally:
        page.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default=None,
                        help="the git commit of the 'before' tree (default: where this branch left main)")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--no-browser", action="store_true", help="time the kernel only")
    args = parser.parse_args(argv)
    if args.before is None:
        args.before = subprocess.run(["git", "merge-base", "main", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                                     check=True).stdout.strip()
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="wb-app-start-") as tmp:
        before = Path(tmp) / "before"
        before.mkdir()
        archive = subprocess.run(["git", "archive", args.before], cwd=ROOT, capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(before)], input=archive, check=True)
        trees = {"before": before, "after": ROOT}
        caches = {name: Path(tmp) / f"cache-{name}" for name in trees}
        for name, tree in trees.items():  # the chart bundle made once (a later kernel: cached)
            kernel_once(tree, caches[name])
        kernel: dict[str, list[list[float]]] = {name: [] for name in trees}
        for _ in range(args.repeats):
            for name, tree in trees.items():
                kernel[name].append(kernel_once(tree, caches[name]))
        browser_s: dict[str, list[float]] = {name: [] for name in trees}
        if not args.no_browser:
            from playwright.sync_api import sync_playwright

            servers = {name: start_voila(tree, caches[name], Path(tmp) / f"voila-{name}.log")
                       for name, tree in trees.items()}
            try:
                with sync_playwright() as pw:
                    b = pw.chromium.launch(executable_path=os.environ.get("WB_CHROMIUM", "/usr/bin/chromium"),
                                           headless=True, args=["--no-sandbox", "--disable-gpu"])
                    try:
                        for name, (_, url) in servers.items():  # one page each first: Voilà's own warm-up
                            first_chart(b, url)
                        for _ in range(args.repeats):
                            for name, (_, url) in servers.items():
                                browser_s[name].append(first_chart(b, url))
                    finally:
                        b.close()
            finally:
                for proc, _ in servers.values():
                    proc.terminate()
                    try:
                        proc.wait(timeout=10)
                    except subprocess.TimeoutExpired:
                        proc.kill()
    commit = subprocess.run(["git", "rev-parse", "--short", args.before], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    med = {n: [statistics.median(r[k] for r in runs) for k in range(4)] for n, runs in kernel.items()}
    lines = [
        f"App start, before ({args.before}, {commit}) and after (this checkout, HEAD {head}), medians of "
        f"{args.repeats} alternating runs; load average {load_before:.1f} before the run, "
        f"{os.getloadavg()[0]:.1f} after, on {os.cpu_count()} cores:",
        "",
        "| tree | imports + offline set-up | `Workbench()` | total (wall) | total (CPU, every thread) |"
        + (" first chart in chromium |" if not args.no_browser else ""),
        "|---|---|---|---|---|" + ("---|" if not args.no_browser else ""),
    ]
    for name in trees:
        a, b_, c, cpu = med[name]
        row = f"| {name} | {a:.2f} s | {b_:.2f} s | {c:.2f} s | {cpu:.2f} s |"
        if not args.no_browser:
            row += f" {statistics.median(browser_s[name]):.2f} s (runs {', '.join(f'{x:.2f}' for x in browser_s[name])}) |"
        lines.append(row)
    text = "\n".join(lines)
    print(text)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    if shutil.which("git") is None:
        raise SystemExit("bench_app_start: needs git (the 'before' tree is a git archive)")
    raise SystemExit(main())
