"""A griffe extension for the docs site (mkdocs.yml): the panels install as ``workbench.widgets``
(pyproject.toml's package-dir maps the top-level folder ``widgets/`` there), which griffe, reading
``workbench/`` from the disk, cannot see. Once ``workbench`` is loaded, load the folder as that
subpackage, so ``::: workbench.widgets...`` in the API reference finds it under its installed name."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import griffe

ROOT = Path(__file__).resolve().parents[1]


class PanelsAsInstalled(griffe.Extension):
    def on_package(self, *, pkg: griffe.Module, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        init = ROOT / "widgets" / "__init__.py"
        if pkg.name != "workbench" or "widgets" in pkg.members or not init.is_file():
            return
        # griffe's own loading of a subpackage (relative imports resolve under workbench.widgets)
        pkg.set_member("widgets", loader._load_module("widgets", init, parent=pkg))
