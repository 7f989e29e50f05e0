"""Independent brute-force oracle for Annulus outcome tables (annulus-attacks.txt, CLARIFICATIONS.md).

The oracle below is written from the rules text, not from the implementation: it enumerates every
face of every d6 (itertools.product) and every face of the d12 Trigger Die (two d12 for Charged and
Telegraphed), applies the order of resolution literally, and is compared to the vectorised
outcome tables to 1e-12 for random legal sets, creatures and situations (hypothesis).
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from functools import lru_cache

import icepool
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import workbench as wb

A = wb.system("annulus")

# CLARIFICATIONS.md, Annulus: "Trigger (24, threshold)"
THRESHOLD = {"Berserk": 12, "Blind": 12, "Burn": 11, "Choke": 9, "Critical": 12, "Daze": 11, "Vital": 12,
             "Devour": 10, "Disarm": 11, "Dispel": 10, "Fatigue": 10, "Grab": 10, "Hobble": 10,
             "Immobilize": 12, "Knockdown": 11, "Pacify": 12, "Petrify": 12, "Push": 11, "Sap": 11,
             "Setup": 10, "Silence": 9, "Terrorize": 11, "Drain": 12, "Weaken": 12}
COLUMN = {t: ("crit" if t == "Critical" else t.lower()) for t in THRESHOLD}
GENERAL = ["Keen", "Blood Price", "Reckless", "Bully", "Visceral", "Reroll", "Demolitions", "Tireless",
           "Obliterate", "Flashy", "Giant", "Inherent", "Armored", "Knockout", "Killing Spree", "First Blood",
           "Precise", "Range", "Airtight", "Assassin", "Stealth"]
STACKABLE = {"Reckless", "Giant", "Precise", "Range", "Assassin"}
ALTERATIONS = ["Charged", "Counter", "Flurry", "Gaze", "Swansong", "Telegraphed"]
AREAS = ["Arc", "Burst", "Line"]


@lru_cache(maxsize=None)
def successes_counts(n: int, success_on: int) -> tuple[tuple[int, float], ...]:
    """Every face of n d6, counted: (successes, probability)."""
    c = Counter(sum(f >= success_on for f in faces) for faces in itertools.product(range(1, 7), repeat=n))
    return tuple((k, v / 6**n) for k, v in sorted(c.items()))


def trigger_faces(twice: bool):
    """Every Trigger Die result with its probability (two d12 keep the higher when twice)."""
    if twice:
        out = Counter(max(a, b) for a, b in itertools.product(range(1, 13), repeat=2))
        return [(v, c / 144) for v, c in out.items()]
    return [(v, 1 / 12) for v in range(1, 13)]


def band(rank: int) -> tuple[float, float]:
    scale = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]
    if rank == 0:
        return (0.0, 1.0)
    return (scale[2 * rank - 1], scale[2 * rank])


def oracle(attack, attacker, target, sit, success_on=4):
    """Return {(damage, vitality_damage, self_heal, effects, rerolled): probability} by enumeration."""
    u = dict(attack.upgrades)
    r = lambda name: u.get(name, 0)  # noqa: E731
    alt = next((a for a in ALTERATIONS if a in u), None)
    # step 2
    adv = r("Flashy") + 2 * (alt == "Charged") + 2 * (alt == "Telegraphed")
    adv += int(bool(r("First Blood")) and sit.target_undamaged)
    adv += int(sit.target_prone and sit.distance <= 5) + int(sit.target_setup) + int(sit.target_blind)
    dis = 0
    if sit.concealment == "partial" and not r("Keen"):
        dis += 1
    if sit.concealment == "full":
        dis += 2
    diff = target.size - attacker.size
    if diff >= 2:
        dis += max(0, diff - 1 - r("Giant"))
    if diff <= -2:
        dis += max(0, -diff - 1 - r("Precise"))
    dis += int(sit.tired and not r("Tireless")) + int(sit.armor and not r("Armored"))
    dis += int(sit.inside_devourer and not r("Visceral")) + int(sit.attacker_weakened)
    dis += int(sit.target_prone and sit.distance > 20) + int(alt == "Flurry")
    pool = max(0, 4 + adv - dis)
    reroll_pool = max(0, 4 + adv - dis - 1)
    # step 3
    auto = r("Reckless") + (2 if r("Killing Spree") and sit.after_kill else 0)
    defense = getattr(target, attack.defense)
    # step 4
    bully = max(0, attacker.size - target.size) if r("Bully") else 0
    aware = "clueless" if sit.target_petrified else (sit.target_awareness or target.awareness)
    # Petrify: "immune to all attacks that don't have the required Demolitions upgrade"
    if sit.target_petrified and not r("Demolitions"):
        return {(0, 0, 0, frozenset(), False): 1.0}
    assassinate = {"clueless": 4 + 2 * r("Assassin"), "suspicious": 2 + r("Assassin"), "alert": 0}[aware]
    triggers = [t for t in THRESHOLD if t in u]
    twice = alt in ("Charged", "Telegraphed")

    def strike(reroll_ok: bool):
        out = defaultdict(float)
        base = defaultdict(float)
        for k, p in successes_counts(pool, success_on):
            d = max(0, k + auto - defense)
            if d == 0 and reroll_ok and r("Reroll"):
                for k2, p2 in successes_counts(reroll_pool, success_on):
                    base[(max(0, k2 + auto - defense), True)] += p * p2
            else:
                base[(d, False)] += p
        for (d, rr), p in base.items():
            for face, q in trigger_faces(twice):
                if d == 0:
                    out[(0, 0, 0, frozenset(), rr)] += p * q
                    continue
                dmg = d + bully + assassinate
                eff = frozenset(t for t in triggers if face >= THRESHOLD[t])
                if "Critical" in eff:
                    dmg *= 2
                vit = dmg if "Vital" in eff else 0
                out[(dmg, vit, int("Drain" in eff), eff, rr)] += p * q
        return out

    ok = sit.reroll_available
    first = strike(ok)
    if alt != "Flurry":
        return dict(first)
    again = strike(False)
    state = first
    for _ in range(2):
        new = defaultdict(float)
        for (d, v, h, e, rr), p in state.items():
            for (d2, v2, h2, e2, rr2), p2 in (again if rr or not ok else first).items():
                new[(d + d2, v + v2, h + h2, e | e2, rr or rr2)] += p * p2
        state = new
    return dict(state)


def table_as_dict(table) -> dict:
    out = defaultdict(float)
    cols = list(COLUMN.values())
    for row in table.iter_rows(named=True):
        eff = frozenset(t for t, c in COLUMN.items() if row[c])
        out[(row["damage"], row["vitality_damage"], row["self_heal"], eff, row["rerolled"])] += row["probability"]
    assert set(cols) <= set(table.columns)
    return dict(out)


def assert_same(got: dict, want: dict) -> None:
    keys = set(got) | set(want)
    for k in keys:
        assert abs(got.get(k, 0.0) - want.get(k, 0.0)) < 1e-12, (k, got.get(k), want.get(k))


# ------------------------------------------------------------------ strategies
@st.composite
def attack_sets(draw):
    ups: dict[str, int] = {}
    for g in draw(st.lists(st.sampled_from(GENERAL), max_size=5, unique=True)):
        ups[g] = draw(st.integers(1, 2)) if g in STACKABLE else 1
    if "Flashy" in ups and "Stealth" in ups:
        del ups["Stealth"]
    for t in draw(st.lists(st.sampled_from(list(THRESHOLD)), max_size=4, unique=True)):
        ups[t] = 1
    alt = draw(st.sampled_from([None] + ALTERATIONS))
    if alt:
        ups[alt] = 1
    if "Range" not in ups and draw(st.booleans()):
        ups[draw(st.sampled_from(AREAS))] = 1
    counter = draw(st.sampled_from(["agility", "toughness", "insight"])) if alt == "Counter" else None
    return A.Attack("Random", draw(st.sampled_from(["agility", "toughness", "insight"])), ups, counter_type=counter)


@st.composite
def creatures(draw):
    level = draw(st.integers(1, 6))
    return A.Creature("C", size=draw(st.integers(1, 9)), level=level, endurance=draw(st.integers(0, 5)),
                      agility=draw(st.integers(0, 3)), toughness=draw(st.integers(0, 3)),
                      insight=draw(st.integers(0, 3)),
                      awareness=draw(st.sampled_from(["clueless", "suspicious", "alert"])))


@st.composite
def matchups(draw):
    attack, attacker, target = draw(attack_sets()), draw(creatures()), draw(creatures())
    u = attack.upgrades
    area = next((a for a in AREAS if a in u), None)
    lo, hi = (0.0, {"Arc": 1.0, "Burst": 1.0, "Line": 2.0}[area]) if area else band(u.get("Range", 0))
    distance = draw(st.sampled_from([hi, (lo + hi) / 2 if lo else hi / 2]))
    gaze = "Gaze" in u
    flag = lambda: draw(st.booleans())  # noqa: E731
    sit = A.Situation(
        distance=distance, airless=False,
        concealment="none" if gaze else draw(st.sampled_from(["none", "partial", "full"])),
        tired=flag(), armor=flag(), inside_devourer=flag(), attacker_weakened=flag(), target_prone=flag(),
        target_setup=flag(), target_blind=False if gaze else flag(), target_undamaged=flag(),
        target_petrified=flag(), after_kill=flag(), mutual_sight=True,
        attacker_vitality=attacker.vitality // 2 if "Swansong" in u else None,
        target_awareness=draw(st.sampled_from([None, "clueless", "suspicious", "alert"])),
        reroll_available=draw(st.booleans()), blood_price=flag())
    return attack, attacker, target, sit


def pool_size(attack, attacker, target, sit) -> int:
    """Upper bound on dice: 4 + every advantage that could apply (keeps enumeration small)."""
    u = attack.upgrades
    return 4 + ("Flashy" in u) + 2 * ("Charged" in u or "Telegraphed" in u) + sit.target_setup + sit.target_blind \
        + ("First Blood" in u) + sit.target_prone


@settings(max_examples=60, deadline=None)
@given(st.lists(matchups(), min_size=1, max_size=3))
def test_outcome_tables_match_brute_force_enumeration(batch):
    """Random legal sets and situations, several matchups in ONE vectorised call, agree with the
    enumeration over every d6 face and d12 face (CLARIFICATIONS.md, Annulus, order of resolution)."""
    assume(all(pool_size(*m) <= 7 for m in batch))
    attacks, attackers, targets, sits = map(list, zip(*batch))
    table = A.outcome_tables(attacks, attackers, targets, None, sits)
    assert table["matchup"].unique().sort().to_list() == list(range(len(batch)))
    for i, m in enumerate(batch):
        part = table.filter(table["matchup"] == i)
        assert abs(part["probability"].sum() - 1) < 1e-12
        assert_same(table_as_dict(part), oracle(*m))
        attack, attacker, target, sit = m
        # step 6: Reckless ranks every use; Blood Price pays the action cost in Vitality
        assert set(part["self_damage"]) == {attack.upgrades.get("Reckless", 0)}
        cost = 0 if ("Gaze" in attack.upgrades or "Swansong" in attack.upgrades) else \
            2 if ("Charged" in attack.upgrades or "Flurry" in attack.upgrades) else 1
        assert set(part["self_vitality_damage"]) == {cost if sit.blood_price else 0}


@pytest.mark.parametrize("pool", range(0, 9))
@pytest.mark.parametrize("defense", [0, 1, 3])
def test_pool_counts_match_icepool(pool, defense):
    """Damage = successes on the pool (4+ on a d6) minus defense, not below 0 (annulus-attacks.txt:
    "You deal damage equal to the number of successes ... subtracts their relevant defense"); icepool
    builds the same from its own d6 pool. Pool size is set with extra advantages/disadvantages."""
    atk = A.Attack("Plain", "agility")
    me = A.Creature("Me", level=3, endurance=3, agility=0, toughness=0, insight=0)
    them = A.Creature("Them", level=3, endurance=3, agility=defense, toughness=0, insight=0)
    sit = A.Situation(extra_advantages=max(0, pool - 4), extra_disadvantages=max(0, 4 - pool))
    got = A.damage(atk, me, them, situation=sit)
    succ = pool @ icepool.d6.map(lambda f: 1 if f >= 4 else 0) if pool else icepool.Die([0])
    want = succ.map(lambda k: max(0, k - defense))
    for v, p in zip(want.outcomes(), want.probabilities()):
        assert abs(got.probability(int(v)) - float(p)) < 1e-12
    assert abs(sum(float(p) for p in want.probabilities()) - 1) < 1e-12


@pytest.mark.parametrize("success_on", [3, 4, 5, 6])
def test_success_on_option_matches_icepool(success_on):
    """Option success_on (CLARIFICATIONS default 4+): successes on 4 dice vs icepool."""
    atk = A.Attack("Plain", "insight")
    c = A.Creature("C", level=3, endurance=3, agility=0, toughness=0, insight=0)
    got = A.damage(atk, c, c, options=A.Options(success_on=success_on))
    want = 4 @ icepool.d6.map(lambda f: 1 if f >= success_on else 0)
    for v, p in zip(want.outcomes(), want.probabilities()):
        assert abs(got.probability(int(v)) - float(p)) < 1e-12


def test_oracle_itself_on_a_hand_worked_case():
    """Guard the oracle: 4 dice vs defense 1 -> P(0) = P(<= 1 success) = 5/16."""
    atk = A.Attack("Plain", "agility")
    c = A.Creature("C", level=3, endurance=3, agility=1, toughness=0, insight=0)
    o = oracle(atk, c, c, A.Situation())
    assert abs(o[(0, 0, 0, frozenset(), False)] - 5 / 16) < 1e-15


FIXED = [
    (["Flurry", "Reroll", "Critical", "Vital", "Drain", "Reckless"], dict(), dict(agility=1)),
    (["Flurry", "Reroll", "Burn", "Bully", "Assassin"], dict(), dict(agility=2, size=3, awareness="suspicious")),
    (["Charged", "Critical", "Vital", "Choke", "Killing Spree"], dict(after_kill=True), dict(agility=3)),
    (["Telegraphed", "Reroll", "Petrify", "Setup", "Silence"], dict(concealment="partial"), dict(agility=2)),
    (["Reroll", "Keen", "Giant", "Weaken"], dict(concealment="partial", tired=True), dict(agility=1, size=8)),
    (["Flurry", "Critical"], dict(reroll_available=False), dict(agility=0, awareness="clueless")),
]


@pytest.mark.parametrize("ups,sit,target", FIXED)
def test_fixed_combinations_match_enumeration(ups, sit, target):
    """Hand-picked combinations that hypothesis may draw rarely (Flurry with Reroll, twice-rolled
    Trigger Die with Critical and Vital) against the enumeration oracle."""
    attack = A.Attack("Fixed", "agility", {u: (2 if u == "Assassin" else 1) for u in ups})
    attacker = A.Creature("Me", level=4, endurance=4, agility=0, toughness=0, insight=0)
    tgt = A.Creature("Them", level=4, endurance=4, toughness=0, insight=0, **{"agility": 0, "size": 5, **target})
    s = A.Situation(**sit)
    assert_same(table_as_dict(A.outcomes(attack, attacker, tgt, situation=s)), oracle(attack, attacker, tgt, s))


@settings(max_examples=60, deadline=None)
@given(matchups(), st.integers(1, 3))
def test_monotone_in_advantages_and_defense(m, extra):
    """Properties: one more advantage never lowers P(damage >= x) (an extra die can only add
    successes); a higher defense never raises it; every table sums to 1."""
    attack, attacker, target, sit = m
    base = A.damage(attack, attacker, target, situation=sit)
    more = A.damage(attack, attacker, target, situation=sit.replace(extra_advantages=extra))
    tougher = A.damage(attack, attacker, target.replace(**{attack.defense: getattr(target, attack.defense) + extra}),
                       situation=sit)
    xs = np.arange(0, max(base.max(), more.max()) + 2)
    assert np.all(more.sf(xs) >= base.sf(xs) - 1e-12)
    assert np.all(tougher.sf(xs) <= base.sf(xs) + 1e-12)
    assert abs(base.pmf.sum() - 1) < 1e-12
