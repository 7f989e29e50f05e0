"""The exact fight of a Last Odyssey attacker that spends MP against a passive target without a Shell.

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

Not chained (None: the fight is simulated): a target with a Shell (the Shell state changes the plans
and the multipliers mid-turn, CLARIFICATIONS.md, Last Odyssey: Shell) and any phase ability (Miasma's
Poisoned lands on a hit die, so whether poison damage comes is a random state; Dragonslayer's
multiplier reads whether the foe is at full HP; Foretell Doom's spell, like Dragonslayer, is drawn
as the foe's HP stands: state beyond the damage taken's running total in the simulation's tables).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...dist import Dist
from ...simulate.plans import dist_table

__all__ = ["mp_schedule", "state_chain"]


def _pmf(table: dict[str, np.ndarray]) -> np.ndarray:
    """Return the damage pmf (index = damage) of an outcome table (damage, probability)."""
    return np.bincount(np.asarray(table["damage"], dtype=np.int64), weights=np.asarray(table["probability"]))


def mp_schedule(side: Any) -> tuple[list[np.ndarray], np.ndarray]:
    """Return (the damage pmfs of the turns that spend MP, in order; the pmf of every later turn) of
    the side's fight against its foe without a Shell: turn t plays the plan ``side`` chooses with
    the MP left (LastOdysseySide._plan, the simulation's own choice and tables), whose abilities
    each pay their MP cost on use (srd/heroes/numbers.md: "their MP is reduced by that amount").
    A turn's damage is the sum of its abilities' independent uses (each its own hit die); no plan
    (None) deals 0; the first plan that costs no MP repeats for the rest of the fight (the MP no
    longer changes)."""
    mp = int(side.me.mp)
    lead: list[np.ndarray] = []
    while True:
        plan = side._plan(False, mp)
        cost = 0
        if plan is None:
            pmf = np.ones(1)
        elif isinstance(plan, Dist):
            pmf = _pmf(dist_table(plan))
        else:
            pmf = np.ones(1)
            for t in side.uses.tables([a * 2 for a in plan]):  # key: ability * 2 + Shell up (0: no Shell)
                pmf = np.convolve(pmf, _pmf(t))
            cost = sum(int(side.abilities[a].mp_cost) for a in plan)
        if cost == 0:
            return lead, pmf
        lead.append(pmf)
        mp -= cost


def state_chain(
    sys: Any, attacker: Any, target: Any, options: Any, situation: Any, plan: Any, max_rounds: int
) -> tuple[np.ndarray, float] | None:
    """Return (P(target killed by round t) for t = 1.. up to ``max_rounds`` or until the survival is
    below CHAIN_TAIL, the exact mean number of rounds (inf when the turns left can never kill)), or
    None when the fight's state is more than the MP (a Shell, a phase ability: the module docstring).
    A fight whose MP runs out before any kill and whose turns left deal no damage (a given plan of
    MP abilities only) is never killed: P 0 every round, mean inf (exact; the simulation would
    refuse it, "no simulated fight killed").

    Rounds-to-kill's fight (docs/combat.md): the attacker takes its turn, the target does nothing;
    the turns are :func:`mp_schedule`'s, the chain :func:`workbench.chains.kill_chains` with ``lead``.
    """
    from ...chains import CHAIN_TAIL, kill_chains
    from .simulation import LastOdysseySide

    if sys.state_effects(attacker, target, options, situation, plan) - {"mp"}:
        return None
    side = LastOdysseySide(attacker, target, options, situation, plan)
    lead, turn = mp_schedule(side)
    hp = np.array([int(sys.hit_points(target))], dtype=np.int64)
    c = kill_chains(turn[None, :], hp, max_rounds=max_rounds, lead=lead)
    by = np.minimum(np.cumsum(c.killed[0]), 1.0)
    done = np.flatnonzero(1.0 - by < CHAIN_TAIL)
    if done.size:  # the lead rounds run to their end: stop where the survival left the chain
        by = by[: done[0] + 1]
    if by.size == 0:  # no round deals damage: never killed (P 0, mean inf), exactly
        by = np.zeros(1)
    return by, float(c.mean[0])
