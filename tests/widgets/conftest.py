"""Fixtures of the widget tests: ``app``, one Workbench app (Annulus first) per test module."""

from __future__ import annotations

import pytest

from workbench.widgets import Workbench


@pytest.fixture(scope="module")
def app():
    return Workbench("annulus")
