"""Running the ``workbench`` command in the CLI tests: one (attacker, its attack, target) per system
from the bundled catalogs, ``main([...])`` with its output, the one-line error check, catalog look-
ups.
"""

from __future__ import annotations

import workbench as wb
from workbench.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line_error(capsys, *argv, contains=()):
    code, out, err = run(capsys, *argv)
    assert code == 2, (out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("workbench: error: "), err
    assert "Traceback" not in err
    for text in contains:
        assert text in lines[0], lines[0]
    return lines[0]


def creature(system, name):
    return wb.system(system).catalog().creature(name)
