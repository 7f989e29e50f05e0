"""Voilà's page (notebooks/app.ipynb) speaks to a visitor: what to do, in the words on screen, no
developer command; its source (notebooks/src/app.py) says the same."""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_app_page_speaks_to_a_visitor():
    nb = json.loads((ROOT / "notebooks" / "app.ipynb").read_text())
    intro = "".join(nb["cells"][0]["source"])
    assert nb["cells"][0]["cell_type"] == "markdown"
    for developer in ("tasks.py", "python3", "pip", "kernel", "notebook"):
        assert developer not in intro, developer
    for words in ("rule system", "Damage", "Pin this build", "Dice box", "Copy link"):
        assert words in intro, words
    src = (ROOT / "notebooks" / "src" / "app.py").read_text()
    assert all(("# " + line if line else "#") in src for line in intro.splitlines())
