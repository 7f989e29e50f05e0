"""Last Odyssey abilities outside the turn's action points: every published attack ability with its
costs, Dragonslayer, Miasma, Foretell Doom (last-odyssey-attacks.txt,
/work/shared/data/last_odyssey_creatures.toml; CLARIFICATIONS.md, Last Odyssey).
"""

from __future__ import annotations

import tomllib

import pytest

import workbench as wb
from tests.systems.last_odyssey.published import CAT, DATA, LO, c, p


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
    mean 246. It is never planned into a turn: a fight plays it once after the third Effect Phase (test_phase_abilities.py)."""
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
