"""The optional dependencies: each imported where it is needed, or a RulesError naming what to install.

``vl-convert-python`` (the ``export`` extra, also in ``lab``) renders charts to PNG and SVG
(:func:`workbench.charts.save_png`, :func:`~workbench.charts.save_svg`) and bundles the chart
JavaScript for offline use (``widgets.enable_offline``). It has no WebAssembly build, so in
Pyodide (JupyterLite) the package runs without it: charts then load their JavaScript from the CDN,
and PNG/SVG export is the one thing missing.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from .errors import RulesError

__all__ = ["vl_convert", "has_vl_convert", "EXPORT_INSTALL"]

#: what to install for PNG/SVG export and offline charts
EXPORT_INSTALL = "pip install 'rules-workbench[export]' (or: pip install vl-convert-python)"


def vl_convert(purpose: str) -> ModuleType:
    """Return the ``vl_convert`` module; raise a RulesError (field ``vl-convert``) saying that
    ``purpose`` needs it and what to install when it cannot be imported."""
    try:
        return importlib.import_module("vl_convert")
    except ImportError as exc:
        raise RulesError(
            f"{purpose} needs the optional package vl-convert-python, which is not installed ({exc}); "
            f"install it with {EXPORT_INSTALL} (it has no build for the browser: not in JupyterLite or Pyodide)",
            field="vl-convert",
        ) from None


def has_vl_convert() -> bool:
    """Return True when ``vl_convert`` can be imported."""
    try:
        importlib.import_module("vl_convert")
    except ImportError:
        return False
    return True
