"""The validated model base: every rule system's Creature, Attack, Options and Situation is a
:class:`Model`, a frozen dataclass whose fields are declared with :func:`workbench.fields.spec` and
checked on construction."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from .errors import RulesError, show
from .fields import checked

__all__ = ["Model"]


@dataclass(frozen=True)
class Model:
    """Base of every validated model: a frozen dataclass whose fields are declared with
    :func:`workbench.fields.spec`, checked on construction.

    Subclasses set ``system`` (the registry name) and ``model_kind`` (creature, attack, options,
    situation; not ``kind``, which several systems use as a field name). Construction first checks
    every declared field of a checked kind against its spec (type, bounds, choices; RulesError
    naming the field and the spec's rule), then calls :meth:`validate`, which the subclass
    overrides for the rules that join several fields and the fields of its own notation; it raises
    RulesError for a bad field and may normalise values with ``object.__setattr__``.
    """

    system: ClassVar[str] = ""
    model_kind: ClassVar[str] = ""

    def __post_init__(self) -> None:
        try:
            for name, fs in checked(type(self)):
                object.__setattr__(self, name, fs.check(name, getattr(self, name)))
            self.validate()
        except RulesError:
            raise
        except (
            TypeError,
            ValueError,
            OverflowError,
            ArithmeticError,
            AttributeError,
            LookupError,
            UnicodeError,
            MemoryError,
            RecursionError,
        ) as exc:
            # A value no check foresaw: still a RulesError (models raise nothing else), marked
            # ``unforeseen`` so that tests/hostile/test_input.py can find and fix the missing check.
            err = RulesError(
                f"invalid {self.model_kind or type(self).__name__}: {type(exc).__name__}: {show(str(exc), 120)}",
                field=self.model_kind or type(self).__name__,
            )
            err.unforeseen = True
            raise err from None

    def validate(self) -> None:
        """Raise RulesError naming the field and rule for an invalid value."""

    def replace(self, **changes: Any) -> Self:
        """Return a copy with ``changes`` applied, validated again."""
        unknown = set(changes) - {f.name for f in dataclasses.fields(self)}
        if unknown:
            raise RulesError(f"unknown field(s) {sorted(unknown)} for {type(self).__name__}", field=sorted(unknown)[0])
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """Return the model as plain data (nested models become dicts, tuples lists)."""

        def plain(v: Any) -> Any:
            if isinstance(v, Model):
                return v.to_dict()
            if isinstance(v, (list, tuple)):
                return [plain(x) for x in v]
            if isinstance(v, dict):
                return {k: plain(x) for k, x in v.items()}
            return v

        return {f.name: plain(getattr(self, f.name)) for f in dataclasses.fields(self)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        """Return a model built from plain data; unknown keys raise RulesError."""
        if not isinstance(data, dict):
            raise RulesError(
                f"expected a table of fields, not {type(data).__name__}", field=cls.model_kind or cls.__name__
            )
        names = {f.name for f in dataclasses.fields(cls)}
        if len(data) > 4 * len(names) + 16 or any(not isinstance(k, str) for k in data):
            raise RulesError(
                f"expected a table of {cls.system} {cls.model_kind or cls.__name__} fields "
                f"({', '.join(sorted(names))})",
                field=cls.model_kind or cls.__name__,
            )
        unknown = set(data) - names
        if unknown:
            raise RulesError(
                f"unknown field(s) {show(sorted(unknown), 200)} for {cls.system} {cls.model_kind or cls.__name__}",
                field=sorted(unknown)[0] or repr(""),
            )
        try:
            return cls(**data)
        except TypeError as exc:  # a missing required field
            raise RulesError(str(exc), field=cls.model_kind or cls.__name__) from None
