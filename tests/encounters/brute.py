"""An independent enumeration of an encounter of creatures whose fight carries no state beyond HP,
written from CLARIFICATIONS.md "Encounters: groups against groups" alone: each turn the attacker's
whole-turn damage Dist (``wb.turn_damage``) against the foe the policy picks, the mass kept in a plain
dict over (damage taken by every creature, attacks on each this round: counted under ``spread``
only, the one policy that reads them, so that elsewhere equal states merge; kept apart they made
some 10^7 terms and 7.8e-12 of round-off in P(a wins) under random targeting with refunds). It
shares no code with workbench/fight/encounter*.py."""

from __future__ import annotations

from typing import Any

import workbench as wb


def _rolls(attacker: Any, target: Any, n: int, situation: Any = None) -> list[dict[str, float]]:
    """Return the damage of each of the ``n`` attack rolls of an Unbound turn of Push the Attack with
    the attacker's one weapon, as {damage: probability}: "Every attack past the first in a turn takes
    a stacking -4" (CLARIFICATIONS.md, Unbound), so roll k is one Push the Attack with the weapon's
    attack bonus 4 k lower; a creature with no weapon makes none."""
    if not getattr(attacker, "weapons", ()):
        return []
    (w,) = attacker.weapons
    out = []
    for k in range(n):
        weaker = attacker.replace(weapons=(w.replace(attack_bonus=w.attack_bonus - 4 * k),))
        out.append(wb.turn_damage(weaker, target, situation=situation, plan=[w.name]).to_dict())
    return out


def _uses(attacker: Any, target: Any, n: int) -> list[dict[int, float]]:
    """Return the damage of each of the ``n`` uses of a turn of the attacker's one ability or attack
    set, as {damage: probability}: a Last Odyssey turn of 2 action points, an ability costing 1
    (CLARIFICATIONS.md, Last Odyssey), each use with its own hit die; an Annulus turn of 2 actions, a
    set costing 1 ("2 actions per turn. An attack costs 1 action", CLARIFICATIONS.md, Annulus), each use its own dice
    (``wb.damage``: one use). Each is one use alone; a creature with nothing to use deals nothing."""
    held = list(getattr(attacker, "abilities", None) or getattr(attacker, "attack_sets", None) or ())
    if not held:
        return [{0: 1.0}]
    (a,) = held
    if hasattr(attacker, "attack_sets"):
        return [wb.damage(a, attacker, target).to_dict()] * n
    return [wb.turn_damage(attacker, target, plan=[a.name]).to_dict()] * n


def _turn(attacker: Any, target: Any, situation: Any = None) -> dict[int, float]:
    """Return the whole-turn damage of ``attacker`` on ``target`` as {damage: probability}; a creature
    with no attack deals nothing."""
    try:
        return wb.turn_damage(attacker, target, situation=situation).to_dict()
    except wb.RulesError as exc:
        if exc.field != "attacks":
            raise
        return {0: 1.0}


def brute(
    side_a: list[Any],
    side_b: list[Any],
    *,
    first: str = "a",
    order: str = "sides",
    targeting: str = "focus",
    max_rounds: int = 100,
    tail: float = 1e-18,
    flanking: str = "never",
    refund: bool = False,
    attacks: int = 1,
    rolls: int = 0,
    uses: int = 0,
) -> dict[str, Any]:
    """Return {"a": P(side a wins), "b": ..., "draw": ..., "first": [P(creature i falls first)]}.

    ``flanking`` (Unbound, "+2 when two characters flank an enemy"): "never", or "auto": a melee
    attacker gets the Situation's flanking when "another living creature of its side that attacks in
    melee has the same foe as its target this round (acted already or still to act; under focus
    targeting, whenever such an ally lives)" (CLARIFICATIONS.md, Encounters). Off focus, an ally
    still to act counts when, as things stand at the attack, it will pick that foe: under spread its
    pick after the attacks before it (this one included), under random only when that foe is the only
    one living (docs/encounters.md). ``refund`` (Glass Empires): an Attack that fells its target is
    made again on the next living foe ("refunds the Attack's action, which makes a new Attack on the
    next living foe by the same policy in the same turn; a kill by that Attack refunds again");
    ``attacks`` (Glass Empires, Options.attack_is_save_action False: two): the Attacks of a turn, each
    against the turn's target while it stands, each with the damage of one Attack (``wb.turn_damage``
    with one Attack a turn: creatures with no jam, armor or shield). ``rolls`` (Unbound): the turn is
    that many attack rolls (:func:`_rolls`), each against the turn's target while it stands, the
    rest going to the next living foe by the policy when it falls (CLARIFICATIONS.md, Encounters: "the
    remaining attacks of the action under way go to the next living foe by the same policy"); each
    roll counts as an attack (spread) and is flanked or not as it is made. ``uses`` (Last Odyssey,
    creatures of one ability costing 1 action point and no MP, no Shell): the turn is that many uses
    (:func:`_uses`), each against the turn's target while it stands, the rest going to the next
    living foe (planned again against it: with one ability, the same ability); each use counts as
    an attack (spread); the same for Annulus creatures of one set costing 1 action whose uses carry
    no state (no conditions, Counter, area, Reroll; alert; Endurance and Vitality one pool)."""
    if first == "random":
        one, two = (
            brute(
                side_a,
                side_b,
                first=f,
                order=order,
                targeting=targeting,
                max_rounds=max_rounds,
                flanking=flanking,
                refund=refund,
                attacks=attacks,
                rolls=rolls,
                uses=uses,
            )
            for f in ("a", "b")
        )
        return {
            "a": (one["a"] + two["a"]) / 2,
            "b": (one["b"] + two["b"]) / 2,
            "draw": (one["draw"] + two["draw"]) / 2,
            "first": [(x + y) / 2 for x, y in zip(one["first"], two["first"])],
        }
    creatures = list(side_a) + list(side_b)
    n, na = len(creatures), len(side_a)
    side = [0] * na + [1] * (n - na)
    hp = [wb.system_of(c).hit_points(c) for c in creatures]
    # "every creature of the side acting first ... takes its turn in listed order, then every creature
    # of the other side"; alternate: "a1, b1, a2, b2, ..., the larger side's extra creatures last"
    a_ids, b_ids = list(range(na)), list(range(na, n))
    lead, follow = (a_ids, b_ids) if first == "a" else (b_ids, a_ids)
    if order == "sides":
        turns = lead + follow
    else:
        turns = []
        for k in range(max(len(lead), len(follow))):
            turns += [x[k] for x in (lead, follow) if k < len(x)]
    def steps_of(i: int, j: int, situation: Any = None) -> list[dict[int, float]]:
        """The steps of i's turn on j: its attack rolls, its Attacks, or the whole turn."""
        if rolls:
            return _rolls(creatures[i], creatures[j], rolls, situation) or [{0: 1.0}]
        if uses:
            return _uses(creatures[i], creatures[j], uses)
        return [_turn(creatures[i], creatures[j], situation)] * attacks

    dists = {(i, j): steps_of(i, j) for i in range(n) for j in range(n) if side[i] != side[j]}
    melee = [any(getattr(w, "kind", "") == "melee" for w in getattr(c, "weapons", ())) for c in creatures]
    if flanking != "never":
        assert flanking == "auto"
        sys_ = wb.system_of(creatures[0])
        flanked = {
            (i, j): steps_of(i, j, sys_.Situation(flanking=True))
            for i in range(n)
            for j in range(n)
            if side[i] != side[j]
        }
    out = {"a": 0.0, "b": 0.0, "draw": 0.0, "first": [0.0] * n}
    # the attacks on each creature this round (read under spread), then the melee ones (read by
    # flanking off focus; counted only then, so that elsewhere equal states merge)
    melee_count = flanking == "auto" and targeting != "focus"
    zero = tuple([0] * (2 * n if melee_count else n))
    mass = {(tuple([0] * n), zero): 1.0}
    for _ in range(max_rounds):
        fresh: dict[tuple[tuple[int, ...], tuple[int, ...]], float] = {}
        for (d, _h), p in mass.items():  # the attacks are counted per round
            fresh[(d, zero)] = fresh.get((d, zero), 0.0) + p
        mass = fresh
        for i in turns:
            new: dict[tuple[tuple[int, ...], tuple[int, ...]], float] = {}

            def act(
                d: tuple[int, ...],
                h: tuple[int, ...],
                p: float,
                i: int = i,
                new: dict = new,
                k: int = 0,
                aim: int | None = None,
            ) -> None:
                if d[i] >= hp[i]:  # "A creature that dies before its turn does not act"
                    new[(d, h)] = new.get((d, h), 0.0) + p
                    return
                foes = [j for j in range(n) if side[j] != side[i] and d[j] < hp[j]]
                if aim is not None and d[aim] < hp[aim]:  # the turn's target, while it stands
                    picks = [(aim, 1.0)]
                elif targeting == "focus":  # fewest HP left, ties in listed order
                    picks = [(min(foes, key=lambda j: (hp[j] - d[j], j)), 1.0)]
                elif targeting == "spread":  # fewest attacks so far this round, ties in listed order
                    picks = [(min(foes, key=lambda j: (h[j], j)), 1.0)]
                else:  # uniform
                    picks = [(j, 1.0 / len(foes)) for j in foes]
                mates = [k for k in range(n) if k != i and side[k] == side[i] and melee[k] and d[k] < hp[k]]
                # the turns after i's this round, and the melee attacks on each creature so far
                after = turns[turns.index(i) + 1 :]
                struck = h[n:]
                for j, q in picks:
                    if flanking != "auto" or not melee[i]:
                        flank = False
                    elif targeting == "focus":
                        flank = bool(mates)
                    else:  # a melee ally attacked j already this round, or will (as things stand)
                        flank = (struck[j] & ~(1 << i)) != 0  # (another creature: not i's own earlier rolls)
                        if targeting == "spread":
                            count = list(h[:n])
                            count[j] += 1
                            for c in after:
                                if side[c] != side[i] or d[c] >= hp[c]:
                                    continue
                                pick = min(foes, key=lambda f: (count[f], f))
                                count[pick] += 1
                                flank = flank or (melee[c] and pick == j)
                        else:
                            flank = flank or (len(foes) == 1 and any(c in mates for c in after))
                    table = flanked if flank else dists
                    for dmg, r in table[(i, j)][k].items():
                        d2 = list(d)
                        d2[j] = min(d[j] + dmg, hp[j])
                        h2 = list(h)
                        if targeting == "spread":  # (only spread reads the count: elsewhere equal states merge)
                            h2[j] += 1
                        if melee_count and melee[i]:  # (which melee attackers struck j, one bit each)
                            h2[n + j] |= 1 << i
                        w = p * q * r
                        if all(d[k] < hp[k] for k in range(n)) and d2[j] >= hp[j]:
                            out["first"][j] += w
                        a_up = any(d2[k] < hp[k] for k in range(na))
                        b_up = any(d2[k] < hp[k] for k in range(na, n))
                        if not b_up:
                            out["a"] += w
                        elif not a_up:
                            out["b"] += w
                        elif refund and d2[j] >= hp[j]:  # the kill refunds: a new Attack on the next foe
                            act(tuple(d2), tuple(h2), w, k=k)
                        elif k + 1 < len(table[(i, j)]):  # the turn's next step, on its target while it stands
                            act(tuple(d2), tuple(h2), w, k=k + 1, aim=j)
                        else:
                            key = (tuple(d2), tuple(h2))
                            new[key] = new.get(key, 0.0) + w

            for (d, h), p in mass.items():
                act(d, h, p)
            mass = new
        if sum(mass.values()) < tail:
            break
    return out
