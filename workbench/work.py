"""Bounded work, counted: how much a call will do, decided from the sizes of its inputs alone.

A call that can grow past what runs in a few seconds counts its work before it starts (distinct
matchups, simulated fights, combinations walked, builds x targets, values x matchups ...) and
compares the count with a fixed bound (``workbench.limits``, docs/limits.md: bounded work). The
same call with the same inputs is answered the same way on every machine at any load: a result,
or the same RulesError naming the count, the bound, the fields and arguments that drive the count,
and the ways on (``confirm=True`` / ``--yes``, fewer rows, ``fights=``). No clock decides anything
here; the bounds were calibrated once, against about 10 s on the reference machine
(benchmarks/bench_work.py, benchmarks/README.md).

:func:`estimate` returns the decision of a public call without running it.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import limits
from .errors import RulesError

__all__ = ["Work", "Estimate", "estimate", "check", "repeated", "show_progress"]


@dataclass(frozen=True)
class Work:
    """One counted part of a call's work: ``count`` ``unit`` (e.g. 25,000 "distinct matchups")
    against ``bound``, what the count is made of (``detail``), the fields and arguments that drive
    it (``drivers``) and how to go on past the bound (``ways``). ``hard``: refused even with
    ``confirm`` (the work would take days)."""

    call: str
    count: int
    bound: int
    unit: str
    detail: str
    drivers: tuple[str, ...]
    ways: str
    hard: bool = False

    @property
    def over(self) -> bool:
        """Return True when the count passes the bound."""
        return self.count > self.bound

    def refused(self, confirm: bool) -> bool:
        """Return True when this work is refused: past its bound, and not confirmed (or ``hard``)."""
        return self.over and (self.hard or not confirm)

    def message(self) -> str:
        """Return the words of the refusal: the count, the bound, the drivers and the ways on."""
        counted = f"{self.count:,} {self.unit}"
        head = self.detail if counted in self.detail else f"{self.detail} = {counted}"
        return (
            f"{self.call}: {head}, over the {self.bound:,} {self.unit} that run without asking "
            f"(driven by {', '.join(self.drivers)}); {self.ways}"
        )


def repeated(works: list[Work], n: int, call: str, per: str, driver: str) -> list[Work]:
    """Return the work of ``n`` compares, one per ``per`` (a sweep's values, the variants), each
    counted as ``works``: every count times ``n``, and ``driver`` among what drives it."""
    return [
        dataclasses.replace(
            w,
            call=call,
            count=w.count * n,
            detail=f"{n} compares (one per {per}) of {w.detail}",
            drivers=(*w.drivers, driver),
        )
        for w in works
    ]


def check(work: Work, confirm: bool) -> Work:
    """Return ``work`` when it runs (within its bound, or ``confirm``); else raise RulesError (field
    ``budget``, citing docs/limits.md: bounded work) with :meth:`Work.message`."""
    if work.refused(confirm):
        raise RulesError(work.message(), field="budget", rule=limits.BUDGET)
    return work


@dataclass(frozen=True)
class Estimate:
    """The decision of one public call, before its work: ``works`` (every counted part known before
    it starts), ``decision`` ("answer" or "refused") and, when refused, ``refusal`` (the message of
    the RulesError the call raises) and ``count`` (the refused part's count)."""

    call: str
    works: tuple[Work, ...]
    confirm: bool = False

    @property
    def refused_work(self) -> Work | None:
        """Return the first part past its bound (the one the call's RulesError names), or None."""
        return next((w for w in self.works if w.refused(self.confirm)), None)

    @property
    def decision(self) -> str:
        """Return "refused" when a part passes its bound (and is not confirmed), else "answer"."""
        return "answer" if self.refused_work is None else "refused"

    @property
    def count(self) -> int | None:
        """Return the count of the refused part (None when the call answers)."""
        w = self.refused_work
        return None if w is None else w.count

    @property
    def refusal(self) -> str | None:
        """Return the message of the RulesError the call raises (None when it answers)."""
        w = self.refused_work
        return None if w is None else w.message()


def show_progress(progress: Any) -> bool:
    """Return True when long work shows progress on stderr: ``progress`` True, or None (the
    default) and stderr is a terminal, so that output captured by a program or a test never has a
    progress line in it."""
    if progress is True:
        return True
    if progress is False:
        return False
    try:
        return bool(sys.stderr.isatty())
    except (AttributeError, ValueError):  # a closed or replaced stderr
        return False


def estimate(call: Callable[..., Any] | str, *args: Any, **kwargs: Any) -> Estimate:
    """Return the :class:`Estimate` of ``call(*args, **kwargs)`` without running its work: the
    counted parts and the decision (the call answers, or raises the refusal named here).

    ``call`` is a public call or its name: ``compare``, ``sweep``, ``variants``, ``explore``,
    ``duel``, ``rounds_to_kill``. The counts are those the call itself checks before its work, from
    the same code, so the decision is the call's own (tests/work/test_decisions.py runs both)."""
    name = call if isinstance(call, str) else getattr(call, "__name__", "")
    confirm = bool(kwargs.get("confirm", False))
    if name in ("duel", "rounds_to_kill"):
        return Estimate(name, (fight_work(name, kwargs),), confirm)
    package = sys.modules[__package__ or "workbench"]  # (loaded before any of its modules)
    if name not in COUNTERS and name in getattr(package, "__all__", ()):
        # each call's module registers its counter when imported: asking the package for the call
        # loads it (workbench/__init__.py's lazy names), as calling it would; no import of the
        # package here, which would close a cycle through the calls' modules that import this one
        getattr(package, name)
    counter = COUNTERS.get(name)
    if counter is None:
        raise RulesError(
            f"no estimate for {name!r}; give {', '.join([*COUNTERS, 'duel', 'rounds_to_kill'])}", field="call"
        )
    return Estimate(name, tuple(counter(*args, **kwargs)), confirm)


#: the counters of the public calls' work, by call name: each call's module registers its own
#: (:func:`counts`), so this module imports none of them
COUNTERS: dict[str, Callable[..., list[Work]]] = {}


def counts(name: str) -> Callable[[Callable[..., list[Work]]], Callable[..., list[Work]]]:
    """Return a decorator registering a function as the counter of the public call ``name``'s work
    (what :func:`estimate` asks for it): it takes the call's arguments and returns its Work items."""

    def register(counter: Callable[..., list[Work]]) -> Callable[..., list[Work]]:
        COUNTERS[name] = counter
        return counter

    return register


def fight_work(call: str, kwargs: dict[str, Any]) -> Work:
    """Return the counted work of ``duel`` / ``rounds_to_kill``'s simulation, should the fight need
    one: ``fights`` simulated fights (an exact chain counts its own states before it is built and
    falls back to this simulation past them). While the fights run, the fight-rounds played are
    counted too (:func:`played`), a bound that no clock decides either."""
    from .arguments import check_fights

    fights = check_fights(kwargs.get("fights", 100_000))
    return Work(
        call,
        fights,
        limits.MAX_SIM_FIGHTS,
        "simulated fights",
        f"fights={fights:,}",
        ("fights",),
        "give fewer fights=, or confirm=True (workbench duel --yes) to run them",
    )


def played(call: str, count: int, fights: int, rounds: int, max_rounds: int) -> Work:
    """Return the work of a simulation so far: ``count`` fight-rounds played (the fights still
    undecided, summed over the rounds played), ``fights`` fights after ``rounds`` of ``max_rounds``
    rounds, against limits.MAX_FIGHT_ROUNDS. Seeded fights play the same rounds on every machine, so
    the point where this passes its bound is the same everywhere too."""
    return Work(
        call,
        count,
        limits.MAX_FIGHT_ROUNDS,
        "fight-rounds",
        f"{fights:,} fights still playing after round {rounds:,} of {max_rounds:,}",
        ("fights", "max_rounds"),
        "give fewer fights= or a smaller max_rounds=, or confirm=True to run it all",
    )
