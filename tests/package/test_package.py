"""The package contract: version, registry, lazy imports, the engine never importing widgets."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import workbench as wb

ROOT = Path(__file__).resolve().parents[2]


def test_version_and_registry():
    assert wb.__version__.count(".") == 2
    assert wb.systems() == ["annulus", "unbound", "last_odyssey", "glass_empires"]
    for name in wb.systems():
        s = wb.system(name)
        assert s.name == name and s.title
        for part in ("Creature", "Attack", "Options", "Situation"):
            assert getattr(type(getattr(s, part)), "__name__", None)
        s.Options()  # every option has a default (CLARIFICATIONS.md)
    assert wb.system("Last Odyssey").name == "last_odyssey"


def test_unknown_system_is_a_rules_error_naming_the_field():
    with pytest.raises(wb.RulesError) as err:
        wb.system("gurps")
    assert err.value.field == "system" and "annulus" in str(err.value)


def test_import_is_lazy_and_engine_never_imports_widgets():
    """`import workbench` loads neither polars, altair nor ipywidgets (fast start, one-way data flow)."""
    code = (
        "import sys, workbench as wb; wb.system('annulus'); wb.system('unbound');"
        "wb.system('last_odyssey'); wb.system('glass_empires');"
        "print(sorted(m for m in ('altair', 'ipywidgets', 'widgets') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
    code = "import sys, workbench; print('polars' in sys.modules, 'altair' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


def test_engine_sources_do_not_import_widgets():
    for path in (ROOT / "workbench").rglob("*.py"):
        text = path.read_text()
        assert "import ipywidgets" not in text and "from widgets" not in text, path


def test_ci_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text()
    assert "python3 tasks.py lab" in readme and "python3 tasks.py test" in readme
    assert "python3 tasks.py test" in (ROOT / ".ci" / "run").read_text()


def test_attack_fields_keep_the_documented_positional_order():
    """The generated dataclass __init__ takes the fields in the documented order (docs/systems/*.md):
    Model declares no ClassVar ``kind`` any more (it is ``model_kind``), so no hand-written
    __init__ is needed to keep ``kind`` from moving first."""
    import inspect

    ge, lo = wb.system("glass_empires").Attack, wb.system("last_odyssey").Attack
    assert list(inspect.signature(ge).parameters) == [
        "name", "damage", "kind", "range", "reload", "damage_type", "category", "two_handed", "windgun",
        "dual_pistols", "natural", "source"]
    assert list(inspect.signature(lo).parameters) == [
        "name", "kind", "element", "targets", "status", "nonlethal", "multiplier", "ability_type", "ap_cost",
        "mp_cost", "tags", "anima_cost", "timing", "multiplier_not_full_hp", "spares_creature_types"]
    assert ge("Club", 5, "melee").kind == "melee" and lo("Zap", "spell").kind == "spell"
    from workbench.model import Model

    assert "kind" not in vars(Model)
