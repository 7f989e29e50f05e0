"""Compare against a group (issue 39, item 4): a target written "2 x Berserker" (or a
``workbench.encounters.Group``) is that many passive copies, and each attack row's kill columns are
the rounds until every copy has fallen (``group_rounds``), so an area set is ranked by what it does to
a group. The use and turn columns stay those of one copy."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

import workbench as wb
from workbench.encounters import Group, group_rounds
from workbench.work import estimate

SYS = wb.system("unbound")
CAT = SYS.catalog()
NAMES = list(CAT.creatures)
ATTACKER, MEMBER, OTHER = NAMES[0], NAMES[2], NAMES[4]
ROUNDS = 60


def test_group_rows_are_the_passive_group_fight_of_each_attack() -> None:
    frame = wb.compare([ATTACKER], [f"2 x {MEMBER}", OTHER], system="unbound", max_rounds=ROUNDS, chain=True)
    # the member alone was not asked for: only the group's rows and the other target's
    assert set(frame["target"]) == {f"2 x {MEMBER}", OTHER}
    group = frame.filter(pl.col("target") == f"2 x {MEMBER}")
    assert group["attack"].to_list() == [a.name for a in SYS.attacks_of(CAT.creature(ATTACKER))]
    single = wb.compare([ATTACKER], [MEMBER], system="unbound", max_rounds=ROUNDS, best_plan=False)
    A, B = CAT.creature(ATTACKER), CAT.creature(MEMBER)
    for row, one in zip(group.iter_rows(named=True), single.iter_rows(named=True)):
        assert row["target_hp"] == 2 * one["target_hp"]
        # one copy's use and turn: the same numbers as against the creature alone
        assert row["uses_per_turn"] == one["uses_per_turn"]
        for col in ("mean_damage", "mean_turn_damage"):
            assert row[col] == pytest.approx(one[col], abs=1e-12)
        assert row["hp_share_per_turn"] is None
        attack = next(a for a in SYS.attacks_of(A) if a.name == row["attack"])
        got = group_rounds(A, Group(B, 2), plan=[attack] * row["uses_per_turn"], max_rounds=ROUNDS)
        assert got.exact and row["method"] == "exact"
        assert np.abs(np.array(row["p_killed_by"]) - got.p_killed_by).max() < 1e-12
        assert row["p_kill_one_turn"] == pytest.approx(got.p_killed_by[0], abs=1e-12)
        if row["mean_rounds"] is None:
            assert row["p_unresolved"] > 0 and got.unresolved > 0
        else:
            assert row["mean_rounds"] == pytest.approx(got.mean, abs=1e-9)
            # two copies take longer than one
            assert row["mean_rounds"] > one["mean_rounds"]


def test_a_group_object_and_its_name_give_the_same_rows() -> None:
    by_name = wb.compare([ATTACKER], [f"3 x {OTHER}"], system="unbound", max_rounds=ROUNDS)
    by_group = wb.compare([CAT.creature(ATTACKER)], [Group(CAT.creature(OTHER), 3)], max_rounds=ROUNDS)
    assert by_name.equals(by_group)
    assert (by_name["target"] == f"3 x {OTHER}").all()


@pytest.mark.parametrize(
    "target, says",
    [
        ("0 x Berserker", "copies must be 1 to 50, not 0 \\[CLARI"),
        ("51 x Berserker", "copies must be 1 to 50, not 51 \\[CLARI"),
        # a number too long to read is shown cut, never turned into an int
        ("12345678901234567890 x Berserker", r"copies must be 1 to 50, not 123456\.\.\. \[CLARI"),
        ("3 x Nobody", "Nobody"),
    ],
)
def test_bad_groups_are_refused_naming_targets(target: str, says: str) -> None:
    with pytest.raises(wb.RulesError, match=says) as err:
        wb.compare([ATTACKER], [target], system="unbound")
    assert err.value.field == "targets"


def test_group_rows_are_counted_before_they_run() -> None:
    """Every attack row against a group is counted as rows x copies x fights before any runs: the
    attacker's 3 attacks x 50 copies x 20,000 fights = 3,000,000 group row-fights, over the
    200,000 that run without asking; ``estimate`` gives the same decision and count."""
    attacks = len(SYS.attacks_of(CAT.creature(ATTACKER)))
    args = ([ATTACKER], [f"50 x {MEMBER}"])
    kw = dict(system="unbound", fights=20_000)
    with pytest.raises(wb.RulesError, match="group row-fights") as err:
        wb.compare(*args, **kw)
    assert err.value.field == "budget"
    count = attacks * 50 * 20_000
    assert f"{count:,}" in str(err.value)
    est = estimate("compare", *args, **kw)
    assert est.decision == "refused" and est.refused_work is not None and est.refused_work.count == count
