"""The exact Last Odyssey duel when a side plays phase abilities (Miasma, Dragonslayer, Foretell Doom):
an absorbing chain over both sides' state.

srd/combat/round.md: each round is "The Action Phase" (both sides' turns, in initiative order), then
"The Effect Phase", then "The Paradigm Phase"; "An extra Paradigm Phase also takes place at the
beginning of the first round of every battle". The phases come after both turns, whoever acted first,
and Dragonslayer hands the anima it spends to the foe (srd/anima/spending.md), so the two directions of
the duel are not independent chains (``simulation.duel_couplings``). The chain carries, for each pair
of side states (a side's MP left, its own Shell points left, whether its foe is Poisoned by it, its
anima), the joint alive mass over (a's HP damage taken, b's HP damage taken), and plays a round as
:class:`~workbench.systems.last_odyssey.simulation.LastOdysseySide` plays it, from its tables and
plans: each turn from :func:`~workbench.systems.last_odyssey.state_chain.shell_turn` (the plan of the
foe's Shell and the MP left, each ability drawn as the Shell stands, the Shell absorbing first),
moved along the foe's axis; then a's phases, then b's (Poisoned's damage, the effect-phase sleights,
after the third Effect Phase the abilities that wait for it, the first paradigm action the anima
pays for). An ability that reads whether the foe is at full HP (Dragonslayer: "If the target is not at
full HP, the attack deals 2x damage instead") reads the foe's axis: its damage taken 0 is full HP. The
mass that reaches a side's HP is the other's win in that round (a kill in the phases after round r
is a kill in round r, the extra Paradigm Phase's in round 1, as the simulation counts them), kept by
the winner's damage taken (its HP left).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...arguments import check_time
from ...chains import CHAIN_TAIL
from .simulation import MAX_ANIMA, LastOdysseySide, poison_damage
from .state_chain import shell_turn

__all__ = ["duel_chain", "MAX_CELLS"]

#: the chain is refused (the duel is simulated) past this many alive cells: (a's HP x b's HP) per pair
#: of side states met
MAX_CELLS = 4_000_000

_Side = tuple[int, int, bool, int]  # (MP left, own Shell left, foe Poisoned by this side, anima)
_Key = tuple[_Side, _Side]


def _add(d: dict, k: Any, m: np.ndarray) -> None:
    d[k] = d[k] + m if k in d else m


def _by_full_hp(mm: np.ndarray) -> list[tuple[bool, np.ndarray]]:
    """Return the mass ``mm`` (the actor's damage taken, its foe's) split by whether the foe is at full HP
    (its damage taken 0: the first column), the parts that hold any mass."""
    full, hurt = np.zeros_like(mm), mm.copy()
    full[:, 0], hurt[:, 0] = mm[:, 0], 0.0
    return [(f, part) for f, part in ((True, full), (False, hurt)) if part.any()]


class _Duel:
    """The alive mass of one acting order, round by round, and the wins it has given."""

    def __init__(self, sides: tuple[LastOdysseySide, LastOdysseySide], hps: tuple[int, int], rounds: int):
        self.sides, self.hps = sides, hps
        self.wins = np.zeros((2, rounds))
        self.left = [np.zeros(hps[0]), np.zeros(hps[1])]
        self.turns: dict[tuple[int, int, int], tuple] = {}

    # ------------------------------------------------------------------ moving mass
    @staticmethod
    def _view(m: np.ndarray, x: int) -> np.ndarray:
        """The mass as (x's damage taken, its foe's)."""
        return m if x == 0 else m.T

    def _hit(self, mm: np.ndarray, d: int, x: int, r: int, p: float) -> np.ndarray:
        """Return ``p`` times the mass ``mm`` (x's damage, foe's damage) after ``d`` more HP damage to x's
        foe, the mass it kills counted as x's win in round ``r``."""
        hp_foe = self.hps[1 - x]
        if d <= 0:
            return p * mm
        new = np.zeros_like(mm)
        if d < hp_foe:
            new[:, d:] = p * mm[:, : hp_foe - d]
        killed = p * mm[:, max(hp_foe - d, 0) :].sum(axis=1)
        self.wins[x, r - 1] += killed.sum()
        self.left[x] += killed
        return new

    @staticmethod
    def _key(x: int, me: _Side, foe: _Side) -> _Key:
        return (me, foe) if x == 0 else (foe, me)

    # ------------------------------------------------------------------ the Action Phase
    def turn(self, alive: dict, x: int, r: int) -> dict:
        """Return the alive mass after side ``x``'s turn of round ``r``."""
        out: dict = {}
        for key, m in alive.items():
            me, foe = key[x], key[1 - x]
            got = self.turns.get((x, me[0], foe[1]))
            if got is None:
                got = self.turns[(x, me[0], foe[1])] = shell_turn(self.sides[x], me[0], foe[1])
            mm = self._view(m, x)
            for (mp, shell), d, p in zip(*got):
                new = self._hit(mm, int(d), x, r, float(p))
                _add(out, self._key(x, (mp, me[1], me[2], me[3]), (foe[0], shell, foe[2], foe[3])), self._view(new, x))
        return out

    # ------------------------------------------------------------------ the phases
    def _damage(self, alive: dict, x: int, r: int, rows: Any) -> dict:
        """Return the alive mass after damage from side ``x`` to its foe outside a turn: ``rows(me, foe,
        full)`` gives the outcomes (the damage, the probability) and the sides' states after them
        (``(me', foe')`` before the Shell absorbs), ``full`` whether the foe is at full HP; the foe's
        Shell absorbs first."""
        out: dict = {}
        for key, m in alive.items():
            me, foe = key[x], key[1 - x]
            for full, part in _by_full_hp(self._view(m, x)):
                for (me2, foe2), damage, q in rows(me, foe, full):
                    absorbed = min(damage, foe2[1])
                    foe3 = (foe2[0], foe2[1] - absorbed, foe2[2], foe2[3])
                    new = self._hit(part, damage - absorbed, x, r, q)
                    _add(out, self._key(x, me2, foe3), self._view(new, x))
        return out

    def _table(self, x: int, a: Any, foe: _Side, full: bool) -> dict[str, np.ndarray]:
        side = self.sides[x]
        return side.phase_uses.tables([side._ability_index(a) * 4 + (foe[1] > 0) * 2 + int(full)])[0]

    def phases(self, alive: dict, x: int, r: int) -> dict:
        """Return the alive mass after side ``x``'s phases after round ``r`` (0: the extra Paradigm Phase
        before round 1, whose kills count in round 1): LastOdysseySide.between_rounds."""
        side = self.sides[x]
        at = max(r, 1)
        if r >= 1:
            poison = poison_damage(side.foe)
            alive = self._damage(
                {k: m for k, m in alive.items() if k[x][2]}, x, at, lambda me, foe, full: [((me, foe), poison, 1.0)]
            ) | {k: m for k, m in alive.items() if not k[x][2]}
            for a in side.phase["effect_phase"]:
                out: dict = {}
                for key, m in alive.items():
                    me, foe = key[x], key[1 - x]
                    if me[2]:  # the foe is Poisoned already: the status changes nothing
                        _add(out, key, m)
                        continue
                    for full, part in _by_full_hp(self._view(m, x)):
                        t = self._table(x, a, foe, full)
                        hit = np.asarray(t["status"]).astype(bool)
                        q = np.asarray(t["probability"], dtype=np.float64)
                        for poisoned, mass in ((True, float(q[hit].sum())), (False, float(q[~hit].sum()))):
                            if mass > 0:
                                k2 = self._key(x, (me[0], me[1], poisoned, me[3]), foe)
                                _add(out, k2, self._view(mass * part, x))
                alive = out
            if r == 3:
                for a in side.phase["after_third_effect_phase"]:
                    alive = self._damage(alive, x, at, self._rows(x, a, 0))
        if side.phase["paradigm_phase"]:
            out = {}
            for key, m in alive.items():
                me = key[x]
                a = next((a for a in side.phase["paradigm_phase"] if me[3] >= a.anima_cost), None)
                if a is None:
                    _add(out, key, m)
                    continue
                for k2, m2 in self._damage({key: m}, x, at, self._rows(x, a, int(a.anima_cost))).items():
                    _add(out, k2, m2)
            alive = out
        return alive

    def _rows(self, x: int, a: Any, anima: int) -> Any:
        """Return the outcome rows of phase ability ``a`` of side ``x`` (``_damage``'s ``rows``), the
        anima it costs spent and handed to the foe, at most MAX_ANIMA ("Any excess anima gained above 10
        dissipates instead", srd/anima/spending.md)."""

        def rows(me: _Side, foe: _Side, full: bool) -> list:
            t = self._table(x, a, foe, full)
            me2 = (me[0], me[1], me[2], me[3] - anima)
            foe2 = (foe[0], foe[1], foe[2], min(MAX_ANIMA, foe[3] + anima))
            d = np.asarray(t["damage"], dtype=np.int64)
            q = np.asarray(t["probability"], dtype=np.float64)
            return [((me2, foe2), int(v), float(q[d == v].sum())) for v in np.unique(d).tolist()]

        return rows


def _one_order(duel: _Duel, start: _Key, order: tuple[int, int], rounds: int) -> bool:
    """Play the duel with ``order`` acting within each round; False past MAX_CELLS."""
    hp_a, hp_b = duel.hps
    m = np.zeros((hp_a, hp_b))
    m[0, 0] = 1.0
    alive: dict = {start: m}
    for x in (0, 1):  # the extra Paradigm Phase: a's, then b's
        alive = duel.phases(alive, x, 0)
    for r in range(1, rounds + 1):
        for x in order:
            alive = duel.turn(alive, x, r)
        for x in (0, 1):
            alive = duel.phases(alive, x, r)
        if len(alive) * hp_a * hp_b > MAX_CELLS:
            return False
        check_time(f"the duel chain over both sides' state, round {r:,}")
        if sum(float(v.sum()) for v in alive.values()) < CHAIN_TAIL:
            break
    return True


def duel_chain(
    sys: Any, a: Any, b: Any, options: Any, situation: Any, first: str, max_rounds: int, plan_a: Any, plan_b: Any
):
    """Return (win_a, win_b, left_a, left_b) of the duel of ``a`` and ``b`` (the module docstring and
    ``RuleSystem.duel_chain``), or None when the joint state is past MAX_CELLS."""
    hps = (int(sys.hit_points(a)), int(sys.hit_points(b)))
    if hps[0] * hps[1] > MAX_CELLS:
        return None
    start: _Key = (
        (int(a.mp), int(sys.shell_points(a)), False, int(a.anima)),
        (int(b.mp), int(sys.shell_points(b)), False, int(b.anima)),
    )
    orders = [(0, 1), (1, 0)] if first == "random" else [(0, 1) if first == "a" else (1, 0)]
    total_w, total_l = np.zeros((2, max_rounds)), [np.zeros(hps[0]), np.zeros(hps[1])]
    for order in orders:
        sides = (LastOdysseySide(a, b, options, situation, plan_a), LastOdysseySide(b, a, options, situation, plan_b))
        duel = _Duel(sides, hps, max_rounds)
        if not _one_order(duel, start, order, max_rounds):
            return None
        total_w += duel.wins
        total_l[0] += duel.left[0]
        total_l[1] += duel.left[1]
    n = len(orders)
    return total_w[0] / n, total_w[1] / n, total_l[0] / n, total_l[1] / n
