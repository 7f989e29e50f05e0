"""The exact fight of a Glass Empires attacker against a passive target: an absorbing chain over
(armor points left, jammed weapon, Ray Shield up, damage taken).

CLARIFICATIONS.md, Glass Empires: "Armor points absorb physical damage before HP, 1 AP per 2
damage or fraction"; they stay spent from turn to turn (glass_empires/simulation.py). The "or
fraction" rounding is per Strike, so armor is not a pool that damage spills through in order (the
two-pool chain of :func:`workbench.chains.kill_stats`): with 1 AP, a 1-damage Strike is absorbed
and spends the AP (the fraction rounds up), so the next 1-damage Strike takes 1 HP, where a pool of
2 damage would absorb both. The state is small instead (armor points 0..Armor x Power, a jam bit, a
shield bit, HP), so the chain runs over it exactly, one turn table per (AP left, jammed, shield up):
the tables and the plan choice of :class:`~workbench.systems.glass_empires.simulation.GlassEmpiresSide`
(the simulation's own ``_build``), so chain and simulation play the same fight.

A Ray Shield (shared/data/glass_empires_creatures.toml, Moon Rabbit Operator: "immune to all
damage", it breaks on an effect dealing at least 6 and absorbs it; the gem "instantly shatters,
destroying the item") stays broken for the rest of the fight: a turn whose row has
``shield_breaks`` 1 leads to the shield-down tables, so the turns while it is up use the shield-up
turn table and the turns after it broke the shield-down one.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...simulate import check_round_weights
from .simulation import decode_key, shield_up_at_start, state_key

__all__ = ["MAX_STATES", "MAX_TRANSITIONS", "state_chain", "state_plans"]

#: (AP left, jammed, shield up) x HP states past which the chain is not built (the fight is simulated)
MAX_STATES = 200_000
#: transitions (states x turn-table rows) past which the chain is not built: the chain's time and
#: memory follow them (3.98 M took 0.6 s and 170 MB here; 10.8 M took 2.8 s for a 20-Strike
#: attacker against 1,000 HP and 40 armor points), so the fight is simulated instead, with its own
#: time bound (docs/limits.md)
MAX_TRANSITIONS = 4_000_000


def _next_keys(key: int, t: dict[str, np.ndarray], jam_matters: bool) -> np.ndarray:
    """Return the state key after each row of the turn table ``t`` played from ``key``: armor points
    spent (never below 0), the jam bit (when a jam costs an Attack), and the shield bit, cleared for
    good by a row whose ``shield_breaks`` is 1."""
    ap, _, up = decode_key(key)
    return state_key(
        np.maximum(0, ap - np.asarray(t["ap_damage"], dtype=np.int64)),
        (np.asarray(t["jam"], dtype=bool) & jam_matters).astype(np.int64),
        up * (np.asarray(t["shield_breaks"], dtype=np.int64) == 0),
    )


def _at_or_below(start: int, jam_matters: bool, shield: bool) -> list[int]:
    """Return every (AP left, jammed, shield up) key a fight from ``start`` may meet: armor points
    only go down and a broken shield stays broken."""
    ap0 = decode_key(start)[0]
    return [
        state_key(ap, j, s)
        for ap in range(ap0 + 1)
        for j in ((0, 1) if jam_matters else (0,))
        for s in range(shield + 1)
    ]


def _start(sys: Any, side: Any, target: Any) -> tuple[int, bool, int] | None:
    """Return (the target's HP, whether its Ray Shield is up, the start key) of the side's fight, or
    None when its states pass MAX_STATES."""
    hp = int(sys.hit_points(target))
    shield = shield_up_at_start(target, side.situation)
    ap0 = int(sys.armor_points(target, side.options))
    if (ap0 + 1) * 2 * (1 + shield) * hp > MAX_STATES:
        return None
    return hp, shield, int(state_key(ap0, 0, int(shield)))


def _reachable(side: Any, start: int, jam_matters: bool, shield: bool) -> tuple[list[int], list[dict[str, np.ndarray]]]:
    """Return the (AP left, jammed, shield up) keys reachable from ``start`` (:func:`state_key`) and
    the turn table of each. Armor points only go down and a broken shield stays broken, so every key
    at or below the start may be met: their tables are built in one call (the side's Bank), and the
    reachable ones kept."""
    every = _at_or_below(start, jam_matters, shield)
    built = dict(zip(every, side.bank.tables(every)))
    keys, index = [start], {start: 0}
    i = 0
    while i < len(keys):
        nxt = _next_keys(keys[i], built[keys[i]], jam_matters)
        for k in np.unique(nxt).tolist():
            if k not in index:
                index[k] = len(keys)
                keys.append(int(k))
        i += 1
    return keys, [built[k] for k in keys]


def state_chain(
    sys: Any,
    attacker: Any,
    target: Any,
    options: Any,
    situation: Any,
    plan: Any,
    max_rounds: int,
    weights: np.ndarray | None = None,
) -> tuple[np.ndarray, float] | tuple[np.ndarray, float, np.ndarray] | None:
    """Return (P(target killed by round t) for t = 1.. up to ``max_rounds`` or until the survival
    is below CHAIN_TAIL, the exact mean number of rounds (inf if some reachable state can never be
    killed)), or None when the states pass MAX_STATES or their transitions MAX_TRANSITIONS. With
    ``weights`` (t = 0..R_w - 1, :func:`workbench.simulate.check_round_weights`) a third item:
    sum_t weights[t] * P(alive after t rounds, damage taken = d), d = 0..HP - 1, summed over (AP
    left, jammed, shield up) (``RuleSystem.state_chain``: a duel's winner's HP left).

    Rounds-to-kill's fight (docs/combat.md): the attacker takes its turn, the target does nothing.
    From state (key, h), each row (damage, ap_damage, jam, shield_breaks, probability) of the key's
    turn table leads to (max(0, AP - ap_damage), jam, shield up and not shield_breaks; h + damage),
    and h + damage >= HP kills; the chain is solved by
    :func:`workbench.state_chain.solve_keyed_chain` (the mean from (I - Q) m = 1 over the states
    reached).
    """
    from ...state_chain import KeyedTurn, solve_keyed_chain
    from .simulation import GlassEmpiresSide

    side = GlassEmpiresSide(attacker, target, options, situation, plan)
    begun = _start(sys, side, target)
    if begun is None:
        return None
    hp, shield, start = begun
    keys, tables = _reachable(side, start, side.jam_matters, shield)
    if hp * sum(len(t["damage"]) for t in tables) > MAX_TRANSITIONS:
        return None
    table_of = dict(zip(keys, tables))

    def turn(key: Any) -> KeyedTurn:
        """One turn from (AP left, jammed, shield up): each row of the key's turn table, to the key
        :func:`_next_keys` gives it, with its damage to HP."""
        t = table_of[key]
        return KeyedTurn(
            _next_keys(key, t, side.jam_matters).tolist(),
            np.asarray(t["damage"], dtype=np.int64),
            np.asarray(t["probability"], dtype=np.float64),
        )

    W = None if weights is None else check_round_weights(weights, max_rounds)
    # the one solver of keyed chains (workbench/state_chain.py): P(killed by t), the exact mean,
    # and with weights the alive mass by damage taken summed over the keys
    chained = solve_keyed_chain(start, hp, turn, max_rounds, weights=W, max_transitions=MAX_TRANSITIONS)
    if chained is None:
        return None
    if chained.weighted is None:
        return chained.by, chained.mean
    return chained.by, chained.mean, chained.weighted


def state_plans(sys: Any, attacker: Any, target: Any, options: Any, situation: Any) -> Any:
    """Return the fight of :func:`state_chain` with every legal plan at each (AP left, jammed, shield
    up) key (a :class:`~workbench.state_chain.PlannedChain`, for optimal play over the state): per
    key, each plan's (damage, ap_damage, jam, shield_breaks) rows, to the key :func:`_next_keys`
    gives them; None past MAX_STATES. Every key at or below the start is built in one call
    (:meth:`GlassEmpiresSide.plan_tables`), as armor points only go down and a broken shield stays
    broken."""
    from ...simulate.plans import grouped_table
    from ...state_chain import KeyedTurn, PlannedChain
    from .simulation import GlassEmpiresSide

    side = GlassEmpiresSide(attacker, target, options, situation, None)
    begun = _start(sys, side, target)
    if begun is None:
        return None
    hp, shield, start = begun
    every = _at_or_below(start, side.jam_matters, shield)
    per = dict(zip(every, side.plan_tables(every)))
    cols = ["damage", "ap_damage", "jam", "shield_breaks"]

    def turn(key: Any) -> dict[str, KeyedTurn]:
        """Every legal plan from (AP left, jammed, shield up): its rows to their next keys."""
        out = {}
        for label, frame in per[key].items():
            t = grouped_table(frame, cols)
            out[label] = KeyedTurn(
                _next_keys(key, t, side.jam_matters).tolist(),
                np.asarray(t["damage"], dtype=np.int64),
                np.asarray(t["probability"], dtype=np.float64),
            )
        return out

    def describe(key: Any) -> dict[str, Any]:
        ap, jammed, up = decode_key(int(key))
        named: dict[str, Any] = {"armor_points_left": ap}
        if side.jam_matters:
            named["jammed"] = bool(jammed)
        if shield:
            named["ray_shield_up"] = bool(up)
        return named

    return PlannedChain(start, hp, turn, describe)
