"""Checks of the entry points' own arguments (``max_rounds``, ``fights``, ``seed``, ``first``,
``simulate``, ``progress``, ``hp``, ``plan``, ``confirm``, ``max_seconds``): each returns the value in its plain
Python form or raises RulesError naming the argument and the bound (docs/limits.md).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
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


def check_max_seconds(value: Any) -> None:
    """Accept ``max_seconds`` only as None (its default). Work is bounded by counting it before it
    starts, so the same call gives the same answer on every machine (docs/limits.md, bounded work);
    no clock stops it, and long work stops on a panel's Cancel or Ctrl-C. Any other value is a
    RulesError naming ``max_seconds`` and saying so."""
    if value is None:
        return None
    raise RulesError(
        f"no clock stops the work, so {show(value)} seconds cannot be given: every call is counted before "
        "it starts and refused past its bound unless confirmed (the same answer on every machine); "
        "stop long work with Cancel or Ctrl-C, and leave max_seconds out",
        field="max_seconds",
        rule=limits.BUDGET,
    )


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
    Cancel). No clock stops anything: the work was bounded by counting it before it started
    (workbench.work). ``detail`` names the step for a reader."""
    listener = _LISTENER.get()
    if listener is not None:
        listener(done, total, unit)


F = TypeVar("F", bound=Callable[..., Any])


def bounded(what: str) -> Callable[[F], F]:
    """Decorate a public call so that it takes ``max_seconds=`` (None only: :func:`check_max_seconds`;
    its work is counted before it starts, workbench.work) and runs BLAS with one thread within it
    (:func:`workbench.chains.one_blas_thread`: the engine's products are small, and BLAS threads
    stall them on a busy machine). The decorated call gets ``max_seconds`` only if it names it
    itself."""
    from .chains import one_blas_thread

    def wrap(f: F) -> F:
        import inspect

        takes = "max_seconds" in inspect.signature(f).parameters

        @functools.wraps(f)
        def call(*args: Any, **kwargs: Any) -> Any:
            check_max_seconds(kwargs.get("max_seconds") if takes else kwargs.pop("max_seconds", None))
            with one_blas_thread():
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
