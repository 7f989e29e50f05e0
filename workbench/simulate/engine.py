"""The vectorised, seeded fight loop and the inverse-CDF sampler it draws outcomes with.

Many fights run at once: every quantity of a side (pools, conditions, armor points, ...) is a
numpy array with one entry per fight. The loop runs over rounds and turn steps only; each step
draws one row of an exact outcome table per fight, from the table of the fight's current state
class (DESIGN.md, Combat: "Effects that carry state ... go through a vectorised, seeded
simulation of many fights at once").
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

import numpy as np

from ..errors import RulesError

__all__ = ["Bank", "Side", "Fights", "run_fights"]

#: runs expected to take longer than this many seconds show a tqdm progress bar
PROGRESS_AFTER = 1.0
#: a simulation still running after this many seconds stops and asks (confirm=True); with the time
#: to build the tables before the loop, a call stays under limits.MAX_SECONDS (docs/limits.md)
SIMULATION_SECONDS = 8.0

#: the key of a state class (each Side chooses its own: an int bit set, a tuple, ...)
K = TypeVar("K", bound=Hashable)


class Bank(Generic[K]):
    """Outcome rows per state class, built lazily and sampled by inverse CDF.

    ``build(keys)`` returns, for each new key, a dict of equal-length numpy arrays with a
    ``probability`` entry (the exact outcome table of that state class). ``draw`` picks one row per
    fight: all classes' CDFs are laid end to end as ``class + cdf`` so that one ``searchsorted``
    serves every fight at once.
    """

    def __init__(self, build: Callable[[list[K]], list[dict[str, np.ndarray]]]):
        self._build = build
        self._index: dict[K, int] = {}
        self._tables: list[dict[str, np.ndarray]] = []
        self._stale = True

    def table(self, key: K) -> dict[str, np.ndarray]:
        """Return the outcome table of one state class (building it if needed)."""
        self._ensure([key])
        return self._tables[self._index[key]]

    def tables(self, keys: Iterable[K]) -> list[dict[str, np.ndarray]]:
        """Return the outcome tables of several state classes, the new ones built in one call."""
        keys = list(keys)
        self._ensure(keys)
        return [self._tables[self._index[k]] for k in keys]

    def _ensure(self, keys: Iterable[K]) -> None:
        new = [k for k in dict.fromkeys(keys) if k not in self._index]
        if not new:
            return
        for k, t in zip(new, self._build(new)):
            p = np.asarray(t["probability"], dtype=np.float64)
            if p.size == 0 or np.any(p < 0) or abs(p.sum() - 1.0) > 1e-9:
                raise RulesError(f"outcome table of state {k!r} does not sum to 1", field="outcomes")
            self._index[k] = len(self._tables)
            self._tables.append(t)
        self._stale = True

    def _concat(self) -> None:
        cdfs, starts, ends, cols = [], [], [], {}
        pos = 0
        for i, t in enumerate(self._tables):
            c = np.cumsum(t["probability"])
            c = c / c[-1]
            c[-1] = 1.0
            cdfs.append(i + c)
            starts.append(pos)
            pos += c.size
            ends.append(pos)
        names = set(self._tables[0]) - {"probability"}
        for name in names:
            cols[name] = np.concatenate([np.asarray(t[name]) for t in self._tables])
        self._cdf = np.concatenate(cdfs)
        self._start, self._end = np.array(starts), np.array(ends)
        self._cols = cols
        self._stale = False

    def draw(self, keys: np.ndarray, rng: np.random.Generator) -> dict[str, np.ndarray]:
        """Return one sampled row per fight (column name -> array aligned with ``keys``)."""
        keys = np.asarray(keys)
        if keys.size == 0:
            return {}
        uniq, inverse = np.unique(keys, return_inverse=True)
        self._ensure(uniq.tolist())
        if self._stale:
            self._concat()
        cls = np.array([self._index[k] for k in uniq.tolist()])[inverse]
        u = rng.random(keys.size)
        pos = np.searchsorted(self._cdf, cls + u, side="right")
        pos = np.clip(pos, self._start[cls], self._end[cls] - 1)
        return {name: col[pos] for name, col in self._cols.items()}


class Side(ABC):
    """One side of many fights: subclasses hold its state arrays and play its turn.

    ``died_at`` records the clock tick of death (-1 while alive).
    """

    name: str = "side"
    immortal: bool = False

    def start(self, n: int, sim: Fights) -> None:
        self.n = n
        self.died_at = np.full(n, -1, dtype=np.int64)

    def alive(self) -> np.ndarray:
        return self.died_at < 0

    def mark_dead(self, idx: np.ndarray, dead: np.ndarray, sim: Fights) -> None:
        """Record the death of fights ``idx[dead]`` at the current clock tick."""
        if self.immortal:
            return
        hit = idx[dead]
        hit = hit[self.died_at[hit] < 0]
        self.died_at[hit] = sim.tick()

    @abstractmethod
    def turn(self, idx: np.ndarray, foe: Side, sim: Fights) -> None:
        """Play one turn of the fights ``idx`` against ``foe``."""

    def passive_turn(self, idx: np.ndarray, foe: Side, sim: Fights) -> None:  # noqa: B027 - optional hook
        """The turn of a side that does not attack (the target of rounds-to-kill): by default nothing."""

    @abstractmethod
    def hp_left(self) -> np.ndarray:
        """Return the hit points left in every fight."""


@dataclass
class Fights:
    """The running fights: the shared random generator, the clock and, at the end, the results."""

    rng: np.random.Generator
    clock: int = 0
    winner: np.ndarray | None = None  # 0 undecided, 1 a, 2 b, 3 both fell
    end_round: np.ndarray | None = None

    def tick(self) -> int:
        self.clock += 1
        return self.clock


def run_fights(
    a: Side,
    b: Side,
    n: int,
    *,
    first: str,
    max_rounds: int,
    seed: int,
    passive_b: bool = False,
    progress: bool | None = None,
    confirm: bool = False,
) -> Fights:
    """Play ``n`` fights of ``a`` against ``b`` for at most ``max_rounds`` rounds; return the Fights.

    Each round both sides take a turn, ``first`` ("a", "b" or "random": a fair coin per fight)
    acting first. A fight ends when a side falls; ``winner`` is 1 (a left standing), 2 (b) or 3
    (both fell in the same turn: a draw), 0 while undecided. With ``passive_b`` the second side takes passive
    turns (it does not attack): the rounds-to-kill setting. Bounded work (docs/limits.md): unless
    ``confirm``, fights still running after ``SIMULATION_SECONDS`` stop with a RulesError (field
    ``budget``) saying how far they got and how long the rest could take.
    """
    if not isinstance(n, (int, np.integer)) or isinstance(n, bool) or n < 1:
        raise RulesError(f"fights must be a whole number >= 1, not {n!r}", field="fights")
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool):
        raise RulesError(f"seed must be a whole number, not {seed!r}", field="seed")
    sim = Fights(np.random.default_rng(int(seed)))
    a.start(n, sim)
    b.start(n, sim)
    a_first = np.full(n, first == "a") if first != "random" else sim.rng.random(n) < 0.5
    winner = np.zeros(n, dtype=np.int8)
    end_round = np.zeros(n, dtype=np.int64)
    bar, started, shown = None, time.perf_counter(), 0
    running = np.ones(n, dtype=bool)
    for r in range(1, max_rounds + 1):
        for half in (0, 1):
            order = a_first if half == 0 else ~a_first
            for side, foe, mask in ((a, b, order), (b, a, ~order)):
                idx = np.flatnonzero(mask & running)
                if idx.size == 0:
                    continue
                if side is b and passive_b:
                    side.passive_turn(idx, foe, sim)
                else:
                    side.turn(idx, foe, sim)
                dead_a, dead_b = a.died_at[idx] >= 0, b.died_at[idx] >= 0
                done = dead_a | dead_b
                if done.any():
                    d = idx[done]
                    winner[d] = np.select([~dead_a[done], ~dead_b[done]], [1, 2], 3)
                    end_round[d] = r
                    running[d] = False
        if not running.any():
            break
        spent = time.perf_counter() - started
        if not confirm and spent > SIMULATION_SECONDS and r < max_rounds:
            from ..arguments import refuse_long_work

            left = int(running.sum())
            refuse_long_work(
                "simulation",
                spent / r * max_rounds,
                f"{left:,} of {n:,} fights still undecided after {r:,} of {max_rounds:,} rounds ({spent:.0f} s so far)",
                "give fewer fights= or a smaller max_rounds=, or confirm=True to run it all",
            )
        if progress is not False and bar is None and (progress or time.perf_counter() - started > PROGRESS_AFTER):
            from tqdm.auto import tqdm

            bar = tqdm(total=n, desc="simulating fights", unit="fight", leave=False)
        if bar is not None:
            ended = n - int(running.sum())
            bar.update(ended - shown)
            shown = ended
    if bar is not None:
        bar.close()
    sim.winner, sim.end_round = winner, end_round
    return sim
