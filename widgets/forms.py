"""Model-driven forms: one control per field of a Model dataclass, the model rebuilt on each change.

int → IntText, float → FloatText, bool → Checkbox (an optional bool → Dropdown unset / yes / no, so an
unset flag stays None), str → Text, a field with choices → Dropdown,
an optional number → Text (blank means None), a tuple of plain values → comma-separated Text (a
text holding a comma or a quote written in double quotes),
a mapping → ``name=value, ...`` Text (a Glass Empires creature's ``traits``, Annulus upgrade ranks).
The values of a mapping and a tuple are written as TOML literals and read back by type, so every
field round-trips: ``immobile=true``, ``features=["Pack Hunter"]``,
``strike_save_bonus={vs_target_engaged_with_ally = 2}``; an unquoted word that is no literal is
text, and a text that reads as another literal (``"true"``, ``"2"``) is written quoted. Fields
holding nested models (weapons, attacks) get no control and are carried over from the last valid
value.

Everything a control shows comes from the field's declaration (:func:`workbench.fields.spec`):
the choices of a ``choice`` field, and a tooltip with its help, unit, bounds and rule; the unit is
also shown in the label. Choices come from, in order: the ``choices`` argument; the system's
``field_choices(model_cls)`` (a method returning ``{field: [choices]}``); the Model class attribute
``choices`` (``ClassVar[dict[str, tuple]]``); the field's spec (or ``metadata["choices"]``); a
``Literal[...]`` annotation. No form calls a model to find out what it accepts.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import operator
import tomllib
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import ipywidgets as W
import traitlets as T

from workbench.errors import RulesError, docs_page
from workbench.fields import FieldSpec, specs
from workbench.model import Model

from .base import Panel, _children, guarded

__all__ = ["ModelForm", "CatalogEditor", "field_choices", "field_tooltip", "control_for"]

_NONE_LABEL = "(none)"
_UNSET_LABEL = "unset"


def _hints(model_cls: type) -> dict[str, Any]:
    try:
        return typing.get_type_hints(model_cls)
    except Exception:  # an annotation naming something the module does not define
        return {name: f.annotation for name, f in model_cls.model_fields.items()}  # type: ignore[attr-defined]


def field_choices(model_cls: type, system: Any = None) -> dict[str, list[Any]]:
    """Return ``{field: choices}`` the system and the model declare for ``model_cls``."""
    out: dict[str, list[Any]] = {}
    hints = _hints(model_cls)
    declared = specs(model_cls)
    for name in model_cls.model_fields:  # type: ignore[attr-defined]
        hint = hints.get(name)
        args = [a for a in typing.get_args(hint) if a is not type(None)] if _is_union(hint) else [hint]
        for a in args:
            if typing.get_origin(a) is typing.Literal:
                out[name] = list(typing.get_args(a))
        fs = declared.get(name)
        if isinstance(fs, FieldSpec) and fs.kind == "choice":
            out[name] = list(fs.options())
    own = getattr(model_cls, "choices", None)
    if isinstance(own, Mapping):
        out.update({k: list(v) for k, v in own.items()})
    from_system = getattr(system, "field_choices", None)
    if callable(from_system):
        out.update({k: list(v) for k, v in (from_system(model_cls) or {}).items()})
    return out


def field_tooltip(fs: FieldSpec | None) -> str:
    """Return the tooltip of a declared field: its help, unit, bounds, choices of a list and rule
    ("" for an undeclared field)."""
    if fs is None:
        return ""
    parts = [fs.help]
    if fs.unit:
        parts.append(f"unit: {fs.unit}")
    if fs.kind in ("int", "number"):
        lo, hi = fs.low(), fs.high()
        if lo is not None and hi is not None:
            parts.append(f"from {lo:g} to {hi:g}")
        elif lo is not None:
            parts.append(f"at least {lo:g}")
        elif hi is not None:
            parts.append(f"at most {hi:g}")
    if fs.kind in ("list", "notation") and fs.choices is not None:
        parts.append(f"one or more of {', '.join(map(str, fs.options()))}")
    text = "; ".join(parts)
    page = docs_page(fs.rule)
    return f"{text} [{fs.rule}]" + (f" (see {page})" if page else "") if fs.rule else text


def _is_union(hint: Any) -> bool:
    return typing.get_origin(hint) in (typing.Union, types.UnionType)


def _unwrap(hint: Any) -> tuple[Any, bool]:
    """Return (the hint without None, whether None is allowed)."""
    if _is_union(hint):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        optional = len(args) < len(typing.get_args(hint))
        return functools.reduce(operator.or_, args), optional
    return hint, False


def _is_model(hint: Any) -> bool:
    return isinstance(hint, type) and issubclass(hint, Model)


@dataclasses.dataclass
class _Control:
    """A control and the function turning its widget value into the field's value."""

    widget: W.Widget
    read: Callable[[Any], Any]
    write: Callable[[Any], Any]


def _parse_number(field: str, kind: type, optional: bool) -> Callable[[str], Any]:
    def read(text: Any) -> Any:
        s = str(text).strip()
        if not s:
            if optional:
                return None
            raise RulesError("needs a value", field=field)
        try:
            return kind(s) if kind is float else int(s)
        except ValueError:
            raise RulesError(
                f"must be a {'number' if kind is float else 'whole number'}, not {s!r}", field=field
            ) from None

    return read


def _split_top(text: str) -> list[str]:
    """Return the comma-separated parts of ``text`` at its top level: commas inside quotes,
    ``[...]`` or ``{...}`` do not split."""
    parts, depth, quote, start = [], 0, "", 0
    for i, ch in enumerate(text):
        if quote:
            if ch == quote and text[i - 1] != "\\":
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def _read_literal(text: str) -> Any:
    """Return the value a control's entry writes: a TOML literal (``true``, ``2``, ``1.5``,
    ``"text"``, ``[...]``, ``{k = v}``; Python's ``True`` / ``False`` too), else the text itself."""
    s = text.strip()
    if s in ("True", "False"):
        return s == "True"
    try:
        return tomllib.loads(f"v = {s}")["v"]
    except tomllib.TOMLDecodeError:
        return s


def _write_literal(v: Any, bare: bool = True) -> str:
    """Return ``v`` (a plain value, a tuple or a mapping of them) as :func:`_read_literal` reads it
    back: booleans ``true`` / ``false``, numbers as Python writes them, a word as itself (``bare``:
    at the top level only), any other text quoted, tuples ``[...]``, mappings ``{k = v, ...}``."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        if bare and v and v == v.strip() and not any(c in v for c in ",=[]{}\"'#") and _read_literal(v) == v:
            return v
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, Mapping):
        return "{" + ", ".join(f"{_write_key(k)} = {_write_literal(x, False)}" for k, x in v.items()) + "}"
    return "[" + ", ".join(_write_literal(x, False) for x in v) + "]"


def _write_key(k: Any) -> str:
    """Return a mapping key as a bare TOML key when it is one, else quoted."""
    k = str(k)
    return k if k and all(c.isalnum() or c in "_-" for c in k) else json.dumps(k, ensure_ascii=False)


def _parse_mapping(field: str) -> Callable[[str], dict[str, Any]]:
    def read(text: str) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for part in _split_top(str(text)):
            key, sep, val = part.partition("=")
            if not sep:
                key, sep, val = part.partition(":")
            key, val = key.strip(), val.strip()
            if len(key) > 1 and key[0] == key[-1] and key[0] in "\"'":
                key = key[1:-1]
            if not key:
                raise RulesError(f"write entries as name=value, not {part!r}", field=field)
            out[key] = _read_literal(val) if sep else 1
        return out

    return read


def _format_mapping(v: Any) -> str:
    return ", ".join(f"{_write_key(k)}={_write_literal(x)}" for k, x in (v or {}).items())


def _plain(v: Any) -> bool:
    return isinstance(v, (int, float, str, bool)) or v is None


def _literal(v: Any, depth: int = 0) -> bool:
    """Return True when ``v`` can be written and read back as a literal: a plain value other than
    None, or a tuple, list or mapping of them (nested at most 3 deep; no models)."""
    if isinstance(v, (int, float, str, bool)):
        return True
    if depth < 3 and isinstance(v, Mapping):
        return all(isinstance(k, str) and _literal(x, depth + 1) for k, x in v.items())
    if depth < 3 and isinstance(v, (tuple, list)):
        return all(_literal(x, depth + 1) for x in v)
    return False


def control_for(
    field: str,
    hint: Any,
    value: Any,
    choices: Sequence[Any] | None = None,
    description: str | None = None,
    spec: FieldSpec | None = None,
) -> _Control | None:
    """Return the control for one model field, or None when the field is not editable by a form.

    ``spec`` (the field's declaration) gives the control its tooltip (:func:`field_tooltip`) and
    the unit shown in its label ("distance (m)")."""
    ctl = _control(field, hint, value, choices, description or _label(field, spec))
    if ctl is not None and spec is not None:
        ctl.widget.tooltip = field_tooltip(spec)
    return ctl


def _label(field: str, spec: FieldSpec | None) -> str:
    label = field.replace("_", " ")
    return f"{label} ({spec.unit})" if spec is not None and spec.unit else label


def label_width(label: str) -> float:
    """Return the width (em) a control's label needs to show whole at the app's 13 px font: 0.56 em
    a character, at least 9 em (the labels were cut at 9 em: "minimum dama...", "agility
    (success..." at 1366 x 768, issue 36 item 4), at most 20 em."""
    return min(20.0, max(9.0, round(0.56 * len(label) + 0.5, 1)))


def _control(field: str, hint: Any, value: Any, choices: Sequence[Any] | None, label: str) -> _Control | None:
    wide = label_width(label)
    style = {"description_width": f"{wide:g}em"}
    layout = W.Layout(width=f"{wide + 13:g}em")
    base, optional = _unwrap(hint)
    origin = typing.get_origin(base)
    if choices:
        opts = list(choices)
        labels = [(str(c), c) for c in opts]
        if optional or value is None:
            labels = [(_NONE_LABEL, None)] + [lc for lc in labels if lc[1] is not None]
        if value is not None and value not in opts:
            labels.append((str(value), value))
        w = W.Dropdown(options=labels, value=value, description=label, style=style, layout=layout)
        return _Control(w, lambda v: v, lambda v: v)
    if base is bool and (optional or value is None):
        # three states: an unset optional flag (e.g. Unbound adds_strength=None: "melee adds
        # Strength" decides) must stay None when another field is edited, never become False
        w = W.Dropdown(
            options=[(_UNSET_LABEL, None), ("yes", True), ("no", False)],
            value=None if value is None else bool(value),
            description=label,
            style=style,
            layout=layout,
        )
        return _Control(w, lambda v: v, lambda v: None if v is None else bool(v))
    if base is bool:
        w = W.Checkbox(value=bool(value), description=label, indent=False, layout=layout)
        return _Control(w, bool, bool)
    if base in (int, float) and not optional and value is not None:
        cls = W.IntText if base is int else W.FloatText
        w = cls(value=value, description=label, style=style, layout=layout)
        return _Control(w, lambda v: v, lambda v: v)
    if base in (int, float):
        w = W.Text(
            value="" if value is None else str(value),
            description=label,
            style=style,
            layout=layout,
            placeholder="blank for none" if optional else "",
        )
        return _Control(w, _parse_number(field, base, optional), lambda v: "" if v is None else str(v))
    if base is str or (base is Any and isinstance(value, str)):
        w = W.Text(value="" if value is None else value, description=label, style=style, layout=layout)
        if optional:
            return _Control(w, lambda v: v.strip() or None, lambda v: v or "")
        return _Control(w, lambda v: v, lambda v: v)
    if origin in (tuple, list, typing.Sequence) or isinstance(value, (tuple, list)):
        args = [a for a in typing.get_args(base) if a is not Ellipsis]
        if any(_is_model(a) for a in args) or not all(_plain(x) for x in (value or ())):
            return None
        item = args[0] if args and args[0] in (int, float) else str

        def write_items(v: Any) -> str:  # a text holding a comma or a quote is written quoted
            return ", ".join(_write_literal(x) if isinstance(x, str) else str(x) for x in (v or ()))

        def read_text(p: str) -> str:
            got = _read_literal(p) if p[:1] in "\"'" else p
            return got if isinstance(got, str) else p

        w = W.Text(
            value=write_items(value), description=label, style=style, layout=layout, placeholder="comma-separated"
        )

        def read_items(text: str) -> tuple:
            parts = _split_top(str(text))
            return tuple(_parse_number(field, item, False)(p) if item is not str else read_text(p) for p in parts)

        return _Control(w, read_items, write_items)
    if origin in (dict, typing.Mapping) or isinstance(value, Mapping):
        if not all(_literal(x) for x in (value or {}).values()):
            return None
        w = W.Text(
            value=_format_mapping(value), description=label, style=style, layout=layout, placeholder="name=value, ..."
        )
        return _Control(w, _parse_mapping(field), _format_mapping)
    return None


class ModelForm(Panel):
    """A form for one Model class: ``value`` is the last valid model built from the controls.

    Every control change rebuilds the model (``replace`` of the last valid value, so
    fields without a control are kept); a RulesError is shown beside the control it names and
    ``value`` stays as it was. Setting ``value`` from outside rewrites the controls.
    """

    def __init__(
        self,
        model_cls: type,
        value: Any = None,
        *,
        system: Any = None,
        choices: Mapping[str, Sequence[Any]] | None = None,
        exclude: Sequence[str] = (),
        include: Sequence[str] | None = None,
        labels: Mapping[str, str] | None = None,
        title: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.model_cls = model_cls
        if value is None:
            try:
                value = model_cls()
            except (TypeError, RulesError):
                raise RulesError(
                    f"{model_cls.__name__} has required fields: give a value to edit", field="value"
                ) from None
        if not isinstance(value, model_cls):
            raise RulesError(f"expected a {model_cls.__name__}, not {type(value).__name__}", field="value")
        all_choices = field_choices(model_cls, system)
        all_choices.update({k: list(v) for k, v in (choices or {}).items()})
        hints = _hints(model_cls)
        declared = specs(model_cls)
        labels = dict(labels or {})
        self.controls: dict[str, W.Widget] = {}
        self._controls: dict[str, _Control] = {}
        rows: list[W.Widget] = []
        advanced: list[W.Widget] = []
        self.advanced_fields: set[str] = set()
        for name in model_cls.model_fields:  # type: ignore[attr-defined]
            if name in exclude or (include is not None and name not in include):
                continue
            ctl = control_for(
                name,
                hints.get(name, Any),
                getattr(value, name),
                all_choices.get(name),
                labels.get(name),
                declared.get(name),
            )
            if ctl is None:
                continue
            self._controls[name] = ctl
            self.controls[name] = ctl.widget
            ctl.widget.observe(self._on_control, names="value")
            row = W.HBox([ctl.widget, self._error_slot(name)])
            fs = declared.get(name)
            if fs is not None and fs.advanced:
                advanced.append(row)
                self.advanced_fields.add(name)
            else:
                rows.append(row)
        self._syncing = False
        self.value = value
        self.title = W.HTML(f"<b>{title}</b>") if title else None
        # bookkeeping fields (where a stat line is published, ...) out of the way, closed
        self.advanced = W.Accordion([W.VBox(advanced)], titles=("advanced",), selected_index=None) if advanced else None
        if self.advanced is not None:
            self.advanced.add_class("wb-advanced")
        self.children = _children(self.title, rows, self.advanced, self.error_box)

    def show_error(self, err: RulesError | str) -> None:
        """Show ``err`` beside its control, opening "advanced" when the control is in there."""
        super().show_error(err)
        if self.advanced is not None and getattr(err, "field", None) in self.advanced_fields:
            self.advanced.selected_index = 0

    @guarded
    def _on_control(self, change: dict) -> None:
        if self._syncing:
            return
        self.rebuild()

    def rebuild(self) -> Any:
        """Build the model from the controls; show a RulesError or store the new ``value``."""
        try:
            values = {name: c.read(c.widget.value) for name, c in self._controls.items()}
            model = self.value.replace(**values)
        except RulesError as err:
            self.show_error(err)
            return None
        except TypeError as err:
            self.show_error(RulesError(str(err)))
            return None
        self.clear_error()
        self._syncing = True
        try:
            self.value = model
        finally:
            self._syncing = False
        return model

    @T.validate("value")
    def _check_value(self, proposal: dict) -> Any:
        v = proposal["value"]
        if not isinstance(v, self.model_cls):
            raise T.TraitError(f"expected a {self.model_cls.__name__}, not {type(v).__name__}")
        return v

    @T.observe("value")
    def _on_value(self, change: dict) -> None:
        if self._syncing:
            return
        self._syncing = True
        try:
            for name, c in self._controls.items():
                new = c.write(getattr(change["new"], name))
                if isinstance(c.widget, W.Dropdown) and new not in [o[1] for o in c.widget.options]:
                    c.widget.options = list(c.widget.options) + [(str(new), new)]
                c.widget.value = new
            self.clear_error()
        finally:
            self._syncing = False


class CatalogEditor(Panel):
    """Pick a model from a named list (the system's catalog) or edit it by hand in a :class:`ModelForm`.

    ``value`` is the model shown; picking a name loads that model into the form, and editing any
    field turns the picker to "(custom)".
    """

    CUSTOM = "(custom)"

    def __init__(
        self,
        model_cls: type,
        entries: Mapping[str, Any],
        value: Any = None,
        *,
        system: Any = None,
        title: str | None = None,
        pick_label: str = "catalog",
        **form_kwargs: Any,
    ) -> None:
        super().__init__()
        self.entries = dict(entries)
        if value is None and self.entries:
            value = next(iter(self.entries.values()))
        self.form = self._adopt(ModelForm(model_cls, value, system=system, **form_kwargs))
        self.picker = W.Dropdown(
            options=[self.CUSTOM, *self.entries],
            value=self._name_of(self.form.value),
            description=pick_label,
            style={"description_width": "9em"},
            layout=W.Layout(width="22em"),
        )
        self.picker.observe(self._on_pick, names="value")
        self.value = self.form.value
        T.link((self.form, "value"), (self, "value"))
        self.form.observe(self._on_form, names="value")
        self.title = W.HTML(f"<b>{title}</b>") if title else None
        self.children = _children(self.title, self.picker, self.form, self.error_box)

    @property
    def controls(self) -> dict[str, W.Widget]:
        """The form's controls by field name."""
        return self.form.controls

    def set_entries(self, entries: Mapping[str, Any]) -> None:
        """Replace the list of models to pick from (the current value stays)."""
        self.entries = dict(entries)
        current = self._name_of(self.value)
        self.picker.unobserve(self._on_pick, names="value")
        try:
            self.picker.options = [self.CUSTOM, *self.entries]
            self.picker.value = current
        finally:
            self.picker.observe(self._on_pick, names="value")

    def _name_of(self, model: Any) -> str:
        for name, entry in self.entries.items():
            if entry == model:
                return name
        return self.CUSTOM

    @guarded
    def _on_pick(self, change: dict) -> None:
        if change["new"] != self.CUSTOM:
            self.form.value = self.entries[change["new"]]

    @guarded
    def _on_form(self, change: dict) -> None:
        name = self._name_of(change["new"])
        if name != self.picker.value:
            self.picker.unobserve(self._on_pick, names="value")
            try:
                self.picker.value = name
            finally:
                self.picker.observe(self._on_pick, names="value")
