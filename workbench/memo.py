"""The one bounded memo of what is derived from model values alone (outcome tables of resolved dice
parameters, state classes' tables, chosen plans, ``can_damage``), shared by every call."""

from __future__ import annotations

import dataclasses
import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from typing import TypeVar, cast

import numpy as np

__all__ = ["CALLS", "Memo", "MEMO", "digest", "hashed"]

V = TypeVar("V")


class Memo:
    """A bounded memo of what the simulation derives from model values alone: the outcome table of
    a state class, the plan a state class chooses, whether an attacker can damage a target.

    Keys hold the models themselves (frozen, compared by value), so two calls on equal models share
    an entry and a changed model never meets a stale one; a key that cannot be hashed (a plan
    function, a list) is simply not memoised. The values are pure functions of the key, so reusing
    one changes no number. At most ``max_entries`` entries and about ``max_bytes`` bytes of numpy
    arrays are kept; the least recently used go first (a hit or a put makes an entry the most
    recent).
    """

    def __init__(self, max_entries: int = 200_000, max_bytes: int = 256 * 2**20, follows: Memo | None = None):
        self.max_entries, self.max_bytes = max_entries, max_bytes
        # memos of results derived from this one's entries: forgotten with them (``clear``)
        self._followers: list[Memo] = []
        if follows is not None:
            follows._followers.append(self)
        # key -> (value, its bytes): one dict, so a hit or a put hashes the key (models and all) twice
        self._data: OrderedDict[Hashable, tuple[object, int]] = OrderedDict()
        self._bytes = 0
        # the panels compute on worker threads: a hit's move to the end and a put's evictions are
        # not atomic together, so each step on the dict holds the lock (never the computation)
        self._lock = threading.Lock()

    def get(self, key: Hashable, compute: Callable[[], V]) -> V:
        """Return the value memoised under ``key``, computing (and keeping) it on a miss."""
        try:
            with self._lock:
                value, _ = self._data[key]
                self._data.move_to_end(key)
            return cast(V, value)
        except KeyError:
            pass
        except TypeError:  # an unhashable part: compute, keep nothing
            return compute()
        value = compute()
        self.put(key, value)
        return value

    def lookup(self, key: Hashable) -> object | None:
        """Return the value under ``key``, or None (also for a key that cannot be hashed)."""
        try:
            with self._lock:
                value, _ = self._data[key]
                self._data.move_to_end(key)
        except (KeyError, TypeError):
            return None
        return value

    def put(self, key: Hashable, value: object, nbytes: int | None = None) -> None:
        """Keep ``value`` under ``key`` (nothing for a key that cannot be hashed), dropping the
        least recently used entries past the bounds. ``nbytes``: its size when the caller knows it
        (else counted through its arrays)."""
        size = _nbytes(value) if nbytes is None else int(nbytes)
        with self._lock:
            try:
                old = self._data.pop(key, None)
            except TypeError:
                return
            if old is not None:
                self._bytes -= old[1]
            self._data[key] = (value, size)
            self._bytes += size
            while len(self._data) > self.max_entries or (self._bytes > self.max_bytes and len(self._data) > 1):
                _, (_, gone) = self._data.popitem(last=False)
                self._bytes -= gone

    def clear(self) -> None:
        """Forget every entry, and every entry of the memos that follow this one."""
        with self._lock:
            self._data.clear()
            self._bytes = 0
        for m in self._followers:
            m.clear()

    @property
    def nbytes(self) -> int:
        """The bytes counted for the kept entries (numpy arrays by their size, anything else 64)."""
        return self._bytes

    def __len__(self) -> int:
        return len(self._data)


def _nbytes(value: object) -> int:
    """Return the bytes of the numpy arrays in ``value`` (an array, or a dict, dataclass, tuple or
    list holding them, counted through; anything else 64)."""
    if isinstance(value, np.ndarray):
        return int(value.nbytes)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        value = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
    items: Iterable[object]
    if isinstance(value, dict):
        items = value.values()
    elif isinstance(value, (tuple, list)):
        items = value
    else:
        return 64
    # inline for arrays (an outcome table is a dict of 30-odd columns); strings and numbers 64
    return 64 + sum(
        int(v.nbytes) if isinstance(v, np.ndarray) else _nbytes(v) if isinstance(v, _HOLDERS) else 64 for v in items
    )


_HOLDERS = (dict, tuple, list)


#: the one memo (outcome tables, plans, can_damage), shared by every call
MEMO = Memo()

#: the whole results of public calls (a compare's frame under all its arguments), so that a repeated
#: identical call answers at once; a few, small beside MEMO, and cleared with it
CALLS = Memo(max_entries=32, max_bytes=64 * 2**20, follows=MEMO)


def digest(a: np.ndarray) -> tuple:
    """Return a memo key part for the contents of array ``a``: its dtype, shape and a 128-bit hash
    of its bytes (two arrays with equal contents share it; a collision is 2**-128 unlikely)."""
    a = np.ascontiguousarray(a)
    return (a.dtype.str, a.shape, hashlib.blake2b(a.data, digest_size=16).digest())


class _Hashed:
    """A memo key whose hash is computed once (a key holding models hashes every field each time)."""

    __slots__ = ("key", "_hash")

    def __init__(self, key: Hashable):
        self.key, self._hash = key, hash(key)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Hashed) and self._hash == other._hash and self.key == other.key


def hashed(key: Hashable) -> Hashable:
    """Return ``key`` with its hash computed once, for a key looked up and then put; a key that
    cannot be hashed is returned as it is (the memo keeps nothing under it)."""
    try:
        return _Hashed(key)
    except TypeError:
        return key
