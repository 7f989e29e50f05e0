"""Import cycles among workbench/ and widgets/ (installed as workbench.widgets; issue 33, item 4), lazy imports included, read from
the AST (nothing is imported; imports under ``if TYPE_CHECKING:`` are left out).

No module is in an import cycle (KNOWN is empty: a ratchet kept so that a cycle someone must
accept for a while is named, and the test fails on a stale entry too, so it cannot drift), and the
fight's generic code, the plan chooser, the named state and every rule system are in none.
"""

from __future__ import annotations

import ast
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: the modules in an import cycle: none since every rule system describes its round once (2026-12-05)
KNOWN: set[str] = set()

#: never in a cycle: the description's types, the fight's generic code, the ported systems
CLEAN_PREFIXES = ("workbench.fight.chain", "workbench.fight.duel", "workbench.fight.draw", "workbench.fight.round",
                  "workbench.columns", "workbench.plans", "workbench.state_chain", "workbench.chains",
                  "workbench.dist", "workbench.systems.glass_empires", "workbench.systems.unbound",
                  "workbench.systems.last_odyssey", "workbench.model", "workbench.checks", "workbench.fields",
                  "workbench.turn_table", "workbench.work", "workbench.comparison", "workbench.exploration",
                  "workbench.io", "workbench.sweeps", "workbench.rule_variants", "workbench.fight_rows",
                  "workbench.combat", "workbench.simulate", "workbench.policies", "workbench.turns",
                  "workbench.fight", "workbench.systems.base", "workbench.duel_result")


def _packages() -> dict[str, str]:
    """Return {folder: the package it installs as}: pyproject's package-dir maps the folder widgets/
    to ``workbench.widgets``; every other folder is its own name."""
    package_dir = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"]
    return {"workbench": "workbench"} | {folder: package for package, folder in package_dir.items() if package}


def _modules() -> dict[str, Path]:
    mods = {}
    for folder, package in _packages().items():
        for p in (ROOT / folder).rglob("*.py"):
            rel = ".".join((package, *p.relative_to(ROOT / folder).with_suffix("").parts))
            mods[rel.removesuffix(".__init__")] = p
    return mods


def _graph(mods: dict[str, Path]) -> dict[str, set[str]]:
    def resolve(name: str) -> str | None:
        while name and name not in mods:
            name = name.rpartition(".")[0]
        return name or None

    edges: dict[str, set[str]] = {m: set() for m in mods}
    for m, p in mods.items():
        tree = ast.parse(p.read_text(encoding="utf-8"))
        skip = {
            id(n)
            for node in ast.walk(tree)
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
            for n in ast.walk(node)
        }
        pkg = m if p.name == "__init__.py" else m.rpartition(".")[0]
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            targets: list[str | None] = []
            if isinstance(node, ast.Import):
                targets = [resolve(a.name) for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = pkg.split(".")
                    base = ".".join(parts[: len(parts) - node.level + 1] + ([node.module] if node.module else []))
                for a in node.names:
                    full = f"{base}.{a.name}" if base else a.name
                    targets.append(full if full in mods else resolve(base))
            edges[m].update(t for t in targets if t and t != m)
    return edges


def _cycles(edges: dict[str, set[str]]) -> list[set[str]]:
    """Return the strongly connected components of more than one module (Tarjan)."""
    sys.setrecursionlimit(10_000)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = set()
            while True:
                w = stack.pop()
                on.discard(w)
                comp.add(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(comp)

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def test_the_graph_sees_lazy_imports():
    """A function-level import counts (combat imports the fight's duel chain inside ``duel``)."""
    edges = _graph(_modules())
    assert "workbench.fight.duel" in edges["workbench.combat"]
    assert "workbench.fight.chain" in edges["workbench.policies"]


def test_the_panels_are_named_as_installed_and_the_engine_never_imports_them():
    """widgets/ is read as ``workbench.widgets`` (its relative imports resolve there), and no engine
    module imports it."""
    assert _packages() == {"workbench": "workbench", "widgets": "workbench.widgets"}
    edges = _graph(_modules())
    assert {"workbench.widgets.damage", "workbench.widgets.base"} <= edges["workbench.widgets.app"]
    assert not [m for m in edges if m.startswith("widgets")]
    engine = {m: t for m, t in edges.items() if not m.startswith("workbench.widgets")}
    assert not [(m, sorted(t)) for m, t in engine.items() if any(x.startswith("workbench.widgets") for x in t)]


def test_no_new_import_cycle():
    cyclic = set().union(*_cycles(_graph(_modules())))
    assert cyclic - KNOWN == set(), "modules newly in an import cycle"
    assert KNOWN - cyclic == set(), "no longer in a cycle: take them out of KNOWN"
    assert not [m for m in cyclic if m.startswith(CLEAN_PREFIXES)]
