"""Named fight state: a batch of fights as a dataclass of numpy columns, one field per part of the
state (``damage_taken``, ``armor_points``, ``jammed`` ...), never positional tuples or bit literals.

A system's combatant state subclasses :class:`Columns`; its ``POOL`` field is the damage taken, the
axis the exact chain keeps apart from the rest of the state (the key).
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Sequence
from typing import Any, ClassVar, TypeVar, cast

import numpy as np

__all__ = [
    "Columns",
    "Grouped",
    "concatenated",
    "distinct_columns",
    "key_columns",
    "distinct_rows",
    "fights_of",
    "in_fights",
    "numbered",
    "key_rows",
    "from_key_rows",
    "padded",
    "padded_table",
    "row_groups",
    "stacked",
]

C = TypeVar("C", bound="Columns")


@dataclasses.dataclass
class Columns:
    """A batch of fights' state: every field a numpy column of one length (subclass and declare)."""

    #: the field holding the damage taken (the chain's HP axis); every other field is the key
    POOL: ClassVar[str] = "damage_taken"

    @classmethod
    @functools.cache
    def names(cls) -> tuple[str, ...]:
        """Return the field names, in declaration order (asked once per class: every take reads them)."""
        return tuple(f.name for f in dataclasses.fields(cls))

    @classmethod
    @functools.cache
    def key_names(cls) -> tuple[str, ...]:
        """Return the field names of the key: every field but :attr:`POOL`."""
        return tuple(n for n in cls.names() if n != cls.POOL)

    @property
    def size(self) -> int:
        """Return the number of fights in the batch."""
        return int(np.asarray(getattr(self, self.names()[0])).shape[0])

    def take(self: C, idx: Any) -> C:
        """Return the batch of rows ``idx`` (an index array or a mask)."""
        return type(self)(**{n: np.asarray(getattr(self, n))[idx] for n in self.names()})

    def put(self, idx: Any, other: Columns) -> None:
        """Write the rows of ``other`` into rows ``idx`` of this batch (in place)."""
        for n in self.names():
            getattr(self, n)[idx] = getattr(other, n)

    def tile(self: C, n: int) -> C:
        """Return ``n`` copies of this one-row batch (the start of ``n`` fights)."""
        return type(self)(**{k: np.repeat(np.asarray(getattr(self, k)), n) for k in self.names()})

    def replace(self: C, **changes: Any) -> C:
        """Return the batch with the named fields replaced (TypeError for a name that is not a
        field). A copy of the fields' dict rather than ``dataclasses.replace``, which runs
        ``__init__`` again: a round replaces fields thousands of times a level, and the state classes
        are plain dataclasses (no ``__post_init__``, no slots)."""
        values = self.__dict__
        for k in changes:
            if k not in values:
                raise TypeError(f"{type(self).__name__} has no field {k!r}")
        new = object.__new__(type(self))
        new.__dict__.update(values)
        new.__dict__.update(changes)
        return new


def concatenated(parts: Sequence[C]) -> C:
    """Return the batches ``parts`` (one class) as one batch, their rows in order."""
    cls = type(parts[0])
    return cls(**{n: np.concatenate([np.asarray(getattr(p, n)) for p in parts]) for n in cls.names()})


#: each state class with its ``fight`` column (:func:`in_fights`), made once
_IN_FIGHTS: dict[type, type] = {}


def _in_fights_class(cls: type[Columns]) -> type[Columns]:
    """Return ``cls`` with one more field, ``fight``, left out of the key (:func:`in_fights`)."""
    sub = _IN_FIGHTS.get(cls)
    if sub is None:
        sub = dataclasses.make_dataclass(cls.__name__, [("fight", np.ndarray)], bases=(cls,))
        base_key = cls.key_names()
        sub.key_names = classmethod(lambda _: base_key)  # type: ignore[attr-defined]
        sub.__doc__ = f"{cls.__name__} with ``fight``: the round of a stack each row belongs to."
        _IN_FIGHTS[cls] = sub
    return sub


def in_fights(states: C, fight: np.ndarray) -> C:
    """Return ``states`` with a ``fight`` column: the member of a stack of rounds (a round class's
    ``stack``) each row belongs to. Every take, tile and replace carries it; the key leaves it out
    (:func:`key_rows` is the state's own)."""
    cls = _in_fights_class(type(states))
    values = {n: getattr(states, n) for n in type(states).names()}
    values["fight"] = np.asarray(fight, dtype=np.int64)
    return cast(C, cls(**values))


def fights_of(states: Columns) -> np.ndarray:
    """Return each row's member of its round's stack (:func:`in_fights`): 0 in every row of a round
    that is not a stack."""
    fight = getattr(states, "fight", None)
    return np.zeros(states.size, np.int64) if fight is None else np.asarray(fight)


def key_columns(states: tuple[Columns, ...]) -> list[np.ndarray]:
    """Return the columns of :func:`key_rows`, not stacked: each combatant's key fields in
    declaration order."""
    return [np.asarray(getattr(s, n)) for s in states for n in s.key_names()]


def key_rows(states: tuple[Columns, ...]) -> np.ndarray:
    """Return the key of every fight of ``states`` (one Columns per combatant) as an (n, k) int64
    array: each combatant's key fields in declaration order."""
    cols = [c.astype(np.int64, copy=False) for c in key_columns(states)]
    return np.stack(cols, axis=1) if cols else np.zeros((states[0].size, 0), np.int64)


def _unique_rows(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    uniq, inverse = np.unique(rows, axis=0, return_inverse=True)
    return uniq, inverse.ravel()


def distinct_rows(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return (the distinct rows of the whole numbers ``rows``, sorted, each row's index among them):
    ``np.unique(rows, axis=0, return_inverse=True)``, by :func:`distinct_columns` of its columns."""
    if rows.shape[0] == 0 or rows.shape[1] == 0:
        return _unique_rows(rows)
    # (the columns' ranges in one pass each, not one per column)
    uniq, inverse = _distinct(list(rows.T), rows.shape[0], rows.min(axis=0).tolist(), rows.max(axis=0).tolist())
    return uniq.astype(rows.dtype, copy=False), inverse


def distinct_columns(cols: Sequence[Any], n: int) -> tuple[np.ndarray, np.ndarray]:
    """Return :func:`distinct_rows` of the ``n`` rows of ``cols`` stacked as columns (each an array of
    whole numbers or bools, or one value for every row), without stacking them: (the distinct rows
    as int64, sorted; each row's index among them). A key has dozens of columns, most of them one
    value in every row (an Annulus state class, a duel's pair of keys): a column of one value neither
    orders the rows nor tells them apart, so only the columns that vary are read, as one mixed-radix
    number per row (C order, as ``np.ravel_multi_index``) when their ranges' product fits an int64,
    and the distinct rows, their order and the indices are those of the whole key."""
    if n == 0:
        return _unique_rows(np.zeros((0, len(cols)), np.int64))
    cols = list(cols)
    lo: list[int] = [0] * len(cols)
    hi: list[int] = [0] * len(cols)
    whole = [i for i, c in enumerate(cols) if isinstance(c, np.ndarray) and c.shape == (n,)]
    if len(whole) < 8:
        whole = []
    if whole:  # many columns: their ranges in two passes over them stacked, not two per column
        stacked = np.array([cols[i] for i in whole], dtype=np.int64)
        for i, row, a, b in zip(whole, stacked, stacked.min(axis=1).tolist(), stacked.max(axis=1).tolist()):
            cols[i], lo[i], hi[i] = row, a, b
    done = set(whole)
    for i, c in enumerate(cols):
        if i in done:
            continue
        c = np.asarray(c)
        if c.ndim == 0:
            lo[i] = hi[i] = int(c)
        elif c.dtype == bool:  # (any and all: a pass that stops early, where min and max read it all)
            lo[i], hi[i] = int(c.all()), int(c.any())
        else:
            lo[i], hi[i] = int(c.min()), int(c.max())
    return _distinct(cols, n, lo, hi)


def _distinct(cols: Sequence[Any], n: int, lo: list[int], hi: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """Return :func:`distinct_columns` of ``cols`` (``n`` rows), each column's least and greatest
    value given (``lo``, ``hi``)."""
    vary = [i for i in range(len(cols)) if hi[i] > lo[i]]
    dims = [hi[i] - lo[i] + 1 for i in vary]
    size = math.prod(dims)  # (Python's whole numbers: no overflow, and no array for a few numbers)
    if size >= 2**62:
        return _unique_rows(np.column_stack([np.broadcast_to(np.asarray(c, dtype=np.int64), (n,)) for c in cols]))
    code = np.zeros(n, np.int64)
    for i, dim in zip(vary, dims):
        code = code * dim + (np.asarray(cols[i], dtype=np.int64) - lo[i])
    # a range not much above the rows: marked, not sorted (a few rows in a wide range: sorted)
    values, inverse = numbered(code, size) if size <= 32 * n else np.unique(code, return_inverse=True)
    uniq = np.tile(np.array(lo, dtype=np.int64), (values.size, 1))
    for i, dim in zip(vary[::-1], dims[::-1]):
        uniq[:, i] += values % dim
        values = values // dim
    return uniq, inverse.ravel()


def numbered(values: np.ndarray, bound: int) -> tuple[np.ndarray, np.ndarray]:
    """Return (the distinct values of the whole numbers ``values``, all below ``bound``, sorted; each
    value's index among them): ``np.unique(values, return_inverse=True)`` without a sort, for a
    ``bound`` not much above the number of values."""
    seen = np.zeros(bound, bool)
    seen[values] = True
    first = np.flatnonzero(seen)
    # (only the entries of the values met are written and read; int32 where it holds them: the
    # array spans the bound, and a fresh one's pages are the cost, 0.10 s -> 0.04 s at 15.6 M)
    index = np.empty(bound, np.int32 if first.size < 2**31 else np.int64)
    index[first] = np.arange(first.size, dtype=index.dtype)
    return first, index[values].astype(np.int64, copy=False)


def from_key_rows(types: tuple[type[Columns], ...], rows: np.ndarray) -> tuple[Columns, ...]:
    """Return the states of the keys ``rows`` (:func:`key_rows`), no damage taken yet."""
    out, j = [], 0
    n = rows.shape[0]
    for cls in types:
        values: dict[str, np.ndarray] = {}
        for f in dataclasses.fields(cls):
            if f.name == cls.POOL:
                values[f.name] = np.zeros(n, np.int64)
            else:
                values[f.name] = rows[:, j].copy()
                j += 1
        out.append(cls(**values))
    return tuple(out)


def padded_table(frame: Any, n: int, columns: tuple[str, ...]) -> dict[str, np.ndarray]:
    """Return an outcome frame with a ``matchup`` column (0..n-1) and ``probability`` as the (n, R)
    arrays a :class:`~workbench.fight.draw.Draw` takes: one row of outcomes per matchup, padded with
    probability 0 (R: the most outcomes of a matchup)."""
    matchup = np.asarray(frame["matchup"], dtype=np.int64)
    order = np.argsort(matchup, kind="stable")
    matchup = matchup[order]
    counts = np.bincount(matchup, minlength=n)
    slot = np.arange(matchup.size) - np.repeat(np.cumsum(counts) - counts, counts)
    width = max(int(counts.max(initial=0)), 1)
    out = {}
    for c in (*columns, "probability"):
        values = np.asarray(frame[c])[order]
        grid = np.zeros((n, width), dtype=np.float64 if c == "probability" else np.int64)
        grid[matchup, slot] = values
        out[c] = grid
    return out


def row_groups(keys: np.ndarray, plan: Any) -> tuple[list[tuple[tuple[int, ...], Any]], np.ndarray]:
    """Return (the distinct (state key, plan) pairs of a batch's rows, each row's pair index):
    ``keys`` (n, k) whole numbers, ``plan`` one label (or None) for every row or one per row (optimal
    play enumerates every plan of a level of states in one call)."""
    if plan is None or isinstance(plan, str):
        uniq, inverse = distinct_rows(np.asarray(keys, dtype=np.int64))
        return [(tuple(k), plan) for k in uniq.tolist()], inverse
    index: dict[tuple[tuple[int, ...], Any], int] = {}
    rows = zip((tuple(k) for k in keys.tolist()), plan)
    inverse = np.fromiter((index.setdefault(r, len(index)) for r in rows), np.int64, len(keys))
    return list(index), inverse


@dataclasses.dataclass(frozen=True)
class Grouped:
    """The outcome tables of a batch whose fights share a few tables (a
    :class:`~workbench.fight.draw.Draw` takes it as it takes one table per fight): ``columns`` (G, R)
    arrays, one row of R outcomes per distinct table and a ``probability`` entry (padded with
    probability 0), and ``inverse`` (n,) the table of each fight."""

    columns: dict[str, np.ndarray]
    inverse: np.ndarray


def padded(tables: list[dict[str, Any]], columns: tuple[str, ...]) -> dict[str, np.ndarray]:
    """Return the turn tables of a batch's groups (dicts of equal-length columns and a
    ``probability``; a constant column may be a scalar) as (G, R) arrays: one row per group,
    padded with probability 0 (the columns of a :class:`Grouped` table)."""
    sizes = np.fromiter((len(t["probability"]) for t in tables), np.int64, len(tables))
    width = int(sizes.max())
    # every table's outcomes laid end to end, then written to their (group, slot) cells at once
    row = np.repeat(np.arange(len(tables)), sizes)
    slot = np.arange(row.size) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    out: dict[str, np.ndarray] = {}
    for c in (*columns, "probability"):
        parts = [np.asarray(t[c]) for t in tables]
        if all(p.ndim == 0 for p in parts):  # (a constant column in every table)
            flat = np.repeat(np.array(parts), sizes)
        else:
            flat = np.concatenate([p if p.ndim else np.full(n, p) for p, n in zip(parts, sizes.tolist())])
        grid = np.zeros((len(tables), width), np.float64 if c == "probability" else np.int64)
        grid[row, slot] = flat
        out[c] = grid
    return out


def stacked(tables: list[dict[str, Any]], inverse: np.ndarray, columns: tuple[str, ...]) -> Grouped:
    """Return the turn tables of a batch's groups as a Draw's :class:`Grouped` table: the
    :func:`padded` rows and ``inverse`` (fight i has the table of group ``inverse[i]``)."""
    return Grouped(padded(tables, columns), np.asarray(inverse, dtype=np.int64).ravel())
