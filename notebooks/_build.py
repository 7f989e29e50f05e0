"""Execute the numbered notebooks top to bottom and save them with fresh, clean outputs.

    .venv/bin/python notebooks/_build.py [name ...]

A notebook with a readable source in ``src/<name>.py`` (percent format: ``# %%`` starts a code
cell, ``# %% [markdown]`` a markdown cell whose lines are ``# ``-commented, ``# %% hide`` a code
cell whose source JupyterLab shows folded) is first rebuilt from that source, so the .py file is the
one to edit.

Outputs come from one clean kernel run (so execution counts are in order), and saved widget state
is stripped (it bloats the file and goes stale), except in the lessons (``*-lesson-*``), whose only
widgets are one small control per rule: kept, the control shows before the notebook runs. nbval then
checks the saved text outputs.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

HERE = Path(__file__).resolve().parent
SRC = HERE / "src"


def _uncomment(line: str) -> str:
    if line.startswith("# "):
        return line[2:]
    return "" if line.strip() == "#" else line


def from_percent(text: str) -> nbformat.NotebookNode:
    """Return a notebook whose cells are the ``# %%`` blocks of ``text`` (blank edges trimmed)."""
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
    nb.metadata["language_info"] = {"name": "python"}
    kind, lines, hidden = None, [], False

    def flush() -> None:
        body = "\n".join(lines).strip("\n")
        if kind == "markdown":
            nb.cells.append(nbformat.v4.new_markdown_cell(body))
        elif kind == "code" and body:
            nb.cells.append(nbformat.v4.new_code_cell(body))
            if hidden:
                nb.cells[-1].metadata["jupyter"] = {"source_hidden": True}

    for line in text.splitlines():
        if line.startswith("# %%"):
            flush()
            kind, lines = ("markdown" if "[markdown]" in line else "code"), []
            hidden = line.split("%%", 1)[1].split() == ["hide"]
        elif kind == "markdown":
            lines.append(_uncomment(line))
        elif kind == "code":
            lines.append(line)
    flush()
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"cell-{i:03d}"
    return nb


def build(path: Path) -> None:
    src = SRC / f"{path.stem}.py"
    nb = from_percent(src.read_text()) if src.exists() else nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(HERE)}}).execute()
    nb.metadata.pop("widgets", None)  # no saved widget state: the outputs keep their saved pictures
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
    nbformat.write(nb, path)
    print(f"built {path.name}")


if __name__ == "__main__":
    names = sys.argv[1:] or sorted({p.name for p in HERE.glob("*.ipynb")}
                                   | {f"{p.stem}.ipynb" for p in SRC.glob("*.py")})
    for name in names:
        build(HERE / name)
