"""The optional ``rest`` of a round description (the foe's turn when it does not attack): the passive
fight's round is the attacker's turn then the foe's rest, in the enumerated chain and in the
simulation alike; the duel never rests."""

from __future__ import annotations

import dataclasses

import numpy as np

from workbench.columns import Columns
from workbench.fight.chain import passive_chain
from workbench.fight.simulation import RoundSide
from workbench.simulate.engine import run_fights


@dataclasses.dataclass
class Toy(Columns):
    damage_taken: np.ndarray
    burning: np.ndarray


class Hit:
    """A hit of 1 damage half the time that sets the target burning."""

    key = None

    def start(self, passive=False):
        z = np.zeros(1, np.int64)
        return Toy(z, z.copy()), Toy(z.copy(), z.copy())

    def hit_points(self, who):
        return 2

    def turn(self, me, foe, draw, plan=None):
        n = me.size
        table = {"hit": np.tile([0, 1], (n, 1)), "probability": np.full((n, 2), 0.5)}
        (me, foe), row = draw.row((me, foe), table)
        return me, foe.replace(damage_taken=foe.damage_taken + row["hit"], burning=foe.burning | row["hit"])

    def plans(self, me, foe):
        return ["hit"]

    def describe(self, me, foe):
        return {}


class HitAndBurn(Hit):
    """:class:`Hit` whose target burns for 1 at the end of its own turn, attacking or not."""

    def rest(self, me, foe, draw):
        return me, foe.replace(damage_taken=foe.damage_taken + foe.burning)


def test_the_passive_chain_plays_the_foes_rest():
    # with the rest a hit kills in its round (1 + 1 burning): geometric, mean 2; without, two hits: 4
    assert abs(passive_chain(HitAndBurn(), 1000).mean - 2.0) < 1e-9
    assert abs(passive_chain(Hit(), 1000).mean - 4.0) < 1e-9


def test_the_simulation_plays_the_foes_rest_as_the_passive_turn():
    for rnd, want in ((HitAndBurn(), 2.0), (Hit(), 4.0)):
        a, b = RoundSide(rnd, "a"), RoundSide(rnd, "b")
        a.immortal = True
        sim = run_fights(a, b, 20_000, first="a", max_rounds=200, seed=3, passive_b=True)
        rounds = sim.end_round[sim.winner == 1]
        assert rounds.size == 20_000
        assert abs(rounds.mean() - want) < 4 * rounds.std() / np.sqrt(rounds.size)
