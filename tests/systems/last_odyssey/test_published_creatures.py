"""Last Odyssey published creatures against each other, hand-worked: weapons, elements, Shells, status
immunity, Cleave, turn plans (last-odyssey-attacks.txt,
/work/shared/data/last_odyssey_creatures.toml; CLARIFICATIONS.md, Last Odyssey).
"""

from __future__ import annotations

import polars as pl
import pytest

from tests.systems.last_odyssey.published import LO, c, p


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
