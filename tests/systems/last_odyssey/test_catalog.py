"""Last Odyssey catalog: the published data converted, a malformed file naming file and field, 10,000
catalog matchups in one call (last-odyssey-attacks.txt,
/work/shared/data/last_odyssey_creatures.toml; CLARIFICATIONS.md, Last Odyssey).
"""

from __future__ import annotations

import tomllib

import polars as pl
import pytest

from tests.systems.last_odyssey.published import CAT, DATA, LO
from workbench import RulesError
from workbench.systems.last_odyssey.catalog import from_published, load_catalog


def test_catalog_is_the_published_data_converted():
    """All 40 published stat lines, validated; several elements, heroes and warriors, >= 12 abilities."""
    published = tomllib.loads(DATA.read_text())["creature"]
    assert len(CAT.creatures) == len(published) == 40
    for rec in published:
        ours = CAT.creature(rec["name"])
        assert ours == LO.Creature.from_dict(from_published(rec))
        assert ours.hp == rec["hp"] and ours.evasion == rec["evasion"] and ours.tier == rec["tier"]
        assert LO.actions_per_turn(ours) == rec["action_points"]  # published AP = the tier rule
    assert {x.record_type for x in CAT.creatures.values()} == {"warrior", "hero", "antagonist_form"}
    assert len({x.element for x in CAT.creatures.values()} - {None}) == 9
    assert len(CAT.attacks) >= 12
    assert {a.kind for a in CAT.attacks.values()} == {"strike", "spell", "sleight"}


def test_malformed_catalog_file_names_file_and_field(tmp_path):
    bad = tmp_path / "creatures.toml"
    bad.write_text('[[creature]]\nname = "Oops"\nhp = 5\nelement = "Plasma"\n')
    with pytest.raises(RulesError) as info:
        load_catalog(bad)
    assert "creatures.toml" in str(info.value) and info.value.field == "creature[0].element"
    bad.write_text('[[creature]]\nname = "Oops"\nhp = -5\n')
    with pytest.raises(RulesError, match="hp"):
        load_catalog(bad)


def test_ten_thousand_matchups_in_one_call():
    """10,000 catalog matchups resolve in one vectorised call; each sums to 1 (its speed: benchmarks/)."""
    creatures = list(CAT.creatures.values())
    rows = []
    i = 0
    while len(rows) < 10_000:
        u, t = creatures[i % 40], creatures[(7 * i + 3) % 40]
        a = u.abilities[i % len(u.abilities)]
        rows.append((a, u, t))
        i += 1
    a, u, t = zip(*rows)
    table = LO.outcome_tables(a, u, t, situation=LO.Situation(target_row="front"))
    sums = table.group_by("matchup").agg(pl.col("probability").sum())
    assert sums.height == 10_000
    assert (sums["probability"] - 1.0).abs().max() < 1e-12


def test_the_ability_counts_stated_in_the_docs_are_the_catalogs():
    """README.md and docs/systems/last_odyssey.md state the catalog's counts: 40 creatures, 87 turn-action
    abilities, 3 played between rounds, 90 in all, 71 distinct names, and the lookup keys (152, not abilities).
    Each number is read from the text and compared with the catalog, so the docs cannot drift."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    actions = sum(len(x.abilities) for x in CAT.creatures.values())
    phase = sum(len(x.phase_abilities) for x in CAT.creatures.values())
    names = {a.name for x in CAT.creatures.values() for a in (*x.abilities, *x.phase_abilities)}
    readme = next(line for line in (root / "README.md").read_text().splitlines() if "last-odyssey-attacks.txt" in line)
    got = re.search(
        r"(\d+) published creatures, (\d+) attack abilities used as turn actions and (\d+) played between rounds"
        r" \(Miasma, Dragonslayer, Foretell Doom\): (\d+) in all, (\d+) distinct names",
        readme,
    )
    assert got is not None, readme
    assert tuple(map(int, got.groups())) == (len(CAT.creatures), actions, phase, actions + phase, len(names))
    assert (actions, phase) == (87, 3)
    doc = " ".join((root / "docs/systems/last_odyssey.md").read_text().split())
    got = re.search(r"(\d+) creature abilities, (\d+) distinct names\. (\d+) are turn actions", doc)
    assert got is not None and tuple(map(int, got.groups())) == (actions + phase, len(names), actions)
    got = re.search(r"\((\d+) keys for the (\d+) abilities\)", doc)
    assert got is not None and tuple(map(int, got.groups())) == (len(CAT.attacks), actions + phase)
