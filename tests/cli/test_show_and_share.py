"""The ``workbench`` command (workbench/cli.py), run through ``main([...])``: ``show`` and ``share``:
TOML that loads back, codes and saves.
"""

from __future__ import annotations

import workbench as wb
from tests.cli.running import creature, run


def test_show_prints_toml_that_loads_back(capsys, tmp_path):
    code, out, _ = run(capsys, "show", "annulus", "Wolf")
    assert code == 0 and 'model_kind = "creature"' in out
    path = tmp_path / "w.toml"
    path.write_text(out)
    assert wb.load(path) == creature("annulus", "Wolf")


def test_show_code_and_save(capsys, tmp_path):
    code, out, _ = run(capsys, "show", "unbound", "Longsword", "--code")
    assert code == 0
    sword = wb.system("unbound").catalog().attack("Longsword")
    assert wb.from_share_code(out.strip()) == sword
    code, out, err = run(capsys, "show", out.strip(), "--save", str(tmp_path / "s.json"))
    assert code == 0 and wb.load(tmp_path / "s.json") == sword


def test_explain_prints_the_working_and_a_snippet_that_runs(capsys):
    """``workbench explain``: the steps of compare's row and Python that gives its number again."""
    import workbench as wb
    from tests.cli.running import creature, run

    code, out, err = run(capsys, "explain", "glass_empires", "Bear", "Wolf")
    assert code == 0, err
    row = wb.explain(creature("glass_empires", "Bear"), creature("glass_empires", "Wolf"))["row"]
    assert f"{row['mean_rounds']:.3f} rounds" in out and "```python" in out
    snippet = out.split("```python\n", 1)[1].split("```", 1)[0]
    ns: dict = {}
    exec(snippet, ns)  # noqa: S102 - what the command printed for the user to run
    assert abs(ns["mean_rounds"] - row["mean_rounds"]) < 1e-9
