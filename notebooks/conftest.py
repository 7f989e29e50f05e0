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

