"""Checks of the entry points' own arguments (``max_rounds``, ``fights``, ``seed``, ``first``,
``simulate``, ``progress``, ``hp``, ``plan``, ``confirm``, ``max_seconds``): each returns the value in its plain
Python form or raises RulesError naming the argument and the bound (docs/limits.md).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np

from . import limits
from .errors import RulesError, show

__all__ = [
    "reporting",
    "check_round_weights",
    "whole",
    "check_rounds",
    "check_fights",
    "check_seed",
    "check_first",
    "check_flag",
    "check_hp",
    "check_plan",
    "call_plan",
    "check_confirm",
    "check_max_seconds",
    "time_budget",
    "check_time",
    "bounded",
]


def whole(name: str, value: Any, *, minimum: int, limit: int, why: str) -> int:
    """Return ``value`` as an int when it is a whole number in ``minimum..limit`` (ints, numpy ints
    and whole floats; not bools); else raise RulesError naming ``name``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise RulesError(f"must be a whole number, not {show(value)}", field=name)
    if isinstance(value, (float, np.floating)):
        if not np.isfinite(value) or value != int(value):
            raise RulesError(f"must be a whole number, not {show(value)}", field=name)
    v = int(value)
    if v < minimum:
        raise RulesError(f"must be a whole number >= {minimum}, not {show(v)}", field=name)
    if v > limit:
        raise RulesError(f"must be at most {limit:,} ({why}), not {show(v)}", field=name, rule=limits.LIMITS)
    return v


def check_rounds(value: Any, name: str = "max_rounds") -> int:
    """Return ``max_rounds`` (1..limits.MAX_ROUNDS)."""
    return whole(name, value, minimum=1, limit=limits.MAX_ROUNDS, why="no fight of the rules lasts that long")


def check_fights(value: Any) -> int:
    """Return ``fights`` (1..limits.MAX_FIGHTS simulated fights)."""
    return whole(
        "fights", value, minimum=1, limit=limits.MAX_FIGHTS, why="the standard error is already below 0.0002 there"
    )


def check_seed(value: Any) -> int:
    """Return ``seed`` (a whole number 0 <= seed < limits.MAX_SEED)."""
    return whole("seed", value, minimum=0, limit=limits.MAX_SEED - 1, why="seeds are 128-bit")


def check_first(value: Any) -> str:
    """Return ``first``: "a", "b" or "random"."""
    if not isinstance(value, str) or value not in ("a", "b", "random"):
        raise RulesError(f"first must be 'a', 'b' or 'random', not {show(value)}", field="first")
    return value


def check_flag(name: str, value: Any, allow_none: bool = True) -> bool | None:
    """Return ``value`` when it is True, False (or None when allowed)."""
    if value is None and allow_none:
        return None
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise RulesError(f"must be True, False{' or None' if allow_none else ''}, not {show(value)}", field=name)


def check_hp(value: Any, name: str = "hp", limit: int | None = None) -> np.ndarray:
    """Return ``hp`` (one whole number or a list of them, each 1..``limit``, default limits.MAX_HP)
    as an int64 array (a 0-d numpy array is its one number)."""
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    items = list(value) if isinstance(value, (list, tuple, np.ndarray)) else [value]
    if not items or len(items) > limits.MAX_ITEMS:
        raise RulesError(
            f"HP must be whole numbers >= 1 (1 to {limits.MAX_ITEMS} of them), not {show(value)}", field=name
        )
    top = limits.MAX_HP if limit is None else limit
    return np.array(
        [whole(name, h, minimum=1, limit=top, why="the chains grow with HP") for h in items], dtype=np.int64
    )


def check_plan(plan: Any) -> Any:
    """Return ``plan`` when it has a plan's form: None, a label, a function, or a list of at most
    limits.MAX_PLAN attacks or names (a tuple or any other sequence becomes a list)."""
    if plan is None or isinstance(plan, str) or callable(plan):
        return plan
    if isinstance(plan, (list, tuple)):
        if not plan or len(plan) > limits.MAX_PLAN:
            raise RulesError(
                f"a plan lists 1 to {limits.MAX_PLAN} attacks, not {len(plan)}", field="plan", rule=limits.LIMITS
            )
        return list(plan)
    raise RulesError(f"give a plan label, a list of attacks or names, or a function, not {show(plan)}", field="plan")


def call_plan(plan: Any, plans: dict[str, Any]) -> Any:
    """Return what the plan function ``plan`` chooses among ``plans`` (label -> damage Dist): one of
    the labels or a Dist. Anything else, or an exception inside the caller's function, is a
    RulesError naming ``plan``."""
    from .dist import Dist

    try:
        chosen = plan(plans)
    except RulesError:
        raise
    except Exception as exc:  # noqa: BLE001 - the caller's own function failed: bad input, said so
        raise RulesError(
            f"the plan function raised {type(exc).__name__}: {show(str(exc), 120)}", field="plan"
        ) from None
    if isinstance(chosen, Dist) or (isinstance(chosen, str) and chosen in plans):
        return chosen
    raise RulesError(f"the plan function chose {show(chosen)}, which is not one of {', '.join(plans)}", field="plan")


def check_confirm(value: Any) -> bool:
    """Return ``confirm`` (True or False)."""
    return bool(check_flag("confirm", value, allow_none=False))


def check_max_seconds(value: Any) -> float | None:
    """Return ``max_seconds``: None (the default: no clock stops the work) or a number of seconds
    > 0 after which running work stops with a RulesError (field ``max_seconds``). The only clock in
    the bounds, and only when the caller asks for it (docs/limits.md, bounded work)."""
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise RulesError(f"must be a number of seconds or None, not {show(value)}", field="max_seconds")
    v = float(value)
    if not np.isfinite(v) or v <= 0:
        raise RulesError(f"must be a number of seconds > 0, not {show(value)}", field="max_seconds")
    return v


@dataclass(frozen=True)
class _Budget:
    """The time a caller allowed a call (``max_seconds``): its end (perf_counter), its start, and
    the name of the call."""

    end: float
    started: float
    what: str


_BUDGET: ContextVar[_Budget | None] = ContextVar("workbench_time_budget", default=None)


@contextmanager
def time_budget(seconds: float | None, what: str) -> Iterator[None]:
    """Within the block, :func:`check_time` stops the work (RulesError, field ``max_seconds``) once
    ``seconds`` have passed: the caller's own ``max_seconds=`` / ``--max-seconds``; None sets no
    stop (the default of every call: its work is bounded by counting, workbench.work). Nested
    budgets keep the earliest end (an inner call cannot lift an outer caller's stop)."""
    if seconds is None:  # no stop asked for: the clock is not read
        yield
        return
    outer = _BUDGET.get()
    now = time.perf_counter()
    if outer is not None and outer.end <= now + seconds:
        yield
        return
    token = _BUDGET.set(_Budget(now + seconds, now, what))
    try:
        yield
    finally:
        _BUDGET.reset(token)


#: who hears how far long work got (:func:`reporting`); None: nobody
_LISTENER: ContextVar[Callable[[int | None, int | None, str], None] | None] = ContextVar(
    "workbench_progress_listener", default=None
)


@contextmanager
def reporting(listener: Callable[[int | None, int | None, str], None]) -> Iterator[None]:
    """Within the block, every :func:`check_time` of long work (a simulation's rounds, a chain's
    rounds, compare's rows) calls ``listener(done, total, unit)`` first (``done`` / ``total`` None
    when the work cannot count itself): a panel's progress line. The listener may raise to stop the
    work there (a panel's Cancel); a BaseException that is not an Exception passes every handler."""
    token = _LISTENER.set(listener)
    try:
        yield
    finally:
        _LISTENER.reset(token)


def check_time(detail: str = "", done: int | None = None, total: int | None = None, unit: str = "") -> None:
    """Tell the :func:`reporting` listener, if any, how far long work got (``done`` of ``total``
    ``unit``, e.g. 40,000 of 100,000 "fights decided"; it may raise to stop the work: a panel's
    Cancel), and stop the work (RulesError, field ``max_seconds``) when the caller's own
    ``max_seconds`` (:func:`time_budget`) has run out. Without ``max_seconds`` no clock stops
    anything: the work was bounded by counting it before it started (workbench.work)."""
    listener = _LISTENER.get()
    if listener is not None:
        listener(done, total, unit)
    budget = _BUDGET.get()
    if budget is None:
        return
    now = time.perf_counter()
    if now > budget.end:
        raise RulesError(
            f"{budget.what}: stopped after {now - budget.started:.1f} s"
            f"{' (' + detail + ')' if detail else ''}, the max_seconds={budget.end - budget.started:g} asked for; "
            "no result (give max_seconds=None to run it to the end)",
            field="max_seconds",
            rule=limits.BUDGET,
        )


F = TypeVar("F", bound=Callable[..., Any])


def bounded(what: str) -> Callable[[F], F]:
    """Decorate a public call so that it takes ``max_seconds=`` (None by default): given, its
    chains and simulations stop with a RulesError once that many seconds have passed
    (:func:`check_time`); not given, no clock stops it (its work is counted before it starts,
    workbench.work). The decorated call gets ``max_seconds`` only if it names it itself."""

    def wrap(f: F) -> F:
        import inspect

        takes = "max_seconds" in inspect.signature(f).parameters

        @functools.wraps(f)
        def call(*args: Any, **kwargs: Any) -> Any:
            seconds = check_max_seconds(kwargs.get("max_seconds") if takes else kwargs.pop("max_seconds", None))
            with time_budget(seconds, what):
                return f(*args, **kwargs)

        return call  # type: ignore[return-value]

    return wrap


def check_round_weights(weights: Any, max_rounds: int) -> np.ndarray:
    """Return ``weights`` as a float vector over rounds t = 0..R_w - 1, 1 <= R_w <= max_rounds + 1 (one
    row of :func:`workbench.chains.kill_chains`' ``weights``), as the chain over a fight's state
    takes it (``workbench.fight.chain.state_chain``), or raise RulesError (field ``weights``)."""
    W = np.asarray(weights, dtype=np.float64)
    if W.ndim != 1 or not 1 <= W.size <= max_rounds + 1 or not np.all(np.isfinite(W)):
        raise RulesError(
            f"weights must be a finite vector of 1..max_rounds + 1 = {max_rounds + 1} weights, one per round t = 0..",
            field="weights",
        )
    return W
