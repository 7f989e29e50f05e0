"""Unbound iterative attacks: Push the Attack, All-Out Attack by rank, the penalty counting every
earlier attack, the rank of the weapon's group (unbound-d20-attacking.txt; CLARIFICATIONS.md,
Unbound).
"""

import pytest

import workbench as wb
from tests.systems.unbound.weapons import Action, Attack, Creature, U, mods, who
from workbench import RulesError


def test_push_the_attack_stacks_minus_four():
    """'Every attack past the first a character makes in the same turn takes a stacking -4 penalty'."""
    assert mods([Action("push", "Sword"), Action("push", "Sword")], who()) == [("Sword", 0), ("Sword", -4)]


@pytest.mark.parametrize("rank, expected", [("untrained", [0]), ("professional", [0, -4]),
                                            ("grandmaster", [0, -4, -8])])
def test_all_out_attack_iteratives_by_rank(rank, expected):
    """'an iterative attack at professional rank and grandmaster+ rank' (CLARIFICATIONS: 1/2/3 attacks)."""
    assert [m for _, m in mods([Action("all_out", "Sword")], who(rank))] == expected


def test_all_out_then_push_counts_every_earlier_attack():
    assert mods([Action("all_out", "Sword"), Action("push", "Sword")], who("grandmaster"))[-1] == ("Sword", -12)
    assert [m for _, m in mods([Action("push", "Sword"), Action("all_out", "Sword")], who("professional"))] == \
        [0, -4, -8]


def test_iteratives_follow_the_rank_of_the_weapons_group():
    """Multiple Attacks: "they gain an iterative attack at professional rank and grandmaster+ rank with weapons in
    that weapon group"; Shield Bash: "Shields typically count as close weapons for which skill is used". An
    untrained fighter who is professional with blades and grandmaster with close weapons: All Out Attack with a
    blade makes 2 attacks (0, -4), with an axe 1, with a Tower shield bash 3 (0, -4, -8); no group named: ``rank``."""
    blade = Attack("Blade", "1d8", group="blades")
    axe = Attack("Axe", "1d8", group="axes")
    tower = U.catalog().attack("Tower")
    assert tower.weapon_group == "close"
    c = who("untrained", [blade, axe, tower], group_ranks={"blades": "professional", "close": "grandmaster"})
    assert [m for _, m in mods([Action("all_out", "Blade")], c)] == [0, -4]
    assert [m for _, m in mods([Action("all_out", "Axe")], c)] == [0]
    assert [m for _, m in mods([Action("all_out", "Tower")], c)] == [0, -4, -8]
    assert c.rank_with(axe) == "untrained" and c.iteratives == 3
    # the turn of one All Out Attack with the blade = the blade at 0 plus the blade at -4
    target = Creature("T", 30, 12, 10)
    got = wb.turn_damage(c, target, plan=[Action("all_out", "Blade")])
    want = U.plan_damage(c, target, ["Blade", "Blade"])
    assert got.isclose(want, 1e-12)
    with pytest.raises(RulesError) as e:
        who(group_ranks={"blades": "legendary"})
    assert e.value.field == "group_ranks.blades"


def test_group_ranks_round_trip_and_old_files_use_rank_for_every_group(tmp_path):
    """The per-group ranks save and load (TOML file and share code); a file written before ``group_ranks`` existed
    loads with its single ``rank`` for every weapon group: a professional with no table makes 2 attacks with the
    Tower (a close weapon) and with any other weapon."""
    sb = U.catalog().creature("Shieldbearer")  # professional, no group_ranks
    c = sb.replace(group_ranks={"close": "grandmaster"})
    path = tmp_path / "c.toml"
    wb.save(c, path)
    back = wb.load(path)
    assert back == c and back.iteratives_with(back.weapon("Tower")) == 3
    assert back.iteratives_with(back.weapon("Battleaxe")) == 2
    assert wb.from_share_code(wb.share_code(c)) == c
    old = tmp_path / "old.toml"
    old.write_text('system = "unbound"\nmodel_kind = "creature"\nname = "Old"\nhp = 20\nac = 14\ntouch_ac = 10\n'
                   'rank = "professional"\nweapons = [{name = "Tower", damage = "2d10", shield = true}]\n')
    o = wb.load(old)
    assert dict(o.group_ranks) == {} and [m for _, m in mods([Action("all_out", "Tower")], o)] == [0, -4]
