"""Unbound Shield Bash: a bash gives up the shield's AC until the bearer's next turn, per turn and over a
fight (unbound-d20-attacking.txt, second copy, "Shield Bash").

"If a character chooses to attack with a shield they lose all bonuses from that shield until the start of their
next turn."
"""

import polars as pl
import pytest

import workbench as wb
from tests.systems.unbound.weapons import Action, Attack, Creature, Options, U
from workbench import RulesError
from workbench.simulate import state_effects

TOWER = U.catalog().attack("Tower")  # 2d10 (B) 20x2, shield_ac 4 (catalog: the d20 scale)
CLUB = Attack("Club", "1d4", attack_bonus=0)
N = 20_000


def bearer(hp=1, ac=15):
    """AC 15 with the Tower's +4 in it: 11 without the shield."""
    return Creature("Bearer", hp, ac, 10, weapons=[TOWER])


def test_a_bash_reports_the_shield_ac_it_gives_up():
    """Per use and per turn: the action tables carry the shield's AC and touch AC lost; the plan label says it.
    The Shieldbearer (Battleaxe, Tower +4) bashes three times a turn (All Out Attack at professional: 2, and one
    Push): its best plan against the Berserker gives up 4 AC; Wild Attack is not a shield bonus."""
    sb = U.catalog().creature("Shieldbearer")
    t = U.action_outcomes([Action("all_out", "Tower"), Action("push", "Tower")], sb, bearer())
    assert set(t["shield_ac_lost"]) == {4} and set(t["shield_touch_ac_lost"]) == {0}
    t = U.action_outcomes([Action("all_out", "Battleaxe", wild=True)], sb, bearer())
    assert set(t["shield_ac_lost"]) == {0} and set(t["self_ac_penalty"]) == {2}
    plans = U.turn_plans(sb, U.catalog().creature("Berserker"))
    best = max(plans, key=lambda k: plans[k].mean())
    assert best == "Push the Attack (Tower) + All Out Attack (Tower) [shield bash: own AC -4 until its next turn]"
    assert "Push the Attack (Battleaxe) + All Out Attack (Battleaxe)" in plans  # no bash, no note
    # a shield that also gives touch AC loses that too; two bashes with one shield lose it once
    kite = Attack("Kite", "2d8", shield=True, shield_ac=2, shield_touch_ac=1)
    c = Creature("K", 10, 14, 11, weapons=[kite])
    assert U.plan_label(c, [Action("push", "Kite"), Action("push", "Kite")]) == (
        "Push the Attack (Kite) + Push the Attack (Kite) [shield bash: own AC -2, touch AC -1 until its next turn]"
    )
    t = U.action_outcomes([Action("push", "Kite"), Action("push", "Kite")], c, bearer())
    assert set(t["shield_ac_lost"]) == {2} and set(t["shield_touch_ac_lost"]) == {1}


def test_the_foes_next_turn_meets_the_ac_without_the_shield():
    """Whole fight. The Bearer (1 HP, AC 15 with the Tower's +4) bashes every turn; the foe swings a Club once a
    turn at +0 (1d4: any hit kills) and has 100 HP.
    first="a", one round: the Bearer bashes, then the foe meets AC 15 - 4 = 11: d20 >= 11, 10/20 = 0.5 (the old
    reading kept AC 15: d20 >= 15, 6/20 = 0.3). first="b", one round: the foe swings before any bash: 0.3.
    first="b", two rounds: 0.3 + 0.7 x 0.5 = 0.65 (the shield's +4 is back at the start of the Bearer's turn and
    gone again after its bash). The duel is exact, by the chain over both sides' state (UnboundSystem.duel_chain:
    a bash lowers the AC the foe's next turn meets), and the seeded simulation agrees within 4 s.e."""
    a, b = bearer(), Creature("Foe", 100, 10, 10, weapons=[CLUB])
    assert state_effects(a, b) == {"shield bash"}
    assert state_effects(b, a) == set()
    assert U.duel_couplings(a, b, plan_b=[CLUB]) == {"shield bash"}
    for first, rounds, want in (("a", 1, 0.5), ("b", 1, 0.3), ("b", 2, 0.65)):
        r = wb.duel(a, b, first=first, max_rounds=rounds, plan_b=[CLUB])
        # two bashes a turn deal at most 2 x 40 = 80 < 100: the foe cannot fall in one Bearer turn; in two
        # (b first, two rounds) only by four near-maximal hits (about 1.6e-7, which the simulation never sees)
        assert r.exact and r.forced_by == () and (r.p_a_wins == 0.0 if rounds == 1 else r.p_a_wins < 1e-6)
        assert r.p_b_wins == pytest.approx(want, abs=1e-12), (first, rounds)
        sim = wb.duel(a, b, first=first, max_rounds=rounds, plan_b=[CLUB], simulate=True, fights=N, seed=3)
        se = (want * (1 - want) / N) ** 0.5
        assert abs(sim.p_b_wins - want) < 4 * se, (first, rounds, sim.p_b_wins)
    # a coin toss for who acts first: the two orders averaged, one round: (0.5 + 0.3) / 2
    assert wb.duel(a, b, first="random", max_rounds=1, plan_b=[CLUB]).p_b_wins == pytest.approx(0.4, abs=1e-12)
    naive = wb.duel(a, b, first="a", max_rounds=1, plan_b=[CLUB], simulate=False)  # the state ignored
    assert naive.exact and naive.p_b_wins == pytest.approx(0.3, abs=1e-12)


def test_rounds_to_kill_stays_exact():
    """rounds_to_kill's target never attacks, so the AC the attacker gives up by bashing meets no attack: the
    exact chain over the state (UnboundSystem.state_chain) is the plain chain of the bashing turn, to 1e-12, and
    compare's row stays exact with nothing in forced_by."""
    cat = U.catalog()
    sb, berserker = cat.creature("Shieldbearer"), cat.creature("Berserker")
    assert state_effects(sb, berserker) == {"shield bash"}
    f = wb.rounds_to_kill(sb, berserker)
    plain = wb.rounds_to_kill(wb.turn_damage(sb, berserker), hp=berserker.hp)
    assert f["exact"].all() and f.height == plain.height
    assert (f["p_killed_by"] - plain["p_killed_by"]).abs().max() < 1e-12
    row = wb.compare([sb], [berserker], progress=False).filter(pl.col("attack") == "best plan").row(0, named=True)
    assert row["method"] == "exact" and row["forced_by"] == ""
    mean = float((plain["round"] * plain["p_killed_at"]).sum())
    assert row["mean_rounds"] == pytest.approx(mean, abs=1e-9)


def test_shield_bonus_fields_are_checked():
    with pytest.raises(RulesError) as e:
        Attack("Sword", "1d8", shield_ac=2)
    assert e.value.field == "shield_ac"
    with pytest.raises(RulesError) as e:
        Attack("Kite", "2d8", shield=True, shield_touch_ac=-1)
    assert e.value.field == "shield_touch_ac"
    # the shield's bonus is part of the bearer's AC: a bash never takes more than the AC there is (3 of the +4)
    low = Creature("B", 10, 3, 10, weapons=[TOWER])
    assert set(U.action_outcomes(Action("push", "Tower"), low, bearer())["shield_ac_lost"]) == {3}
    # a bearer whose whole AC is its shield drops to AC 0 after a bash: the foe's next swing (+0) hits on any roll
    # but a natural 1 (19/20)
    a, b = Creature("Bare", 1, 4, 0, weapons=[TOWER]), Creature("Foe", 100, 10, 10, weapons=[CLUB])
    r = wb.duel(a, b, first="a", max_rounds=1, plan_b=[CLUB])
    assert r.exact and r.p_b_wins == pytest.approx(0.95, abs=1e-12)
    assert Options().confirm_crits  # the default options apply throughout


def test_a_long_bash_duel_by_hand_and_its_hp_left():
    """Both sides at 1 HP and 100 rounds, the Bearer first: each turn it bashes twice (the Tower against
    the foe's AC 10: the first swing hits 11/20, the second, at -4, 7/20; any hit kills), so it kills
    with p = 1 - (9/20)(13/20) = 283/400; then the foe swings once at AC 11 (10/20).
    P(Bearer wins) = p / (1 - (1 - p)(10/20)) = 566/683 (the state ignored, the foe would meet AC 15:
    p / (1 - (1 - p)(14/20)) = 2830/3181). Every winner ends at its 1 HP: the HP-left frame holds all
    the decided mass at 1."""
    a, b = bearer(), Creature("Foe", 1, 10, 10, weapons=[CLUB])
    assert wb.turn_damage(a, b).sf(1) == pytest.approx(283 / 400, abs=1e-12)
    r = wb.duel(a, b, first="a", max_rounds=100, plan_b=[CLUB])
    assert r.exact and r.p_a_wins == pytest.approx(566 / 683, abs=1e-12)
    assert r.p_b_wins == pytest.approx(117 / 683, abs=1e-12)
    left = r.hp_left
    assert set(left["hp_left"]) == {1} and float(left["probability"].sum()) == pytest.approx(1.0, abs=1e-12)
    naive = wb.duel(a, b, first="a", max_rounds=100, plan_b=[CLUB], simulate=False)
    assert naive.p_a_wins == pytest.approx(2830 / 3181, abs=1e-12)


def test_a_joint_state_past_its_bound_is_simulated(monkeypatch):
    """The chain over both sides' state holds (a's HP x b's HP) cells per pair of side states alive at
    once; past MAX_CELLS it is not built and the duel is simulated, saying which effect forced it."""
    from importlib import import_module

    joint = import_module("workbench.fight.duel")

    a, b = bearer(hp=30), Creature("Foe", 40, 10, 10, weapons=[CLUB])
    assert wb.duel(a, b, plan_b=[CLUB]).exact
    monkeypatch.setattr(joint, "MAX_CELLS", 30 * 40 - 1)  # not even the one pair of side states
    r = wb.duel(a, b, plan_b=[CLUB], fights=2_000)
    assert not r.exact and r.forced_by == ("shield bash",)
