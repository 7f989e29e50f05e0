"""Charts that a saved notebook shows before it runs.

``enable()`` replaces ``alt.renderers.enable("jupyter", offline=True)``: every altair chart a cell
displays is still the live JupyterChart widget (tooltips, offline JavaScript), and its output also
carries a static PNG of the same chart (vl-convert, no network) and a one-line text naming it instead
of ``<altair...JupyterChart object at 0x...>``. JupyterLab shows the PNG until the notebook runs (the
widget needs a kernel), nbconvert and nbviewer show it when no widget state is saved, and GitHub
always shows it; once the cell runs, the live chart takes its place.
"""

from __future__ import annotations

import base64
from typing import Any

import altair as alt

SCALE = 2  # PNG pixels per chart pixel; shown at the chart's own size
MAX_PNG_BYTES = 300_000  # above this, the chart is saved at scale 1


def title_of(spec: dict[str, Any]) -> str:
    """Return the chart's title text (the first layer's, for a layer without one), or ''."""
    title = spec.get("title")
    if isinstance(title, dict):
        title = title.get("text")
    if isinstance(title, list):
        title = " ".join(map(str, title))
    if not title:
        for key in ("layer", "hconcat", "vconcat", "concat"):
            for part in spec.get(key, []) or []:
                if isinstance(part, dict) and (found := title_of(part)):
                    return found
    return str(title or "")


def png_bundle(spec: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Return the chart's PNG as a (data, metadata) pair, displayed at the chart's own width; an
    empty pair without vl-convert-python (JupyterLite: the live chart alone)."""
    try:
        import vl_convert as vlc
    except ImportError:
        return {}, {}

    scale = SCALE
    png = vlc.vegalite_to_png(spec, scale=scale)
    if len(png) > MAX_PNG_BYTES:  # a big chart (hundreds of marks): one pixel per pixel keeps the file small
        scale = 1
        png = vlc.vegalite_to_png(spec, scale=scale)
    width = int.from_bytes(png[16:20], "big") // scale  # from the PNG header
    return {"image/png": base64.b64encode(png).decode("ascii")}, {"image/png": {"width": width}}


def live_with_picture(spec: dict[str, Any], **metadata: Any):
    """The altair renderer: the jupyter renderer's widget bundle, a PNG and a plain-text name."""
    try:
        from altair.vegalite.v6.display import jupyter_renderer
    except ImportError:  # altair 5
        from altair.vegalite.v5.display import jupyter_renderer

    live = jupyter_renderer(spec, **metadata)
    live_meta: dict[str, Any] = {}
    if isinstance(live, tuple):  # (data, metadata)
        live, live_meta = live[0], dict(live[1] or {})
    data, meta = png_bundle(spec)
    meta.update(live_meta)
    title = title_of(spec)
    data.update({k: v for k, v in live.items() if k != "text/plain"})
    data["text/plain"] = f"[chart] {title}" if title else "[chart]"
    return data, meta


def enable() -> None:
    """Display every altair chart as its live widget with a saved PNG beside it (offline)."""
    alt.renderers.register("jupyter+png", live_with_picture)
    from widgets import enable_offline

    # offline when the bundle is in place (cached, or made by vl-convert); without either
    # (JupyterLite) from the CDN: what enable_offline left the chart class with
    enable_offline()
    alt.renderers.enable("jupyter+png", offline=bool(alt.JupyterChart._is_offline))


class WithPicture:
    """A widget displayed live, saved with a picture and a sentence that show until it runs."""

    def __init__(self, widget: Any, picture: str, sentence: str) -> None:
        self.widget, self.picture, self.sentence = widget, picture, sentence

    def _repr_mimebundle_(self, include=None, exclude=None):
        from pathlib import Path

        live = self.widget._repr_mimebundle_()
        if isinstance(live, tuple):
            live = live[0]
        data = {k: v for k, v in live.items() if k != "text/plain"}
        data["text/plain"] = self.sentence
        picture = Path(self.picture)
        if not picture.is_file():  # a copy of notebooks/ without docs/: the sentence alone
            return data
        png = picture.read_bytes()
        width = int.from_bytes(png[16:20], "big")
        data["image/png"] = base64.b64encode(png).decode("ascii")
        return data, {"image/png": {"width": min(width, 1000)}}


def with_picture(widget: Any, picture: str, sentence: str) -> WithPicture:
    """Return ``widget`` to display live, saved with the PNG at ``picture`` and ``sentence``: a
    notebook not yet run (GitHub, nbviewer, JupyterLab on open) shows the picture instead of the
    widget's ``Workbench(children=(...`` text."""
    return WithPicture(widget, picture, sentence)
