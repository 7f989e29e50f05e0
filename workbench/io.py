"""Load, save and share workbench models: TOML or JSON files and short share codes.

A file holds one model (a creature, attack, options or situation of any rule system) or a list
of them, with the ``system``, the ``model_kind`` and the ``format_version``::

    format_version = 1
    system = "..."            # the model's rule system: one of wb.systems()
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
import hashlib
import json
import math
import os
import re
import secrets
import stat
import tomllib
import zlib
from pathlib import Path
from typing import Any

from .errors import RulesError, show
from .limits import LIMITS, MAX_DOCUMENT_BYTES, MAX_FILE_BYTES, MAX_ITEMS, MAX_NESTING, MAX_SHARE_CODE

__all__ = [
    "load",
    "save",
    "loads",
    "dumps",
    "share_code",
    "from_share_code",
    "to_document",
    "from_document",
    "to_toml",
    "FORMAT_VERSION",
    "SHARE_PREFIX",
    "KINDS",
]

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
        raise RulesError(
            f"can only save workbench models (creature, attack, options, situation), not {type(obj).__name__}",
            field="obj",
        ) from None
    for kind, attr in KINDS.items():
        if type(obj) is getattr(sys, attr, None):
            return sys.name, kind
    raise RulesError(f"{type(obj).__name__} is not a {sys.name} creature, attack, options or situation", field="obj")


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
    from .systems import system, systems

    if system_name is None:
        raise RulesError(f"missing: name the rule system (one of {', '.join(systems())})", field=where + "system")
    if not isinstance(system_name, str):
        raise RulesError(f"must be a system name, not {show(system_name)}", field=where + "system")
    try:
        sys = system(system_name)
    except RulesError as exc:
        raise RulesError(exc.message, field=where + "system") from None
    kind = data.get("model_kind")
    if kind is None:
        raise RulesError(
            f"missing: say what this is (model_kind = one of {', '.join(KINDS)})", field=where + "model_kind"
        )
    if not isinstance(kind, str) or kind not in KINDS:
        raise RulesError(f"must be one of {', '.join(KINDS)}, not {show(kind)}", field=where + "model_kind")
    cls = getattr(sys, KINDS[kind])
    fields = {k: v for k, v in data.items() if k not in _META}
    try:
        return cls.from_dict(fields)
    except RulesError as exc:
        raise RulesError(exc.message, field=where + (exc.field or kind), rule=exc.rule) from None


def from_document(doc: Any) -> Any:
    """Return the model (or list of models) of a plain-data document, validated by its system."""
    if not isinstance(doc, dict):
        raise RulesError(f"expected a table with system and model_kind, not a {type(doc).__name__}", field="document")
    version = doc.get("format_version", FORMAT_VERSION)
    if isinstance(version, bool) or not isinstance(version, int) or not 1 <= version <= FORMAT_VERSION:
        raise RulesError(
            f"must be a whole number from 1 to {FORMAT_VERSION} (this workbench reads "
            f"format {FORMAT_VERSION}), not {show(version)}",
            field="format_version",
        )
    if "items" in doc:
        extra = set(doc) - {"format_version", "system", "items"}
        if extra:
            raise RulesError(
                f"unknown top-level key(s) {show(sorted(extra))} beside items", field=show(sorted(extra)[0])
            )
        items = doc["items"]
        if not isinstance(items, list):
            raise RulesError(f"must be a list of tables, not {type(items).__name__}", field="items")
        if len(items) > MAX_ITEMS:
            raise RulesError(
                f"holds {len(items)} models; a file or code holds at most {MAX_ITEMS}", field="items", rule=LIMITS
            )
        out = []
        for i, item in enumerate(items):
            if not isinstance(item, dict):
                raise RulesError(f"must be a table, not {type(item).__name__}", field=f"items[{i}]")
            fields = {k: v for k, v in item.items() if k != "system"}
            out.append(_model_from(fields, item.get("system", doc.get("system")), f"items[{i}]."))
        return out
    return _model_from(doc, doc.get("system"), "")


# --------------------------------------------------------------------------- TOML writer
def _toml_ready(v: Any, where: str) -> Any:
    """Return ``v`` with None values of tables left out (TOML has no null); RulesError for a None
    in a list or a value TOML cannot hold, naming where it is."""
    if isinstance(v, dict):
        return {k: _toml_ready(x, f"{where}.{k}" if where else str(k)) for k, x in v.items() if x is not None}
    if isinstance(v, (list, tuple)):
        return [_toml_ready(x, f"{where}[{i}]") for i, x in enumerate(v)]
    if v is None:
        raise RulesError("TOML has no empty value; save as .json to keep a list holding nothing", field=where)
    if isinstance(v, (bool, int, float, str)):
        return v
    raise RulesError(f"cannot write a {type(v).__name__} to TOML", field=where)


def to_toml(doc: dict[str, Any]) -> str:
    """Return plain data as TOML text (written by tomli-w; None values of tables left out: TOML has
    no null; a None in a list is a RulesError)."""
    import tomli_w

    return tomli_w.dumps(_toml_ready(doc, ""))


# --------------------------------------------------------------------------- files
def _suffix(path: Path) -> str:
    suffix = path.suffix.lower()
    if suffix not in _SUFFIXES:
        raise RulesError(f"{path}: use a .toml or .json file, not {suffix or 'no suffix'!r}", field="path")
    return suffix


def _as_path(path: Any) -> Path:
    """Return ``path`` as a Path, or raise RulesError for something that is not a file path."""
    if not isinstance(path, (str, os.PathLike)):
        raise RulesError(f"a file path is text, not {show(path)}", field="path")
    try:
        path = Path(path)
        os.fspath(path).encode("utf-8")
    except (TypeError, ValueError, UnicodeError):
        raise RulesError(f"not a usable file path: {show(path)}", field="path") from None
    if "\0" in os.fspath(path):
        raise RulesError("a file path cannot hold a NUL character", field="path")
    return path


#: bytes of one file name on the usual file systems (ext4, APFS, NTFS: 255), where os.pathconf
#: cannot say
NAME_MAX = 255
#: the rule a refused file name cites
_NAME_RULE = "the file system: at most {n} bytes per file name"


def check_file_name(path: Path) -> Path:
    """Return ``path`` when its file name fits the file system (NAME_MAX bytes, or what
    ``os.pathconf(folder, "PC_NAME_MAX")`` says), else raise RulesError naming ``path`` and the
    limit, before any file is touched (an OSError "File name too long" otherwise)."""
    folder = path.parent if str(path.parent) else Path(".")
    try:
        limit = int(os.pathconf(folder, "PC_NAME_MAX"))
    except (OSError, ValueError, AttributeError):
        limit = NAME_MAX
    size = len(os.fsencode(path.name))
    if size > limit:
        raise RulesError(
            f"the file name is {size} bytes long; a file name may have at most {limit}: {show(path.name, 60)}",
            field="path",
            rule=_NAME_RULE.format(n=limit),
        )
    return path


def _in_file(exc: RulesError, path: Path) -> RulesError:
    err = RulesError(f"{exc.message} (in {path})", field=exc.field, rule=exc.rule)
    err.path = str(path)
    return err


def _os_error(exc: OSError, path: Path, doing: str) -> RulesError:
    """Return a RulesError naming ``path`` for an OSError (disk full, read-only folder, no permission)."""
    reason = exc.strerror or str(exc) or type(exc).__name__
    err = RulesError(f"cannot {doing} {path}: {reason}", field="path")
    err.path = str(path)
    return err


#: temporary files of :func:`save` are ``.NAME.wb-PID-NONCE-MARK.tmp`` beside the target: MARK is
#: :func:`_mark` of (NAME, PID, NONCE), so a user's file can carry a valid one only by computing it
_TMP = re.compile(r"^\.(?P<name>.+)\.wb-(?P<pid>\d{1,10})-(?P<nonce>[0-9a-f]{12})-(?P<mark>[0-9a-f]{16})\.tmp$")
#: what every file save writes begins with (TOML, JSON): a stranded temporary file holds a prefix of it
_HEADS = (b"format_version = ", b'{\n  "format_version": ')


def _mark(name: str, pid: int, nonce: str) -> str:
    """Return the 16 hex digits that mark a temporary file of :func:`save` of ``name`` by process
    ``pid`` with ``nonce``: the start of SHA-256 over the three (a file named like one by chance
    carries the right mark with probability 2**-64)."""
    return hashlib.sha256(f"rules-workbench save\0{name}\0{pid}\0{nonce}".encode()).hexdigest()[:16]


def _stem(name: str) -> str:
    """Return how a temporary file of :func:`save` names its target ``name``: the name itself, or,
    past 180 bytes, its first 60 characters and a hash of it (so the temporary file's name stays
    within NAME_MAX bytes whenever the target's does)."""
    if len(os.fsencode(name)) <= 180:
        return name
    return f"{name[:60]}~{hashlib.sha256(os.fsencode(name)).hexdigest()[:16]}"


def _temporary_name(name: str) -> str:
    """Return the name of a new temporary file of :func:`save` of the file ``name`` (marked)."""
    pid, nonce, stem = os.getpid(), secrets.token_hex(6), _stem(name)
    return f".{stem}.wb-{pid}-{nonce}-{_mark(stem, pid, nonce)}.tmp"


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True


def _written_by_save(entry: os.DirEntry, name: str | None, heads: tuple[bytes, ...] = _HEADS) -> bool:
    """Return True when ``entry`` is a temporary file that a save of ``name`` (None: of any name)
    wrote and its process left behind: its name carries the mark of (name, pid, nonce)
    (:func:`_mark`), its process is gone, it is a plain file (not a link), and what it holds is a
    prefix of what such a save writes (empty, or starting with one of ``heads``: a TOML or JSON
    save by default). Anything less is kept: never removed by its name alone."""
    m = _TMP.match(entry.name)
    if m is None or (name is not None and m.group("name") != _stem(name)):
        return False
    pid = int(m.group("pid"))
    if m.group("mark") != _mark(m.group("name"), pid, m.group("nonce")) or _alive(pid):
        return False
    try:
        if not entry.is_file(follow_symlinks=False):
            return False
        with open(entry.path, "rb") as fh:
            head = fh.read(max(map(len, heads)))
    except OSError:
        return False
    return any(h.startswith(head) or head.startswith(h) for h in heads)


def _clean_stale(folder: Path, name: str) -> None:
    """Remove the temporary files of earlier saves of ``name`` that a crash or a kill mid-save
    stranded, and only those (:func:`_written_by_save`); a save under way in a live process keeps
    its own, and a user's file named like one survives."""
    remove_stranded(folder, name)


def temporary_beside(path: Path) -> Path:
    """Return a new marked temporary path beside ``path`` (``.NAME.wb-PID-NONCE-MARK.tmp``): where
    a writer puts ``path``'s content before renaming it over ``path``, and which
    :func:`remove_stranded` can later prove it wrote."""
    return path.with_name(_temporary_name(path.name))


def remove_stranded(folder: Path, name: str | None = None, heads: tuple[bytes, ...] = _HEADS) -> int:
    """Remove from ``folder`` the temporary files of :func:`temporary_beside` (of the file ``name``,
    or of any when None) whose writer is gone and whose content starts as ``heads`` say
    (:func:`_written_by_save`); return how many. A file is never removed by its name alone."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return 0
    removed = 0
    for e in entries:
        if _written_by_save(e, name, heads):
            try:
                os.unlink(e.path)
                removed += 1
            except OSError:
                pass
    return removed


def _new_file_mode() -> int:
    """Return the mode a plain ``open(path, "w")`` gives a new file: 0o666 less the umask."""
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def save(obj: Any, path: str | os.PathLike) -> Path:
    """Write a model (or a list of models) to ``path`` as TOML or JSON (by suffix) and return the path.

    Atomic: the text goes to a temporary file ``.NAME.wb-PID-NONCE-MARK.tmp`` in the target's folder,
    is fsynced, then replaces the target with ``os.replace``; a failure (disk full, read-only
    folder) raises RulesError naming the path and leaves any existing file untouched. A symlink
    is followed: its target is replaced, the link stays. An existing file keeps its permission
    bits; a new one gets the usual 0o666 less the umask. Temporary files stranded by a killed
    save are removed by the next save of the same file, only when it can prove it wrote them (their
    name's MARK, a hash of name, pid and nonce; their process gone; their content the start of a
    saved file): a user's file named like one is never removed.
    """
    path = check_file_name(_as_path(path))
    suffix = _suffix(path)
    try:
        data = dumps(obj, suffix)
    except RulesError as exc:
        raise _in_file(exc, path) from None
    except UnicodeEncodeError as exc:
        raise _in_file(RulesError(f"holds text that is not UTF-8 ({exc.reason})", field="obj"), path) from None
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    if target.is_dir():
        raise RulesError(f"{path} is a folder, not a file", field="path")
    folder = target.parent if str(target.parent) else Path(".")
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        mode = _new_file_mode()
    except OSError as exc:
        raise _os_error(exc, path, "save to") from None
    _clean_stale(folder, target.name)
    tmp = folder / _temporary_name(target.name)
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o600)
    except OSError as exc:
        raise _os_error(exc, path, "save to") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            os.fchmod(fh.fileno(), mode)
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise _os_error(exc, path, "save") from None
        raise
    try:  # make the rename itself durable
        dfd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    except OSError:
        pass
    return path


def _read_regular(path: Path) -> bytes:
    """Return the bytes of ``path`` if it is a regular file of at most MAX_FILE_BYTES.

    A FIFO, a device (/dev/urandom), a socket or a folder is refused before it is read; the file
    is opened non-blocking and checked again on the open descriptor, so a swap after the check
    cannot make the read block.
    """
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise RulesError(f"no such file: {path}", field="path") from None
    except (OSError, ValueError) as exc:
        raise RulesError(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}", field="path") from None
    if not stat.S_ISREG(st.st_mode):
        what = "a folder" if stat.S_ISDIR(st.st_mode) else "not a regular file (a pipe, device or socket)"
        raise RulesError(f"{path} is {what}; only regular files are read", field="path")
    if st.st_size > MAX_FILE_BYTES:
        raise RulesError(
            f"{path} is {st.st_size} bytes; a workbench file is at most {MAX_FILE_BYTES}", field="path", rule=LIMITS
        )
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise RulesError(f"cannot read {path}: {exc.strerror or exc}", field="path") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise RulesError(f"{path} is not a regular file; only regular files are read", field="path")
        chunks, total = [], 0
        while total <= MAX_FILE_BYTES:
            chunk = os.read(fd, min(1 << 16, MAX_FILE_BYTES + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError as exc:
        raise RulesError(f"cannot read {path}: {exc.strerror or exc}", field="path") from None
    finally:
        os.close(fd)
    if total > MAX_FILE_BYTES:
        raise RulesError(
            f"{path} is over {MAX_FILE_BYTES} bytes; a workbench file is at most that", field="path", rule=LIMITS
        )
    return b"".join(chunks)


def _toml_shape(text: str) -> None:
    """Raise RulesError if TOML ``text`` nests arrays and tables deeper than MAX_NESTING or has a
    dotted key or table header of more than MAX_NESTING parts (tomllib takes quadratic time on a
    header of 100,000 dotted keys). One linear scan that skips strings and comments."""
    n, i = len(text), 0
    stack: list[str] = []
    key_mode, dots = True, 0

    def deep() -> RulesError:
        return RulesError(
            f"nests tables, arrays or dotted keys more than {MAX_NESTING} deep", field="path", rule=LIMITS
        )

    while i < n:
        c = text[i]
        if c in "\"'":
            triple = text.startswith(c * 3, i)
            if triple:
                end = text.find(c * 3, i + 3)
                while c == '"' and end != -1 and _escaped(text, end):
                    end = text.find(c * 3, end + 1)
                i = n if end == -1 else end + 3
                while i < n and text[i] == c:  # up to two quotes may close the string's content
                    i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if (c == '"' and text[j] == "\\") else 1
            i = j + 1
            continue
        if c == "#":
            j = text.find("\n", i)
            i = n if j == -1 else j
            continue
        if c == "\n":
            if not stack:
                key_mode, dots = True, 0
        elif key_mode:
            if c == ".":
                dots += 1
                if dots >= MAX_NESTING:
                    raise deep()
            elif c == "=":
                key_mode = False
        else:
            if c in "[{":
                stack.append(c)
                if len(stack) > MAX_NESTING:
                    raise deep()
                if c == "{":
                    key_mode, dots = True, 0
            elif c in "]}":
                if stack:
                    stack.pop()
            elif c == "," and stack and stack[-1] == "{":
                key_mode, dots = True, 0
        i += 1


def _escaped(text: str, pos: int) -> bool:
    """Return True when the character at ``pos`` is preceded by an odd number of backslashes."""
    k = pos - 1
    while k >= 0 and text[k] == "\\":
        k -= 1
    return (pos - 1 - k) % 2 == 1


def _check_depth(doc: Any) -> None:
    """Raise RulesError if parsed data nests deeper than MAX_NESTING (iteratively, no recursion)."""
    todo = [(doc, 1)]
    while todo:
        value, depth = todo.pop()
        if isinstance(value, (dict, list)):
            if depth > MAX_NESTING:
                raise RulesError(f"nests tables and lists more than {MAX_NESTING} deep", field="document", rule=LIMITS)
            todo.extend((v, depth + 1) for v in (value.values() if isinstance(value, dict) else value))


def _parse(text: str, suffix: str) -> Any:
    """Return the parsed TOML or JSON ``text``: bounded in nesting, RulesError (field "path") if malformed."""
    kind = "TOML" if suffix == ".toml" else "JSON"
    if suffix == ".toml":
        _toml_shape(text)
    try:
        doc = tomllib.loads(text) if suffix == ".toml" else json.loads(text)
    except RecursionError:
        raise RulesError(f"nests tables and lists more than {MAX_NESTING} deep", field="path", rule=LIMITS) from None
    except (tomllib.TOMLDecodeError, ValueError) as exc:  # ValueError: e.g. a number of over 4,300 digits
        reason = str(exc) if len(str(exc)) <= 300 else str(exc)[:297] + "..."
        raise RulesError(f"is not valid {kind}: {reason}", field="path") from None
    _check_depth(doc)
    return doc


def dumps(obj: Any, suffix: str = ".toml") -> bytes:
    """Return the bytes :func:`save` writes for ``obj`` in a ``suffix`` (".toml" or ".json") file:
    the file's content without the file (for a browser download)."""
    if suffix not in _SUFFIXES:
        raise RulesError(f"use .toml or .json, not {suffix!r}", field="suffix")
    doc = to_document(obj)
    text = to_toml(doc) if suffix == ".toml" else json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    return text.encode("utf-8")


def loads(data: bytes, name: str = "upload.toml") -> Any:
    """Return the model (or list of models) in the bytes of a TOML or JSON file called ``name``
    (its suffix picks the format): :func:`load` without the file (a browser upload), with the same
    bounds (at most MAX_FILE_BYTES, UTF-8) and errors naming ``name`` and the field."""
    path = _as_path(name)
    suffix = _suffix(path)
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise RulesError(f"expected the file's bytes, not {type(data).__name__}", field="data")
    raw = bytes(data)
    if len(raw) > MAX_FILE_BYTES:
        raise RulesError(
            f"{name} is {len(raw):,} bytes; a file of models is at most {MAX_FILE_BYTES:,}", field="path", rule=LIMITS
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise RulesError(f"{name} is not UTF-8 text", field="path") from None
    try:
        return from_document(_parse(text, suffix))
    except RulesError as exc:
        raise _in_file(exc, path) from None


def load(path: str | os.PathLike) -> Any:
    """Return the model (or list of models) saved in a TOML or JSON file, validated by its system.

    Only a regular file of at most MAX_FILE_BYTES (1 MiB) is read, nested at most MAX_NESTING
    deep. A malformed file, an unknown field, a wrong type, an illegal build or an unknown system
    raise RulesError naming the file and the field.
    """
    path = _as_path(path)
    suffix = _suffix(path)
    raw = _read_regular(path)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise RulesError(f"{path} is not UTF-8 text", field="path") from None
    try:
        doc = _parse(text, suffix)
        return from_document(doc)
    except RulesError as exc:
        raise _in_file(exc, path) from None


# --------------------------------------------------------------------------- share codes
def share_code(obj: Any) -> str:
    """Return a short text code ("wb1:...") that recreates ``obj`` exactly with :func:`from_share_code`."""
    doc = to_document(obj)
    doc.pop("format_version")
    try:
        raw = json.dumps(doc, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError as exc:
        raise RulesError(f"holds text that is not UTF-8 ({exc.reason})", field="obj") from None
    return SHARE_PREFIX + base64.urlsafe_b64encode(zlib.compress(raw, 9)).rstrip(b"=").decode("ascii")


def _inflate(packed: bytes) -> bytes:
    """Return the zlib stream ``packed`` inflated, stopping at MAX_DOCUMENT_BYTES (RulesError past
    it: the bound holds before decompression completes, so a small code cannot inflate to 1 GB)."""
    z = zlib.decompressobj()
    out = z.decompress(packed, MAX_DOCUMENT_BYTES + 1)
    if len(out) > MAX_DOCUMENT_BYTES or z.unconsumed_tail:
        raise RulesError(
            f"the share code inflates to over {MAX_DOCUMENT_BYTES} bytes; no model needs that",
            field="code",
            rule=LIMITS,
        )
    out += z.flush()
    if not z.eof or z.unused_data or len(out) > MAX_DOCUMENT_BYTES:
        raise zlib.error("incomplete or trailing data")
    return out


def from_share_code(code: str) -> Any:
    """Return the model (or list of models) a share code describes; RulesError if corrupt or foreign.

    A code is at most MAX_SHARE_CODE characters and inflates to at most MAX_DOCUMENT_BYTES of JSON,
    nested at most MAX_NESTING deep.
    """
    if not isinstance(code, str):
        raise RulesError(f"a share code is text, not {type(code).__name__}", field="code")
    if len(code) > MAX_SHARE_CODE + 1000:  # before strip(): whitespace around a code is allowed, not megabytes
        raise RulesError(
            f"a share code is at most {MAX_SHARE_CODE} characters, not {len(code)}", field="code", rule=LIMITS
        )
    code = code.strip()
    if not code.startswith(SHARE_PREFIX):
        raise RulesError(f"not a workbench share code (they start with {SHARE_PREFIX!r})", field="code")
    if len(code) > MAX_SHARE_CODE:
        raise RulesError(
            f"a share code is at most {MAX_SHARE_CODE} characters, not {len(code)}", field="code", rule=LIMITS
        )
    body = code[len(SHARE_PREFIX) :]
    try:
        packed = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        if base64.urlsafe_b64encode(packed).rstrip(b"=").decode("ascii") != body:
            raise ValueError("non-canonical base64")
        text = _inflate(packed).decode("utf-8")
    except RulesError:  # the inflation bound (RulesError is a ValueError: let it through as it is)
        raise
    except (ValueError, binascii.Error, zlib.error, UnicodeError):
        raise RulesError("the share code is corrupted (incomplete or altered); copy it again", field="code") from None
    try:
        doc = _parse(text, ".json")
    except RulesError as exc:
        raise RulesError(f"the share code is corrupted: {exc.message}", field="code", rule=exc.rule) from None
    if not isinstance(doc, dict):
        raise RulesError("the share code does not hold a workbench model", field="code")
    try:
        return from_document(doc)
    except RulesError as exc:
        raise RulesError(
            f"the share code holds an invalid model: {exc.message}", field=exc.field, rule=exc.rule
        ) from None
