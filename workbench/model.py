"""The validated model base: every rule system's Creature, Attack, Options and Situation is a
:class:`Model`, a frozen, hashable pydantic v2 model whose fields are declared with
:func:`workbench.fields.spec` (their limits, unit, help and rule in the field's schema) and checked
on construction, every field at once; the errors reach the caller as one :class:`RulesError`."""

from __future__ import annotations

import inspect
import math
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, ClassVar, Self

from pydantic import BaseModel, ConfigDict, ValidationError

from .errors import RulesError, show
from .fields import FieldSpec, specs
from .limits import LIMITS

__all__ = ["Model", "FrozenModelError", "rules_error"]

#: exceptions a model's own rules may raise on a value no check foresaw: reported as a RulesError
#: marked ``unforeseen`` (models raise nothing else)
_UNFORESEEN = (
    TypeError,
    ValueError,
    OverflowError,
    ArithmeticError,
    AttributeError,
    LookupError,
    UnicodeError,
    MemoryError,
    RecursionError,
)


class FrozenModelError(RulesError, AttributeError):
    """Assigning or deleting a field of a model (models are frozen: ``replace`` returns a changed
    copy): a RulesError, and an AttributeError like dataclasses' FrozenInstanceError was."""


def _title(cls: type) -> str:
    return f"{getattr(cls, 'system', '')} {cls.__name__}".strip()


class Model(BaseModel):
    """Base of every validated model: a frozen, hashable pydantic model whose fields are declared
    with :func:`workbench.fields.spec`, checked on construction.

    Subclasses set ``system`` (the registry name) and ``model_kind`` (creature, attack, options,
    situation; not ``kind``, which several systems use as a field name). Construction checks every
    field against its declaration (type, bounds, choices; unknown and missing fields too) and
    collects every broken field; when all fields pass, :meth:`check_rules` (a model validator) runs
    the rules that join several fields and the fields of the model's own notation: it raises
    RulesError citing the rule and may normalise values with ``object.__setattr__``. Whatever is
    refused reaches the caller as one :class:`~workbench.errors.RulesError` (never pydantic's
    ValidationError) with ``errors`` listing every broken field. Fields may also be given
    positionally, in declaration order.
    """

    model_config = ConfigDict(
        frozen=True,
        extra="forbid",
        arbitrary_types_allowed=True,
        protected_namespaces=(),
        model_title_generator=_title,
        hide_input_in_errors=True,
    )

    system: ClassVar[str] = ""
    model_kind: ClassVar[str] = ""

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        """Give each model the signature a reader expects: its fields in their documented order, by
        position or by name (the ``__init__`` below takes ``*args`` to allow position)."""
        super().__pydantic_init_subclass__(**kwargs)
        params: list[inspect.Parameter] = []
        kind: inspect._ParameterKind = inspect.Parameter.POSITIONAL_OR_KEYWORD
        for name, f in cls.model_fields.items():
            if f.is_required():
                default: Any = inspect.Parameter.empty
                if kind is not inspect.Parameter.POSITIONAL_OR_KEYWORD or (
                    params and params[-1].default is not inspect.Parameter.empty
                ):
                    kind = inspect.Parameter.KEYWORD_ONLY  # (a required field after a defaulted one)
            else:
                default = f.get_default(call_default_factory=True)
            params.append(inspect.Parameter(name, kind, default=default, annotation=f.annotation))
        cls.__signature__ = inspect.Signature(params)

    def __init__(self, /, *args: Any, **data: Any) -> None:
        if args:
            names = list(type(self).model_fields)
            if len(args) > len(names):
                raise RulesError(
                    f"takes at most {len(names)} fields ({', '.join(names)}), not {len(args)}",
                    field=type(self)._what(),
                )
            for name, value in zip(names, args):
                if name in data:
                    raise RulesError("given twice (by position and by name)", field=name)
                data[name] = value
        with _refusing(type(self)):
            self.__pydantic_validator__.validate_python(data, self_instance=self)

    def __str__(self) -> str:
        return self.__repr__()

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenModelError(f"a model is frozen: use .replace({name}=...) for a changed copy", field=name)

    def __delattr__(self, name: str) -> None:
        raise FrozenModelError("a model is frozen: its fields cannot be deleted", field=name)

    @classmethod
    def _what(cls) -> str:
        return cls.model_kind or cls.__name__

    def model_post_init(self, context: Any, /) -> None:
        """Run :meth:`check_rules` once every field passed (pydantic's post-validation hook: not an
        ``after`` model validator, which pydantic would run again on every model passed to a nested
        field, so a creature built with 20 weapons would check each weapon's rules again)."""
        self.check_rules()

    def check_rules(self) -> None:
        """Raise RulesError naming the field and citing the rule for an invalid combination of values."""

    @classmethod
    def model_validate(cls, obj: Any, *args: Any, **kwargs: Any) -> Self:
        """pydantic's ``model_validate``, refusing with :class:`RulesError` (never ValidationError)."""
        with _refusing(cls):
            return super().model_validate(obj, *args, **kwargs)

    @classmethod
    def model_validate_json(cls, json_data: Any, *args: Any, **kwargs: Any) -> Self:
        """pydantic's ``model_validate_json``, refusing with :class:`RulesError`."""
        with _refusing(cls):
            return super().model_validate_json(json_data, *args, **kwargs)

    def replace(self, **changes: Any) -> Self:
        """Return a copy with ``changes`` applied, validated again."""
        unknown = set(changes) - set(type(self).model_fields)
        if unknown:
            raise RulesError(f"unknown field(s) {sorted(unknown)} for {type(self).__name__}", field=sorted(unknown)[0])
        data = {name: self.__dict__[name] for name in type(self).model_fields}
        data.update(changes)
        return type(self)(**data)

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

        return {name: plain(self.__dict__[name]) for name in type(self).model_fields}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        """Return a model built from plain data; unknown keys, missing fields and bad values raise
        one RulesError naming every broken field."""
        if not isinstance(data, dict):
            raise RulesError(f"expected a table of fields, not {type(data).__name__}", field=cls._what())
        names = cls.model_fields
        if len(data) > 4 * len(names) + 16 or any(not isinstance(k, str) for k in data):
            raise RulesError(
                f"expected a table of {cls.system} {cls._what()} fields ({', '.join(sorted(names))})",
                field=cls._what(),
            )
        return cls(**data)


@contextmanager
def _refusing(cls: type[Model]) -> Iterator[None]:
    """Run a validation, letting only a RulesError out: pydantic's ValidationError becomes one
    RulesError naming every broken field, an unforeseen error one marked ``unforeseen``."""
    try:
        yield
    except ValidationError as exc:
        raise rules_error(exc, cls) from None
    except RulesError:
        raise
    except _UNFORESEEN as exc:
        raise _unforeseen(cls, exc) from None


def _unforeseen(cls: type[Model], exc: BaseException) -> RulesError:
    """A value no check foresaw: still a RulesError (models raise nothing else), marked
    ``unforeseen`` so that tests/hostile/test_input.py can find and fix the missing check."""
    err = RulesError(f"invalid {cls._what()}: {type(exc).__name__}: {show(str(exc), 120)}", field=cls._what())
    err.unforeseen = True
    return err


def _locate(cls: Any, loc: tuple[Any, ...]) -> tuple[str, FieldSpec | None, Any]:
    """Return (the field's dotted name, its FieldSpec, the model class holding it) of pydantic's
    error location ``loc`` in ``cls`` (``("weapons", 0, "hp")`` -> ``"weapons[0].hp"``)."""
    name = ""
    fs: FieldSpec | None = None
    owner = cls
    model = cls
    for part in loc:
        if isinstance(part, int):
            name += f"[{part}]"
            continue
        part = str(part)
        if isinstance(model, type) and issubclass(model, Model) and part in model.model_fields:
            owner = model
            fs = specs(model).get(part)
            model = fs.model if fs is not None and fs.kind in ("models", "model") else None
        elif isinstance(model, type) and issubclass(model, Model):
            fs, owner, model = None, model, None  # an unknown field
        else:
            continue  # a union member's tag, a function validator's name
        name = f"{name}.{part}" if name else part
    return name, fs, owner


def _bound_error(e: dict[str, Any], fs: FieldSpec | None, value: Any) -> tuple[str, str | None]:
    ctx = e.get("ctx") or {}
    rule = fs.rule if fs is not None else None
    if fs is not None and fs.kind == "models":
        most = ctx.get("max_length")
        return f"may hold at most {most} models (no rule needs more), not {ctx.get('actual_length')}", (
            f"{rule}; {LIMITS}" if rule else LIMITS
        )
    if isinstance(value, float) and math.isnan(value):
        return "must be a number, not NaN", rule
    side, bound = (
        ("low", ctx.get("ge", ctx.get("gt")))
        if e["type"] in ("greater_than_equal", "greater_than")
        else (
            "high",
            ctx.get("le"),
        )
    )
    if fs is None:
        return e["msg"], rule
    if bound is None:
        return e["msg"], rule
    by_limit, rule = fs.bound_rule(side, bound)
    if e["type"] == "greater_than":
        unit = f" {fs.unit}" if fs.unit else ""
        return f"must be greater than {_num(bound)}{unit}, not {show(value)}", rule
    word = "at least" if side == "low" else "at most"
    more = " (no rule needs more)" if by_limit else ""
    return f"must be {word} {_num(bound)}{more}, not {show(value)}", rule


def _num(x: Any) -> str:
    return str(int(x)) if isinstance(x, float) and x.is_integer() else str(x)


_TYPES = {
    "int_type": "must be a whole number",
    "int_from_float": "must be a whole number",
    "int_parsing": "must be a whole number",
    "float_type": "must be a number",
    "float_parsing": "must be a number",
    "finite_number": "must be a finite number",
    "bool_type": "must be true or false",
    "bool_parsing": "must be true or false",
}


def _under(name: str, inner: RulesError) -> RulesError:
    """Return ``inner`` (raised by a nested model, a field's check or a model's rules) named under
    the field ``name`` where pydantic found it (``weapons[1]`` + ``range_increment``)."""
    field = name
    if inner.field:
        last = name.rsplit(".", 1)[-1]
        if not name:
            field = inner.field
        elif inner.field.startswith((last + ".", last + "[")):
            field = name[: len(name) - len(last)] + inner.field
        elif inner.field != last:
            field = f"{name}.{inner.field}"
    err = RulesError(inner.message, field=field or None, rule=inner.rule)
    err.no_plan, err.unforeseen = inner.no_plan, inner.unforeseen
    return err


def _errors_of(e: dict[str, Any], cls: type[Model], value: Any) -> list[RulesError]:
    """Return the RulesErrors of one of pydantic's errors ``e`` on ``cls`` (``value``: the input):
    one, or every broken field of a nested model refused as a whole."""
    if e["type"] == "value_error":
        inner = (e.get("ctx") or {}).get("error")
        if isinstance(inner, RulesError):
            return [_under(_locate(cls, tuple(e["loc"]))[0], one) for one in inner.errors]
    return [_one_error(e, cls, value)]


def _one_error(e: dict[str, Any], cls: type[Model], value: Any) -> RulesError:
    """Return the RulesError of one of pydantic's errors ``e`` on ``cls`` (``value``: the input)."""
    name, fs, owner = _locate(cls, tuple(e["loc"]))
    rule = fs.rule if fs is not None else None
    kind = e["type"]
    what = f"{owner.system} {owner._what()}".strip()
    if kind == "value_error":
        inner = (e.get("ctx") or {}).get("error")
        err = RulesError(
            f"invalid {owner._what()}: {type(inner).__name__}: {show(str(inner), 120)}", field=name or cls._what()
        )
        err.unforeseen = True
        return err
    if kind == "missing":
        return RulesError(f"is required: the {what} has no {name.rsplit('.', 1)[-1]}", field=name, rule=rule)
    if kind == "extra_forbidden":
        known = ", ".join(owner.model_fields)
        return RulesError(f"unknown field for {what} (its fields: {known})", field=name)
    if kind in ("greater_than_equal", "greater_than", "less_than_equal", "too_long"):
        if kind == "too_long" and fs is not None and fs.kind == "text":
            most = (e.get("ctx") or {}).get("max_length")
            length = len(value) if isinstance(value, str) else "more"
            return RulesError(f"must be at most {most} characters, not {length}", field=name, rule=LIMITS)
        message, rule = _bound_error(e, fs, value)
        return RulesError(message, field=name, rule=rule)
    if kind in _TYPES:
        return RulesError(f"{_TYPES[kind]}, not {show(value)}", field=name, rule=rule)
    if kind in ("string_type", "string_too_short"):
        what_text = "a text" if fs is not None and fs.allow_empty else "a non-empty text"
        return RulesError(f"must be {what_text}, not {show(value)}", field=name, rule=rule)
    if kind in ("model_type", "model_attributes_type", "dataclass_type", "is_instance_of"):
        model = fs.model if fs is not None and fs.model is not None else None
        if model is None and not name:
            return RulesError(f"expected a table of fields, not {type(value).__name__}", field=cls._what())
        shown = f"{model.system} {model.__name__}" if model is not None else "model"
        return RulesError(f"must hold {shown} models or tables, not {type(value).__name__}", field=name, rule=rule)
    if kind in ("tuple_type", "list_type", "iterable_type"):
        model = fs.model if fs is not None else None
        shown = f"{model.__name__} models" if model is not None else "values"
        return RulesError(f"must be a list of {shown}, not {show(value)}", field=name, rule=rule)
    return RulesError(f"{e['msg']}, not {show(value)}", field=name or cls._what(), rule=rule)


def rules_error(exc: ValidationError, cls: type[Model]) -> RulesError:
    """Return the one RulesError of pydantic's ``exc`` raised validating ``cls``: every broken
    field in ``errors`` (named as ``field``, ``field[i].sub``), each citing its field's rule."""
    errors = [one for e in exc.errors(include_url=False) for one in _errors_of(dict(e), cls, e.get("input"))]
    first = errors[0]
    out = RulesError(first.message, field=first.field, rule=first.rule, errors=errors)
    out.unforeseen = any(e.unforeseen for e in errors)
    out.no_plan = first.no_plan
    return out
