#!/usr/bin/env python3
"""The fight before and after a system's round is written once (issue 33), in one run: the same
calls timed in a git worktree of the commit before the ports and in this tree, interleaved, as CPU
seconds of the process (``time.process_time``: other processes on the machine do not count).

    .venv/bin/python benchmarks/bench_rounds.py [--before REF] [--systems glass_empires unbound]

Per system: compare catalog x catalog (cold: the memo cleared), the duels and optimal play of the
first 12 x 12 catalog pairs. REF defaults to e32bd8f (the before-fixture's commit,
tests/fight/record_before.py). Prints one row per figure: before, after, after / before.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

MEASURE = r"""
import json, sys, time, warnings
warnings.simplefilter("ignore")
import workbench as wb
from workbench.comparison import compare
from workbench.memo import MEMO
out = {}
for name in sys.argv[1:]:
    cat = wb.system(name).catalog()
    cs = [cat.creature(n) for n in cat.creatures]
    MEMO.clear(); t = time.process_time()
    compare(cs, cs, confirm=True, progress=False)
    out[f"{name}: compare {len(cs)} x {len(cs)}"] = time.process_time() - t
    for what, call in (("duels", lambda a, b: wb.duel(a, b, confirm=True)),
                       ("optimal play", lambda a, b: wb.rounds_to_kill(a, b, objective="optimal", confirm=True))):
        MEMO.clear(); t = time.process_time()
        for a in cs[:12]:
            for b in cs[:12]:
                try:
                    call(a, b)
                except wb.RulesError:
                    pass
        out[f"{name}: {what}, 12 x 12"] = time.process_time() - t
print(json.dumps(out))
"""


def run(tree: Path, systems: list[str]) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    got = subprocess.run([sys.executable, "-c", MEASURE, *systems], cwd=tree, env=env, capture_output=True, text=True, check=True)
    return json.loads(got.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--before", default="e32bd8f")
    ap.add_argument("--systems", nargs="+", default=["glass_empires", "unbound"])
    ap.add_argument("--repeats", type=int, default=2)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="wb-before-") as tmp:
        before = Path(tmp) / "tree"
        subprocess.run(["git", "worktree", "add", "-q", "--detach", str(before), args.before], cwd=ROOT, check=True)
        try:
            best: dict[str, list[float]] = {}
            for _ in range(args.repeats):  # interleaved, best of the repeats
                for i, tree in enumerate((before, ROOT)):
                    for k, v in run(tree, args.systems).items():
                        pair = best.setdefault(k, [float("inf"), float("inf")])
                        pair[i] = min(pair[i], v)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(before)], cwd=ROOT, check=False)
    print(f"| figure | before ({args.before}) | after | after / before |\n|---|---|---|---|")
    for k, (b, a) in best.items():
        print(f"| {k} | {b:.2f} s | {a:.2f} s | {a / b:.2f} |")


if __name__ == "__main__":
    main()
