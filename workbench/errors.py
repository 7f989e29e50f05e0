"""The one error type the workbench raises for bad input."""

from __future__ import annotations

import reprlib
from typing import Any

__all__ = ["RulesError", "show"]


class RulesError(ValueError):
    """Bad input to the workbench: a wrong value, an illegal build, a malformed file.

    ``field`` names the offending field (``"upgrades"``, ``"hp"``, ...) and ``rule`` cites the
    rule that forbids it (``"annulus-attacks.txt: at most one alteration per set"``). Panels
    show ``str(error)`` beside the control named by ``field``. ``path`` is the file an error
    of :func:`workbench.io.load` came from (None otherwise). ``no_plan`` is True on the reason
    of a turn table's pair that has nothing usable (an empty plan list, not a refusal of the input).
    ``unforeseen`` is True on a model's error that no check foresaw (a check is missing).
    """

    path: str | None = None
    no_plan: bool = False
    unforeseen: bool = False

    def __init__(self, message: str, *, field: str | None = None, rule: str | None = None):
        self.message = message
        self.field = field
        self.rule = rule
        super().__init__(self.__str__())

    def __str__(self) -> str:
        text = f"{self.field}: {self.message}" if self.field else self.message
        return f"{text} [{self.rule}]" if self.rule else text

    def __reduce__(self):
        return (_rebuild, (self.message, self.field, self.rule))


def _rebuild(message, field, rule):
    return RulesError(message, field=field, rule=rule)


def show(value: Any, width: int = 60) -> str:
    """Return a short, always-computable repr of ``value`` for an error message.

    Huge integers (Python refuses to print more than 4,300 digits) are described by their size;
    long reprs are cut with reprlib.
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"a {int(value.bit_length() * 0.30103) + 1}-digit number"
    try:
        text = reprlib.repr(value)
    except Exception:  # a hostile __repr__
        text = f"<{type(value).__name__}>"
    return text if len(text) <= width else text[: width - 3] + "..."
