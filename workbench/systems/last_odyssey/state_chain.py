"""The exact fight of a Last Odyssey attacker that spends MP (or plays Foretell Doom) against a passive
target, and of any attacker against a target with a Shell.

srd/heroes/numbers.md (HP and MP): "When a character uses an ability that has an MP cost, their MP is
reduced by that amount. Characters may never use an ability that costs more than their current MP";
the text has no MP regeneration. Each turn of the fight plays the plan the MP left pays for
(:class:`~workbench.systems.last_odyssey.simulation.LastOdysseySide`: the best plan, or a given plan
minus the MP abilities it can no longer pay for). Against a target without a Shell that plan depends
on the MP left alone, not on HP or dice, and the MP an ability costs is paid on every use, hit or
miss: so the MP trajectory is fixed in advance. Turn 1 plays P(mp_0), turn 2 P(mp_1) with
mp_1 = mp_0 - (the MP P(mp_0) costs), ..., until a plan costs nothing; from then on every turn is
that plan. The fight on HP alone is then a time-inhomogeneous absorbing chain: the lead turns, then
the constant turn (:func:`workbench.chains.kill_chains` with ``lead``), exact.

Foretell Doom, played once after the third Effect Phase (srd/warriors/examples/tier/06.md), reads no
HP, so its damage belongs to round 3 alone and joins that round's turn (checked: its tables at full
and not full HP must agree).

A target with a Shell: the Shell breaks mid-turn and changes the multipliers and so the plans
(CLARIFICATIONS.md, Last Odyssey: Shell), so the MP trajectory is no longer fixed: the fight is the
chain over (MP left, Shell points left, HP damage taken) of :func:`shell_chain`, each turn composed
ability by ability as the Shell stands (:func:`shell_turn`), solved by
:func:`workbench.state_chain.solve_keyed_chain`.

Phase abilities (played between rounds: Miasma's Poisoned lands on a hit die and then lasts, so whether
a round brings poison damage is state; Dragonslayer's x4 falls to x2 once the foe is not at full HP
and spends anima; Foretell Doom against a Shell): the chain of :func:`phase_chain` over (MP left, Shell
left, foe Poisoned, anima left, the round as far as it matters, foe at full HP; HP damage taken), each
round :func:`phase_turn` (the turn, then the Effect and Paradigm Phases as the simulation plays them).
Not chained (None: the fight is simulated): a state past the solver's bounds.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...dist import Dist
from ...plans import dist_table

__all__ = ["mp_schedule", "state_chain", "shell_turn", "plan_turn", "shell_chain", "state_plans"]


def _pmf(table: dict[str, np.ndarray]) -> np.ndarray:
    """Return the damage pmf (index = damage) of an outcome table (damage, probability)."""
    return np.bincount(np.asarray(table["damage"], dtype=np.int64), weights=np.asarray(table["probability"]))


def _turn(side: Any, mp: int) -> tuple[np.ndarray, int]:
    """Return (the damage pmf, the MP spent) of the side's turn with ``mp`` MP left against its foe
    without a Shell: the plan ``side`` chooses (LastOdysseySide._plan, the simulation's own choice
    and tables), each ability an independent use (its own hit die) that pays its MP cost
    (srd/heroes/numbers.md: "their MP is reduced by that amount"); no plan (None) deals 0."""
    plan = side._plan(False, mp)
    if plan is None:
        return np.ones(1), 0
    if isinstance(plan, Dist):  # a plan function's own turn: no ability is named, no MP paid
        return _pmf(dist_table(plan)), 0
    pmf = np.ones(1)
    for t in side.uses.tables([a * 2 for a in plan]):  # key: ability * 2 + Shell up (0: no Shell)
        pmf = np.convolve(pmf, _pmf(t))
    return pmf, sum(int(side.abilities[a].mp_cost) for a in plan)


def _after_third(side: Any) -> list[np.ndarray] | None:
    """Return the damage pmfs of the side's abilities played once after the third Effect Phase
    (Foretell Doom: "After the Effect Phase in battle passes three times, the Prophet uses a
    spell", srd/warriors/examples/tier/06.md), from the simulation's phase tables; None when one
    reads whether the foe is at full HP (its tables at full and not full HP differ: the damage
    depends on the HP state, not on the round alone)."""
    out = []
    for a in side.phase["after_third_effect_phase"]:
        i = side._ability_index(a)
        full, hurt = side.phase_uses.tables([i * 4 + 1, i * 4])  # key: ability * 4 + Shell up * 2 + full HP
        pf, ph = _pmf(full), _pmf(hurt)
        if pf.size != ph.size or not np.array_equal(pf, ph):
            return None
        out.append(pf)
    return out


def mp_schedule(side: Any) -> tuple[list[np.ndarray], np.ndarray] | None:
    """Return (the damage pmfs of rounds 1..k, the pmf of every later round) of the side's fight
    against its foe without a Shell, or None when an after-third-Effect-Phase ability reads the
    foe's HP (:func:`_after_third`). Round t plays the turn (:func:`_turn`) of the MP left after
    rounds 1..t-1; round 3 adds the abilities played after the third Effect Phase (a kill in the
    phases after round r is a kill in round r, as the simulation counts it); the first round past
    those whose turn costs no MP repeats for the rest of the fight (the MP no longer changes)."""
    doom = _after_third(side)
    if doom is None:
        return None
    mp = int(side.me.mp)
    lead: list[np.ndarray] = []
    r = 0
    while True:
        r += 1
        pmf, cost = _turn(side, mp)
        if r == 3:
            for d in doom:
                pmf = np.convolve(pmf, d)
        if cost == 0 and r > (3 if doom else 0):
            return lead, pmf
        lead.append(pmf)
        mp -= cost


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
    """Return (P(target killed by round t) for t = 1.. up to ``max_rounds`` or until the survival is
    below CHAIN_TAIL, the exact mean number of rounds (inf when the turns left can never kill)), or
    None when the fight's state is more than the MP and a Shell (a phase ability: the module
    docstring). A target with a Shell is chained over (MP left, Shell left, HP damage taken):
    :func:`shell_chain`.
    With ``weights`` (t = 0..R_w - 1, :func:`workbench.simulate.check_round_weights`) a third item:
    sum_t weights[t] * P(alive after t rounds, damage taken = d), d = 0..HP - 1 (the MP left is
    fixed by the round, so nothing else is summed over; ``RuleSystem.state_chain``: a duel's
    winner's HP left).
    A fight whose MP runs out before any kill and whose turns left deal no damage (a given plan of
    MP abilities only) is never killed: P 0 every round, mean inf (exact; the simulation would
    refuse it, "no simulated fight killed").

    Rounds-to-kill's fight (docs/combat.md): the attacker takes its turn, the target does nothing;
    the turns are :func:`mp_schedule`'s, the chain :func:`workbench.chains.kill_chains` with ``lead``.
    """
    from ...chains import CHAIN_TAIL, kill_chains
    from ...simulate import check_round_weights
    from .simulation import LastOdysseySide

    timed = {a.name.lower() for a in attacker.phase_abilities if a.timing == "after_third_effect_phase"}
    effects = sys.state_effects(attacker, target, options, situation, plan)
    phases = effects - {"mp", "shell"}  # the phase abilities (simulation.phase_effects)

    def keyed(chain: Any) -> Any:
        w = None if weights is None else check_round_weights(weights, max_rounds)
        chained = chain(sys, attacker, target, options, situation, plan, max_rounds, w)
        if chained is None:
            return None
        by = chained.by if chained.by.size else np.zeros(1)
        return (by, chained.mean) if chained.weighted is None else (by, chained.mean, chained.weighted)

    if "shell" in effects and not phases:
        return keyed(shell_chain)
    if "shell" in effects or phases - timed:  # the phases read the Shell, Poisoned, the anima or full HP
        return keyed(phase_chain)
    side = LastOdysseySide(attacker, target, options, situation, plan)
    got = mp_schedule(side)
    if got is None:  # an after-third ability reads whether the foe is at full HP
        return keyed(phase_chain)
    lead, turn = got
    hp = np.array([int(sys.hit_points(target))], dtype=np.int64)
    c = kill_chains(turn[None, :], hp, max_rounds=max_rounds, lead=lead)
    by = np.minimum(np.cumsum(c.killed[0]), 1.0)
    done = np.flatnonzero(1.0 - by < CHAIN_TAIL)
    if done.size:  # the lead rounds run to their end: stop where the survival left the chain
        by = by[: done[0] + 1]
    if by.size == 0:  # no round deals damage: never killed (P 0, mean inf), exactly
        by = np.zeros(1)
    if weights is None:
        return by, float(c.mean[0])
    return by, float(c.mean[0]), weighted_alive(lead, turn, int(hp[0]), weights, max_rounds)


def weighted_alive(lead: list[np.ndarray], turn: np.ndarray, hp: int, weights: Any, max_rounds: int) -> np.ndarray:
    """Return sum_t weights[t] P(alive after t rounds, damage taken = d), d = 0..hp - 1, of the fight
    that plays the ``lead`` turns in rounds 1..k and ``turn`` in every later round
    (:func:`mp_schedule`): the lead rounds on the dense alive mass a_t (a_0 the untouched target,
    a_t = (a_{t-1} * lead[t - 1]) cut at hp), then, from each damage s that a_k holds, the constant
    chain of HP hp - s (:func:`workbench.chains.kill_chains` with weights[k:]) shifted by s."""
    from ...chains import kill_chains
    from ...simulate import check_round_weights

    W = check_round_weights(weights, max_rounds)
    a = np.zeros(hp)
    a[0] = 1.0
    out = np.zeros(hp)
    k = len(lead)
    for t, x in enumerate(lead):
        if t >= W.size:
            return out
        out += W[t] * a
        a = np.convolve(a, x)[:hp]
    if k >= W.size:
        return out
    s = np.flatnonzero(a > 0)
    if s.size == 0:  # killed within the lead rounds
        return out
    c = kill_chains(turn[None, :], hp - s, max_rounds=max(1, max_rounds - k), weights=np.tile(W[k:], (s.size, 1)))
    assert c.weighted is not None  # asked for
    d = s[:, None] + np.arange(c.weighted.shape[1])[None, :]
    inside = d < hp
    np.add.at(out, d[inside], (a[s][:, None] * c.weighted)[inside])
    return out


def shell_turn(side: Any, mp: int, shell: int) -> tuple[list[tuple[int, int]], np.ndarray, np.ndarray]:
    """Return one turn from (``mp`` MP left, ``shell`` Shell points left) as parallel outcome rows:
    (the (MP, Shell) after it, the damage to HP, the probability).

    CLARIFICATIONS.md, Last Odyssey: "a Shell is a pool of points that takes damage before HP", and
    once broken "spells lose their x2 and strikes gain theirs": each ability of the turn is drawn
    as the Shell stands when it is used (the simulation's tables, ``side.uses``, keyed ability * 2 +
    Shell up), its damage absorbed by the Shell points left and the rest taken from HP. The plan is
    chosen at the start of the turn from (Shell up, MP left), as the simulation chooses it
    (:meth:`LastOdysseySide._plan`), and each ability pays its MP cost on use
    (srd/heroes/numbers.md: "their MP is reduced by that amount")."""
    return plan_turn(side, mp, shell, side._plan(shell > 0, mp))


def plan_turn(
    side: Any, mp: int, shell: int, plan: list[int] | Dist | None
) -> tuple[list[tuple[int, int]], np.ndarray, np.ndarray]:
    """Return the turn of :func:`shell_turn` from (``mp``, ``shell``) playing ``plan`` (the indices
    of its abilities in ``side.abilities``; a plan function's Dist; None: nothing), as parallel
    outcome rows: (the (MP, Shell) after it, the damage to HP, the probability)."""
    if plan is None:
        return [(mp, shell)], np.zeros(1, dtype=np.int64), np.ones(1)
    if isinstance(plan, Dist):  # a plan function's own turn: one damage, absorbed as one
        steps, after = [dist_table(plan)], mp
    else:
        steps, after = None, mp - sum(int(side.abilities[a].mp_cost) for a in plan)
    sh = np.array([shell], dtype=np.int64)
    dh = np.zeros(1, dtype=np.int64)
    pr: np.ndarray = np.ones(1)
    for j in range(len(plan) if steps is None else 1):
        parts = []
        for on in (True, False):
            sel = (sh > 0) == on
            if not sel.any():
                continue
            t = steps[0] if steps is not None else side.uses.tables([plan[j] * 2 + int(on)])[0]
            d = np.asarray(t["damage"], dtype=np.int64)
            q = np.asarray(t["probability"], dtype=np.float64)
            s0, h0, p0 = sh[sel][:, None], dh[sel][:, None], pr[sel][:, None]
            absorbed = np.minimum(d[None, :], s0)
            parts.append(((s0 - absorbed).ravel(), (h0 + d[None, :] - absorbed).ravel(), (p0 * q[None, :]).ravel()))
        sh, dh, pr = (np.concatenate([x[i] for x in parts]) for i in range(3))
        # merge equal (Shell left, damage taken) rows: the turn's outcomes, not its paths
        radix = int(dh.max()) + 1
        u, inv = np.unique(sh * radix + dh, return_inverse=True)
        pr = np.bincount(inv, weights=pr, minlength=u.size)
        sh, dh = np.divmod(u, radix)
    return [(after, int(x)) for x in sh.tolist()], dh, pr


def shell_chain(
    sys: Any, attacker: Any, target: Any, options: Any, situation: Any, plan: Any, max_rounds: int, weights: Any = None
) -> Any:
    """Return the :class:`~workbench.state_chain.StateChain` of a fight whose state is the target's
    Shell and the attacker's MP: the absorbing chain over (MP left, Shell points left, HP damage
    taken), each turn :func:`shell_turn`; None when it passes the chain's bound (the fight is then
    simulated). Rounds-to-kill's fight (docs/combat.md): the attacker takes its turn, the target
    does nothing; the target falls when the damage past its Shell reaches its HP."""
    from ...state_chain import KeyedTurn, solve_keyed_chain
    from .simulation import LastOdysseySide

    side = LastOdysseySide(attacker, target, options, situation, plan)

    def turn(key: Any) -> KeyedTurn:
        keys, damage, probability = shell_turn(side, *key)
        return KeyedTurn(keys, damage, probability)

    start = (int(attacker.mp), int(sys.shell_points(target)))
    return solve_keyed_chain(start, int(sys.hit_points(target)), turn, max_rounds, weights=weights)


def state_plans(sys: Any, attacker: Any, target: Any, options: Any, situation: Any) -> Any:
    """Return the fight of :func:`shell_chain` (or, with phase abilities, :func:`phase_chain`) with
    every legal plan (a :class:`~workbench.state_chain.PlannedChain`, for optimal play over the
    state): the plans of ``turn_plans`` with the MP left, as the Shell stands ("Characters may never
    use an ability that costs more than their current MP", srd/heroes/numbers.md), each turn
    :func:`plan_turn`. With phase abilities the key is :func:`phase_chain`'s and a round one Branch
    per state entering the Action Phase (round 1's extra Paradigm Phase comes first,
    :func:`phase_turn`)."""
    from ...state_chain import KeyedTurn, PlannedChain
    from .simulation import LastOdysseySide

    phases = sys.state_effects(attacker, target, options, situation) - {"mp", "shell"}
    side = LastOdysseySide(attacker, target, options, situation, None)
    legal: dict[tuple[int, bool], dict[str, list[int]]] = {}

    def plans(mp: int, shell_on: bool) -> dict[str, list[int]]:
        """The plans (label -> ability indices) the MP left pays for, as the Shell stands: they read
        the MP and whether the Shell is up, not its points, so each is asked once."""
        if (mp, shell_on) not in legal:
            got = sys.turn_plans(attacker.replace(mp=mp), target, side.options, side._sit(shell_on))
            legal[mp, shell_on] = {
                label: [side._ability_index(sys.attack_named(attacker, x)) for x in label.split(" + ")] for label in got
            }
        return legal[mp, shell_on]

    rows: dict[tuple[int, tuple[int, ...]], tuple[list[tuple[int, int]], np.ndarray, np.ndarray]] = {}

    def played(mp: int, shell: int, abilities: list[int]) -> tuple[list[tuple[int, int]], np.ndarray, np.ndarray]:
        """:func:`plan_turn` from (``mp``, ``shell``): its rows read the Shell and the plan, and the
        MP only to pay the plan's cost, so each (Shell, plan) is composed once (with no MP, the
        keys' MP is minus the cost) and moved to the MP left."""
        memo = (shell, tuple(abilities))
        if memo not in rows:
            rows[memo] = plan_turn(side, 0, shell, abilities)
        keys, damage, probability = rows[memo]
        return [(mp + spent, s) for spent, s in keys], damage, probability

    hp = int(sys.hit_points(target))
    if phases:
        timed = bool(side.phase["after_third_effect_phase"] or side.phase["paradigm_phase"])
        first = (int(attacker.mp), int(sys.shell_points(target)), False, int(attacker.anima), 1 if timed else 0, True)

        def phased(key: Any) -> Any:
            return phase_turn(side, key, plans, played)

        def named(key: Any) -> dict[str, Any]:
            mp, shell, poisoned, anima, rcode, full = key
            return {"mp_left": mp, "shell_left": shell, "poisoned": poisoned, "anima_left": anima, "round": rcode}

        return PlannedChain(first, hp, phased, named)

    def turn(key: Any) -> dict[str, KeyedTurn]:
        """Every plan the MP left pays for, as the Shell stands: its rows to their next keys."""
        mp, shell = key
        return {label: KeyedTurn(*played(mp, shell, ab)) for label, ab in plans(mp, shell > 0).items()}

    def describe(key: Any) -> dict[str, Any]:
        return {"mp_left": key[0], "shell_left": key[1]}

    start = (int(attacker.mp), int(sys.shell_points(target)))
    return PlannedChain(start, hp, turn, describe)


def phase_turn(side: Any, key: tuple, plans: Any = None, play: Any = None) -> Any:
    """Return one round of the fight from ``key`` = (MP left, Shell left, foe Poisoned, anima left,
    round code, foe at full HP) as parallel outcome rows (the key after the round, the damage to HP,
    the probability), played as :class:`~workbench.systems.last_odyssey.simulation.LastOdysseySide`
    plays it, with its tables and plans (srd/combat/round.md: "The Action Phase", then "The Effect
    Phase", then "The Paradigm Phase"; "An extra Paradigm Phase also takes place at the beginning of
    the first round of every battle"):

    - round 1 only: the extra Paradigm Phase;
    - the attacker's turn (:func:`shell_turn`'s rule, the plan chosen from the Shell and MP at its start);
    - the Effect Phase: a Poisoned foe takes a tenth of its base maximum HP (srd/combat/statuses.md,
      Poisoned: "During the Effect Phase at the end of a round, this character takes damage equal to one
      tenth of their base maximum HP rounded down, with a minimum damage of 1"), then each effect-phase
      sleight may Poison it (Miasma; "for the duration of the battle"), then after the third Effect
      Phase the abilities that wait for it (Foretell Doom);
    - the Paradigm Phase: the first paradigm action the anima left pays for, one a round
      ("Antagonists can only use one paradigm action per round", srd/anima/paradigm.md), its anima spent.

    Every damage is absorbed by the Shell points left first; an ability reading whether the foe is at
    full HP (Dragonslayer) reads the key's flag and the HP damage of the round so far. The round code
    counts rounds up to the last one that differs (1: the extra Paradigm Phase; 3: the third Effect
    Phase), 0 when none does.

    With ``plans`` ((MP left, Shell up) -> label -> ability indices: every plan legal there; ``play``
    (MP, Shell, abilities) -> :func:`plan_turn`'s rows, default plan_turn itself), a list
    of :class:`~workbench.state_chain.Branch` instead, one per state entering the Action Phase (after
    round 1's extra Paradigm Phase), each plan played from there to the end of the round (optimal
    play, :func:`state_plans`)."""
    from .simulation import poison_damage

    mp0, shell0, poisoned0, anima0, rcode, full0 = key
    third, paradigm = side.phase["after_third_effect_phase"], side.phase["paradigm_phase"]
    poison = poison_damage(side.foe)
    # the states within the round: (MP, Shell, Poisoned, anima, HP damage this round) -> probability
    dist: dict[tuple, float] = {(mp0, shell0, poisoned0, anima0, 0): 1.0}

    def hurt(state: tuple, damage: np.ndarray, prob: np.ndarray, out: dict, anima: int | None = None) -> None:
        """Add to ``out`` the states after ``damage`` (each with ``prob``), the Shell absorbing first
        and the anima set to ``anima`` (None: as it was)."""
        mp, shell, poisoned, anima_was, dh = state
        anima = anima_was if anima is None else anima
        absorbed = np.minimum(damage, shell)
        for s, d, q in zip((shell - absorbed).tolist(), (dh + damage - absorbed).tolist(), prob.tolist()):
            k = (mp, s, poisoned, anima, d)
            out[k] = out.get(k, 0.0) + q

    # the phase uses' tables as arrays (damage, probability, P(status)), per table key, kept on the side:
    # every round of every key reads the same few
    arrays = side.__dict__.setdefault("_phase_arrays", {})

    def phase_use(a: Any, state: tuple) -> tuple[np.ndarray, np.ndarray, float, float]:
        i = side._ability_index(a)
        full = bool(full0) and state[4] == 0
        k = i * 4 + (state[1] > 0) * 2 + int(full)
        if k not in arrays:
            t = side.phase_uses.tables([k])[0]
            q = np.asarray(t["probability"], np.float64)
            hit = np.asarray(t["status"]).astype(bool)
            arrays[k] = (np.asarray(t["damage"], np.int64), q, float(q[hit].sum()), float(q[~hit].sum()))
        return arrays[k]

    def paradigm_phase(dist: dict) -> dict:
        out: dict = {}
        for st, p in dist.items():
            a = next((a for a in paradigm if st[3] >= a.anima_cost), None)
            if a is None:
                out[st] = out.get(st, 0.0) + p
                continue
            damage, q, _, _ = phase_use(a, st)
            hurt(st, damage, p * q, out, anima=st[3] - a.anima_cost)
        return out

    if rcode == 1 and paradigm:
        dist = paradigm_phase(dist)

    def finish(dist: dict) -> tuple[list[tuple], np.ndarray, np.ndarray]:
        """The rest of the round after the Action Phase: the Effect Phase (Poisoned's damage, the
        effect-phase sleights, the abilities after the third), then the Paradigm Phase."""
        out: dict = {}
        for st, p in dist.items():
            if st[2]:
                hurt(st, np.array([poison]), np.array([p]), out)
            else:
                out[st] = out.get(st, 0.0) + p
        dist = out
        for a in side.phase["effect_phase"]:
            out = {}
            for st, p in dist.items():
                if st[2]:  # already Poisoned: the status changes nothing
                    out[st] = out.get(st, 0.0) + p
                    continue
                _, _, hit, miss = phase_use(a, st)
                for poisoned, mass in ((True, hit), (False, miss)):
                    if mass > 0:
                        k = (st[0], st[1], poisoned, st[3], st[4])
                        out[k] = out.get(k, 0.0) + p * mass
            dist = out
        if rcode == 3:
            for a in third:
                out = {}
                for st, p in dist.items():
                    damage, q, _, _ = phase_use(a, st)
                    hurt(st, damage, p * q, out)
                dist = out
        if paradigm:
            dist = paradigm_phase(dist)
        top = 4 if third else 2 if paradigm else 0
        nxt = min(rcode + 1, top) if top else 0
        after = [(mp, shell, poisoned, anima, nxt, bool(full0) and dh == 0) for mp, shell, poisoned, anima, dh in dist]
        damage = np.array([st[4] for st in dist], dtype=np.int64)
        return after, damage, np.fromiter(dist.values(), np.float64, len(dist))

    def act(st: tuple, p: float, rows: tuple, into: dict) -> None:
        """Add to ``into`` the Action Phase from state ``st`` (probability ``p``) by the turn ``rows``."""
        _, _, poisoned, anima, dh = st
        for (mp2, s2), d, q in zip(rows[0], rows[1].tolist(), rows[2].tolist()):
            k = (mp2, s2, poisoned, anima, dh + d)
            into[k] = into.get(k, 0.0) + p * q

    if plans is None:  # the Action Phase: the side's own plan from each Shell the round has come to
        turned: dict = {}
        for st, p in dist.items():
            act(st, p, shell_turn(side, st[0], st[1]), turned)
        return finish(turned)
    from ...state_chain import Branch, KeyedTurn

    branches = []
    for st, p in dist.items():  # one decision per state entering the Action Phase
        choices = {}
        for label, abilities in plans(st[0], st[1] > 0).items():
            turned = {}
            rows = plan_turn(side, st[0], st[1], abilities) if play is None else play(st[0], st[1], abilities)
            act(st, 1.0, rows, turned)
            after, damage, prob = finish(turned)
            choices[label] = KeyedTurn(after, damage - st[4], prob)
        named = {"taken_before_the_plan": st[4]} if rcode == 1 and paradigm else {}
        branches.append(Branch(p, st[4], choices, named))
    return branches


def phase_chain(
    sys: Any, attacker: Any, target: Any, options: Any, situation: Any, plan: Any, max_rounds: int, weights: Any = None
) -> Any:
    """Return the :class:`~workbench.state_chain.StateChain` of a fight with phase abilities (Miasma,
    Dragonslayer, Foretell Doom) and any MP and Shell: the absorbing chain over (MP left, Shell left, foe
    Poisoned, anima left, round code, foe at full HP; HP damage taken), each round :func:`phase_turn`;
    None when it passes the chain's bounds (the fight is then simulated). Rounds-to-kill's fight
    (docs/combat.md): the attacker plays its turns and phases, the target does nothing; a kill in a
    round's phases is a kill in that round, as the simulation counts it (the extra Paradigm Phase before
    round 1 counts in round 1)."""
    from ...state_chain import KeyedTurn, solve_keyed_chain
    from .simulation import LastOdysseySide

    side = LastOdysseySide(attacker, target, options, situation, plan)
    timed = bool(side.phase["after_third_effect_phase"] or side.phase["paradigm_phase"])

    def turn(key: Any) -> KeyedTurn:
        keys, damage, probability = phase_turn(side, key)
        return KeyedTurn(keys, damage, probability)

    start = (int(attacker.mp), int(sys.shell_points(target)), False, int(attacker.anima), 1 if timed else 0, True)
    return solve_keyed_chain(start, int(sys.hit_points(target)), turn, max_rounds, weights=weights)
