"""A stand-in for ``rfc3987_syntax`` that imports it only when an IRI is validated.

``import altair`` imports jsonschema, whose format module eagerly imports ``rfc3987_syntax`` (when
installed, as Jupyter's ``jsonschema[format-nongpl]`` installs it), and that module compiles about
35 Lark Earley parsers at import: measured 3.0 s of a 4.5 s ``import widgets`` on this machine
(known upstream: python-jsonschema/jsonschema#1428, jupyter-server/jupyter_server#1559). Its only
use there is checking the JSON-schema formats "iri" and "iri-reference", which no Vega-Lite schema
uses (its formats are color-hex, uri and uri-reference).

Importing this module (``import workbench`` does, first) calls :func:`install`: before jsonschema's format module first loads, it puts
a stand-in module under that name. Its ``is_valid_syntax`` (the one name jsonschema imports)
imports the real package on the first call and forwards to it, and any other attribute does the
same (PEP 562 ``__getattr__``), so jsonschema still registers and runs its "iri" checks and other
users of the package see the real one: only the moment the grammar is compiled changes. Nothing
is done if jsonschema's format module or the package is already loaded, or it is not installed,
or the environment variable ``WB_NO_IRI_STAND_IN`` is set to anything but ``""`` or ``"0"`` (the
opt-out for a process that wants the real module in ``sys.modules`` from the start).
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import types
from typing import Any

__all__ = ["install", "NAME", "OPT_OUT"]

NAME = "rfc3987_syntax"
#: set to anything but "" or "0", the stand-in is not installed
OPT_OUT = "WB_NO_IRI_STAND_IN"


def _real() -> types.ModuleType:
    """Return the real package, imported now in place of the stand-in."""
    if sys.modules.get(NAME) is _STAND_IN:
        del sys.modules[NAME]
    return importlib.import_module(NAME)


def _is_valid_syntax(*args: Any, **kwargs: Any) -> Any:
    """Return ``rfc3987_syntax.is_valid_syntax(*args, **kwargs)`` of the real package."""
    return _real().is_valid_syntax(*args, **kwargs)


def _getattr(name: str) -> Any:
    if name.startswith("__"):  # import machinery probing the module: not a use of the package
        raise AttributeError(name)
    return getattr(_real(), name)


_STAND_IN = types.ModuleType(NAME, "stand-in for rfc3987_syntax until it is used (workbench.iri_stand_in)")
_STAND_IN.is_valid_syntax = _is_valid_syntax  # type: ignore[attr-defined]
_STAND_IN.__getattr__ = _getattr  # type: ignore[method-assign]


def install() -> bool:
    """Put the stand-in in place if jsonschema's format module has not loaded yet and the real
    package is installed and ``$WB_NO_IRI_STAND_IN`` does not opt out; return whether it did."""
    if os.environ.get(OPT_OUT, "") not in ("", "0"):
        return False
    if "jsonschema._format" in sys.modules or NAME in sys.modules:
        return False
    if importlib.util.find_spec(NAME) is None:
        return False
    sys.modules[NAME] = _STAND_IN
    return True


install()
