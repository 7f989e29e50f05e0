"""The choice space (workbench/systems/builds.py, choice_space): a build is one catalog attack plus at
most ``budget`` modifications of the fields a system declares (``RuleSystem.build_choices``), each
costing 1. Counted by hand on the toy system (tests/widget_toy.py) with declared choices.

Toy catalog (tests/widget_toy.py, ToySystem.catalog): Goblin's Club (bonus 2, d6, melee) and Bow
(bonus 1, d8, ranged), Ogre's Fist (bonus 4, d6), the table's Club, Bow and Dagger (bonus 3, d4):
4 distinct attacks. Declared here: ``sides`` (4, 6, 8) and ``bonus`` (0, 5, 11); the toy rules
refuse a bonus past 10 ("bonus is -5..+10"), so every bonus 11 is a refused combination.
"""

from __future__ import annotations

from importlib import import_module

import polars as pl
import pytest

import workbench as wb
from tests.widget_toy import Attack, Creature, ToySystem
from workbench.exploration import estimate
from workbench.systems.catalog import Catalog
from workbench.systems.builds import catalog_attacks, choice_space, choice_space_size


class ChoiceToy(ToySystem):
    """The toy system with declared build choices."""

    def build_choices(self, options=None):
        return {"sides": (4, 6, 8), "bonus": (0, 5, 11)}


class TwinClubs(ChoiceToy):
    """Two catalog attacks called Club differing only in their die: Club d6 with sides 8 is Club d8."""

    def catalog(self):
        clubs = {"A": Creature("A", attacks=(Attack("Club", sides=6),)), "B": Creature("B", attacks=(Attack("Club", sides=8),))}
        return Catalog("toy", creatures=clubs)

    def build_choices(self, options=None):
        return {"sides": (4, 6, 8)}


TOY = ChoiceToy()
registry = import_module("workbench.systems")


@pytest.fixture
def toy(monkeypatch):
    """Register ChoiceToy as "toy" (explore resolves its system by name)."""
    monkeypatch.setitem(registry._MODULES, "toy", "tests.widget_toy")
    monkeypatch.setitem(registry._LOADED, "toy", TOY)
    return TOY


def test_the_catalog_attacks_are_distinct_by_value():
    """Goblin's Club and Bow are the table's Club and Bow: 4 distinct attacks, creatures' first."""
    assert [a.name for a in catalog_attacks(TOY)] == ["Club", "Bow", "Fist", "Dagger"]


def test_counts_at_budgets_0_1_2_by_hand():
    """Per attack: sides has 2 other values, bonus 3 (none has bonus 0, 5 or 11), bonus 11 refused.
    Budget 0: the 4 attacks. Budget 1: 4 x (2 + 3) = 20 walked, 4 refused (bonus 11), 16 legal.
    Budget 2 (both fields): 4 x 2 x 3 = 24 walked, 4 x 2 = 8 refused, 16 legal.
    Walked: 4, 4 + 20 = 24, 24 + 24 = 48; distinct: 4, 4 + 16 = 20, 20 + 16 = 36."""
    for budget, walked, refused, distinct in ((0, 4, 0, 4), (1, 24, 4, 20), (2, 48, 12, 36)):
        space = choice_space(TOY, budget, [])
        assert space.counts == {"combinations": walked, "refused": refused, "repeats": 0,
                                "legal_sets": distinct, "distinct": distinct}
        assert choice_space_size(TOY, budget) == TOY.build_space_size(budget) == walked
    assert choice_space(TOY, 7, []).counts == choice_space(TOY, 2, []).counts  # 2 fields: nothing more to change


def test_builds_follow_cost_and_chunks_cover_each_build_once():
    """Build ids 0..35 by nondecreasing cost (4 of cost 0, 16 of 1, 16 of 2); chunks of 5 hold every
    build once, and every build is a legal toy Attack differing from its base in ``cost`` fields."""
    space = choice_space(TOY, 2, [])
    frames = list(space.frames(5))
    assert [f.height for f in frames] == [5] * 7 + [1]
    ids = pl.concat(frames)["build_id"].to_list()
    assert ids == list(range(36))
    builds = space.builds
    assert builds["cost"].to_list() == [0] * 4 + [1] * 16 + [2] * 16
    assert len(set(builds["build"].to_list())) == 36
    bases = {a.name: a for a in catalog_attacks(TOY)}
    for row in builds.iter_rows(named=True):
        b, base = row["build"], bases[row["base"]]
        changed = [f for f in ("sides", "bonus") if getattr(b, f) != getattr(base, f)]
        assert len(changed) == row["cost"] and b.bonus <= 10
    assert builds.filter(pl.col("name") == "Dagger: sides 8, bonus 5")["build"][0] == Attack("Dagger", 5, 8)


def test_a_build_equal_to_a_cheaper_one_is_that_build():
    """TwinClubs: Club d6 and Club d8 (cost 0); Club d6 -> d4 or d8, Club d8 -> d4 or d6 (cost 1):
    4 walked, of which Club d6 -> d8 and Club d8 -> d6 are the other catalog attack (repeats), and
    Club d8 -> d4 is Club d6 -> d4 (a repeat of the same cost): 2 + 1 = 3 distinct."""
    space = choice_space(TwinClubs(), 1, [])
    assert space.counts == {"combinations": 6, "refused": 0, "repeats": 3, "legal_sets": 3, "distinct": 3}
    assert space.builds["build"].to_list() == [Attack("Club", sides=6), Attack("Club", sides=8), Attack("Club", sides=4)]


@pytest.mark.parametrize("budget", [-1, True, 1.5, "2", 10**6])
def test_a_bad_budget_names_the_budget(budget):
    for call in (lambda: choice_space(TOY, budget, []), lambda: choice_space_size(TOY, budget)):
        with pytest.raises(wb.RulesError) as err:
            call()
        assert err.value.field == "budget"


def test_explore_ranks_the_choice_space(toy):
    """Against the Ogre (armor 3), one use deals max(0, face + bonus - 3): the best build is a d8
    with bonus 5 (the most the choices allow), mean (sum of face + 2 over faces 1..8) / 8 = 6.5, two
    uses a turn (the toy's two actions): 13. The Bow is a d8 already, so Bow with bonus 5 costs 1;
    Club, Fist and Dagger need both changes (cost 2): rank 1 is these four builds tied at 13, and
    the Bow's is the cost front's top (nothing cheaper deals as much)."""
    ogre = TOY.catalog().creatures["Ogre"]
    f = wb.explore(toy, targets=[ogre], budget=2, top_k=4, progress=False)
    top = f.filter(pl.col("rank") == 1)
    assert top["mean_turn_damage"].to_list() == [13.0] * 4
    assert dict(zip(top["base"], top["cost"])) == {"Bow": 1, "Club": 2, "Dagger": 2, "Fist": 2}
    assert top.filter(pl.col("pareto"))["name"].to_list() == ["Bow: bonus 5"]
    assert f["legal_sets"][0] == 36 and set(f["same_as"]) == {1}  # no maths keys: nothing merged
    atk = Attack("Fist", bonus=5, sides=8)
    assert abs(wb.turn_damage(TOY.neutral_attacker(atk), ogre, plan=[atk, atk]).mean() - 13.0) < 1e-12
    assert estimate(toy, targets=[ogre], budget=2)["combinations"] == estimate(toy, targets=[ogre], budget=2)["builds"] == 48


def test_a_system_without_declared_choices_has_no_budget_search():
    """The plain toy declares none: RuleSystem.build_space refuses, naming the budget."""
    plain = ToySystem()
    assert plain.build_choices() is None and plain.build_space_size(2) is None
    with pytest.raises(wb.RulesError) as err:
        plain.build_space(2, [])
    assert err.value.field == "budget" and "use vary=" in str(err.value)


def test_explore_streams_a_real_choice_space_to_parquet(tmp_path):
    """Unbound at budget 1 (169 builds, tests/systems/unbound/test_build_space.py) against the Town
    guard and the Owlbear: every usable (build, target) row is written (the thrown and ranged
    weapons are usable at the default distance like the rest: 169 x 2 rows), and each target's best
    row of the dataset is explore's rank 1. Budget 0 is the 25 catalog attacks unchanged."""
    U = wb.system("unbound")
    targets = [U.catalog().creature("Town guard"), U.catalog().creature("Owlbear")]
    f = wb.explore("unbound", targets=targets, budget=1, top_k=2, progress=False, output=tmp_path / "rows")
    rows = pl.read_parquet(tmp_path / "rows" / "*.parquet")
    usable = sum(e is None for e in U.usability(
        [b for b in U.build_space(1, targets).builds["build"] for _ in targets],
        [U.build_space(1, targets).attacker] * (169 * 2), targets * 169))
    assert rows.height == usable == 169 * 2
    best = rows.group_by("target").agg(pl.col("mean_turn_damage").max()).sort("target")
    ranked = f.filter(pl.col("rank") == 1).group_by("target").agg(pl.col("mean_turn_damage").first()).sort("target")
    assert best["mean_turn_damage"].to_list() == ranked["mean_turn_damage"].to_list()
    zero = wb.explore("unbound", targets=targets, budget=0, top_k=30, progress=False)
    assert set(zero["cost"]) == {0} and zero["legal_sets"][0] == 25 and zero["changes"].to_list() == [""] * zero.height


@pytest.mark.parametrize("choices", [{}, {"reach_of": ("melee",)}, {"name": ("Axe",)}, {"sides": ()},
                                     {"sides": (4, 4)}, [("sides", (4,))]])
def test_a_bad_declaration_names_build_choices(choices):
    """A system declaring no field, a field its Attack lacks, the name, no value or a repeated one."""

    class Bad(ToySystem):
        def build_choices(self, options=None):
            return choices

    with pytest.raises(wb.RulesError) as err:
        choice_space(Bad(), 1, [])
    assert err.value.field == "build_choices"


@pytest.mark.parametrize("system, target", [("unbound", "Owlbear"), ("last_odyssey", "Skirmisher"),
                                            ("glass_empires", "Creeping Cap")])
def test_the_one_attacker_gives_each_build_its_own_figures(system, target):
    """explore uses every build with the space's one attacker (the neutral attacker of the first
    catalog attack); each build's figures are those of the build used by its own neutral attacker
    (compare of the bare attack), row for row: the attacker's own attack changes nothing."""
    from workbench.comparison import compare

    s = wb.system(system)
    t = [s.catalog().creature(target)]
    space = s.build_space(1, t)
    builds = space.builds["build"].to_list()
    shared = compare([(space.attacker, b) for b in builds], t, best_plan=False, simulate=False)
    own = compare(builds, t, best_plan=False, simulate=False)
    assert shared.height == own.height == len(builds)
    for col in ("mean_damage", "mean_turn_damage", "p_kill_one_turn"):
        assert (shared[col] - own[col]).abs().max() < 1e-12


def test_long_work_is_refused_as_for_annulus(capsys):
    """Last Odyssey at budget 2: 2,550 candidates walked (85 + 935 + 85 x 2 x 9 = 1,530 two-field
    changes), 1,850 builds; against its 40 catalog creatures that is 74,000 rows, past the 35,000 of
    MAX_EXPLORE_ROWS: refused without confirm (docs/limits.md, Bounded work), naming the budget."""
    LO = wb.system("last_odyssey")
    assert LO.build_space_size(2) == 85 + 85 * 11 + 85 * 2 * 9 == 2550
    with pytest.raises(wb.RulesError) as err:
        wb.explore("last_odyssey", targets=list(LO.catalog().creatures.values()), budget=2, progress=False, say=True)
    assert err.value.field == "budget" and "74,000 rows" in str(err.value)
    said = capsys.readouterr().err
    assert "budget 2 walks 2,550 choice combinations of the last_odyssey build space" in said
