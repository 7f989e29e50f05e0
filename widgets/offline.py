"""Offline charts: JupyterChart's JavaScript from the installed packages, bundled once per install.

``alt.JupyterChart.enable_offline()`` asks vl-convert to bundle Vega, Vega-Lite and Vega-Embed into
one script on every kernel start: measured 2.1 s of the app's 4.7 s start here, the single largest
cost before the first chart (issue 17, item 9: "doing the offline set-up once, lazily"). The bundle
depends only on the installed altair and vl-convert, so :func:`enable_offline` keeps it in a cache
file named by a hash of their versions and of the widget source, and later kernels read it (a few
milliseconds). The first chart calls it (lazily: a kernel that draws nothing pays nothing).

The cache folder is ``$WB_CACHE_DIR``, else platformdirs' user cache folder of ``rules-workbench``
(``$XDG_CACHE_HOME/rules-workbench`` or ``~/.cache/rules-workbench`` on Linux, ``~/Library/Caches``
on macOS, ``%LOCALAPPDATA%`` on Windows). A cache that cannot be read or written (read-only home, full disk)
only costs the 2 s: the bundle is then made as altair makes it. Writes are atomic (a temporary
file renamed into place), so two kernels starting at once never read half a bundle.

vl-convert-python is optional (the ``export`` extra; ``lab`` has it): without it and with no bundle
cached, charts load their JavaScript from the CDN as altair's default does. That is the only way in
JupyterLite (vl-convert has no WebAssembly build); anywhere else a warning says what to install, and
``enable_offline(required=True)`` raises a RulesError saying so instead.
"""

from __future__ import annotations

import hashlib
import logging
import os
import secrets
import sys
import warnings
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import altair as alt

from workbench.extras import EXPORT_INSTALL, has_vl_convert, vl_convert

log = logging.getLogger(__name__)

__all__ = ["enable_offline", "cache_dir", "bundle_path"]

_offline: bool | None = None  # None: not set up yet in this kernel; else whether charts are offline


def cache_dir() -> Path:
    """Return the folder of the bundle cache: $WB_CACHE_DIR, else platformdirs' user cache folder
    of rules-workbench (on Linux $XDG_CACHE_HOME/rules-workbench or ~/.cache/rules-workbench)."""
    if os.environ.get("WB_CACHE_DIR"):
        return Path(os.environ["WB_CACHE_DIR"])
    import platformdirs

    return Path(platformdirs.user_cache_dir("rules-workbench", appauthor=False))


def _version(dist: str) -> str:
    try:
        return version(dist)
    except PackageNotFoundError:
        return "unknown"


def bundle_path() -> Path:
    """Return the cache file of the bundle for the installed altair and vl-convert: its name holds a
    hash of both versions and of JupyterChart's source, so an upgrade never reads an old bundle."""
    from altair.jupyter.jupyter_chart import load_js_src

    key = hashlib.sha256(
        "\0".join([_version("altair"), _version("vl-convert-python"), load_js_src()]).encode()
    ).hexdigest()[:20]
    return cache_dir() / f"jupyterchart-offline-{key}.js"


def enable_offline(required: bool = False) -> bool:
    """Make every JupyterChart load its JavaScript from the installed packages, not a CDN (once per
    kernel; the bundle itself once per install, from the cache); return True when charts are
    offline, False when they load from the CDN because vl-convert-python is not installed (with
    ``required``: a RulesError naming what to install instead)."""
    global _offline
    if _offline is not None and (_offline or not required):
        return _offline
    cls = alt.JupyterChart
    path = bundle_path()
    try:
        cached = path.read_text(encoding="utf-8")
    except (OSError, UnicodeError):
        cached = ""
    if cached:
        # what altair's enable_offline sets, read from the cache instead of bundled again
        cls._esm = cached
        cls._is_offline = True
    elif required or has_vl_convert():
        vl_convert("offline charts (the chart JavaScript bundled from the installed packages)")
        cls.enable_offline()
        _write(path, cls._esm)
    else:
        if sys.platform != "emscripten":  # in the browser the CDN is the way; elsewhere say so
            warnings.warn(
                "charts load their JavaScript from the CDN (they need the network): vl-convert-python, which "
                f"bundles it for offline use, is not installed; {EXPORT_INSTALL}",
                stacklevel=2,
            )
        _offline = False
        return False
    _offline = True
    return True


def _write(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically; log and go on if the cache cannot be written."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}-{secrets.token_hex(4)}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except OSError as exc:
        log.info("chart bundle not cached (%s): the next kernel bundles it again", exc)
        try:
            tmp.unlink()
        except OSError:
            pass
