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
