"""Panel redraw times, headless: from setting a control's ``.value`` to the new chart spec.

    .venv/bin/python benchmarks/bench_panels.py

1. Single matchup (DamagePanel, each system): the target editor's armor/AC/defense control is set
   to alternating values; the clock runs from the assignment until the JupyterChart holds the new
   spec (model rebuild and validation, system.damage, chart build, spec). Target <= 100 ms.
2. 20 x 20 comparison (ComparePanel, Annulus: 20 one-set builds x 20 creatures = 400 cells): the
   metric dropdown (recolour only) and the Situation's extra_advantages control (a full wb.compare of the
   400 matchups + heatmap). Target <= 1 s.

Times are medians and 90th percentiles after one warm-up; the JupyterChart serialises the new
spec into its ``spec`` trait when its chart is assigned, so that is inside the clock.
"""

from __future__ import annotations

import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from workbench.widgets.compare import ComparePanel  # noqa: E402
from workbench.widgets.damage import DamagePanel  # noqa: E402

import workbench as wb  # noqa: E402

FIELDS = {"glass_empires": ("armor", (1, 2)), "last_odyssey": ("physical_defense", (2, 3)),
          "unbound": ("ac", (15, 16)), "annulus": ("toughness", (0, 1))}


def timed(fn, repeats: int) -> list[float]:
    fn(0)  # warm-up
    out = []
    for i in range(1, repeats + 1):
        t = time.perf_counter()
        fn(i)
        out.append(time.perf_counter() - t)
    return out


def spec_of(panel) -> dict:
    return panel.chart.spec  # JupyterChart keeps the serialised spec in this trait


def summary(times: list[float]) -> tuple[float, float]:
    q = statistics.quantiles(times, n=10)
    return statistics.median(times), q[-1]


def bench_single(repeats: int = 30) -> dict[str, tuple[float, float]]:
    out = {}
    for name, (field, values) in FIELDS.items():
        p = DamagePanel(name)
        control = p.editors["target"].controls[field]

        def step(i: int) -> None:
            control.value = values[i % 2]
            assert spec_of(p) is not None and p.error == ""

        out[name] = summary(timed(step, repeats))
    return out


def grid_models():
    s = wb.system("annulus")
    seeds = ("agility", "toughness", "insight")
    triggers = ("Burn", "Critical", "Vital", "Daze", None)
    builders = []
    for i in range(20):
        ups = {"Precise": 1 + i % 4}
        if triggers[i % 5]:
            ups[triggers[i % 5]] = 1
        if i % 3 == 0:
            ups["Giant"] = 1
        atk = s.Attack(f"Set {i + 1:02d}", defense=seeds[i % 3], upgrades=ups)
        builders.append(s.Creature(f"Build {i + 1:02d}", level=1 + i % 5, endurance=3, agility=1, toughness=1,
                                   insight=1, attack_sets=[atk]))
    cat = list(s.catalog().creatures.values())
    targets = [cat[i % len(cat)] if i < len(cat) else cat[i % len(cat)].replace(name=f"{cat[i % len(cat)].name} +1",
               toughness=cat[i % len(cat)].toughness + 1) for i in range(20)]
    return s, builders, targets


def bench_grid(repeats: int = 10) -> dict[str, tuple[float, float]]:
    s, builders, targets = grid_models()
    p = ComparePanel(s, builders, targets)
    assert p.value.height == 400, p.value.height
    metrics = ["mean damage per turn", "mean rounds to kill"]

    def recolour(i: int) -> None:
        p.metric_picker.value = metrics[i % 2]
        assert spec_of(p) is not None

    import traitlets
    from workbench.widgets.situation import SituationPanel

    sit = SituationPanel(s)
    traitlets.dlink((sit, "value"), (p, "situation"))
    control = sit.controls["extra_advantages"]

    def recompute(i: int) -> None:
        control.value = i % 2
        assert spec_of(p) is not None and p.error == "" and p.situation.extra_advantages == i % 2

    return {"metric dropdown (recolour 400 cells)": summary(timed(recolour, repeats)),
            "situation control (wb.compare of 400 matchups + heatmap)": summary(timed(recompute, repeats))}


def main() -> None:
    print(f"# Panel redraws ({platform.machine()}, Python {platform.python_version()})")
    print("| redraw | median | p90 | target |")
    print("|---|---|---|---|")
    for name, (med, p90) in bench_single().items():
        print(f"| DamagePanel {name}: target control | {med * 1e3:.0f} ms | {p90 * 1e3:.0f} ms | <= 100 ms "
              f"({'met' if p90 <= 0.1 else 'median met' if med <= 0.1 else 'not met'}) |")
    for name, (med, p90) in bench_grid().items():
        print(f"| ComparePanel 20 x 20, {name} | {med * 1e3:.0f} ms | {p90 * 1e3:.0f} ms | <= 1 s "
              f"({'met' if p90 <= 1 else 'median met' if med <= 1 else 'not met'}) |")


if __name__ == "__main__":
    main()
