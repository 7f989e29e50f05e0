"""Declared model fields: each field of a model states, in one place, what it holds.

A model field is declared with :func:`spec` next to its annotation in the system's ``models.py``::

    size: int = spec(5, kind="int", minimum=0, limit=MAX_SIZE, unit="size", help="...", rule="...")

:func:`spec` returns a pydantic ``Field`` (:class:`workbench.model.Model` is a pydantic v2 model)
whose constraints are the declaration's (``ge`` / ``le`` / ``gt`` bounds, ``max_length``, strict
types), whose ``description`` is the help and whose ``json_schema_extra`` is the :class:`FieldSpec`
itself: the kind, choices, bounds, unit, help and rule cited. Everything else reads that declaration:

- validation: pydantic checks every field of a checked kind (:data:`CHECKED`) with the declared
  constraints, all fields at once; the few normalisations pydantic has no word for (a choice named
  case-insensitively, a whole float given for a whole number, a text stripped) run first, as the
  field's ``BeforeValidator``; the model's ``check_rules()`` (run by pydantic's
  ``model_post_init``) then checks the rules that join several fields. :mod:`workbench.model` turns pydantic's errors into one
  :class:`~workbench.errors.RulesError` naming every broken field and its rule;
- forms (``widgets/forms.py``): dropdown choices, tooltips, bounds and units (:func:`specs`);
- documentation: :func:`table` (a polars frame) and :func:`markdown` (docs/models.md);
- the save format: ``Model.model_json_schema()`` (:func:`json_schema`), which every model's
  ``to_dict()`` satisfies, with each field's ``unit``, ``rule`` and ``kind`` beside its bounds.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from pydantic import AfterValidator, BeforeValidator, Field
from pydantic.functional_validators import SkipValidation

from .checks import MAX_MAGNITUDE, check_utf8
from .errors import RulesError, show
from .limits import LIMITS, MAX_LIST, MAX_NAME

__all__ = [
    "FieldSpec",
    "spec",
    "specs",
    "KINDS",
    "CHECKED",
    "MAX_MAGNITUDE",
    "table",
    "markdown",
    "json_schema",
    "lower",
    "NAME_RULE",
]

#: the rule of every model's ``name`` field: the public API names its models (docs/models.md)
NAME_RULE = "docs/models.md: Models and their fields (catalogs, plans and lists find models by name)"

#: kind -> what a value of that kind is (the ``kind`` column of the docs tables)
KINDS: dict[str, str] = {
    "int": "a whole number",
    "number": "a number",
    "bool": "true or false",
    "choice": "one of the choices",
    "text": "a text",
    "models": "a list of nested models (tables are accepted)",
    "model": "one nested model (a table is accepted)",
    "list": "a list of values",
    "table": "a table {name: value}",
    "notation": "a text in the rules' notation",
    "custom": "a value the model's own rules check (see help)",
}
#: the kinds pydantic checks from the declaration (the others are checked by the model's
#: ``check_rules()``, which knows their notation)
CHECKED = frozenset({"int", "number", "bool", "choice", "text", "models"})


def lower(value: Any) -> Any:
    """Return ``value`` stripped and lower-cased if it is a text, else ``value`` unchanged (a
    :func:`spec` ``parse`` hook for names compared case-insensitively)."""
    return value.strip().lower() if isinstance(value, str) else value


@dataclasses.dataclass(frozen=True, eq=False)
class FieldSpec:
    """What one model field holds: the ``json_schema_extra`` of the field's pydantic ``Field``.

    ``kind`` is a key of :data:`KINDS`; ``default`` is the field's default (``dataclasses.MISSING``
    for a required field); ``choices`` a tuple or a function returning one; ``minimum`` /
    ``maximum`` the rule's bounds and ``limit`` the magnitude no rule needs (docs/limits.md), of the
    value for numbers, of the number of models for ``models``; ``max_length`` the most characters of
    a text; ``exclusive_minimum``: the value must be greater than ``minimum`` (a length, > 0);
    ``optional``: None is allowed; ``model`` the nested model class of ``models``;
    ``parse`` turns a value into the form the check expects (never raising); ``checker`` replaces
    the derived check of a checked kind (``(field, value) -> value``, raising RulesError);
    ``schema`` the JSON Schema of a ``custom``, ``table`` or ``notation`` value;
    ``advanced``: bookkeeping or a detail filled in from another field (where a stat line is
    published, its record type): forms show it under "advanced", closed.

    Called with a field's JSON Schema (pydantic calls ``json_schema_extra``), it adds the
    declaration: ``kind``, ``unit``, ``rule``, the choices as ``enum`` and, for the kinds whose
    values the model's own rules check, the declared ``schema``.
    """

    kind: str
    help: str
    rule: str | None
    default: Any = dataclasses.MISSING
    choices: tuple | Callable[[], Sequence[Any]] | None = None
    minimum: float | None = None
    maximum: float | None = None
    limit: float | None = None
    unit: str | None = None
    optional: bool = False
    max_length: int | None = None
    allow_empty: bool = False
    model: Any = None
    parse: Callable[[Any], Any] | None = None
    checker: Callable[[str, Any], Any] | None = None
    schema: dict | None = None
    exclusive_minimum: bool = False
    advanced: bool = False

    def options(self) -> tuple:
        """Return the declared choices as a tuple (() when the field has none)."""
        if self.choices is None:
            return ()
        return tuple(self.choices() if callable(self.choices) else self.choices)

    def low(self) -> float | None:
        """Return the smallest value the field accepts (None: no lower bound but the magnitude)."""
        if self.minimum is not None:
            return self.minimum if self.limit is None else max(self.minimum, -self.limit)
        return None if self.limit is None else -self.limit

    def high(self) -> float | None:
        """Return the largest value the field accepts (None: no upper bound but the magnitude)."""
        if self.maximum is not None:
            return self.maximum if self.limit is None else min(self.maximum, self.limit)
        return self.limit

    def bound_rule(self, side: str, bound: float) -> tuple[bool, str | None]:
        """Return (by the limits, rule cited) for a value refused at ``bound`` on ``side`` ("low" or
        "high"): the rule's own bound cites :attr:`rule`; a magnitude no rule needs also cites LIMITS."""
        own = self.minimum if side == "low" else self.maximum
        if own is not None and float(own) == float(bound):
            return False, self.rule
        return True, f"{self.rule}; {LIMITS}" if self.rule else LIMITS

    def default_value(self, f: Any) -> Any:
        """Return the default of the pydantic field ``f`` (its factory called), or MISSING."""
        if f.is_required():
            return dataclasses.MISSING
        return f.get_default(call_default_factory=True)

    def __call__(self, schema: dict[str, Any]) -> None:
        """Add the declaration to the JSON Schema of the field (pydantic's ``json_schema_extra``)."""
        if self.schema is not None:
            for key in ("type", "anyOf", "items", "$ref", "enum", "allOf", "additionalProperties"):
                schema.pop(key, None)
            schema.update({"anyOf": [dict(self.schema), {"type": "null"}]} if self.optional else self.schema)
        elif self.kind == "choice":
            schema.pop("type", None)
            schema.pop("anyOf", None)
            schema["enum"] = [*self.options(), *([None] if self.optional else [])]
        elif self.kind == "list" and self.choices is not None:
            schema["items"] = {"enum": list(self.options())}
        schema["kind"] = self.kind
        if self.unit:
            schema["unit"] = self.unit
        if self.rule:
            schema["rule"] = self.rule
        if self.advanced:
            schema["advanced"] = True


# --------------------------------------------------------------------------- the normalisations
# What pydantic has no word for runs before its own checks, as the field's BeforeValidator: numpy
# scalars and whole floats given for whole numbers, a choice named case-insensitively, a text
# stripped (and refused if it cannot be written as UTF-8), one model given for a list of them.


def _whole(value: Any) -> Any:
    if isinstance(value, np.integer):
        return int(value)
    if (
        isinstance(value, (float, np.floating))
        and np.isfinite(value)
        and float(value).is_integer()
        and abs(float(value)) <= MAX_MAGNITUDE
    ):
        return int(value)
    return value


def _number(value: Any) -> Any:
    if isinstance(value, (np.integer, np.floating)):
        return float(value)
    if type(value) is int and abs(value) > MAX_MAGNITUDE:
        return float("inf") if value > 0 else float("-inf")
    return value


def _flag(value: Any) -> Any:
    return bool(value) if isinstance(value, np.bool_) else value


def _text(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    check_utf8(value)
    return value.strip()


def _choice(fs: FieldSpec) -> Callable[[Any], Any]:
    def choose(value: Any) -> Any:
        if value is None and fs.optional:
            return None
        choices = fs.options()
        if isinstance(value, str):
            key = value.strip().lower()
            for c in choices:
                if isinstance(c, str) and c.lower() == key:
                    return c
        elif isinstance(value, (bool, int, float, np.generic)):
            for c in choices:
                if not isinstance(c, str) and type(c) is type(value) and c == value:
                    return c
        raise RulesError(f"must be one of {', '.join(map(str, choices))}; not {show(value)}", rule=fs.rule)

    return choose


def _one_or_many(fs: FieldSpec) -> Callable[[Any], Any]:
    def many(value: Any) -> Any:
        if value is None:
            return ()
        if isinstance(value, (fs.model, dict)):
            return (value,)
        return value

    return many


def _distinct(fs: FieldSpec) -> Callable[[Any], Any]:
    def distinct(value: tuple) -> tuple:
        names = [m.name.strip().lower() for m in value]
        if len(set(names)) != len(names):
            raise RulesError(f"two entries share a name: {[m.name for m in value]}; name them apart", rule=fs.rule)
        return value

    return distinct


def _checker(fs: FieldSpec) -> Callable[[Any, Any], Any]:
    def check(value: Any, info: Any) -> Any:
        if fs.parse is not None:
            value = fs.parse(value)
        return fs.checker(info.field_name, value)  # type: ignore[misc]

    return check


def _compose(parse: Callable[[Any], Any], then: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda value: then(parse(value))


def spec(
    default: Any = dataclasses.MISSING,
    *,
    kind: str,
    help: str,
    rule: str | None,
    choices: tuple | Callable[[], Sequence[Any]] | None = None,
    minimum: float | None = None,
    maximum: float | None = None,
    limit: float | None = None,
    unit: str | None = None,
    optional: bool = False,
    max_length: int | None = None,
    allow_empty: bool = False,
    model: Any = None,
    parse: Callable[[Any], Any] | None = None,
    checker: Callable[[str, Any], Any] | None = None,
    schema: dict | None = None,
    exclusive_minimum: bool = False,
    factory: Callable[[], Any] | None = None,
    advanced: bool = False,
) -> Any:
    """Return the pydantic ``Field`` of a model field with ``default`` (or ``factory``; neither: a
    required field): its constraints from the declaration, ``description`` the help, and
    ``json_schema_extra`` the :class:`FieldSpec` of the arguments.

    ``help`` is one line (no line breaks) and ``kind`` a key of :data:`KINDS`; anything else raises
    ValueError when the model class is defined (a mistake in the code, not in user input).
    """
    if kind not in KINDS:
        raise ValueError(f"unknown field kind {kind!r}; one of {', '.join(KINDS)}")
    if not help or "\n" in help:
        raise ValueError("a field's help is one non-empty line")
    if kind == "choice" and choices is None:
        raise ValueError("a choice field declares its choices")
    fs = FieldSpec(
        kind=kind,
        help=help,
        rule=rule,
        default=factory() if factory is not None else default,
        choices=choices,
        minimum=minimum,
        maximum=maximum,
        limit=limit,
        unit=unit,
        optional=optional,
        max_length=max_length,
        allow_empty=allow_empty,
        model=model,
        parse=parse,
        checker=checker,
        schema=schema,
        exclusive_minimum=exclusive_minimum,
        advanced=advanced,
    )
    kw: dict[str, Any] = {"description": help, "json_schema_extra": fs}
    if factory is not None:
        kw["default_factory"] = factory
    elif default is not dataclasses.MISSING:
        kw["default"] = default
    before: Callable[..., Any] | None = None
    after: Callable[[Any], Any] | None = None
    if checker is not None:
        before = _checker(fs)
    elif kind in ("int", "number"):
        lo, hi = fs.low(), fs.high()
        lo = -MAX_MAGNITUDE if lo is None else lo
        hi = MAX_MAGNITUDE if hi is None else hi
        kw["gt" if exclusive_minimum else "ge"] = int(lo) if kind == "int" else lo
        kw["le"] = int(hi) if kind == "int" else hi
        kw["strict"] = True
        before = _whole if kind == "int" else _number
    elif kind == "bool":
        kw["strict"] = True
        before = _flag
    elif kind == "choice":
        before = _choice(fs)
    elif kind == "text":
        kw.update(strict=True, max_length=max_length or MAX_NAME, min_length=0 if allow_empty else 1)
        before = _text
    elif kind == "models":
        kw["max_length"] = int(limit) if limit else MAX_LIST
        before, after = _one_or_many(fs), _distinct(fs)
    if parse is not None and before is not None and checker is None:
        before = _compose(parse, before)
    field = Field(**kw)
    if kind not in CHECKED and checker is None:
        field.metadata.append(SkipValidation())  # the model's check_rules() reads its notation
    if before is not None:
        field.metadata.append(BeforeValidator(before))
    if after is not None:
        field.metadata.append(AfterValidator(after))
    return field


def specs(model_cls: type) -> dict[str, FieldSpec]:
    """Return ``{field name: FieldSpec}`` of every declared field of ``model_cls``, in field order."""
    out = _SPECS.get(model_cls)
    if out is None:
        out = _SPECS[model_cls] = {
            name: f.json_schema_extra
            for name, f in model_cls.model_fields.items()  # type: ignore[attr-defined]
            if isinstance(f.json_schema_extra, FieldSpec)
        }
    return out


_SPECS: dict[type, dict[str, FieldSpec]] = {}


# --------------------------------------------------------------------------- documentation
def _shown(value: Any) -> str:
    if value is dataclasses.MISSING:
        return "(required)"
    if value is None:
        return "None"
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, dict):
        return "{}" if not value else repr(dict(value))
    return repr(value)


def _bounds_text(s: FieldSpec) -> str:
    if s.kind == "text":
        return f"≤ {s.max_length or MAX_NAME} characters"
    if s.kind == "models":
        return f"≤ {int(s.limit) if s.limit else MAX_LIST} models"
    if s.kind not in ("int", "number"):
        return ""
    lo, hi = s.low(), s.high()
    if lo is None and hi is None:
        return ""
    text = f"{_num(lo) if lo is not None else '…'}..{_num(hi) if hi is not None else '…'}"
    if s.exclusive_minimum:
        text = f"> {_num(lo)}, ≤ {_num(hi)}" if lo is not None and hi is not None else text
    by_limit = (s.minimum is None and lo is not None) or (s.maximum is None and hi is not None)
    return f"{text} (limits)" if by_limit else text


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def rows(model_cls: type) -> list[dict[str, str]]:
    """Return one row of text per declared field of ``model_cls``: field, kind, default, choices,
    bounds, unit, help, rule (the columns of :func:`table`)."""
    out = []
    for name, f in model_cls.model_fields.items():  # type: ignore[attr-defined]
        s = f.json_schema_extra
        if not isinstance(s, FieldSpec):
            continue
        kind = s.kind + (" or None" if s.optional else "")
        if s.kind == "models" and s.model is not None:
            kind = f"models ({s.model.__name__})"
        out.append(
            {
                "field": name,
                "kind": kind,
                "default": _shown(s.default_value(f)),
                "choices": ", ".join(map(str, s.options())),
                "bounds": _bounds_text(s),
                "unit": s.unit or "",
                "help": s.help,
                "rule": s.rule or "",
            }
        )
    return out


def table(model_cls: type) -> Any:
    """Return a polars DataFrame with one row per declared field of ``model_cls`` and the text
    columns field, kind, default, choices, bounds, unit, help, rule (every cell a string)."""
    import polars as pl

    cols = ("field", "kind", "default", "choices", "bounds", "unit", "help", "rule")
    data = rows(model_cls)
    return pl.DataFrame({c: [r[c] for r in data] for c in cols}, schema={c: pl.String for c in cols})


def markdown(
    model_cls: type, columns: Sequence[str] = ("field", "kind", "default", "choices", "bounds", "unit", "help", "rule")
) -> str:
    """Return :func:`table` of ``model_cls`` as a Markdown table (``|`` in cells escaped)."""

    def cell(text: str, col: str) -> str:
        text = text.replace("|", "\\|")
        return f"`{text}`" if col in ("field", "default") and text and text != "(required)" else text

    data = rows(model_cls)
    lines = ["| " + " | ".join(columns) + " |", "|" + "|".join("---" for _ in columns) + "|"]
    lines += ["| " + " | ".join(cell(r[c], c) for c in columns) + " |" for r in data]
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- the save format
def json_schema(model_cls: type) -> dict[str, Any]:
    """Return the JSON Schema (draft 2020-12) of ``model_cls``'s fields: pydantic's
    ``model_json_schema()`` (every field of its type, within its bounds and choices, None where
    optional, unknown fields refused; nested models under ``$defs``), each field also stating its
    ``kind``, ``unit`` and ``rule``. Every model's ``to_dict()`` satisfies it."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        **model_cls.model_json_schema(),  # type: ignore[attr-defined]
    }
