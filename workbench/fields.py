"""Declared model fields: each field of a model states, in one place, what it holds.

A model field is declared with :func:`spec` next to its annotation in the system's ``models.py``::

    size: int = spec(5, kind="int", minimum=0, limit=MAX_SIZE, unit="size", help="...", rule="...")

:func:`spec` returns a ``dataclasses.field`` whose metadata holds a :class:`FieldSpec`: the kind of
value, the default, the choices, the bounds, the unit, a one-line help and the rule the field comes
from. Everything else reads that declaration:

- validation: :meth:`workbench.model.Model.__post_init__` checks every field of a checked
  kind (:data:`CHECKED`) with :meth:`FieldSpec.check` (RulesError naming the field and the spec's
  rule) before the model's own ``validate()`` checks the rules that join several fields;
- forms (``widgets/forms.py``): dropdown choices, tooltips, bounds and units;
- documentation: :func:`table` (a polars frame) and :func:`markdown` (docs/models.md);
- the save format: :func:`json_schema`, the JSON Schema every model's ``to_dict()`` satisfies.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from . import checks
from .errors import RulesError, show
from .limits import MAX_LIST, MAX_NAME

__all__ = [
    "FieldSpec",
    "spec",
    "specs",
    "KINDS",
    "CHECKED",
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
#: the kinds whose values :meth:`FieldSpec.check` checks on construction (the others are checked by
#: the model's ``validate()``, which knows their notation)
CHECKED = frozenset({"int", "number", "bool", "choice", "text", "models"})


def lower(value: Any) -> Any:
    """Return ``value`` stripped and lower-cased if it is a text, else ``value`` unchanged (a
    :func:`spec` ``parse`` hook for names compared case-insensitively)."""
    return value.strip().lower() if isinstance(value, str) else value


@dataclasses.dataclass(frozen=True)
class FieldSpec:
    """What one model field holds.

    ``kind`` is a key of :data:`KINDS`; ``default`` is the dataclass default (``dataclasses.MISSING``
    for a required field); ``choices`` a tuple or a function returning one; ``minimum`` /
    ``maximum`` the rule's bounds and ``limit`` the magnitude no rule needs (docs/limits.md), of the
    value for numbers, of the number of models for ``models``; ``max_length`` the most characters of
    a text; ``exclusive_minimum``: the value must be greater than ``minimum`` (a length, > 0);
    ``optional``: None is allowed; ``model`` the nested model class of ``models``;
    ``parse`` turns a value into the form the check expects (never raising); ``checker`` replaces
    the derived check of a checked kind (same signature as the ``check_*`` helpers' ``(field,
    value)``); ``schema`` the JSON Schema of a ``custom``, ``table`` or ``notation`` value;
    ``advanced``: bookkeeping or a detail filled in from another field (where a stat line is
    published, its record type): forms show it under "advanced", closed.
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
        """Return the smallest value the field's own check accepts (None: no lower bound but the magnitude)."""
        if self.minimum is not None:
            return self.minimum if self.limit is None else max(self.minimum, -self.limit)
        return None if self.limit is None else -self.limit

    def high(self) -> float | None:
        """Return the largest value the field's own check accepts (None: no upper bound but the magnitude)."""
        if self.maximum is not None:
            return self.maximum if self.limit is None else min(self.maximum, self.limit)
        return self.limit

    def check(self, name: str, value: Any) -> Any:
        """Return ``value`` checked (and normalised: a whole float becomes an int, a text is
        stripped, a choice takes its declared spelling) against this declaration, or raise
        RulesError naming ``name`` and citing :attr:`rule`. Fields of unchecked kinds are returned
        as they are."""
        if self.parse is not None:
            value = self.parse(value)
        if self.checker is not None:
            return self.checker(name, value)
        kind, rule = self.kind, self.rule
        if kind == "int":
            lim = None if self.limit is None else int(self.limit)
            return checks.check_int(
                name, value, minimum=self.minimum, maximum=self.maximum, rule=rule, optional=self.optional, limit=lim
            )
        if kind == "number":
            out = checks.check_number(
                name,
                value,
                minimum=self.minimum,
                maximum=self.maximum,
                rule=rule,
                optional=self.optional,
                limit=self.limit,
            )
            if self.exclusive_minimum and out is not None and self.minimum is not None and out <= self.minimum:
                unit = f" {self.unit}" if self.unit else ""
                raise RulesError(
                    f"must be greater than {_num(self.minimum)}{unit}, not {show(out)}", field=name, rule=rule
                )
            return out
        if kind == "bool":
            if value is None and self.optional:
                return None
            return checks.check_bool(name, value, rule=rule)
        if kind == "choice":
            return checks.check_choice(name, value, self.options(), rule=rule, optional=self.optional)
        if kind == "text":
            if value is None and self.optional:
                return None
            return checks.check_str(
                name,
                value,
                rule=rule,
                allow_empty=self.allow_empty,
                max_length=self.max_length or MAX_NAME,
            )
        if kind == "models":
            return checks.check_models(
                name, value, self.model, rule=rule, max_items=int(self.limit) if self.limit else MAX_LIST
            )
        return value

    def default_value(self, f: dataclasses.Field) -> Any:
        """Return the default of dataclass field ``f`` (its factory called), or MISSING."""
        if f.default is not dataclasses.MISSING:
            return f.default
        if f.default_factory is not dataclasses.MISSING:
            return f.default_factory()
        return dataclasses.MISSING


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
    """Return a ``dataclasses.field`` with ``default`` (or ``factory``; neither: a required field)
    whose ``metadata["spec"]`` is the :class:`FieldSpec` of the other arguments.

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
    if factory is not None:
        return dataclasses.field(default_factory=factory, metadata={"spec": fs})
    return dataclasses.field(default=default, metadata={"spec": fs})


_SPECS: dict[type, dict[str, FieldSpec]] = {}
_CHECKED: dict[type, tuple[tuple[str, FieldSpec], ...]] = {}


def specs(model_cls: type) -> dict[str, FieldSpec]:
    """Return ``{field name: FieldSpec}`` of every declared field of ``model_cls``, in field order."""
    out = _SPECS.get(model_cls)
    if out is None:
        out = _SPECS[model_cls] = {
            f.name: f.metadata["spec"] for f in dataclasses.fields(model_cls) if "spec" in f.metadata
        }
    return out


def checked(model_cls: type) -> tuple[tuple[str, FieldSpec], ...]:
    """Return the (name, spec) pairs :meth:`Model.__post_init__` checks: the checked kinds, and any
    field with its own ``checker``."""
    out = _CHECKED.get(model_cls)
    if out is None:
        out = _CHECKED[model_cls] = tuple(
            (n, s) for n, s in specs(model_cls).items() if s.kind in CHECKED or s.checker is not None
        )
    return out


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
        return f"≤ {s.max_length or 200} characters"
    if s.kind == "models":
        return f"≤ {int(s.limit) if s.limit else 50} models"
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
    for f in dataclasses.fields(model_cls):
        s = f.metadata.get("spec")
        if s is None:
            continue
        kind = s.kind + (" or None" if s.optional else "")
        if s.kind == "models" and s.model is not None:
            kind = f"models ({s.model.__name__})"
        out.append(
            {
                "field": f.name,
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
_JSON_TYPES = {"int": "integer", "number": "number", "bool": "boolean", "text": "string", "notation": "string"}


def _field_schema(s: FieldSpec, defs: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any]
    if s.schema is not None:
        out = dict(s.schema)
    elif s.kind in ("int", "number"):
        out = {"type": _JSON_TYPES[s.kind]}
        if s.low() is not None:
            out["exclusiveMinimum" if s.exclusive_minimum else "minimum"] = s.low()
        if s.high() is not None:
            out["maximum"] = s.high()
    elif s.kind in ("bool", "text", "notation"):
        out = {"type": _JSON_TYPES[s.kind]}
        if s.kind == "text":
            out["maxLength"] = s.max_length or 200
    elif s.kind == "choice":
        out = {"enum": list(s.options())}
    elif s.kind == "models":
        out = {"type": "array", "items": _ref(s.model, defs), "maxItems": int(s.limit) if s.limit else 50}
    elif s.kind == "model":
        out = _ref(s.model, defs)
    elif s.kind == "list":
        item: dict[str, Any] = {"enum": list(s.options())} if s.choices is not None else {"type": "string"}
        out = {"type": "array", "items": item}
    elif s.kind == "table":
        out = {"type": "object"}
    else:
        out = {}
    if s.optional:
        out = {"anyOf": [out, {"type": "null"}]}
    out["description"] = s.help
    return out


def _ref(model_cls: type, defs: dict[str, Any]) -> dict[str, Any]:
    key = f"{model_cls.__module__.rsplit('.', 2)[-2]}.{model_cls.__name__}"
    if key not in defs:
        defs[key] = {}  # a placeholder first: a model nested in itself would recurse
        defs[key] = _object_schema(model_cls, defs)
    return {"$ref": f"#/$defs/{key}"}


def _object_schema(model_cls: type, defs: dict[str, Any]) -> dict[str, Any]:
    props = {}
    required = []
    for f in dataclasses.fields(model_cls):
        s = f.metadata.get("spec")
        props[f.name] = _field_schema(s, defs) if s is not None else {}
        required.append(f.name)
    return {
        "type": "object",
        "title": f"{getattr(model_cls, 'system', '')} {model_cls.__name__}".strip(),
        "properties": props,
        "required": required,
        "additionalProperties": False,
    }


def json_schema(model_cls: type) -> dict[str, Any]:
    """Return the JSON Schema (draft 2020-12) of ``model_cls.to_dict()`` derived from its field specs:
    every field present, of its kind, within its bounds and choices (None where optional); nested
    models under ``$defs``."""
    defs: dict[str, Any] = {}
    out = {"$schema": "https://json-schema.org/draft/2020-12/schema", **_object_schema(model_cls, defs)}
    if defs:
        out["$defs"] = defs
    return out
