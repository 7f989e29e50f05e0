"""``workbench --version`` and ``workbench.__version__``."""

from __future__ import annotations

import re

import workbench as wb
from tests.cli.running import run


def test_version_flag_prints_the_package_version(capsys):
    code, out, err = run(capsys, "--version")
    assert code == 0 and err == ""
    assert out.strip() == f"workbench {wb.__version__}"
    assert re.fullmatch(r"\d+\.\d+\.\d+", wb.__version__)


def test_version_is_in_the_public_names():
    assert "__version__" in wb.__all__
