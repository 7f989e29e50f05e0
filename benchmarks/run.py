"""Time the reference scenario (benchmarks/README.md): workbench vs icepool, dyce and tight numpy, in one run.

    .venv/bin/python benchmarks/run.py            # or: make bench
    .venv/bin/python benchmarks/run.py --figures rounds --skip-dyce-rounds   # the rounds figure alone

Prints each figure (best of several repeats, after one warm-up so imports are not timed; every
repeat builds its dice from scratch), the ratios against the faster idiomatic peer (icepool, dyce)
and against the tight numpy version, and checks that all four agree to 1e-12. Writes the table to
benchmarks/results/reference.md (``--out``), with the load average. The targets (README, Performance): one attack >= 10x the faster peer, a turn
>= 30x, rounds-to-kill no slower than the tight numpy version.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
warnings.filterwarnings("ignore", message=".*experimental.*")

import reference as ref  # noqa: E402

TARGETS = {"attack": 10, "turn": 30, "rounds": 1}


def best_time(func, budget: float = 1.0, max_repeats: int = 200) -> tuple[float, float]:
    """Return (best, median) seconds per call over repeats fitting in ``budget`` seconds."""
    func()  # warm-up: imports, first-call setup
    times: list[float] = []
    start = time.perf_counter()
    while len(times) < max_repeats and (time.perf_counter() - start < budget or len(times) < 3):
        t0 = time.perf_counter()
        func()
        times.append(time.perf_counter() - t0)
    return min(times), statistics.median(times)


def as_float_mean(x) -> float:
    import numpy as np

    if isinstance(x, np.ndarray):  # the numpy versions return pmfs from damage 0
        return float(x @ np.arange(x.size))
    if hasattr(x, "mean") and callable(x.mean):
        return float(x.mean())
    return float(x)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=1.0, help="seconds of repeats per figure")
    parser.add_argument("--skip-dyce-rounds", action="store_true", help="dyce has no time-to-sum; its chain is slow")
    parser.add_argument("--figures", default="attack,turn,rounds", help="comma-separated: attack, turn, rounds")
    parser.add_argument("--out", type=Path, default=HERE / "results" / "reference.md", help="the table's file")
    args = parser.parse_args(argv)
    figures = set(args.figures.split(","))
    load_before = os.getloadavg()

    rows = []
    problems = []
    names = ("workbench", "icepool", "dyce", "numpy")
    for stage, label in (("attack", "one attack"), ("turn", "turn of 4 attacks"), ("rounds", "mean rounds to kill 150 HP")):
        if stage not in figures:
            continue
        funcs = {"workbench": getattr(ref, f"wb_{stage}"), "icepool": getattr(ref, f"ice_{stage}"),
                 "dyce": getattr(ref, f"dyce_{stage}"), "numpy": getattr(ref, f"np_{stage}")}
        if stage == "rounds" and args.skip_dyce_rounds:
            funcs.pop("dyce")
        values = {name: as_float_mean(f()) for name, f in funcs.items()}
        times = {name: best_time(f, args.budget) for name, f in funcs.items()}
        for name, v in values.items():
            if abs(v - values["workbench"]) > 1e-12:
                problems.append(f"{label}: {name} gives {v!r}, workbench {values['workbench']!r}")
        peer = min(times[n][0] for n in ("icepool", "dyce") if n in times)
        vs_peer = peer / times["workbench"][0]
        vs_numpy = times["numpy"][0] / times["workbench"][0]
        ratio = vs_numpy if stage == "rounds" else vs_peer
        rows.append((label, values["workbench"], times, vs_peer, vs_numpy, ratio, TARGETS[stage], stage))

    lines = [
        f"Reference scenario: +{ref.BONUS} vs AC {ref.AC} with advantage, 19-20 crit 4d6+6, hit 2d6+3, "
        f"{ref.ATTACKS} attacks/turn, {ref.HP} HP.",
        f"Machine: {platform.processor() or platform.machine()}, Python {platform.python_version()}; load average "
        f"(1, 5, 15 min) {' '.join(f'{v:.2f}' for v in load_before)} before, "
        f"{' '.join(f'{v:.2f}' for v in os.getloadavg())} after.",
        "",
        "| figure | value | workbench | icepool | dyce | tight numpy | vs faster peer | vs numpy | target |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for label, value, times, vs_peer, vs_numpy, ratio, target, stage in rows:
        cells = [f"{times[n][0] * 1e3:.3f} ms" if n in times else "n/a" for n in names]
        ok = "met" if ratio >= target else "MISSED"
        what = "vs numpy" if stage == "rounds" else "vs peer"
        lines.append(f"| {label} | {value:.12g} | {' | '.join(cells)} | {vs_peer:,.1f}x | {vs_numpy:,.2f}x | "
                     f">= {target}x {what} ({ok}) |")
    lines.append("")
    lines.append("Agreement (1e-12): " + ("all agree" if not problems else "; ".join(problems)))
    text = "\n".join(lines)
    print(text)
    args.out.parent.mkdir(exist_ok=True)
    args.out.write_text(text + "\n")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
