"""The vectorised, seeded fight loop and the inverse-CDF sampler it draws outcomes with.

Many fights run at once: every quantity of a side (pools, conditions, armor points, ...) is a
numpy array with one entry per fight. The loop runs over rounds and turn steps only; each step
draws one row of an exact outcome table per fight, from the table of the fight's current state
class (docs/combat.md: "Effects that carry state ... go through a vectorised, seeded
simulation of many fights at once").
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar, cast

import numpy as np

from ..arguments import check_time
from ..errors import RulesError
from ..memo import MEMO, Memo

__all__ = ["Bank", "Side", "Fights", "run_fights", "Memo", "MEMO"]

#: a run shows its tqdm bar on stderr once it has taken this many seconds (display only: no clock
#: decides anything about the work, docs/limits.md, bounded work)
PROGRESS_AFTER = 1.0

#: whole-number state keys below this are mapped to their class by array lookup (Bank.draw)
LOOKUP_KEYS = 1 << 20
#: Bank.draw starts the search of a drawn row from one of this many equal slices of [0, 1) per class
GRID = 64
#: the key of a state class (each Side chooses its own: an int bit set, a tuple, ...)
K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Bank(Generic[K]):
    """Outcome rows per state class, built lazily and sampled by inverse CDF.

    ``build(keys)`` returns, for each new key, a dict of equal-length numpy arrays with a
    ``probability`` entry (the exact outcome table of that state class). ``draw`` picks one row per
    fight: all classes' CDFs are laid end to end as ``class + cdf`` so that one search serves every
    fight at once (``np.searchsorted``'s positions, found from a grid of slices per class). With
    ``share`` (key -> a hashable name of the table from model values alone: the models, options,
    situation and what the key stands for), tables are kept in
    :data:`MEMO` and reused by every Bank that names them alike (the rows of one compare pair, a
    second call): only the missing ones are built. Each Bank still numbers its classes in the order
    its fights meet them, so its draws are those of a Bank that built every table itself.
    """

    def __init__(
        self,
        build: Callable[[list[K]], list[dict[str, np.ndarray]]],
        share: Callable[[K], Hashable] | None = None,
    ):
        self._build = build
        self._share = share
        self._index: dict[K, int] = {}
        self._tables: list[dict[str, np.ndarray]] = []
        self._lookup = np.full(0, -1, dtype=np.int64)  # whole-number key -> class (-1: not yet met)
        self._grids: list[np.ndarray] = []  # per class met: where the search of a draw starts (_concat)
        self._stale = True

    def table(self, key: K) -> dict[str, np.ndarray]:
        """Return the outcome table of one state class (building it if needed)."""
        self._ensure([key])
        return self._tables[self._index[key]]

    def known(self, key: K) -> dict[str, np.ndarray] | None:
        """Return the outcome table of a state class already built here, or None (nothing is built:
        the classes keep the numbers their fights gave them)."""
        i = self._index.get(key)
        return None if i is None else self._tables[i]

    def tables(self, keys: Iterable[K]) -> list[dict[str, np.ndarray]]:
        """Return the outcome tables of several state classes, the new ones built in one call."""
        keys = list(keys)
        self._ensure(keys)
        return [self._tables[self._index[k]] for k in keys]

    def _fetch(self, new: list[K]) -> dict[K, dict[str, np.ndarray]]:
        """Return the tables of ``new``: from :data:`MEMO` when shared and kept there, the others
        built in one call, checked to sum to 1 and, when shared, kept in the memo."""
        share = self._share
        names = {k: share(k) for k in new} if share is not None else {}
        out: dict[K, dict[str, np.ndarray]] = {}
        for k, name in names.items():
            t = MEMO.lookup(name)
            if t is not None:
                out[k] = cast(dict[str, np.ndarray], t)
        missing = [k for k in new if k not in out]
        for k, t in zip(missing, self._build(missing) if missing else []):
            p = np.asarray(t["probability"], dtype=np.float64)
            if p.size == 0 or np.any(p < 0) or abs(p.sum() - 1.0) > 1e-9:
                raise RulesError(f"outcome table of state {k!r} does not sum to 1", field="outcomes")
            if share is not None:
                MEMO.put(names[k], t)
            out[k] = t
        return out

    def _ensure(self, keys: Iterable[K]) -> None:
        new = [k for k in dict.fromkeys(keys) if k not in self._index]
        if not new:
            return
        got = self._fetch(new)
        for k in new:  # numbered in the order the fights met them, as if every table were built here
            self._index[k] = len(self._tables)
            self._tables.append(got[k])
        self._stale = True

    def _concat(self) -> None:
        cdfs, starts, ends, cols = [], [], [], {}
        pos = 0
        for i, t in enumerate(self._tables):
            c = np.cumsum(t["probability"])
            c = c / c[-1]
            c[-1] = 1.0
            cdfs.append(i + c)
            if i == len(self._grids):  # the rows of class i at or below i + b / GRID, b = 0 .. GRID - 1
                self._grids.append(pos + np.searchsorted(cdfs[-1], i + np.arange(GRID) / GRID, side="right"))
            starts.append(pos)
            pos += c.size
            ends.append(pos)
        names = set(self._tables[0]) - {"probability"}
        for name in names:
            cols[name] = np.concatenate([np.asarray(t[name]) for t in self._tables])
        self._cdf = np.concatenate(cdfs)
        self._cdf_end = np.append(self._cdf, np.inf)
        self._grid = np.concatenate(self._grids)
        self._start, self._end = np.array(starts), np.array(ends)
        self._last = self._end - 1
        self._cols = cols
        self._zero: dict[str, bool] | None = None  # (columns() fills it in)
        self._stale = False

    def draw(self, keys: np.ndarray, rng: np.random.Generator) -> dict[str, np.ndarray]:
        """Return one sampled row per fight (column name -> array aligned with ``keys``)."""
        keys = np.asarray(keys)
        if keys.size == 0:
            return {}
        pos = self.draw_positions(keys, rng)
        return {name: col[pos] for name, col in self._cols.items()}

    def draw_positions(self, keys: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Draw as :meth:`draw` does (the same random numbers) and return the drawn rows as positions
        in :meth:`columns`, for a caller that reads only some columns (``columns()[name][pos]``)."""
        keys = np.asarray(keys)
        if keys.size == 0:
            return np.zeros(0, dtype=np.intp)
        cls = self._classes(keys)
        if self._stale:
            self._concat()
        u = rng.random(keys.size)
        v = cls + u
        # pos = np.searchsorted(self._cdf, v, side="right"), the number of entries <= v (the CDFs are sorted),
        # counted from the grid: with b = floor(u * GRID), b / GRID <= u, so cls + b / GRID <= v and the
        # entries up to it are counted already; the few between it and v are stepped over
        pos = self._grid[cls * GRID + (u * GRID).astype(np.intp)]
        step = np.flatnonzero(self._cdf_end[pos] <= v)
        for _ in range(4):
            if step.size == 0:
                break
            pos[step] += 1
            step = step[self._cdf_end[pos[step]] <= v[step]]
        if step.size:  # (many rows in one slice: the rest by bisection)
            pos[step] = np.searchsorted(self._cdf, v[step], side="right")
        # never below the class's first row: cls + u >= cls >= every entry of the classes before it; above
        # its last only when cls + u rounds up to cls + 1 (then clipped back, as np.clip did)
        return np.minimum(pos, self._last[cls], out=pos)

    def columns(self) -> tuple[dict[str, np.ndarray], dict[str, bool]]:
        """Return the columns of every class met so far laid end to end (indexed by
        :meth:`draw_positions`) and, per column, whether it is 0 in every row (then any draw is 0)."""
        if self._stale:
            self._concat()
        if self._zero is None:
            self._zero = {name: col.dtype.kind in "biuf" and not col.any() for name, col in self._cols.items()}
        return self._cols, self._zero

    def _classes(self, keys: np.ndarray) -> np.ndarray:
        """Return the class number of every key, the new keys numbered in sorted order (built in
        one call). Whole-number keys in [0, LOOKUP_KEYS) are looked up in an array (no sort while
        every key is known); other keys go through ``np.unique``."""
        if keys.dtype.kind in "iu":
            hi = int(keys.max())
            if hi < LOOKUP_KEYS and int(keys.min()) >= 0:

                def fill(new: list) -> list[int]:
                    self._ensure(new)
                    return [self._index[k] for k in new]

                self._lookup, cls = lookup(self._lookup, keys, fill)
                return cls
        uniq, inverse = np.unique(keys, return_inverse=True)
        self._ensure(uniq.tolist())
        return np.array([self._index[k] for k in uniq.tolist()])[inverse.ravel()]


def lookup(table: np.ndarray, keys: np.ndarray, fill: Callable[[list], list[int]]) -> tuple[np.ndarray, np.ndarray]:
    """Return (the table, grown as needed; the value of every key), ``table`` mapping whole-number keys in
    [0, LOOKUP_KEYS) to values >= 0 (-1: not yet known); the keys not yet known get ``fill(their
    distinct keys, sorted)``, one value each."""
    hi = int(keys.max())
    if table.size <= hi:
        grown = np.full(max(hi + 1, 2 * table.size), -1, dtype=np.int64)
        grown[: table.size] = table
        table = grown
    got = table[keys]
    miss = got < 0
    if miss.any():
        new = np.unique(keys[miss]).tolist()
        table[new] = fill(new)
        got = table[keys]
    return table, got


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

    def between_rounds(self, idx: np.ndarray, foe: Side, sim: Fights, after_round: int) -> None:  # noqa: B027
        """Play what happens between rounds in the fights ``idx`` (after round ``after_round``; 0:
        before the first round), for a side that attacks: phases outside the turns. By default nothing."""

    def settled(self, idx: np.ndarray, foe: Side, passive: bool) -> bool:
        """Return True only when no turn of this side (a passive one with ``passive``) can change
        anything in the fights ``idx`` any more: not its own state, not its foe's, whatever it
        draws, as long as the foe's turns change nothing either. ``run_fights`` stops when both
        sides of every running fight are settled: the rounds left would repeat the same nothing, so
        no number changes. The default: settled only for a passive turn that does nothing (the
        base ``passive_turn``); a side whose turns can be shown to change nothing overrides it."""
        return passive and type(self).passive_turn is Side.passive_turn

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
    acting first; each side's :meth:`Side.between_rounds` is played before the first round and after
    each round (a passive side's not). A fight ends when a side falls; ``winner`` is 1 (a left standing), 2 (b) or 3
    (both fell in the same turn: a draw), 0 while undecided. With ``passive_b`` the second side takes passive
    turns (it does not attack): the rounds-to-kill setting. The fights stop early, undecided, when
    both sides are :meth:`Side.settled` in every fight still running (the rounds left could change
    nothing, so every result is that of playing them). Bounded work (docs/limits.md), counted:
    unless ``confirm``, a run whose fight-rounds played (undecided fights summed over rounds) pass
    limits.MAX_FIGHT_ROUNDS stops with a RulesError (field ``budget``, :func:`workbench.work.played`);
    the fights are seeded, so that point is the same on every machine. Each round reports to the
    :func:`workbench.arguments.check_time` listener (a panel's progress and Cancel, and the caller's
    own ``max_seconds``). A bar on stderr when ``progress`` is True, or None and stderr is a terminal.
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
    from ..limits import MAX_FIGHT_ROUNDS
    from ..work import check, played, show_progress

    bar, shown, count = None, 0, n  # count: fight-rounds played, round 1's n fights first
    if show_progress(progress):
        from tqdm.auto import tqdm

        # tqdm's delay: the bar appears only once the run has taken PROGRESS_AFTER s (display only)
        delay = 0.0 if progress is True else PROGRESS_AFTER
        bar = tqdm(total=n, desc="simulating fights", unit="fight", leave=False, delay=delay)
    running = np.ones(n, dtype=bool)

    acting = [(s, f) for s, f in ((a, b), (b, a)) if type(s).between_rounds is not Side.between_rounds]
    acting = [(s, f) for s, f in acting if not (s is b and passive_b)]

    def between(after: int) -> None:
        """Play both sides' between_rounds (a passive side's not) and end the fights it decides."""
        idx = np.flatnonzero(running)
        if not acting or idx.size == 0:
            return
        for side, foe in acting:
            side.between_rounds(idx, foe, sim, after)
        dead_a, dead_b = a.died_at[idx] >= 0, b.died_at[idx] >= 0
        done = dead_a | dead_b
        if done.any():
            d = idx[done]
            winner[d] = np.select([~dead_a[done], ~dead_b[done]], [1, 2], 3)
            end_round[d] = max(after, 1)
            running[d] = False

    between(0)
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
        between(r)
        if not running.any():
            break
        live = np.flatnonzero(running)
        if a.settled(live, b, False) and b.settled(live, a, passive_b):  # nothing can change any more
            break
        if r < max_rounds:  # progress and Cancel
            left = int(running.sum())
            check_time(
                f"a simulation of {n:,} fights, {left:,} undecided after round {r:,}", n - left, n, "fights decided"
            )
        count += int(running.sum())  # the fight-rounds the next round plays at most
        if not confirm and count > MAX_FIGHT_ROUNDS and r < max_rounds:
            if bar is not None:
                bar.close()
            check(played("simulation", count, int(running.sum()), r, max_rounds), confirm)
        if bar is not None:
            ended = n - int(running.sum())
            bar.update(ended - shown)
            shown = ended
    if bar is not None:
        bar.close()
    sim.winner, sim.end_round = winner, end_round
    return sim
