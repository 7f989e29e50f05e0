"""The outcome of a duel (:class:`DuelResult`): what ``wb.duel`` returns, exact or simulated. A data
type only, so the fight's solvers and its simulation both build it without importing each other."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["DuelResult"]


@dataclass(frozen=True)
class DuelResult:
    """The outcome of a duel: win chances, the rounds it ends in, the winner's HP left.

    ``rounds``: polars frame (round, p_a_wins, p_b_wins) of the round each side wins in;
    ``hp_left``: polars frame (side, hp_left, probability) of the winner's remaining HP.
    ``exact`` is True when computed by the absorbing chains (no stateful effects, or each
    direction's state is its own and fits its system's chain over it: docs/combat.md), False for a
    simulation, which also has ``fights`` and ``standard_error``; ``forced_by`` names the state
    effects that made ``duel`` simulate (empty when exact or when ``simulate=True`` asked for it).
    """

    a: str
    b: str
    p_a_wins: float
    p_b_wins: float
    p_draw: float
    rounds: Any
    hp_left: Any
    first: str
    max_rounds: int
    exact: bool = True
    fights: int | None = None
    standard_error: float | None = None
    forced_by: tuple[str, ...] = ()

    def summary(self) -> str:
        """Return a short readable summary."""
        forced = f"; forced by {', '.join(self.forced_by)}" if self.forced_by else ""
        how = "exact" if self.exact else f"simulated ({self.fights:,} fights, s.e. {self.standard_error:.4f}{forced})"
        mean_rounds = float((self.rounds["round"] * (self.rounds["p_a_wins"] + self.rounds["p_b_wins"])).sum())
        decided = self.p_a_wins + self.p_b_wins
        last = (
            f"decided fights last {mean_rounds / decided:.2f} rounds on average"
            if decided > 0
            else f"no fight is decided within {self.max_rounds} rounds"
        )
        return (
            f"{self.a} vs {self.b} ({how}, {self.first} acts first, {self.max_rounds} rounds at most): "
            f"{self.a} wins {self.p_a_wins:.2%}, {self.b} wins {self.p_b_wins:.2%}, "
            f"neither {self.p_draw:.2%}; {last}"
        )

    def __repr__(self) -> str:
        return f"DuelResult({self.summary()})"

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        """Jupyter's rich display: the rounds each side wins in as a chart titled with the win
        chances, the key numbers in HTML, the summary as text (:mod:`workbench.display`)."""
        from .display import duel_bundle

        return duel_bundle(self, include, exclude)
