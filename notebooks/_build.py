"""Execute the numbered notebooks top to bottom and save them with fresh, clean outputs.

    .venv/bin/python notebooks/_build.py [name ...]

Outputs come from one clean kernel run (so execution counts are in order), and saved widget state
is stripped (it bloats the file and goes stale). nbval then checks the saved text outputs.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

HERE = Path(__file__).resolve().parent


def build(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(HERE)}}).execute()
    nb.metadata.pop("widgets", None)
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
    nbformat.write(nb, path)
    print(f"built {path.name}")


if __name__ == "__main__":
    names = sys.argv[1:] or sorted(p.name for p in HERE.glob("*.ipynb"))
    for name in names:
        build(HERE / name)
