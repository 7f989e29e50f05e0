"""Reusable ipywidget panels over the workbench engine (the engine never imports these)."""
