"""Model construction (issue 40, item 2: the models on pydantic v2): the model layer's share of the
hot paths that build many models (compare's creatures, explore's build space, a sweep's replace).

    .venv/bin/python benchmarks/bench_models.py

Prints the best of 7 repeats of each figure (2,000 models each), then the Annulus build space at
budget 6 for 500 targets (one Attack model per build, best of 3).
"""

from __future__ import annotations

import time

from bench_compare import creatures

import workbench as wb
from workbench.systems.annulus import annulus_builds

A, U = wb.system("annulus"), wb.system("unbound")
SWORD = U.Attack(name="Sword", damage="1d8+2")
OGRE = U.Creature(name="Ogre", hp=30, ac=12, touch_ac=9)
TABLE = {"name": "Ogre", "hp": 30, "ac": 12, "touch_ac": 9, "weapons": [{"name": "Club", "damage": "2d6+4"}]}
UPGRADES = [{"Precise": 1}, {"Choke": 1, "Precise": 1}, {}, {"Range": 2}]


def best(func, repeats: int = 7) -> float:
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        func()
        times.append(time.perf_counter() - t)
    return min(times)


FIGURES = {
    "annulus Creature (keywords)": lambda: [
        A.Creature(f"C{i}", size=3 + i % 5, level=1 + i % 9, endurance=2 + i % 20, agility=i % 4, toughness=i % 3,
                   insight=i % 4, awareness="alert")
        for i in range(2000)
    ],  # fmt: skip
    "annulus Attack (upgrades)": lambda: [
        A.Attack(name=f"Set {i}", defense="toughness", upgrades=UPGRADES[i % 4]) for i in range(2000)
    ],
    "unbound Creature with a weapon": lambda: [
        U.Creature(name=f"C{i}", hp=10 + i % 50, ac=10 + i % 8, touch_ac=10, str_mod=2, weapons=(SWORD,))
        for i in range(2000)
    ],
    "unbound from_dict (nested table)": lambda: [U.Creature.from_dict(TABLE) for _ in range(2000)],
    "replace (one field)": lambda: [OGRE.replace(hp=10 + i % 50) for i in range(2000)],
}


def main() -> None:
    for name, func in FIGURES.items():
        print(f"{name} x2000: {best(func) * 1000:.1f} ms")
    targets = creatures(500)
    print(f"annulus_builds(6, 500 targets): {best(lambda: annulus_builds(6, targets), 3) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
