"""The fight, derived from one description of a round per rule system (issue 33).

A system describes one turn of one side once (:class:`~workbench.fight.round.FightRound`): a function
over a batch of named states (:class:`~workbench.columns.Columns`, a dataclass of numpy
columns) that takes every random value from a :class:`~workbench.fight.draw.Draw`. Two
interpreters of the same description, written once here:

- :class:`~workbench.fight.draw.Sampler` draws one value per fight from a seeded generator: the
  simulation (:class:`~workbench.fight.simulation.RoundSide`);
- :class:`~workbench.fight.draw.Enumerator` expands the batch over each draw's support with its
  weights: the keyed transitions the exact solvers take (:mod:`workbench.fight.chain`: the passive
  target's chain and the planned chain of optimal play, batched over the states of a call).

This is icepool's move (one transition function feeding ``map(repeat=...)``,
``absorbing_markov_chain`` and ``sample``), vectorised. The package names no rule system; rule
systems do not import it (they import only :class:`~workbench.fight.draw.Draw` and
:class:`~workbench.columns.Columns`, the types their description is written in).
"""

from __future__ import annotations

from ..columns import Columns
from .draw import Draw, Enumerator, Sampler
from .round import FightRound

__all__ = ["Columns", "Draw", "Enumerator", "FightRound", "Sampler"]
