"""Seeded simulations pinned bit for bit: a speed-up of the fight loop must not change one number.

Every returned number of a few seeded duels and rounds-to-kill simulations (the win chances, the
standard error, every row of the ``rounds`` and ``hp_left`` frames, every P(killed by round t)) is
reduced to a SHA-256 of the exact bits (``float.hex``) and compared with the digest computed on
main@68b9714, before the simulation loop was made faster (issue 15, item 5): the random stream must
be drawn in the same order and amounts and every fight resolved alike. A couple of the stats are
also compared to ``==`` with the literals main@68b9714 gave, so a failure says which number moved.
The cases cover the Annulus effects the loop treats step by step (Devour, area recharge,
Telegraphed, Counter, Disarm, Petrify, Blind, stings, recovery checks, Blood Price, Killing Spree,
Reroll, Setup given by the situation or by an attack, an area Blood Price set and an area Counter,
a creature whose turn keys are too wide for the plans' lookup array) and one simulated duel and
rounds-to-kill of each other system (their Sides share ``Bank`` and ``run_fights``). Small: 2,000
fights each. ``python -m tests.simulate.test_seeded_results_pinned`` prints PINNED from the code
checked out (how the literals below were made, on main@68b9714). A change that describes a system's
round anew draws a new random stream: its cases are re-pinned once, after their numbers are checked
against the old code's (the comments in PINNED say how).
"""

from __future__ import annotations

import hashlib

import pytest

import workbench as wb
from workbench.simulate.engine import MEMO
from workbench.systems.annulus import Tactics

A = wb.system("annulus")
N = 2000


def _custom():
    """Two Annulus creatures with what the catalog lacks: Blood Price, Killing Spree, Reroll, a Counter
    on each side, Disarm."""
    bleeder = A.Creature(
        "Bleeder", size=5, level=6, endurance=7, vitality=6, agility=1, toughness=1, insight=0, awareness="alert",
        attack_sets=(
            A.Attack("Blood Cut", "agility", {"Blood Price": 1, "Killing Spree": 1, "Reroll": 1, "Burn": 1}),
            A.Attack("Guard", "toughness", ["Counter"], counter_type="agility"),
        ),
    )
    guard = A.Creature(
        "Warden", size=5, level=6, endurance=8, vitality=5, agility=1, toughness=1, insight=1, awareness="suspicious",
        attack_sets=(
            A.Attack("Strip", "agility", {"Disarm": 1, "Weaken": 1}),
            A.Attack("Answer", "agility", ["Counter"], counter_type="agility"),
        ),
    )
    return bleeder, guard


def _custom_area():
    """The same two with an area Blood Price set (recharged, paid in Vitality) and an area Counter."""
    bleeder, warden = _custom()
    cut = A.Attack("Blood Burst", "agility", {"Blood Price": 1, "Burst": 1, "Burn": 1})
    answer = A.Attack("Wide Answer", "agility", ["Counter", "Burst"], counter_type="agility")
    return (
        bleeder.replace(attack_sets=(cut, *bleeder.attack_sets[1:])),
        warden.replace(attack_sets=(warden.attack_sets[0], answer)),
    )


def _many_sets():
    """A creature with seven sets: its turn keys are too wide for the plans' lookup array."""
    sets = [A.Attack(f"Set {i}", ("agility", "toughness", "insight")[i % 3], {"Reckless": 1 + i % 2}) for i in range(7)]
    return A.Creature(
        "Many", size=5, level=6, endurance=8, vitality=6, agility=1, toughness=1, insight=1, awareness="alert",
        attack_sets=tuple(sets),
    )


def _annulus(name):
    return A.catalog().creature(name)


def _other(system, name):
    return wb.system(system).catalog().creatures[name]


#: (case id, thunk returning a DuelResult or a rounds_to_kill frame)
CASES = {
    "giant_mirror": lambda: wb.duel(_annulus("Hill Giant"), _annulus("Hill Giant"), fights=N, seed=0, simulate=True),
    "priest_drake": lambda: wb.duel(_annulus("Storm Priest"), _annulus("Drake"), fights=N, seed=1, simulate=True),
    "guard_wolf_random": lambda: wb.duel(_annulus("Wolf"), _annulus("Town Guard"), fights=N, seed=2, first="random", simulate=True),
    "berserker_basilisk": lambda: wb.duel(_annulus("Berserker"), _annulus("Basilisk"), fights=N, seed=3, first="b", simulate=True),
    "cutpurse_ogre_recover": lambda: wb.duel(
        _annulus("Cutpurse"), _annulus("Ogre"), fights=N, seed=4,
        tactics_b=Tactics(recover_from=("knockdown", "weaken", "choke"), recovery_actions=2),
    ),
    "centipede_priest_recover": lambda: wb.duel(
        _annulus("Giant Centipede"), _annulus("Storm Priest"), fights=N, seed=5,
        tactics_a=Tactics(recover_from=("fatigue", "sap", "weaken")),
    ),
    "bleeder_warden": lambda: wb.duel(
        *_custom(), fights=N, seed=6, first="random", tactics_a=Tactics(blood_price_uses=2, recover_from=("disarm",)),
        tactics_b=Tactics(recover_from=("weaken", "burn")),
        situation=A.Situation(target_setup=True, after_kill=True),
    ),
    "giant_ogre": lambda: wb.duel(_annulus("Hill Giant"), _annulus("Ogre"), fights=N, seed=17, simulate=True),
    "giant_maw_guard": lambda: wb.duel(
        _annulus("Hill Giant"), _annulus("Town Guard"), fights=N, seed=18, plan_a=["Maw", "Tail Sweep"], simulate=True
    ),
    "cutpurse_setup_priest": lambda: wb.duel(
        _annulus("Cutpurse"), _annulus("Storm Priest"), fights=N, seed=19, situation=A.Situation(distance=4),
        plan_a=["Soothing Word"], simulate=True,
    ),
    "basilisk_guard_random": lambda: wb.duel(_annulus("Basilisk"), _annulus("Town Guard"), fights=N, seed=20, first="random", simulate=True),
    "priest_guard_disarm": lambda: wb.duel(
        _annulus("Storm Priest"), _annulus("Town Guard"), fights=N, seed=21, tactics_a=Tactics(recover_from=("disarm",))
    ),
    "many_sets_ogre": lambda: wb.duel(_many_sets(), _annulus("Ogre"), fights=N, seed=22, simulate=True),
    "area_bleeder_warden": lambda: wb.duel(
        *_custom_area(), fights=N, seed=23, simulate=True, tactics_a=Tactics(blood_price_uses=2)
    ),
    "rtk_giant_wolf": lambda: wb.rounds_to_kill(
        _annulus("Hill Giant"), _annulus("Wolf"), simulate=True, fights=N, seed=7, plan=["Maw"], max_rounds=60
    ),
    "rtk_priest_ogre": lambda: wb.rounds_to_kill(
        _annulus("Storm Priest"), _annulus("Ogre"), simulate=True, fights=N, seed=8
    ),
    "rtk_basilisk_drake": lambda: wb.rounds_to_kill(
        _annulus("Basilisk"), _annulus("Drake"), simulate=True, fights=N, seed=9
    ),
    "rtk_bleeder_warden": lambda: wb.rounds_to_kill(
        *_custom(), simulate=True, fights=N, seed=10, situation=A.Situation(after_kill=True)
    ),
    "unbound_duel": lambda: wb.duel(
        _other("unbound", "Blademaster"), _other("unbound", "Veteran duelist"), simulate=True, fights=N, seed=11
    ),
    "unbound_rtk": lambda: wb.rounds_to_kill(
        _other("unbound", "Berserker"), _other("unbound", "Owlbear"), simulate=True, fights=N, seed=12
    ),
    "glass_duel": lambda: wb.duel(
        _other("glass_empires", "Boar"), _other("glass_empires", "Wolf"), simulate=True, fights=N, seed=13
    ),
    "glass_rtk": lambda: wb.rounds_to_kill(
        _other("glass_empires", "Monkey"), _other("glass_empires", "Commoner"), simulate=True, fights=N, seed=14
    ),
    "odyssey_duel": lambda: wb.duel(
        _other("last_odyssey", "Malachi"), _other("last_odyssey", 'Robert "Gemini" Sandford'),
        simulate=True, fights=N, seed=15,
    ),
    "odyssey_rtk": lambda: wb.rounds_to_kill(
        _other("last_odyssey", "Mariana de la Luna"), _other("last_odyssey", "Malachi"), simulate=True, fights=N, seed=16
    ),
}


def _bits(value) -> str:
    """The exact bits of one returned value: floats by ``float.hex``, the rest by ``repr``."""
    if isinstance(value, float):
        return value.hex()
    return repr(value)


def _frame_text(frame) -> str:
    return ";".join(f"{name}=" + ",".join(_bits(v) for v in frame[name].to_list()) for name in frame.columns)


def _text(result) -> str:
    """Every number of a result, in order: a DuelResult's stats and frames, or a rounds_to_kill frame."""
    if isinstance(result, wb.DuelResult):
        stats = [result.p_a_wins, result.p_b_wins, result.p_draw, result.standard_error, result.exact, result.fights]
        return "|".join([*map(_bits, stats), _frame_text(result.rounds), _frame_text(result.hp_left)])
    return _frame_text(result)


def _stats(result) -> tuple:
    """A couple of the numbers, compared to == with their literals."""
    if isinstance(result, wb.DuelResult):
        return result.p_a_wins, result.p_b_wins
    by = result["p_killed_by"].to_list()
    return len(by), by[0]


def _digest(result) -> str:
    return hashlib.sha256(_text(result).encode()).hexdigest()


#: the seeded results: the SHA-256 of every returned number, and a couple of the numbers. Glass Empires
#: and Unbound: main@68b9714's (before the faster simulation loop)
PINNED = {
    "glass_duel": ("cf8673c9597fbda18d8a8b2ee244f5c97a77307268f070323ab2800feaf1d919", (0.474, 0.526)),
    "glass_rtk": ("6f570512928d93ccbe211778e45f215d561610003f0214ad98ef6d2e4fdcd262", (17, 0.0235)),
    "unbound_duel": ("8c4b3c4f31b75f56422463199e43fcd204aaf01653fa70d6a10112f0a27221cb", (1.0, 0.0)),
    "unbound_rtk": ("2f1fa8bd451cfa733cb4838f7f7490f78c409e2d33f5b605850fd944ff981020", (17, 0.002)),
    # re-pinned when Last Odyssey's round was described once (issue 33, last_odyssey/round.py): the
    # sampler draws each ability of a turn for all fights at once, a new random stream
    "odyssey_duel": ("652ac5dddc45a40e9945a78aeebfb3bd6d2b11d13a51ea0240ef4b0b56da6511", (0.8965, 0.1035)),
    "odyssey_rtk": ("58134ee3c2494c717b052e69370983bd489689f9a66f3ace60a66663eb9e6f04", (5, 0.2195)),
    # re-pinned when the Annulus simulation was derived from its round (issue 33, annulus/round.py; the
    # hand-written annulus/simulation.py deleted): a new random stream. Checked before re-pinning: the
    # new win chances within 2.1 standard errors of the old ones in every case, and at 40,000 fights
    # (Blood Price with Disarm recovery both sides; an area Blood Price set; the Hill Giant against
    # the Ogre; Cutpurse against the Ogre with two recovery checks) within 0.003 of the deleted code
    "area_bleeder_warden": ("cc49746eecb2371b03339ece22d74d582041a2976291003fd53e660330f95ffd", (0.721, 0.278)),
    "basilisk_guard_random": ("9c74af4d7f5efb0d9b84da4c1926a7d2ba6ea824668d2a85df99f4cda6f0c8cf", (0.819, 0.178)),
    "berserker_basilisk": ("2d4bcf69af38c6acdbc388c701a22acad9bcd1c525c814789688331e6b330ba8", (0.165, 0.772)),
    "bleeder_warden": ("f0c3db2b741b8e7c82cfa380bc053cdc7c401d81cb8bf97cf9174fb8fec462a2", (0.787, 0.208)),
    "centipede_priest_recover": ("bcd5419a7317bd0bafad0506e58f1fb2210fb529c27231169db4f1a93c99aeb8", (0.003, 0.997)),
    "cutpurse_ogre_recover": ("9488595005442dfc329d3ef9f1805d94dc94584567b3361e1d8522e0f984e71c", (0.006, 0.994)),
    "cutpurse_setup_priest": ("686715e94702fb3b84b449db670b4573c355fb80e72675dba6a6a00d635dbd04", (0.0, 1.0)),
    "giant_maw_guard": ("625e45cba28038c519b81755f9d12b477017280ea289e5f829d83f10b888e34b", (0.2325, 0.7675)),
    "giant_mirror": ("699c0ac729188ecc1c8e05eae3673246c04b797a8493eaf23ba417793d37a06b", (0.508, 0.492)),
    "giant_ogre": ("607833ed68b244be5f305f1328beebada8ef99f256b7fbddeea5f13e591a712a", (0.822, 0.178)),
    "guard_wolf_random": ("ee49a4eabe8f374d223e6588951ca50ad8f40de12385488bd68f810477cfa4c6", (0.3915, 0.6085)),
    "many_sets_ogre": ("962ba0979c403bbc82e24146e809070a175a1e86c62ed4375fa3d95fb1a720bc", (0.2615, 0.537)),
    "priest_drake": ("efe0897be8dc8aff1a8f1aa90660505af57eee905d0ed6e68b7348ea9e6fe21a", (0.113, 0.887)),
    "priest_guard_disarm": ("1f8fa13dcdc03216fbf42217063b9fa42591d5f3c5428ff0818398b9c2ae38c3", (0.9265, 0.073)),
    "rtk_basilisk_drake": ("76a42783a9bd4e1b33143d4f70ef2ad5fb3e8b822bd21f135bd5c2c75a8249a5", (63, 0.0)),
    "rtk_bleeder_warden": ("cab7ed10c79c41ef554dfd39f1328548ec17c2dc2870931282ce5c8b4e70eef6", (9, 0.0)),
    "rtk_giant_wolf": ("14a655ff429dfd31a6a5102fe31295b322d125f7372970bf1d986a0bb2698f8c", (32, 0.0)),
    "rtk_priest_ogre": ("eb90e2af035cafd2dcd1b60213f56ffffe97436f16ede3a679e48290ed133edb", (28, 0.0)),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_seeded_results_are_bit_identical_to_main(case):
    MEMO.clear()  # cold, as a first call: the memo must not change a number either
    cold = CASES[case]()
    digest, stats = PINNED[case]
    assert _stats(cold) == stats
    assert _digest(cold) == digest
    warm = CASES[case]()  # the tables and plans now from the memo
    assert _digest(warm) == digest


if __name__ == "__main__":  # print PINNED from the code checked out (run on main before a change)
    for name in sorted(CASES):
        MEMO.clear()
        r = CASES[name]()
        print(f"    {name!r}: ({_digest(r)!r}, {_stats(r)!r}),")
