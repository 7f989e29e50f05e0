"""The address of the page a notebook's widgets are shown in, read in the browser.

Voilà hands a page's query string to the kernel (``QUERY_STRING``); JupyterLite cannot: its kernel
runs in a web worker that never sees the page's address. :class:`PageQuery` is an invisible widget
whose JavaScript sets its ``query`` trait to the page's ``location.search`` (``"?path=app.ipynb&
setup=wb1:..."``) as soon as the front end creates it, in Lab, Voilà and JupyterLite alike; the app
notebook of the JupyterLite site (lite/build.py) opens a share link's setup from it
(:meth:`widgets.app.Workbench.open_setup`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import anywidget
import traitlets as T

__all__ = ["PageQuery", "follow_setup_link"]

_ESM = """
function send(model) {
  if (model.get("query") !== window.location.search) {
    model.set("query", window.location.search);
    model.save_changes();
  }
}
export default {
  initialize({ model }) { send(model); },
  render({ model, el }) { el.style.display = "none"; send(model); },
};
"""


class PageQuery(anywidget.AnyWidget):
    """An invisible widget whose ``query`` is the query string of the page showing it ("" until
    the front end has sent it)."""

    _esm = _ESM
    query = T.Unicode("", help="the page's location.search, set by the browser").tag(sync=True)


def follow_setup_link(app: Any, page: PageQuery | None = None) -> PageQuery:
    """Open on ``app`` (a Workbench) the setup of ``?setup=wb1:...`` in the page's address once the
    browser has sent it; return the PageQuery (display it beside the app)."""
    from .app import setup_from_query

    page = PageQuery() if page is None else page
    seen: set[str] = set()

    def opened(change: dict[str, Any]) -> None:
        code = setup_from_query(change["new"])
        if code and code not in seen:
            seen.add(code)
            app.open_setup(code)

    handler: Callable[[dict[str, Any]], None] = app.guard(opened)
    page.observe(handler, names="query")
    if page.query:
        handler({"new": page.query})
    return page
