"""One property for every system that describes its round once (``RuleSystem.fight_round``): the two
interpreters of the description agree. The sampler's (simulation's) mean rounds to kill lies within 4
standard errors of the enumerated chain's exact mean, and a simulated duel's P(a wins) within 4 standard
errors of the exact duel's, on a fixed sample of catalog pairs whose fight carries state (issue 33: this
replaces a chain-versus-simulation test per rule)."""

from __future__ import annotations

import numpy as np
import pytest

import workbench as wb
from workbench.simulate import can_damage

FIGHTS = 20_000

#: options (and the weapon) a system's state depends on beyond the catalog's defaults: Glass Empires
#: jams are state only with two Attacks a turn (CLARIFICATIONS.md, "Jams") and a windgun or Reload
#: weapon, which no catalog creature holds: the sample's attackers are handed the Windgun
OPTIONS = {"glass_empires": ({"attack_is_save_action": False}, "Windgun")}
#: state a system's first pairs may not meet, sampled apart: Last Odyssey's phase abilities (played
#: between rounds: Miasma's Poisoned, Dragonslayer's anima and full HP, Foretell Doom's third phase)
APART = {"last_odyssey": lambda effects: bool(effects - {"mp", "shell"})}


def _armed(cat, creature, weapon):
    return creature if weapon is None else creature.replace(weapons=(cat.attack(weapon),))


def _pairs():
    for name in wb.systems():
        sys = wb.system(name)
        cat = sys.catalog()
        names = list(cat.creatures)
        if sys.fight_round(cat.creature(names[0]), cat.creature(names[0])) is None:
            continue
        variants = [(None, None, None, "")]
        if name in OPTIONS:  # the options' state: Glass Empires jams
            variants.append((sys.Options(**OPTIONS[name][0]), OPTIONS[name][1], lambda e: "jams" in e, " (options)"))
        if name in APART:
            variants.append((None, None, APART[name], " (apart)"))
        for options, weapon, wanted, tag in variants:
            picked: list[str] = []
            for i, a in enumerate(names):
                for b in names[i + 1 :: 7]:
                    if tag == " (apart)" and a in picked:  # one fight per attacker: each its own abilities
                        continue
                    x, y = _armed(cat, cat.creature(a), weapon), cat.creature(b)
                    effects = sys.state_effects(x, y, options)
                    if len(picked) < 4 and effects and can_damage(x, y, options) and (wanted is None or wanted(effects)):
                        picked.append(a)
                        yield pytest.param(sys.name, a, b, options, weapon, id=f"{sys.name}:{a} vs {b}{tag}")


PAIRS = list(_pairs())


def test_every_described_system_is_sampled():
    assert {p.values[0] for p in PAIRS} >= {"glass_empires", "unbound", "last_odyssey"}


def test_the_options_sample_meets_its_state():
    """The Glass Empires sample with two Attacks a turn holds fights whose weapon jams; the Last
    Odyssey sample apart holds fights with phase abilities."""
    assert any(p.values[3] is not None for p in PAIRS)
    assert any(p.id.endswith("(apart)") and p.values[0] == "last_odyssey" for p in PAIRS)


@pytest.mark.parametrize("name, a, b, options, weapon", PAIRS)
def test_the_sampler_agrees_with_the_enumerated_chain(name, a, b, options, weapon):
    cat = wb.system(name).catalog()
    x, y = _armed(cat, cat.creature(a), weapon), cat.creature(b)
    kw = {} if options is None else {"options": options}
    exact = wb.rounds_to_kill(x, y, confirm=True, **kw)
    assert exact["exact"].all()
    mean = float(exact["round"].to_numpy() @ exact["p_killed_at"].to_numpy())
    sim = wb.rounds_to_kill(x, y, simulate=True, fights=FIGHTS, seed=11, confirm=True, **kw)
    r, p = sim["round"].to_numpy(), sim["p_killed_at"].to_numpy()
    m = float(r @ p)
    se = np.sqrt(max(float(r**2 @ p) - m**2, 1e-12) / FIGHTS)
    assert abs(m - mean) < 4 * se, (m, mean, se)
    d = wb.duel(x, y, confirm=True, **kw)
    s = wb.duel(x, y, simulate=True, fights=FIGHTS, seed=12, confirm=True, **kw)
    assert d.exact and not s.exact
    se = max(np.sqrt(d.p_a_wins * (1 - d.p_a_wins) / FIGHTS), 1e-9)
    assert abs(d.p_a_wins - s.p_a_wins) < 4 * se, (d.p_a_wins, s.p_a_wins)
