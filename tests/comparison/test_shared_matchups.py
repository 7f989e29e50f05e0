"""compare resolves matchups with equal ``damage_keys`` once, so the key must never merge matchups
whose damage differs; compare's per-use columns equal the outcome tables.

Annulus (annulus-attacks.txt; CLARIFICATIONS.md, Annulus, order of resolution): the key holds what
one use reads (upgrades, counter type, attacker size, level and Vitality, target size, the seed's
defense value, awareness).
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import workbench as wb
from workbench.comparison import compare

A = wb.system("annulus")

TOL = 1e-12

GENERAL = ["Keen", "Reckless", "Bully", "Visceral", "Reroll", "Tireless", "Flashy", "Giant", "Armored",
           "Killing Spree", "First Blood", "Precise", "Assassin", "Stealth", "Blood Price"]

STACKABLE = {"Reckless", "Giant", "Precise", "Assassin"}

TRIGGERS = ["Critical", "Vital", "Drain", "Burn", "Choke"]

ALTERATIONS = [None, "Charged", "Flurry", "Gaze", "Swansong", "Telegraphed", "Counter"]


@st.composite
def attack_sets(draw):
    ups: dict[str, int] = {}
    for g in draw(st.lists(st.sampled_from(GENERAL), max_size=5, unique=True)):
        ups[g] = draw(st.integers(1, 3)) if g in STACKABLE else 1
    if "Flashy" in ups and "Stealth" in ups:
        del ups["Stealth"]
    for t in draw(st.lists(st.sampled_from(TRIGGERS), max_size=3, unique=True)):
        ups[t] = 1
    alt = draw(st.sampled_from(ALTERATIONS))
    if alt:
        ups[alt] = 1
    counter = "toughness" if alt == "Counter" else None
    return A.Attack("Random", draw(st.sampled_from(["agility", "toughness", "insight"])), ups, counter_type=counter)


@st.composite
def creatures(draw):
    return A.Creature("C", size=draw(st.integers(1, 9)), level=draw(st.integers(1, 6)),
                      endurance=draw(st.integers(0, 12)), agility=draw(st.integers(0, 4)),
                      toughness=draw(st.integers(0, 4)), insight=draw(st.integers(0, 4)),
                      awareness=draw(st.sampled_from(["clueless", "suspicious", "alert"])))


@st.composite
def situations(draw, attack, attacker):
    flag = lambda: draw(st.booleans())  # noqa: E731
    gaze = attack.alteration == "Gaze"
    return A.Situation(
        distance=1.0, concealment="none" if gaze else draw(st.sampled_from(["none", "partial", "full"])),
        tired=flag(), armor=flag(), inside_devourer=flag(), attacker_weakened=flag(), target_prone=flag(),
        target_setup=flag(), target_blind=False if gaze else flag(), target_undamaged=flag(),
        target_petrified=flag(), after_kill=flag(), mutual_sight=True,
        attacker_vitality=attacker.vitality // 2 if attack.alteration == "Swansong" else None,
        target_awareness=draw(st.sampled_from([None, "clueless", "suspicious", "alert"])),
        reroll_available=flag(), extra_advantages=draw(st.integers(0, 2)),
        extra_disadvantages=draw(st.integers(0, 2)))


options = st.builds(lambda s, c, p, r, a: A.Options(success_on=s, crit_doubles_bonus=c, base_pool=p, reroll=r,
                                                    actions=a),
                    st.integers(3, 6), st.booleans(), st.integers(2, 5), st.sampled_from(["on_zero", "never"]),
                    st.integers(1, 3))


@st.composite
def batches(draw):
    """Aligned matchups sharing one situation (as compare and explore call them)."""
    n = draw(st.integers(1, 6))
    attacks = [draw(attack_sets()) for _ in range(n)]
    attacker = draw(creatures())
    # one situation for the batch: drop the sets it makes unusable (Gaze/Swansong differ per set)
    attacks = [a for a in attacks if a.alteration not in ("Gaze", "Swansong")] or [A.Attack("Plain", "agility")]
    sit = draw(situations(attacks[0], attacker))
    return attacks, [attacker] * len(attacks), [draw(creatures()) for _ in attacks], sit, draw(options)


def _damage_grid(table: pl.DataFrame, n: int) -> np.ndarray:
    g = np.zeros((n, int(table["damage"].max()) + 1))
    np.add.at(g, (table["matchup"].to_numpy(), table["damage"].to_numpy()), table["probability"].to_numpy())
    return g


def _joint(table: pl.DataFrame) -> dict:
    """P(regular, vital) of one use: the damage over (Endurance, Vitality)."""
    g = table.group_by((pl.col("damage") - pl.col("vitality_damage")).alias("r"), "vitality_damage").agg(
        pl.col("probability").sum())
    return {(r, v): p for r, v, p in g.iter_rows()}


@settings(max_examples=60, deadline=None)
@given(st.lists(attack_sets(), min_size=1, max_size=4), st.lists(creatures(), min_size=1, max_size=3),
       st.lists(creatures(), min_size=2, max_size=5), options)
def test_equal_damage_keys_mean_equal_damage(attacks, attackers, targets, opt):
    """Every two matchups of a grid with equal ``damage_keys`` have the same per-use damage over
    (Endurance, Vitality) to 1e-12 and the same turn of ``uses_per_turn`` uses: resolving one for
    all is exact (annulus-attacks.txt; CLARIFICATIONS, Annulus, order of resolution)."""
    pairs = [(c, x) for c in attackers for x in attacks]
    ids = A.damage_keys(pairs, targets, opt)
    sit = A.Situation()
    seen: dict[int, tuple] = {}
    for p, (c, x) in enumerate(pairs):
        for t_i, t in enumerate(targets):
            why = A.usability([x], [c], [t], opt, sit)[0]
            if why is not None:
                use = turn = None
            else:
                use = _joint(A.outcome_tables([x], [c], [t], opt, sit))
                k = A.uses_per_turn(c, x, opt)
                turn = A.turn_tables([(c.replace(attack_sets=[x]), t)], opt, sit, plans=[[x] * k]).pmf[0]
            key = int(ids[p, t_i])
            if key not in seen:
                seen[key] = (use, turn)
                continue
            use0, turn0 = seen[key]
            assert (use is None) == (use0 is None)
            if use is None:
                continue
            assert set(use) == set(use0) and max(abs(use[c_] - use0[c_]) for c_ in use) < TOL
            w = tuple(max(a, b) for a, b in zip(turn.shape, turn0.shape))
            pad = lambda a: np.pad(a, [(0, w[0] - a.shape[0]), (0, w[1] - a.shape[1])])  # noqa: E731
            assert np.abs(pad(turn) - pad(turn0)).max() < TOL


@pytest.mark.parametrize("system", wb.systems())
def test_compare_per_use_columns_equal_outcome_tables(system):
    """Every per-use row of a catalog grid equals the marginal of its own outcome table (no key
    merged two different matchups)."""
    sys = wb.system(system)
    cs = [c for c in sys.catalog().creatures.values() if sys.attacks_of(c)][:5]
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        f = compare(cs, cs, best_plan=False, progress=False, simulate=False)
    by = {c.name: c for c in cs}
    for row in f.iter_rows(named=True):
        a, t = by[row["attacker"]], by[row["target"]]
        x = next(x for x in sys.attacks_of(a) if x.name == row["attack"])
        d = wb.damage(x, a, t)
        assert abs(row["mean_damage"] - d.mean()) < TOL and abs(row["p_any_damage"] - d.sf(1)) < TOL
