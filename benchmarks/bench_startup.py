"""Time the app's start in a new interpreter: ``import workbench.widgets`` and ``Workbench()`` (its first chart).

    .venv/bin/python benchmarks/bench_startup.py [--repeats 3]

Three ways, each in fresh interpreters (the median of ``--repeats``):

- **before**: what notebooks/app.ipynb did up to issue 17's start-up item: ``import altair`` first
  (so jsonschema compiles rfc3987_syntax's 35 parsers) and ``alt.JupyterChart.enable_offline()``
  (vl-convert bundles the chart JavaScript again);
- **cold cache**: the app notebook now (``import workbench`` first: workbench/iri_stand_in.py),
  with an empty bundle cache (widgets/offline.py), as on the first kernel after an install;
- **warm cache**: the same with the bundle cached, as on every later kernel (and on Binder, whose
  postBuild makes the bundle).

Results go to benchmarks/results/startup.md (with the machine's load average at the time).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BEFORE = """
import time; t0 = time.perf_counter()
import altair as alt
import workbench.widgets
alt.JupyterChart.enable_offline()
t1 = time.perf_counter(); app = workbench.widgets.Workbench(); t2 = time.perf_counter()
"""
NOW = """
import time; t0 = time.perf_counter()
import workbench
import altair as alt
from workbench.widgets import Workbench, enable_offline
enable_offline()
t1 = time.perf_counter(); app = Workbench(); t2 = time.perf_counter()
"""
REPORT = "\nimport json; print(json.dumps([t1 - t0, t2 - t1, t2 - t0]))\n"


def run(code: str, cache: str) -> list[float]:
    env = {**os.environ, "WB_CACHE_DIR": cache, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", code + REPORT], cwd=ROOT, env=env, capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(out.stderr)
    return json.loads(out.stdout.splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, code, cold in (("before", BEFORE, True), ("cold cache", NOW, True), ("warm cache", NOW, False)):
            runs = []
            for i in range(args.repeats):
                cache = f"{tmp}/{name}-{i}" if cold else f"{tmp}/warm"
                if not cold and not Path(cache).exists():
                    run(NOW, cache)  # make the bundle once
                runs.append(run(code, cache))
            med = [statistics.median(r[k] for r in runs) for k in range(3)]
            rows.append((name, *med))
    load = os.getloadavg()[0]
    lines = [
        f"Start-up, median of {args.repeats} fresh interpreters (load average {load:.1f} on {os.cpu_count()} cores):",
        "",
        "| way | imports + offline set-up | `Workbench()` (first chart) | total |",
        "|---|---|---|---|",
        *(f"| {n} | {a:.2f} s | {b:.2f} s | {c:.2f} s |" for n, a, b, c in rows),
    ]
    text = "\n".join(lines)
    print(text)
    (ROOT / "benchmarks" / "results").mkdir(exist_ok=True)
    (ROOT / "benchmarks" / "results" / "startup.md").write_text(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
