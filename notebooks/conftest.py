"""nbval settings: compare plain text outputs; skip rich outputs that carry random ids."""

SKIP = (
    "text/html",
    "application/javascript",
    "application/vnd.jupyter.widget-view+json",
    "application/vnd.vegalite.v5+json",
    "application/vnd.vegalite.v6+json",
    "image/png",
    "image/svg+xml",
)


def pytest_collectstart(collector):
    if getattr(collector, "path", None) is not None and collector.path.suffix == ".ipynb":
        collector.skip_compare = tuple(getattr(collector, "skip_compare", ())) + SKIP


def pytest_collection_modifyitems(config, items):
    """Keep each notebook's cells on one pytest-xdist worker, in order (they share one kernel)."""
    import pytest

    for item in items:
        path = getattr(item, "path", None)
        if path is not None and path.suffix == ".ipynb":
            item.add_marker(pytest.mark.xdist_group(name=path.name))
