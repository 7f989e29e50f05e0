"""The checks of one value inside a model's own notation (an entry of a traits table, a name in a
list, a count parsed from a text): each returns the value normalised or raises a
:class:`~workbench.errors.RulesError` naming the field and citing the rule.

A model's declared fields are not checked here: pydantic checks them from their declarations
(:mod:`workbench.fields`). These helpers serve the models' ``check_rules()`` for the values pydantic
cannot see into (tables and lists whose entries follow the rules' notation)."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any, Literal, overload

import numpy as np

from .errors import RulesError, show
from .limits import LIMITS, MAX_NAME, MAX_OUTCOME

__all__ = ["check_int", "check_number", "check_choice", "check_bool", "check_str", "check_utf8", "MAX_MAGNITUDE"]


#: the magnitude past which a whole-number or number field is refused even without its own bound
#: (far inside int64 and float64's exact integers, so nothing downstream wraps or overflows)
MAX_MAGNITUDE = MAX_OUTCOME


def _bounds(value: Any, field: str, minimum: Any, maximum: Any, limit: Any, rule: str | None, shown: str) -> None:
    """Raise RulesError when ``value`` is outside ``minimum..maximum`` (the rule's bounds, citing
    ``rule``) or outside ``-limit..limit`` (a size the rules never need, citing LIMITS; with no
    ``limit``, MAX_MAGNITUDE)."""
    lim = MAX_MAGNITUDE if limit is None else limit
    if minimum is not None and value < minimum:
        raise RulesError(f"must be at least {minimum}, not {shown}", field=field, rule=rule)
    if maximum is not None and value > maximum:
        raise RulesError(f"must be at most {maximum}, not {shown}", field=field, rule=rule)
    if value > lim or value < -lim:
        bound = f"at most {lim}" if value > lim else f"at least {-lim}"
        raise RulesError(
            f"must be {bound} (no rule needs more), not {shown}",
            field=field,
            rule=f"{rule}; {LIMITS}" if rule else LIMITS,
        )


@overload
def check_int(
    field: str,
    value: Any,
    *,
    minimum: float | None = None,
    maximum: float | None = None,
    rule: str | None = None,
    optional: Literal[False] = False,
    limit: int | None = None,
) -> int: ...
@overload
def check_int(
    field: str,
    value: Any,
    *,
    minimum: float | None = None,
    maximum: float | None = None,
    rule: str | None = None,
    optional: bool = False,
    limit: int | None = None,
) -> int | None: ...
def check_int(
    field: str,
    value: Any,
    *,
    minimum: float | None = None,
    maximum: float | None = None,
    rule: str | None = None,
    optional: bool = False,
    limit: int | None = None,
) -> int | None:
    """Return ``value`` as an int, or raise RulesError naming ``field``.

    Bools, non-finite or fractional floats (``1.5`` is refused, never rounded) and anything that
    is not a number are refused; a whole float (``2.0``) is accepted. ``minimum`` / ``maximum``
    are the rule's bounds; ``limit`` bounds the magnitude by a size no rule needs (docs/limits.md;
    10**12 when not given).
    """
    if value is None and optional:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        if (
            isinstance(value, (float, np.floating))
            and np.isfinite(value)
            and float(value).is_integer()
            and abs(float(value)) <= MAX_MAGNITUDE
        ):
            value = int(value)
        else:
            raise RulesError(f"must be a whole number, not {show(value)}", field=field, rule=rule)
    value = int(value)
    _bounds(value, field, minimum, maximum, limit, rule, show(value))
    return value


@overload
def check_number(
    field: str,
    value: Any,
    *,
    minimum: float | None = None,
    maximum: float | None = None,
    rule: str | None = None,
    optional: Literal[False] = False,
    limit: float | None = None,
) -> float: ...
@overload
def check_number(
    field: str,
    value: Any,
    *,
    minimum: float | None = None,
    maximum: float | None = None,
    rule: str | None = None,
    optional: bool = False,
    limit: float | None = None,
) -> float | None: ...
def check_number(
    field: str,
    value: Any,
    *,
    minimum: float | None = None,
    maximum: float | None = None,
    rule: str | None = None,
    optional: bool = False,
    limit: float | None = None,
) -> float | None:
    """Return ``value`` as a finite float, or raise RulesError naming ``field``.

    ``minimum`` / ``maximum`` are the rule's bounds, ``limit`` a magnitude no rule needs (10**12
    when not given); an integer too large for a float is refused, never an OverflowError.
    """
    if value is None and optional:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise RulesError(f"must be a number, not {show(value)}", field=field, rule=rule)
    if isinstance(value, int) and abs(value) > MAX_MAGNITUDE:
        value = math.inf if value > 0 else -math.inf
    else:
        value = float(value)
    if math.isnan(value):
        raise RulesError("must be a number, not NaN", field=field, rule=rule)
    _bounds(value, field, minimum, maximum, MAX_MAGNITUDE if limit is None else limit, rule, show(value))
    return value


def check_choice(
    field: str, value: Any, choices: Iterable[Any], *, rule: str | None = None, optional: bool = False
) -> Any:
    """Return the choice ``value`` names: strings compare case-insensitively, other scalars by
    type and value. Arrays, lists and other non-scalars are refused (never compared elementwise)."""
    if value is None and optional:
        return None
    choices = list(choices)
    if isinstance(value, str):
        key = value.strip().lower()
        for c in choices:
            if isinstance(c, str) and c.lower() == key:
                return c
    elif isinstance(value, (bool, int, float, np.generic)) and not isinstance(value, np.ndarray):
        for c in choices:
            if not isinstance(c, str) and type(c) is type(value) and c == value:
                return c
    raise RulesError(f"must be one of {', '.join(map(str, choices))}; not {show(value)}", field=field, rule=rule)


def check_bool(field: str, value: Any, *, rule: str | None = None) -> bool:
    """Return ``value`` if it is a bool."""
    if not isinstance(value, (bool, np.bool_)):
        raise RulesError(f"must be true or false, not {show(value)}", field=field, rule=rule)
    return bool(value)


def check_str(
    field: str, value: Any, *, rule: str | None = None, allow_empty: bool = False, max_length: int = MAX_NAME
) -> str:
    """Return ``value`` stripped, if it is a (non-empty) string of at most ``max_length`` characters
    that can be written as UTF-8 (a lone surrogate cannot be saved or shared, so it is refused here)."""
    if not isinstance(value, str) or (not allow_empty and not value.strip()):
        what = "a text" if allow_empty else "a non-empty text"
        raise RulesError(f"must be {what}, not {show(value)}", field=field, rule=rule)
    if len(value) > max_length:
        raise RulesError(f"must be at most {max_length} characters, not {len(value)}", field=field, rule=LIMITS)
    check_utf8(value, field)
    return value.strip()


def check_utf8(value: str, field: str | None = None) -> None:
    """Refuse a text that cannot be written as UTF-8 (a lone surrogate cannot be saved or shared)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise RulesError(
            f"holds a character that is not text ({exc.reason} at position {exc.start}); "
            "it could not be saved or shared",
            field=field,
            rule="io: files and share codes are UTF-8",
        ) from None
