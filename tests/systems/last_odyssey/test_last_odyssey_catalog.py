"""Last Odyssey with the real creatures of shared/data/last_odyssey_creatures.toml (the bundled
catalog), hand-worked from their published stat lines; catalog loading and a 10,000-matchup run."""

from __future__ import annotations

import time
import tomllib
from pathlib import Path

import polars as pl
import pytest

import workbench as wb
from workbench import RulesError
from workbench.systems.last_odyssey.catalog import from_published, load_catalog

LO = wb.system("last_odyssey")
CAT = LO.catalog()
DATA = Path("/work/shared/data/last_odyssey_creatures.toml")


def c(name):
    return CAT.creature(name)


def p(table, **where):
    expr = pl.lit(True)
    for k, v in where.items():
        expr = expr & (pl.col(k) == v)
    return table.filter(expr)["probability"].sum()


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


def test_cop_truncheon_against_skirmisher():
    """Cop (PAcc 4, PA 4) vs Skirmisher (Evasion 2, PD 1, Wood Shell 5): die − 4 + 2 <= 7 ⇔ die <= 9;
    base 3 + die, ×1 (Shell active), colorless; mean (4 + ... + 12) / 10 = 7.2."""
    table = LO.outcomes(c("Cop").ability("Truncheon"), c("Cop"), c("Skirmisher"))
    assert p(table, hit=True) == pytest.approx(0.9, abs=1e-12)
    assert LO.damage(c("Cop").ability("Truncheon"), c("Cop"), c("Skirmisher")).mean() == pytest.approx(7.2, abs=1e-12)
    # the Shell (5) takes damage first; HP is reached at damage >= 6, i.e. die 3..9
    assert p(table.filter(pl.col("hp_damage") > 0)) == pytest.approx(0.7, abs=1e-12)


def test_blacksmith_heated_strike_melts_the_ghost():
    """Heated Strike (Fire) vs Ghost (Ice Shell 14): always hits (die − 6 + 3 <= 7); base 5 + die;
    Fire vs Ice ×4, strike vs Shell ×1: 24..60, mean 42; Ghost's Health 6 + 14 = 20 always lost."""
    d = LO.damage(c("Blacksmith").ability("Heated Strike"), c("Blacksmith"), c("Ghost"))
    assert (d.min(), d.max()) == (24, 60) and d.mean() == pytest.approx(42.0, abs=1e-12)
    assert d.sf(LO.health(c("Ghost"))) == pytest.approx(1.0, abs=1e-12)


def test_ice_immune_wraith_takes_nothing_from_ice():
    """Wraith is immune to Ice damage: Ghost's Bonechill hits (die − 6 + 4 <= 7 ⇔ die <= 9) for 0."""
    table = LO.outcomes(c("Ghost").ability("Bonechill"), c("Ghost"), c("Wraith"))
    assert p(table, hit=True) == pytest.approx(0.9, abs=1e-12)
    assert table["damage"].max() == 0


def test_black_mage_fire_missile_against_troll_shell_and_broken():
    """Fire Missile (×2) vs Troll: base 18 − 3 + die; Shell up: ×2 (ability) ×2 (spell vs Shell)
    ×4 (Fire vs the Ice Shell) = ×16 → 256..400; Shell broken: ×2 ×4 (Troll is Ice) = ×8 → 128..200."""
    mage, troll = c("Black Mage"), c("Troll")
    missile = mage.ability("Fire Missile")
    up = LO.damage(missile, mage, troll)
    broken = LO.damage(missile, mage, troll, situation=LO.Situation(target_shell_points=0))
    assert (up.min(), up.max(), up.mean()) == (256, 400, pytest.approx(16 * 20.5))
    assert (broken.min(), broken.max(), broken.mean()) == (128, 200, pytest.approx(8 * 20.5))


def test_status_immunity_from_the_stat_lines():
    """Wraith's Bonechill (SA 8) lands on Malachi (Resistance 0: die − 8 <= 5 always) and never on
    the Frostbitten-immune Troll; Paladin is immune to Taunted."""
    bone = c("Wraith").ability("Bonechill")
    assert p(LO.outcomes(bone, c("Wraith"), c("Malachi")), status=True) == pytest.approx(1.0)
    assert p(LO.outcomes(bone, c("Wraith"), c("Troll")), status=True) == 0.0
    tarbh = c("Ser Tarbh of Greenhill, Form 1: War Leader")
    assert p(LO.outcomes(tarbh.ability("Challenge"), tarbh, c("Paladin")), status=True) == 0.0
    # vs Gunner (Resistance 2): die − 10 + 2 <= 5 always
    assert p(LO.outcomes(tarbh.ability("Challenge"), tarbh, c("Gunner")), status=True) == pytest.approx(1.0)


def test_cleave_against_two_heroes_is_one_die():
    """Ser Tarbh's Cleave (PAcc 10, PA 10) vs Malachi (Ev 1, PD 1) and Shae (Ev 3, PD 2), no Shells:
    both always hit; total = 2(9 + d) + 2(8 + d) = 34 + 4d, ten distinct totals, mean 56."""
    tarbh = c("Ser Tarbh of Greenhill, Form 1: War Leader")
    t = LO.multi_target_outcomes(tarbh.ability("Cleave"), tarbh, [c("Malachi"), c("Shae")])
    assert sorted(t["damage"].to_list()) == [34 + 4 * d for d in range(1, 11)]
    assert (t["damage"] * t["probability"]).sum() == pytest.approx(56.0, abs=1e-12)
    # correlated through the die: the two targets' damages always differ by exactly 2
    assert ((t["damage_0"] - t["damage_1"]) == 2).all()


def test_troll_turn_plans_spend_two_action_points():
    """Troll (tier 4, 2 AP): Stomp costs 2 AP, Bash (×2) costs 1; the full turns are Stomp or Bash + Bash."""
    plans = LO.turn_plans(c("Troll"), c("Malachi"))
    assert set(plans) == {"Stomp", "Bash + Bash"}
    bash = LO.damage(c("Troll").ability("Bash"), c("Troll"), c("Malachi"))
    assert plans["Bash + Bash"].isclose(bash + bash)
    assert LO.actions_per_turn(c("Azkhan the Peerless")) == 3


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
    """10,000 catalog matchups resolve in one vectorised call; each sums to 1 (time printed)."""
    creatures = list(CAT.creatures.values())
    rows = []
    i = 0
    while len(rows) < 10_000:
        u, t = creatures[i % 40], creatures[(7 * i + 3) % 40]
        a = u.abilities[i % len(u.abilities)]
        rows.append((a, u, t))
        i += 1
    a, u, t = zip(*rows)
    start = time.perf_counter()
    table = LO.outcome_tables(a, u, t, situation=LO.Situation(target_row="front"))
    elapsed = time.perf_counter() - start
    print(f"\n10,000 Last Odyssey matchups: {elapsed * 1000:.0f} ms, {table.height} rows")
    sums = table.group_by("matchup").agg(pl.col("probability").sum())
    assert sums.height == 10_000
    assert (sums["probability"] - 1.0).abs().max() < 1e-12
    assert elapsed < 10.0


# --------------------------------------------------------------------------- abilities outside the turn's action points
def test_every_published_attack_ability_is_in_the_catalog_with_its_costs():
    """Every published strike, spell and sleight (81) is a catalog ability, and each of the 9 heroes has the basic
    strike "Attack": 87 turn actions plus Miasma, Dragonslayer and Foretell Doom (phase abilities) = 90 creature
    abilities, 71 distinct names; each keeps its published AP, MP and anima costs (shared data)."""
    published = tomllib.loads(DATA.read_text())["creature"]
    n = 0
    for rec in published:
        ours = CAT.creature(rec["name"])
        for a in rec.get("abilities", []):
            if a.get("kind") not in ("strike", "spell", "sleight"):
                continue
            n += 1
            mine = ours.ability(a["name"])
            assert (mine.ap_cost, mine.mp_cost, mine.anima_cost) == (a.get("ap_cost", 0), a.get("mp_cost", 0),
                                                                     a.get("anima_cost", 0))
    pairs = [(c.name, a.name) for c in CAT.creatures.values() for a in (*c.abilities, *c.phase_abilities)]
    heroes = sum(r["record_type"] == "hero" for r in published)
    assert (n, heroes) == (81, 9)
    assert n + heroes == len(pairs) == 90 and len({a for _, a in pairs}) == 71
    assert sum(len(c.phase_abilities) for c in CAT.creatures.values()) == 3
    assert CAT.creature("Troll").ability("Bash").mp_cost == 5


def test_dragonslayer_four_times_at_full_hp_else_twice():
    """Dragonslayer (srd/anima/antagonists/examples.md): "a strike that deals 4x physical colorless damage on a hit
    against targets with full HP. If the target is not at full HP, the attack deals 2x damage instead." War Leader
    (PAcc 10, PA 10) vs Cop (Evasion 1, PD 2, HP 10, colorless Shell 5): die - 10 + 1 <= 7 always hits; base
    10 - 2 + die = 8 + die; strike vs an active Shell x1: 4 (8 + die) = 36..72, mean 4 x 13.5 = 54; at 9 HP
    x2: mean 27; full HP, Shell broken (strike vs no Shell x2): mean 108. Paradigm action: 1 anima, no AP."""
    leader, cop = c("Ser Tarbh of Greenhill, Form 1: War Leader"), c("Cop")
    ds = leader.ability("Dragonslayer")
    assert (ds.ap_cost, ds.anima_cost, ds.timing, ds.multiplier, ds.multiplier_not_full_hp) == \
        (0, 1, "paradigm_phase", 4.0, 2.0)
    full = LO.damage(ds, leader, cop)
    assert (full.min(), full.max(), full.mean()) == (36, 72, pytest.approx(54.0, abs=1e-12))
    hurt = LO.damage(ds, leader, cop, situation=LO.Situation(target_hp=9))
    assert (hurt.min(), hurt.max(), hurt.mean()) == (18, 36, pytest.approx(27.0, abs=1e-12))
    bare = LO.damage(ds, leader, cop, situation=LO.Situation(target_shell_points=0))
    assert bare.mean() == pytest.approx(108.0, abs=1e-12)
    # no bonus against dragons as such: the Prophet is a Dragon (PD 4, Evasion 7): die - 10 + 7 <= 7 always;
    # 4 (6 + die), mean 46
    assert c("Prophet").creature_type == "Dragon"
    assert LO.damage(ds, leader, c("Prophet")).mean() == pytest.approx(46.0, abs=1e-12)
    # a paradigm action costs no action points and is not planned into the turn
    assert not any("Dragonslayer" in label for label in LO.turn_plans(leader, cop))


def test_miasma_poisons_every_non_undead_character():
    """Miasma (srd/warriors/examples/tier/03.md): "During the Effect Phase of each round, the Zombie Hulk uses a
    sleight with no AP or MP cost that inflicts Poisoned on a hit on every non-Undead character". Sleight: lands when
    die - Status Accuracy 0 + Resistance <= 5: Cop (Res 2) die <= 3, P = 0.3; Skirmisher (Res 1) die <= 4, P = 0.4;
    the Zombie is Undead: never. One hit die for all targets (Multi Attacks): P(both living poisoned) = 0.3."""
    hulk = c("Zombie Hulk")
    miasma = hulk.ability("Miasma")
    assert (miasma.kind, miasma.timing, miasma.ap_cost, miasma.mp_cost) == ("sleight", "effect_phase", 0, 0)
    assert p(LO.outcomes(miasma, hulk, c("Cop")), status=True) == pytest.approx(0.3, abs=1e-12)
    assert p(LO.outcomes(miasma, hulk, c("Skirmisher")), status=True) == pytest.approx(0.4, abs=1e-12)
    assert p(LO.outcomes(miasma, hulk, c("Zombie")), status=True) == 0
    multi = LO.multi_target_outcomes(miasma, hulk, [c("Cop"), c("Skirmisher"), c("Zombie")])
    assert p(multi, status_0=True, status_1=True) == pytest.approx(0.3, abs=1e-12)
    assert p(multi, status_2=True) == 0


def test_foretell_doom_per_use_spell_against_all_opponents():
    """Foretell Doom (srd/warriors/examples/tier/06.md): "the Prophet uses a spell against all of its opponents that
    does not cost any MP or AP. Every hit character takes magical water damage that is multiplied by 3". Prophet
    (MAcc 14, MA 16) vs Cop (Evasion 1, MD 1, colorless Shell): die - 14 + 1 <= 7 always; base 16 - 1 + die; x3,
    spell vs an active Shell x2, Water vs colorless x1: 6 (15 + die) = 96..150, mean 123. Skirmisher (Evasion 2,
    MD 1, Wood Shell; Water vs Wood x1): the same 6 (15 + die) on the same die, so the pair takes 12 (15 + die),
    mean 246. When it fires (after the third Effect Phase) needs fight state: it is never planned into a turn."""
    prophet = c("Prophet")
    doom = prophet.ability("Foretell Doom")
    assert (doom.timing, doom.ap_cost, doom.multiplier, doom.targets) == ("after_third_effect_phase", 0, 3.0, "all")
    d = LO.damage(doom, prophet, c("Cop"))
    assert (d.min(), d.max(), d.mean()) == (96, 150, pytest.approx(123.0, abs=1e-12))
    multi = LO.multi_target_outcomes(doom, prophet, [c("Cop"), c("Skirmisher")])
    assert float((multi["damage"] * multi["probability"]).sum()) == pytest.approx(246.0, abs=1e-12)
    assert multi["damage"].min() == 192 and multi["damage"].max() == 300
    assert sorted(LO.turn_plans(prophet, c("Cop"))) == ["Drown + Drown + Drown", "Trident + Drown"]
    assert wb.turn_damage(prophet, c("Cop")).mean() == max(x.mean() for x in LO.turn_plans(prophet, c("Cop")).values())
