"""The docs pages' Python examples under a standard runner (Sybil, through pytest): ``pytest docs``
runs every ```` ```python ```` block of docs/*.md and docs/systems/*.md in one namespace per page,
``>>>`` examples as doctests (ELLIPSIS), from a fresh temporary folder per page (the examples write
files). The fence closes each example, so its closing line is never read as expected output.

The shown outputs, ```` ```console ```` command runs and file blocks are checked by
tests/docs/test_pages.py (docs/_regenerate.py), which also rewrites them."""

from __future__ import annotations

import doctest
import os
import tempfile

from sybil import Sybil
from sybil.parsers.markdown import PythonCodeBlockParser


def _setup(namespace: dict) -> None:
    namespace["_cwd"] = os.getcwd()
    namespace["_tmp"] = tempfile.TemporaryDirectory(prefix="wb-sybil-")
    os.chdir(namespace["_tmp"].name)


def _teardown(namespace: dict) -> None:
    os.chdir(namespace["_cwd"])
    namespace["_tmp"].cleanup()


pytest_collect_file = Sybil(
    parsers=[PythonCodeBlockParser(doctest_optionflags=doctest.ELLIPSIS)],
    patterns=["*.md"],
    setup=_setup,
    teardown=_teardown,
).pytest()
