"""Load, save and share workbench models: TOML or JSON files and short share codes.

A file holds one model (a creature, attack, options or situation of any rule system) or a list
of them, with the ``system``, the ``model_kind`` and the ``format_version``::

    format_version = 1
    system = "annulus"
    model_kind = "creature"
    name = "Hill Giant"
    level = 4
    ...

A list puts each model in an ``[[items]]`` table with its own ``model_kind`` (and ``system``
when the list mixes systems). Loading validates through the system's models, so a bad file
raises :class:`~workbench.errors.RulesError` naming the file and the field. Saving is atomic.

A share code is ``"wb1:"`` + URL-safe base64 (no padding) of zlib-compressed compact JSON of the
same document; it recreates the model exactly.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import os
import re
import tempfile
import tomllib
import zlib
from pathlib import Path
from typing import Any

from .errors import RulesError

__all__ = ["load", "save", "share_code", "from_share_code", "to_document", "from_document", "to_toml",
           "FORMAT_VERSION", "SHARE_PREFIX", "KINDS"]

FORMAT_VERSION = 1
SHARE_PREFIX = "wb1:"
#: the model kinds a file may hold, and the system attribute holding each class
KINDS = {"creature": "Creature", "attack": "Attack", "options": "Options", "situation": "Situation"}
_META = ("format_version", "system", "model_kind")
_SUFFIXES = (".toml", ".json")


# --------------------------------------------------------------------------- models ↔ documents
def _kind_of(obj: Any) -> tuple[str, str]:
    """Return (system name, model kind) of a model, found by its class in its system."""
    from .systems import system_of

    try:
        sys = system_of(obj)
    except RulesError:
        raise RulesError(f"can only save workbench models (creature, attack, options, situation), "
                         f"not {type(obj).__name__}", field="obj") from None
    for kind, attr in KINDS.items():
        if type(obj) is getattr(sys, attr, None):
            return sys.name, kind
    raise RulesError(f"{type(obj).__name__} is not a {sys.name} creature, attack, options or situation",
                     field="obj")


def _plain(value: Any, where: str) -> Any:
    """Return ``value`` as plain data (dict, list, str, int, float, bool, None), or raise naming ``where``."""
    import numpy as np

    if value is None or isinstance(value, (str, bool)):
        return value
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        value = float(value)
        if not math.isfinite(value):
            raise RulesError(f"cannot save the non-finite number {value}", field=where)
        return value
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if not isinstance(k, str):
                raise RulesError(f"cannot save a table key {k!r} that is not text", field=where)
            out[k] = _plain(v, f"{where}.{k}")
        return out
    if isinstance(value, (list, tuple)):
        return [_plain(v, f"{where}[{i}]") for i, v in enumerate(value)]
    if hasattr(value, "to_dict") and getattr(type(value), "system", None):
        return _plain(value.to_dict(), where)
    raise RulesError(f"cannot save a {type(value).__name__} ({value!r})", field=where)


def _model_fields(obj: Any) -> dict[str, Any]:
    return {k: _plain(v, k) for k, v in obj.to_dict().items()}


def to_document(obj: Any) -> dict[str, Any]:
    """Return the plain-data document of a model or a list of models (what files and codes hold)."""
    if isinstance(obj, (list, tuple)):
        if not obj:
            raise RulesError("cannot save an empty list", field="obj")
        tagged = [(*_kind_of(o), o) for o in obj]
        systems = {s for s, _, _ in tagged}
        doc: dict[str, Any] = {"format_version": FORMAT_VERSION}
        if len(systems) == 1:
            doc["system"] = tagged[0][0]
        items = []
        for i, (system, kind, o) in enumerate(tagged):
            head = {"model_kind": kind} if len(systems) == 1 else {"system": system, "model_kind": kind}
            try:
                items.append({**head, **_model_fields(o)})
            except RulesError as exc:
                raise RulesError(exc.message, field=f"items[{i}].{exc.field}", rule=exc.rule) from None
        doc["items"] = items
        return doc
    system, kind = _kind_of(obj)
    return {"format_version": FORMAT_VERSION, "system": system, "model_kind": kind, **_model_fields(obj)}


def _model_from(data: dict[str, Any], system_name: Any, where: str) -> Any:
    """Return the model ``data`` describes (its ``model_kind`` key, fields validated by the system)."""
    from .systems import system

    if system_name is None:
        raise RulesError("missing: name the rule system (system = \"annulus\", ...)", field=where + "system")
    if not isinstance(system_name, str):
        raise RulesError(f"must be a system name, not {system_name!r}", field=where + "system")
    try:
        sys = system(system_name)
    except RulesError as exc:
        raise RulesError(exc.message, field=where + "system") from None
    kind = data.get("model_kind")
    if kind is None:
        raise RulesError(f"missing: say what this is (model_kind = one of {', '.join(KINDS)})",
                         field=where + "model_kind")
    if kind not in KINDS:
        raise RulesError(f"must be one of {', '.join(KINDS)}, not {kind!r}", field=where + "model_kind")
    cls = getattr(sys, KINDS[kind])
    fields = {k: v for k, v in data.items() if k not in _META}
    try:
        return cls.from_dict(fields)
    except RulesError as exc:
        raise RulesError(exc.message, field=where + (exc.field or kind), rule=exc.rule) from None


def from_document(doc: Any) -> Any:
    """Return the model (or list of models) of a plain-data document, validated by its system."""
    if not isinstance(doc, dict):
        raise RulesError(f"expected a table with system and model_kind, not a {type(doc).__name__}",
                         field="document")
    version = doc.get("format_version", FORMAT_VERSION)
    if isinstance(version, bool) or not isinstance(version, int) or not 1 <= version <= FORMAT_VERSION:
        raise RulesError(f"must be a whole number from 1 to {FORMAT_VERSION} (this workbench reads "
                         f"format {FORMAT_VERSION}), not {version!r}", field="format_version")
    if "items" in doc:
        extra = set(doc) - {"format_version", "system", "items"}
        if extra:
            raise RulesError(f"unknown top-level key(s) {sorted(extra)} beside items", field=sorted(extra)[0])
        items = doc["items"]
        if not isinstance(items, list):
            raise RulesError(f"must be a list of tables, not {type(items).__name__}", field="items")
        out = []
        for i, item in enumerate(items):
            if not isinstance(item, dict):
                raise RulesError(f"must be a table, not {type(item).__name__}", field=f"items[{i}]")
            fields = {k: v for k, v in item.items() if k != "system"}
            out.append(_model_from(fields, item.get("system", doc.get("system")), f"items[{i}]."))
        return out
    return _model_from(doc, doc.get("system"), "")


# --------------------------------------------------------------------------- TOML writer
_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")
_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def _toml_str(s: str) -> str:
    out = []
    for ch in s:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _toml_key(k: str) -> str:
    return k if _BARE_KEY.fullmatch(k) else _toml_str(k)  # fullmatch: "$" would admit a trailing newline


def _toml_value(v: Any, where: str) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return repr(v)  # always has '.', 'e', 'inf' or 'nan', all valid TOML floats
    if isinstance(v, str):
        return _toml_str(v)
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x, f"{where}[{i}]") for i, x in enumerate(v)) + "]"
    if isinstance(v, dict):
        items = [f"{_toml_key(k)} = {_toml_value(x, f'{where}.{k}')}" for k, x in v.items() if x is not None]
        return "{" + ", ".join(items) + "}" if items else "{}"
    if v is None:
        raise RulesError("TOML has no empty value; save as .json to keep a list holding nothing", field=where)
    raise RulesError(f"cannot write a {type(v).__name__} to TOML", field=where)


def _is_table_array(v: Any) -> bool:
    return isinstance(v, list) and bool(v) and all(isinstance(x, dict) for x in v)


def _inline(v: Any) -> bool:
    """Return True for a small table of plain values, written inline (``upgrades = {Precise = 1}``)."""
    return (isinstance(v, dict) and all(not isinstance(x, (dict, list)) for x in v.values())
            and len(_toml_value(v, "")) <= 80)


def _toml_table(data: dict[str, Any], path: list[str], lines: list[str], array: bool = False) -> None:
    plain = [(k, v) for k, v in data.items()
             if v is not None and (not isinstance(v, dict) or _inline(v)) and not _is_table_array(v)]
    tables = [(k, v) for k, v in data.items() if isinstance(v, dict) and not _inline(v)]
    arrays = [(k, v) for k, v in data.items() if _is_table_array(v)]
    if path and (array or plain or not (tables or arrays)):
        header = ".".join(_toml_key(p) for p in path)
        lines += ["", f"[[{header}]]" if array else f"[{header}]"]
    where = ".".join(path)
    for k, v in plain:
        lines.append(f"{_toml_key(k)} = {_toml_value(v, f'{where}.{k}' if where else k)}")
    for k, v in tables:
        _toml_table(v, path + [k], lines)
    for k, v in arrays:
        for item in v:
            _toml_table(item, path + [k], lines, array=True)


def to_toml(doc: dict[str, Any]) -> str:
    """Return plain data as TOML text (strings escaped; None values left out: TOML has no null)."""
    lines: list[str] = []
    _toml_table(doc, [], lines)
    return "\n".join(lines).lstrip("\n") + "\n"


# --------------------------------------------------------------------------- files
def _suffix(path: Path) -> str:
    suffix = path.suffix.lower()
    if suffix not in _SUFFIXES:
        raise RulesError(f"{path}: use a .toml or .json file, not {suffix or 'no suffix'!r}", field="path")
    return suffix


def _in_file(exc: RulesError, path: Path) -> RulesError:
    err = RulesError(f"{exc.message} (in {path})", field=exc.field, rule=exc.rule)
    err.path = str(path)
    return err


def save(obj: Any, path: str | os.PathLike) -> Path:
    """Write a model (or a list of models) to ``path`` as TOML or JSON (by suffix) and return the path.

    Atomic: the text goes to a temporary file in the same folder, is fsynced, then replaces
    ``path`` with ``os.replace``; a failure leaves any existing file untouched.
    """
    path = Path(path)
    suffix = _suffix(path)
    try:
        doc = to_document(obj)
        text = to_toml(doc) if suffix == ".toml" else json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    except RulesError as exc:
        raise _in_file(exc, path) from None
    folder = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    return path


def load(path: str | os.PathLike) -> Any:
    """Return the model (or list of models) saved in a TOML or JSON file, validated by its system.

    A malformed file, an unknown field, a wrong type, an illegal build or an unknown system raise
    RulesError naming the file and the field.
    """
    path = Path(path)
    suffix = _suffix(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise RulesError(f"no such file: {path}", field="path") from None
    except OSError as exc:
        raise RulesError(f"cannot read {path}: {exc.strerror}", field="path") from None
    try:
        text = raw.decode("utf-8")
        doc = tomllib.loads(text) if suffix == ".toml" else json.loads(text)
    except UnicodeDecodeError:
        raise RulesError(f"{path} is not UTF-8 text", field="path") from None
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as exc:
        kind = "TOML" if suffix == ".toml" else "JSON"
        raise RulesError(f"{path} is not valid {kind}: {exc}", field="path") from None
    try:
        return from_document(doc)
    except RulesError as exc:
        raise _in_file(exc, path) from None


# --------------------------------------------------------------------------- share codes
def share_code(obj: Any) -> str:
    """Return a short text code ("wb1:...") that recreates ``obj`` exactly with :func:`from_share_code`."""
    doc = to_document(obj)
    doc.pop("format_version")
    raw = json.dumps(doc, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return SHARE_PREFIX + base64.urlsafe_b64encode(zlib.compress(raw, 9)).rstrip(b"=").decode("ascii")


def from_share_code(code: str) -> Any:
    """Return the model (or list of models) a share code describes; RulesError if corrupt or foreign."""
    if not isinstance(code, str):
        raise RulesError(f"a share code is text, not {type(code).__name__}", field="code")
    code = code.strip()
    if not code.startswith(SHARE_PREFIX):
        raise RulesError(f"not a workbench share code (they start with {SHARE_PREFIX!r})", field="code")
    body = code[len(SHARE_PREFIX):]
    try:
        packed = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        if base64.urlsafe_b64encode(packed).rstrip(b"=").decode("ascii") != body:
            raise ValueError("non-canonical base64")
        doc = json.loads(zlib.decompress(packed).decode("utf-8"))
    except (ValueError, binascii.Error, zlib.error, UnicodeDecodeError):
        raise RulesError("the share code is corrupted (incomplete or altered); copy it again", field="code") from None
    if not isinstance(doc, dict):
        raise RulesError("the share code does not hold a workbench model", field="code")
    try:
        return from_document(doc)
    except RulesError as exc:
        raise RulesError(f"the share code holds an invalid model: {exc.message}", field=exc.field,
                         rule=exc.rule) from None
