"""Short setup codes for links (``?setup=wb2:...``): the app's whole setup and its pins.

A ``wb1:`` share code (:func:`workbench.io.share_code`) holds every field of every model, about 800
characters for the app's setup. A ``wb2:`` setup code names what the system's catalog already
holds and writes only what was edited:

* a creature is the catalog creature whose fields differ least from it (``{"c": name}``) plus the
  fields that differ (``"d"``);
* an attack is the catalog attack (``"c"``) or the attacker's own attack (``"o"``: its index in
  ``system.attacks_of(attacker)``) that differs least, plus the fields that differ;
* options and a situation are the system's defaults plus the fields that differ;
* a model with no close catalog entry is written whole (``"f"``).

The document, ``{"s": system, "m": [attacker, target, attack, options, situation], "p": [[label,
attacker, attack, options, situation], ...], "r": reference}``, is compact JSON, zlib-compressed and
URL-safe base64, as a share code. :func:`read_setup_code` also reads ``wb1:`` codes, so links made
before keep opening. Every model is validated by its system when read (RulesError naming
``setup``).
"""

from __future__ import annotations

import base64
import binascii
import json
import zlib
from dataclasses import dataclass, field
from typing import Any

from .errors import RulesError, show
from .limits import LIMITS, MAX_SHARE_CODE

__all__ = ["SETUP_PREFIX", "SetupLink", "setup_code", "read_setup_code"]

SETUP_PREFIX = "wb2:"
_SLOTS = ("attacker", "target", "attack", "options", "situation")


@dataclass
class SetupLink:
    """What a setup code holds: ``models`` (attacker, target, attack, options, situation: those
    present), ``pins`` (``(label, attacker, attack, options, situation)`` each) and ``reference``
    (the label of the pin the deltas are against, or "")."""

    models: list[Any]
    pins: list[tuple[str, Any, Any, Any, Any]] = field(default_factory=list)
    reference: str = ""


def _fields(model: Any) -> dict[str, Any]:
    from .io import _model_fields

    return _model_fields(model)


def _diff(fields: dict[str, Any], base: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in fields.items() if k not in base or base[k] != v}


def _default(sys: Any, kind: str) -> Any:
    cls = sys.Options if kind == "options" else sys.Situation
    return cls()


def _encode(sys: Any, model: Any, kind: str, attacker: Any) -> dict[str, Any]:
    """The entry of ``model`` (a ``kind``): its nearest base named, plus the fields that differ."""
    if model is None:
        return {}
    fields = _fields(model)
    candidates: list[tuple[dict[str, Any], Any]] = []
    cat = sys.catalog()
    if kind in ("attacker", "target"):
        candidates = [({"c": name}, c) for name, c in cat.creatures.items()]
    elif kind == "attack":
        own = list(sys.attacks_of(attacker)) if attacker is not None else []
        candidates = [({"o": i}, a) for i, a in enumerate(own)]
        candidates += [({"c": name}, a) for name, a in cat.attacks.items()]
    else:
        candidates = [({}, _default(sys, kind))]
    best: dict[str, Any] | None = None
    for ref, base in candidates:
        if base == model:
            return ref
        if getattr(base, "name", None) not in (None, getattr(model, "name", None)) and kind not in (
            "options",
            "situation",
        ):
            continue  # only an entry of the same name is a base (a renamed copy is written whole)
        diff = _diff(fields, _fields(base))
        if set(_fields(base)) - set(fields):
            continue
        entry = {**ref, "d": diff} if diff else ref
        if best is None or len(json.dumps(entry)) < len(json.dumps(best)):
            best = entry
    return best if best is not None else {"f": fields}


def _decode(sys: Any, entry: Any, kind: str, attacker: Any) -> Any:
    where = f"setup.{kind}"
    if not isinstance(entry, dict) or not set(entry) <= {"c", "o", "d", "f"}:
        raise RulesError(f"the link's {kind} is not readable ({show(entry)})", field=where)
    cls = {"attacker": sys.Creature, "target": sys.Creature, "attack": sys.Attack}.get(kind) or (
        sys.Options if kind == "options" else sys.Situation
    )
    if "f" in entry:
        base_fields: dict[str, Any] = {}
        diff = entry["f"]
    else:
        cat = sys.catalog()
        if "c" in entry:
            name = entry["c"]
            table = cat.creatures if kind in ("attacker", "target") else cat.attacks
            if not isinstance(name, str) or name not in table:
                raise RulesError(f"the link names {show(name)}, which this catalog does not hold", field=where)
            base = table[name]
        elif "o" in entry:
            own = list(sys.attacks_of(attacker)) if attacker is not None else []
            i = entry["o"]
            if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < len(own):
                raise RulesError(f"the link names the attacker's attack {show(i)}, which it does not have", field=where)
            base = own[i]
        else:
            base = _default(sys, kind)
        base_fields = _fields(base)
        diff = entry.get("d", {})
    if not isinstance(diff, dict):
        raise RulesError(f"the link's {kind} fields are not a table ({show(diff)})", field=where)
    try:
        return cls.from_dict({**base_fields, **diff})
    except RulesError as exc:
        raise RulesError(exc.message, field=f"{where}.{exc.field or kind}", rule=exc.rule) from None


def _entries(sys: Any, models: list[Any]) -> list[dict[str, Any]]:
    attacker = models[0] if models else None
    out = [_encode(sys, m, kind, attacker) for kind, m in zip(_SLOTS, models)]
    while out and out[-1] == {} and len(out) > 1:  # trailing defaults need no entry
        out.pop()
    return out


def setup_code(models: list[Any], pins: list[Any] = (), reference: str = "") -> str:  # type: ignore[assignment]
    """Return the ``wb2:`` code of the app's setup ``models`` (attacker, target, attack, options,
    situation; None for a slot left empty) and ``pins`` (objects with ``label``, ``attacker``,
    ``attack``, ``options`` and ``situation``, as :class:`widgets.pins.Pin`)."""
    from .systems import system_of

    if not models or models[0] is None:
        raise RulesError("a setup needs at least the attacker", field="setup")
    sys = system_of(models[0])
    doc: dict[str, Any] = {"s": sys.name, "m": _entries(sys, list(models))}
    if pins:
        doc["p"] = [[p.label, *_entries(sys, [p.attacker, None, p.attack, p.options, p.situation])] for p in pins]
    if reference:
        doc["r"] = reference
    raw = json.dumps(doc, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return SETUP_PREFIX + base64.urlsafe_b64encode(zlib.compress(raw, 9)).rstrip(b"=").decode("ascii")


def _document(code: str) -> Any:
    from .io import _check_depth, _inflate

    body = code[len(SETUP_PREFIX) :]
    try:
        packed = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        text = _inflate(packed).decode("utf-8")
        doc = json.loads(text)
    except RulesError:
        raise
    except (ValueError, binascii.Error, zlib.error, UnicodeError):
        raise RulesError(
            "the link's setup is corrupted (incomplete or altered); copy it again", field="setup"
        ) from None
    _check_depth(doc)
    return doc


def read_setup_code(code: str) -> SetupLink:
    """Return the setup of a ``wb2:`` setup code or of a ``wb1:`` share code (the links made before
    this format: models only, no pins). RulesError naming ``setup`` when it cannot be read."""
    from .io import SHARE_PREFIX, from_share_code
    from .systems import system

    if not isinstance(code, str):
        raise RulesError(f"a setup code is text, not {type(code).__name__}", field="setup")
    code = code.strip()
    if len(code) > MAX_SHARE_CODE:
        raise RulesError(
            f"a setup code is at most {MAX_SHARE_CODE} characters, not {len(code)}", field="setup", rule=LIMITS
        )
    if code.startswith(SHARE_PREFIX):
        shared = from_share_code(code)
        return SetupLink(list(shared) if isinstance(shared, list) else [shared])
    if not code.startswith(SETUP_PREFIX):
        raise RulesError(f"not a workbench setup (it starts with {SETUP_PREFIX!r} or {SHARE_PREFIX!r})", field="setup")
    doc = _document(code)
    if not isinstance(doc, dict) or not isinstance(doc.get("m"), list) or not doc["m"]:
        raise RulesError("the link's setup holds no models", field="setup")
    name = doc.get("s")
    if not isinstance(name, str):
        raise RulesError(f"the link names no rule system ({show(name)})", field="setup.system")
    try:
        sys = system(name)
    except RulesError as exc:
        raise RulesError(exc.message, field="setup.system") from None
    entries = list(doc["m"])
    if len(entries) > len(_SLOTS):
        raise RulesError(f"the link's setup holds {len(entries)} models, more than {len(_SLOTS)}", field="setup")
    if len(entries) >= 3:  # options and situation left out: the defaults
        entries += [{}] * (len(_SLOTS) - len(entries))
    models: list[Any] = []
    for kind, entry in zip(_SLOTS, entries):
        models.append(_decode(sys, entry, kind, models[0] if models else None))
    pins = []
    for i, row in enumerate(doc.get("p", [])):
        if not isinstance(row, list) or not row or not isinstance(row[0], str):
            raise RulesError(f"the link's pin {i + 1} is not readable", field="setup.pins")
        label, entries = row[0], row[1:]
        slots = dict(zip(_SLOTS, entries))
        attacker = _decode(sys, slots.get("attacker", {}), "attacker", None) if slots.get("attacker") else models[0]
        attack = _decode(sys, slots.get("attack", {}), "attack", attacker) if "attack" in slots else None
        options = _decode(sys, slots.get("options", {}), "options", None)
        situation = _decode(sys, slots.get("situation", {}), "situation", None)
        pins.append((label, attacker, attack, options, situation))
    reference = doc.get("r", "")
    return SetupLink(models, pins, reference if isinstance(reference, str) else "")
