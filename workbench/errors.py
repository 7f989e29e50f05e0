"""The one error type the workbench raises for bad input."""

from __future__ import annotations

import re
import reprlib
from typing import Any

__all__ = ["RulesError", "show", "docs_page"]

#: where a reader of the package finds each rules source cited in errors and field help: the page
#: of the system in docs/ (its rule table quotes every sentence and where it is modelled), since
#: the rules files themselves do not ship with the package
_PAGES = (
    ("annulus-attacks.txt", "docs/systems/annulus.md"),
    ("CLARIFICATIONS.md, Annulus", "docs/systems/annulus.md"),
    ("unbound-d20-attacking.txt", "docs/systems/unbound.md"),
    ("CLARIFICATIONS.md, Unbound", "docs/systems/unbound.md"),
    ("last-odyssey-attacks.txt", "docs/systems/last_odyssey.md"),
    ("CLARIFICATIONS.md, Last Odyssey", "docs/systems/last_odyssey.md"),
    ("srd/", "docs/systems/last_odyssey.md"),
    ("last_odyssey_creatures.toml", "docs/systems/last_odyssey.md"),
    ("glass-empires-attack.txt", "docs/systems/glass_empires.md"),
    ("CLARIFICATIONS.md, Glass Empires", "docs/systems/glass_empires.md"),
    ("characters.mdx", "docs/systems/glass_empires.md"),
    ("glass_empires_creatures.toml", "docs/systems/glass_empires.md"),
    ("docs/models.md: Models and their fields", "docs/models.md"),
)


def docs_page(rule: str | None) -> str | None:
    """Return the docs page where the rule cited by ``rule`` is explained (the first source named in
    it that has one: a system's rules text or clarification -> docs/systems/<system>.md, a bound ->
    docs/limits.md), or None."""
    if not rule:
        return None
    hits = [(rule.find(token), page) for token, page in _PAGES if token in rule]
    named = re.search(r"docs/[\w/.-]+\.md", rule)  # a docs page cited by name is its own page
    if named:
        hits.append((named.start(), named.group(0)))
    return min(hits)[1] if hits else None


class RulesError(ValueError):
    """Bad input to the workbench: a wrong value, an illegal build, a malformed file.

    ``field`` names the offending field (``"upgrades"``, ``"hp"``, ...) and ``rule`` cites the
    rule that forbids it (``"annulus-attacks.txt: at most one alteration per set"``). Panels
    show ``str(error)`` beside the control named by ``field``. ``path`` is the file an error
    of :func:`workbench.io.load` came from (None otherwise). ``no_plan`` is True on the reason
    of a turn table's pair that has nothing usable (an empty plan list, not a refusal of the input).
    ``unforeseen`` is True on a model's error that no check foresaw (a check is missing).

    A model refused for several fields at once (``hp=-1, ac=-5``, a missing field, an unknown
    one) raises one RulesError whose ``errors`` holds one RulesError per broken field, each with
    its ``field``, ``message`` and ``rule``; ``field``, ``message`` and ``rule`` of the error
    itself are those of the first, and ``str(error)`` names them all. An error about one field
    has ``errors == (error,)``.
    """

    path: str | None = None
    no_plan: bool = False
    unforeseen: bool = False

    def __init__(
        self,
        message: str,
        *,
        field: str | None = None,
        rule: str | None = None,
        errors: tuple[RulesError, ...] | list[RulesError] | None = None,
    ):
        self.message = message
        self.field = field
        self.rule = rule
        self._errors = tuple(errors) if errors and len(errors) > 1 else None
        super().__init__(self.__str__())

    @property
    def errors(self) -> tuple[RulesError, ...]:
        """Every broken field's error, the first being this error's ``field``, ``message`` and ``rule``."""
        return self._errors or (self,)

    def _one(self) -> str:
        text = f"{self.field}: {self.message}" if self.field else self.message
        return f"{text} [{self.rule}]" if self.rule else text

    def __str__(self) -> str:
        if self._errors:
            return f"{len(self._errors)} fields are invalid: " + "; ".join(e._one() for e in self._errors)
        return self._one()

    def __reduce__(self):
        return (_rebuild, (self.message, self.field, self.rule, self._errors))


def _rebuild(message, field, rule, errors=None):
    return RulesError(message, field=field, rule=rule, errors=errors)


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
