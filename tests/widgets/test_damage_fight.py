"""The Damage tab shows the fight too (issue 17, item 3): per-turn damage, P(down in round 1),
mean and median rounds, the rounds chart, the chance of each event per use, the target's pools;
computed on the follow-up worker (workbench.widgets.base.FOLLOW_UP) after each distribution."""

from __future__ import annotations

import pytest

import workbench as wb
from tests.widget_toy import TOY, Creature
from workbench.widgets.damage import DamagePanel, events_html, fight_summary

from .test_duel_panel import toy  # noqa: F401  (the fixture registering the toy system)


def test_the_fight_of_a_hand_worked_matchup(toy):  # noqa: F811
    """Goblin (Club d6+2, Bow d8+1; two attacks a turn) against a dummy of 3 HP, armor 3. Per turn
    the Bow pair deals max(d8-2, 0) twice (mean 2 x 21/8 = 5.25) and beats the Club pair (2 x 2.5),
    so the best plan is Bow + Bow. The dummy stays up after round 1 only when both arrows total at
    most 2: (2/8)^2 + 2(2/8)(1/8) + 2(2/8)(1/8) + (1/8)^2 = 13/64, so P(down in round 1) = 51/64
    and the median is round 1."""
    dummy = Creature("Dummy", hp=3, armor=3)
    p = DamagePanel(toy, target=dummy)
    p.attack = p.system.attacks_of(p.attacker)[1]  # the Bow: the attack on screen is the best plan's
    p.background.wait(30)
    p.fight_background.wait(30)
    f = p.fight
    assert f["plan"] == "Bow \u00d72" and f["turn_mean"] == pytest.approx(5.25, abs=1e-12)
    assert f["reference"]["plan"] == "Bow + Bow" and f["reference"]["turn_mean"] == pytest.approx(5.25, abs=1e-12)
    assert f["p_first"] == pytest.approx(51 / 64, abs=1e-12) and f["median"] == 1 and f["exact"]
    frame = wb.rounds_to_kill(p.attacker, dummy)
    mean = float((frame["round"] * frame["p_killed_at"]).sum())
    assert f["mean"] == pytest.approx(mean, abs=1e-12) and f["pools"] == (3,)
    html = p.fight_stats.value
    assert 'class="wb-p1 wb-fight-attack">79.69%<' in html and "exact<" in html and "(3 HP)" in html
    assert ">this attack<" in html and ">Bow \u00d72<" in html and "best plan (reference)" in html
    spec = p.fight_chart.chart.to_dict()
    assert spec["title"]["text"] == "Rounds for Goblin to down Dummy"
    # a new target redraws the fight: at 1 HP a single arrow above 2 is enough
    p.target = Creature("Twig", hp=1, armor=3)
    p.fight_background.wait(30)
    assert p.fight["target"] == "Twig" and p.fight["p_first"] == pytest.approx(1 - (2 / 8) ** 2, abs=1e-12)


def test_a_fight_that_cannot_end_is_said_in_words_and_is_no_error(toy):  # noqa: F811
    """Against armor 20 no toy attack ever deals damage: the fight says so; the damage chart and
    the panel's error are untouched (the distribution is valid: always 0)."""
    wall = Creature("Wall", hp=5, armor=20)
    p = DamagePanel(toy, target=wall)
    p.fight_background.wait(30)
    assert "error" in p.fight and "never" in p.fight["error"]
    assert "never" in p.fight_stats.value and p.error == "" and p.stale_banner.value == ""
    assert p.value.mean() == 0


def test_a_stateful_fight_chained_over_its_state_says_it_is_exact():
    """Annulus catalog: the Rat's Bite can Choke (a condition that lasts: state); the fight is
    chained over that state (annulus/round.py), so it is exact."""
    p = DamagePanel("annulus")
    p.fight_background.wait(60)
    f = p.fight
    assert "choke" in wb.system("annulus").state_effects(p.attacker, p.target)
    assert f["exact"] and f["forced_by"] == () and "exact" in p.fight_stats.value


def test_a_stateful_fight_says_it_is_simulated_with_its_standard_error(state_too_large):
    """Last Odyssey catalog: the Zombie Hulk's Miasma acts between rounds; with its state too large for
    the chain (``state_too_large``) the fight is simulated, and says how many fights and the standard
    error."""
    cat = wb.system("last_odyssey").catalog()
    p = DamagePanel("last_odyssey", attacker=cat.creature("Zombie Hulk"), target=cat.creature("Troll"))
    p.fight_background.wait(60)
    f = p.fight
    assert not f["exact"] and f["fights"] == 4_000 and 0 < f["se"] < 0.02
    assert "simulated: 4,000 fights" in p.fight_stats.value
    assert "miasma" in f["forced_by"] and "(state: " in p.fight_stats.value


def test_event_chances_per_use_unbound():
    """unbound-d20-attacking.txt: a threat on a natural 19-20 (a 19-20/x2 weapon), confirmed by a
    second roll that hits. The Town guard hits the Veteran duelist 30 % of the time, so
    P(threat) = 2/20 = 10 % and P(crit) = 10 % x 30 % = 3 %."""
    s = wb.system("unbound")
    guard, duelist = s.catalog().creature("Town guard"), s.catalog().creature("Veteran duelist")
    line = events_html(s.outcomes(s.attacks_of(guard)[0], guard, duelist))
    assert "P(hit) 30.00%" in line and "P(threat) 10.00%" in line and "P(crit) 3.00%" in line
    # each event and its chance on one line (a narrow column broke them apart)
    assert line.count('<span style="white-space:nowrap">') == 3


def test_events_leave_out_what_never_happens():
    """An Annulus outcome table has a column per trigger; only those with a chance show."""
    s = wb.system("annulus")
    cat = list(s.catalog().creatures.values())
    line = events_html(s.outcomes(s.attacks_of(cat[0])[0], cat[0], cat[1]))
    assert "P(choke)" in line and "P(petrify)" not in line


def test_the_fight_plays_the_attack_on_screen_beside_the_best_plan(toy):  # noqa: F811
    """Issue 36, item 1: the Club on screen is fought with (2 x (d6+2-3) a turn, mean 2 x 2.5 = 5),
    the Bow pair (5.25) is the reference column; the rounds chart draws both, labelled."""
    p = DamagePanel(toy, target=Creature("Dummy", hp=30, armor=3))
    p.fight_background.wait(30)
    f = p.fight
    assert f["attack"] == "Club" and f["plan"] == "Club \u00d72" and f["turn_mean"] == pytest.approx(5.0, abs=1e-12)
    assert f["reference"]["plan"] == "Bow + Bow" and f["mean"] != pytest.approx(f["reference"]["mean"])
    spec = p.fight_chart.chart.to_dict()
    builds = {r["build"] for r in next(iter(spec["datasets"].values()))}
    assert builds == {"Club \u00d72 (on screen)", "best plan: Bow + Bow"}


def test_the_rounds_chart_draws_one_curve_where_the_attack_is_the_best_plan():
    """Last Odyssey, the Cop against the Skirmisher: Truncheon twice is also the best plan, so the
    two fights are one (P(down in round 1) 85 % both): one curve, said so, not two on each other."""
    s = wb.system("last_odyssey")
    cat = s.catalog()
    cop = cat.creature("Cop")
    p = DamagePanel(s, attacker=cop, target=cat.creature("Skirmisher"), attack=s.attacks_of(cop)[0])
    p.fight_background.wait(60)
    assert p.fight["reference"]["mean"] == pytest.approx(p.fight["mean"], abs=1e-12)
    spec = p.fight_chart.chart.to_dict()
    builds = {r["build"] for r in next(iter(spec["datasets"].values()))}
    assert builds == {f"{p.fight['plan']} (on screen, the best plan too)"}


def test_the_issue_example_wolf_vs_bear_in_the_damage_tab():
    """Glass Empires, the Wolf against the Bear with Bite, Rock and Heavy melee picked: the fight's
    kill numbers differ per attack (they were all the Bite's: 3.167 a turn, 8.05 rounds)."""
    s = wb.system("glass_empires")
    cat = s.catalog()
    wolf, bear = cat.creature("Wolf"), cat.creature("Bear")
    p = DamagePanel(s, wolf, bear, wolf.weapons[0])
    seen = {}
    for attack in (wolf.weapons[0], cat.attacks["Rock"], cat.attacks["Heavy melee"]):
        p.attack = attack
        p.background.wait(30)
        p.fight_background.wait(30)
        seen[attack.name] = (round(p.fight["turn_mean"], 3), round(p.fight["mean"], 2), round(p.fight["p_first"], 4))
        assert p.fight["reference"]["plan"] == "Bite"
    assert (
        seen["Bite"][:2] == (3.167, 8.05)
        and seen["Rock"][:2] == (1.056, 23.24)
        and seen["Heavy melee"][:2] == (4.222, 6.12)
    )


def test_fight_summary_is_the_one_fight():
    """The numbers are rounds_to_kill's (the one fight), not a second computation."""
    s = wb.system("glass_empires")
    bear, wolf = s.catalog().creature("Bear"), s.catalog().creature("Wolf")
    f = fight_summary(bear, wolf)
    frame = wb.rounds_to_kill(bear, wolf)
    assert f["exact"] and f["p_first"] == pytest.approx(float(frame["p_killed_by"][0]), abs=1e-15)
    assert f["mean"] == pytest.approx(wb.mean_rounds_to_kill(wb.turn_damage(bear, wolf), wolf.hp), abs=1e-9)


def test_situation_controls_that_do_nothing_here_say_so():
    """Issue 17: "controls with no effect in the matchup (cover on a melee attack) give no hint".
    unbound-d20-attacking.txt: shooting into melee is a penalty on ranged attacks only, so for the
    Town guard's Longsword it changes nothing and says so; for his Javelin (thrown) it matters."""
    from workbench.widgets.damage import IDLE_HINT, idle_fields

    s = wb.system("unbound")
    guard, duelist = s.catalog().creature("Town guard"), s.catalog().creature("Veteran duelist")
    p = DamagePanel("unbound", guard, duelist, guard.weapons[0])
    p.fight_background.wait(30)
    slots = p.editors["situation"]._slots
    assert "shooting_into_melee" in p.idle and slots["shooting_into_melee"].value == IDLE_HINT
    assert "flanking" not in p.idle and slots["flanking"].value == ""
    p.attack = guard.weapons[2]  # the Javelin
    p.background.wait(30)
    p.fight_background.wait(30)
    assert "shooting_into_melee" not in p.idle and slots["shooting_into_melee"].value == ""
    # the rule: every other value leaves the distribution as it is
    for name in idle_fields(s, guard.weapons[0], guard, duelist, None, None):
        sit = s.Situation()
        flipped = sit.replace(**{name: not getattr(sit, name)}) if isinstance(getattr(sit, name), bool) else None
        if flipped is not None:
            assert s.damage(guard.weapons[0], guard, duelist, None, flipped).isclose(
                s.damage(guard.weapons[0], guard, duelist), 1e-12
            )


def test_a_fight_that_cannot_be_fought_says_why_in_words():
    """Issue 36, item 4: no code field name ("turn:") nor rules file in the fight's reason."""
    from workbench.widgets.damage import fight_words

    err = wb.RulesError("this turn never deals damage", field="turn", rule="annulus-attacks.txt: Endurance first")
    assert fight_words(err) == "this turn never deals damage \u2014 rule: Endurance first (see docs/systems/annulus.md)"
