"""The exact encounter: an absorbing chain over every creature's state, each turn its system's one
round description enumerated (issue 39; the duel chain of :mod:`workbench.fight.duel`, grown to
many creatures).

A joint state is (key, damages): the key is every creature's state but its damage taken
(:func:`workbench.columns.key_rows` of each, in listed order), and the attacks made on each creature
this round where the group rules read them (``spread`` targeting; flanking off ``focus``); the
damages are a cell of a dense grid over every creature's damage taken, 0..HP (HP: fallen). The chain
keeps, for each key met, the alive mass over that grid. A turn of creature i:

- the targeting policy is a function of the cell (``focus``: the living foe with the fewest HP
  left; ``random``: each living foe with equal weight) or of the key and the cell (``spread``): each
  foe j gets the cells (weights) where i targets it, i standing and the fight going on;
- i's round against j is enumerated once per (i's key, j's key, flanked) (one call of
  :func:`workbench.fight.chain.enumerated` per pair met, cached over the fight: a description's
  turn reads the keys only, never the damage taken, as every exact chain assumes); its outcomes
  grouped by (keys after, the damage i deals itself), each group's damage to j a matrix along j's
  axis (capped at HP: fallen) applied with one tensordot;
- a turn over several foes (an area set, a multi-target ability, uses left after a kill: the round's
  ``group_turn``; an area set also strikes the first living allies with ``allies_in_area``) is
  enumerated per (i's key, each struck creature's key) and moves the mass along every struck
  creature's axis at once (:meth:`_Chain.act_group`); where the turn can end part-way in a way its rest
  reads (``falls_mid_turn``: Annulus, a Counter felling the striker, a foe falling before the later
  uses), only the safe region (no outcome fells anyone) is shifted so, and the cells near a fall are
  played from their full state, the damages taken given to the description, as the duel plays them
  (:meth:`_Chain.act_near`);
- the mass of cells where a side has no creature standing leaves the chain as that side's loss (both:
  a draw), recorded in the round, with the survivors, each creature's HP left and (from the cells
  where nobody had fallen yet) who fell first.

Counted: past ``max_cells`` (keys x cells of the grid) the chain gives up (None: the encounter is
simulated), the grid's own size known before the first turn; and a turn whose outcomes would move
the mass more than :data:`MAX_TURN_MOVES` cells in all gives up before moving any.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np
from scipy import sparse

from ..arguments import check_time
from ..chains import CHAIN_TAIL
from ..columns import Columns, distinct_rows, from_key_rows, key_rows
from .chain import enumerated
from .draw import Enumerator
from .encounter import Encounter, Tally, flanked_by_later, later_allies
from .round import play

__all__ = ["MAX_CELLS", "grid_cells", "solve"]

#: keys x grid cells past which the exact encounter gives up (then it is simulated): the duel
#: chain's bound (workbench.fight.duel.MAX_CELLS)
MAX_CELLS = 4_000_000
#: a turn's outcomes x grid cells (each outcome moves the mass over the grid) past which the exact
#: encounter gives up, counted once the turn's outcomes are enumerated and before any moves: a turn
#: over many creatures (an area set striking foes and allies) has outcomes by the hundred thousand
#: (every exact encounter of the tests and benchmarks stays under 2e7)
MAX_TURN_MOVES = 100_000_000
#: a turn's outcomes x the cells it plays from their full state (:meth:`_Chain.reranks`: every cell of
#: the acting creature's and its foes' damages) past which the exact encounter gives up, counted
#: before the first such turn is enumerated: each is a row of every struck creature's state, so far
#: dearer than a move
MAX_TURN_ROWS = 4_000_000

_Key = tuple[int, ...]


class _PastBound(Exception):
    """The exact chain's counted work passes a bound: the encounter is simulated (its message says
    which bound, for ``forced_by``)."""


def grid_cells(enc: Encounter) -> int:
    """Return the cells of the encounter's damage grid: the product of (HP + 1) over its creatures
    (an immortal creature, a passive encounter's side a, has one: its damage is not read)."""
    return int(np.prod(_shape(enc), dtype=object))


def _shape(enc: Encounter) -> tuple[int, ...]:
    return tuple(1 if enc.immortal[c] else int(h) + 1 for c, h in enumerate(enc.hp))


class _Chain:
    """The exact encounter's chain (module docstring) for one turn order."""

    def __init__(self, enc: Encounter, max_rounds: int):
        self.enc = enc
        self.max_rounds = max_rounds
        C = enc.size
        self.shape = _shape(enc)
        idx = np.indices(self.shape, sparse=True)
        self.idx = idx
        self.alive = [(idx[c] < enc.hp[c]) | enc.immortal[c] for c in range(C)]
        grid = np.broadcast_shapes(*(a.shape for a in self.alive))
        self.alive = [np.broadcast_to(a, grid) for a in self.alive]
        self.left = [np.broadcast_to(enc.hp[c] - idx[c], grid) for c in range(C)]
        sides = [np.flatnonzero(enc.side == s) for s in (0, 1)]
        self.up = [np.logical_or.reduce([self.alive[c] for c in s]) for s in sides]
        self.going = self.up[0] & self.up[1]
        self.intact = np.logical_and.reduce(self.alive)
        self.count = [np.add.reduce([self.alive[c].astype(np.int64) for c in s]) for s in sides]
        self.ends = [self.up[0] & ~self.up[1], self.up[1] & ~self.up[0], ~self.up[0] & ~self.up[1]]
        # the key: each creature's key fields, then the attacks on each this round (when read)
        self.width = [len(s.key_names()) for s in enc.start]
        self.offset = np.concatenate(([0], np.cumsum(self.width))).astype(int)
        self.spread = enc.reads_attacks  # (spread targeting, a targeting function: the attacks kept)
        self.flankers = np.array([enc.can_flank(i) for i in range(C)], dtype=bool)
        self.track_melee = enc.flanking == "auto" and enc.targeting != "focus" and bool(self.flankers.any())
        self.types = [type(s) for s in enc.start]
        # a turn played in steps keeps its target for its later steps: one slot at the key's end
        # (-1 between turns)
        self.stepping = any(enc.steps(c) > 1 for c in range(C))
        self.cache: dict[tuple[Any, ...], Any] = {}
        self.focus: dict[int, np.ndarray] = {}
        self.targets: dict[tuple[Any, ...], list[tuple[int, np.ndarray]]] = {}
        self.group_targets: dict[tuple[Any, ...], list[tuple[tuple[int, ...], np.ndarray]]] = {}
        #: per creature, its allies whose turns come after its own this round (set by :func:`solve`)
        self.later: dict[int, list[int]] = {}
        # the first creature fallen (listed order) in each cell, C where every creature stands
        dead = np.stack([~a for a in self.alive])
        self.first_dead = np.where(dead.any(axis=0), np.argmax(dead, axis=0), C)
        # the cells where nobody has fallen: a box (each mortal creature's damage below its HP)
        self.box = tuple(slice(None) if enc.immortal[c] else slice(0, int(enc.hp[c])) for c in range(C))
        # the cells where a fight ends, per outcome (a wins, b wins, draw): the losing sides' creatures
        # at their last cell (fallen), the others free, where the outcome holds there; None where it
        # cannot happen (an immortal loser). A sub-grid: the ends are read there, not over the grid.
        self.end_cells: list[tuple[tuple[Any, ...], np.ndarray, list[int], list[np.ndarray]] | None] = []
        for k, losers in enumerate(((1,), (0,), (0, 1))):
            fallen = [c for c in range(C) if enc.side[c] in losers]
            if any(enc.immortal[c] for c in fallen):
                self.end_cells.append(None)
                continue
            at = tuple(int(enc.hp[c]) if c in fallen else slice(None) for c in range(C))
            free = [c for c in range(C) if c not in fallen]
            self.end_cells.append((at, self.ends[k][at], free, [self.count[s][at] for s in (0, 1)]))

    # ------------------------------------------------------------ the key
    def start_key(self) -> _Key:
        own = tuple(int(v) for s in self.enc.start for v in key_rows((s,))[0].tolist())
        extra = (0,) * (self.enc.size * (int(self.spread) + int(self.track_melee)))
        return own + extra + ((-1,) if self.stepping else ())

    def part(self, key: _Key, c: int) -> _Key:
        return key[self.offset[c] : self.offset[c + 1]]

    def hits(self, key: _Key) -> _Key:
        base = int(self.offset[-1])
        return key[base : base + self.enc.size] if self.spread else ()

    def melee(self, key: _Key) -> _Key:
        base = int(self.offset[-1]) + self.enc.size * int(self.spread)
        return key[base : base + self.enc.size] if self.track_melee else ()

    def with_turn(self, key: _Key, i: int, ki: _Key, j: int, kj: _Key, attack: bool = True) -> _Key:
        """Return ``key`` with i's and j's parts after a step of i on j; ``attack`` (a turn, not the
        acts between rounds or a rest) counts an attack on j this round, as the simulation does."""
        k = list(key)
        k[self.offset[i] : self.offset[i + 1]] = ki
        k[self.offset[j] : self.offset[j + 1]] = kj
        base = int(self.offset[-1])
        if not attack:
            return tuple(k)
        if self.spread:
            k[base + j] += 1
        if self.track_melee and self.flankers[i]:  # (the melee attackers that struck j, one bit each)
            k[base + self.enc.size * int(self.spread) + j] |= 1 << i
        return tuple(k)

    def new_round(self, key: _Key) -> _Key:
        base = int(self.offset[-1])
        return key[:base] + (0,) * (len(key) - base - int(self.stepping)) + ((-1,) if self.stepping else ())

    def aimed(self, key: _Key) -> int:
        """Return the target of the turn under way kept for its later steps (-1: none)."""
        return key[-1] if self.stepping else -1

    def with_aim(self, key: _Key, j: int) -> _Key:
        """Return ``key`` with the turn under way's target ``j`` (-1: none)."""
        return key[:-1] + (j,) if self.stepping else key

    # ------------------------------------------------------------ the policy
    def aims(self, key: _Key, i: int) -> list[tuple[int, np.ndarray]]:
        """Return (foe j, the weight of the cells where i attacks j: i standing, the fight going on)
        for each foe of i (CLARIFICATIONS.md, Encounters: Targets)."""
        enc = self.enc
        foes = enc.foes(i)
        hits = self.hits(key)
        memo = (i, hits)
        got = self.targets.get(memo)
        if got is not None:
            return got
        acting = self.alive[i] & self.going
        out: list[tuple[int, np.ndarray]] = []
        if enc.targeting == "random":
            n = np.add.reduce([self.alive[f].astype(np.float64) for f in foes])
            for f in foes:
                out.append((int(f), np.where(acting & self.alive[f], 1.0 / np.maximum(n, 1.0), 0.0)))
        else:
            # focus: the fewest HP left; spread: attacked the fewest times this round; a function's score
            score = [
                np.where(self.alive[f], enc.foe_score(f, self.left[f], hits[f] if hits else 0), np.inf) for f in foes
            ]
            pick = np.argmin(np.stack(np.broadcast_arrays(*score)), axis=0)  # ties: the first in listed order
            for n_, f in enumerate(foes):
                out.append((int(f), (acting & (pick == n_)).astype(np.float64)))
        out = [(f, w) for f, w in out if w.any()]
        self.targets[memo] = out
        return out

    def keep_aim(
        self, key: _Key, i: int, kept: int, aims: list[tuple[int, np.ndarray]]
    ) -> list[tuple[int, np.ndarray]]:
        """Return ``aims`` for a later step of i's turn whose target ``kept`` stands where it does
        (CLARIFICATIONS.md, Encounters: the turn's target while it stands), the policy elsewhere."""
        memo = ("kept", i, kept, self.hits(key))
        got = self.targets.get(memo)
        if got is None:
            on = self.alive[kept] & self.alive[i] & self.going
            got = [(kept, on.astype(np.float64))] + [(j, w * ~on) for j, w in aims]
            got = self.targets[memo] = [(j, w) for j, w in got if w.any()]
        return got

    def acting_box(self, who: int, j: int) -> tuple[slice, ...]:
        """Return the box of the grid where creature ``who`` acts on j: both standing (below their HP
        along their axes; an immortal creature's axis whole)."""
        return tuple(self.box[c] if c in (who, j) else slice(None) for c in range(len(self.shape)))

    def unflanked_box(self, i: int, box: tuple[slice, ...]) -> tuple[slice, ...]:
        """Return ``box`` narrowed to where i's attack does not flank, where that is a box: under
        focus, every melee ally of i fallen (:meth:`flank_mask`); else ``box``."""
        if self.enc.targeting != "focus":
            return box
        out = list(box)
        for c in np.flatnonzero(self.enc.side == self.enc.side[i]):
            if c != i and self.flankers[c] and not self.enc.immortal[c]:
                out[c] = slice(int(self.enc.hp[c]), int(self.enc.hp[c]) + 1)
        return tuple(out)

    def flank_mask(self, key: _Key, i: int, j: int) -> np.ndarray | bool:
        """Return where i's attack on j flanks (a cell mask, or one value): never / always, or auto:
        under focus another living melee creature of i's side, else another melee creature of i's
        side attacked j earlier this round or will as things stand (``flanked_by_later``)
        (CLARIFICATIONS.md, Encounters: Unbound flanking)."""
        enc = self.enc
        if not self.flankers[i] or enc.flanking == "never":
            return False
        if enc.flanking == "always":
            return True
        if enc.targeting == "focus":  # (a function of i alone: worked out once)
            if ("flank", i) not in self.cache:
                mates = [c for c in np.flatnonzero(enc.side == enc.side[i]) if c != i and self.flankers[c]]
                self.cache[("flank", i)] = np.logical_or.reduce([self.alive[c] for c in mates]) if mates else False
            return self.cache[("flank", i)]
        if self.melee(key)[j] & ~(1 << i):  # another melee creature of i's side struck j this round
            return True
        hits = self.hits(key) or (0,) * enc.size
        ahead = flanked_by_later(enc, i, j, self.alive, list(hits), self.later.get(i, []))
        return ahead if isinstance(ahead, np.ndarray) and ahead.any() else False

    # ------------------------------------------------------------ the turns
    def outcomes(
        self, i: int, j: int, flank: bool, step: str, pairs: list[tuple[_Key, _Key]], k: int = 0
    ) -> list[list[tuple[_Key, _Key, int, np.ndarray, np.ndarray]]]:
        """Return, per (i's key, j's key) of ``pairs``, the outcomes of i's ``step`` on j (step ``k``
        of a turn played in steps) grouped by (i's key after, j's key after, the damage i deals
        itself): (ki, kj, own, damage values, probabilities). Each pair enumerated once per fight
        (cached), the new ones in ONE call."""
        step_k = step if k == 0 else (step, k)
        new = [p for p in dict.fromkeys(pairs) if (i, j, flank, step_k, *p) not in self.cache]
        if new:
            rnd = self.enc.round_of(i, j, flank, k)
            rows = np.array([a + b for a, b in new], dtype=np.int64).reshape(len(new), -1)
            uniq, weight = enumerated(rnd, rows, (self.types[i], self.types[j]), own=True, steps=(step,))
            n_i = self.width[i]
            grouped: list[dict[tuple[_Key, _Key, int], list[tuple[int, float]]]] = [{} for _ in new]
            for r, w in zip(uniq.tolist(), weight.tolist()):
                keys = r[3:]
                g = (tuple(keys[:n_i]), tuple(keys[n_i:]), int(r[2]))
                grouped[r[0]].setdefault(g, []).append((int(r[1]), w))
            for p, groups in zip(new, grouped):
                self.cache[(i, j, flank, step_k, *p)] = [
                    (ki, kj, own, np.array([d for d, _ in v], np.int64), np.array([w for _, w in v]))
                    for (ki, kj, own), v in groups.items()
                ]
        return [self.cache[(i, j, flank, step_k, *p)] for p in pairs]

    def act(
        self,
        mass: dict[_Key, np.ndarray],
        i: int,
        step: str,
        tally: Tally,
        r: int,
        rester: int | None = None,
        k: int | None = None,
    ) -> dict[_Key, np.ndarray]:
        """Return the alive mass after creature i's ``step`` ("turn", "between", "opening"; "rest"
        with ``rester``: that passive target's turn, from i's round against it), the fights it ends
        recorded in round r + 1 (0-based r). A turn played in steps (``Encounter.steps``) is its
        steps in order (``k``: one of them)."""
        enc = self.enc
        if step == "turn" and (enc.reach(i) > 1 or enc.allies_struck(i) or self.falls_mid_turn(i)):
            return self.act_group(mass, i, tally, r)
        if k is None:
            for n_ in range(enc.steps(i) if step == "turn" else 1):
                mass = self.act(mass, i, step, tally, r, rester, n_)
            return mass
        acc: dict[_Key, np.ndarray] = {}

        def into(k: _Key) -> np.ndarray:
            got = acc.get(k)
            if got is None:
                got = acc[k] = np.zeros(self.shape)
            return got

        # (key, target, flanked, its mass and the weight of the cells that act, the box of the grid
        # outside which that is 0)
        work: list[tuple[_Key, int, bool, np.ndarray, np.ndarray, tuple[slice, ...]]] = []
        acting = self.alive[i] & self.going if rester is None else self.alive[rester] & self.going
        steps = enc.steps(i) if step == "turn" else 1
        # who does not act keeps its mass: the mass lives where the fight goes on (``harvest``), so
        # that is where the actor has fallen, a slice of the grid (none for an immortal actor)
        who = i if rester is None else rester
        fallen = None
        if not enc.immortal[who]:
            fallen = tuple(int(enc.hp[who]) if c == who else slice(None) for c in range(len(self.shape)))
        for key, m in mass.items():
            if k and step == "turn":
                over = self.passed(i, k, self.part(key, i))
                if over is not None:  # the turn has nothing left: the step passes it over, no attack
                    into(self.with_aim(self.with_turn(key, i, over, i, over, attack=False), -1))[...] += m
                    continue
            if fallen is not None:
                into(key)[fallen] += m[fallen]
            aims = self.aims(key, i) if rester is None else [(rester, acting.astype(np.float64))]
            kept = self.aimed(key)
            if k and kept >= 0:  # a later step of the turn: its target while it stands
                aims = self.keep_aim(key, i, kept, aims)
            for j, w in aims:
                box = self.acting_box(who, j)
                flank = self.flank_mask(key, i, j) if step == "turn" else False
                # (the turn's target fell: the step goes on against j, as the round's hook has it)
                on = self.retargeted(key, i, k) if k and 0 <= kept != j else key
                if flank is False or flank is True:
                    work.append((on, j, bool(flank), m, w, box))
                else:
                    flanked, alone = self.flank_split(i, w, flank)
                    work.append((on, j, True, m, flanked, box))
                    work.append((on, j, False, m, alone, self.unflanked_box(i, box)))
        by: dict[tuple[int, bool], list[int]] = {}
        for n, (_, j, flank, _, _, _) in enumerate(work):
            by.setdefault((j, flank), []).append(n)
        hp_i = int(enc.hp[i])
        mortal = not enc.immortal[i]  # an immortal creature's own damage is not read (nor kept)
        refund = step == "turn" and enc.refunds(i)
        pending: dict[_Key, np.ndarray] = {}  # the mass whose target fell this turn: a refunded turn
        for (j, flank), items in by.items():
            pairs = [(self.part(work[n][0], i), self.part(work[n][0], j)) for n in items]
            got = self.outcomes(i, j, flank, step, pairs, k)
            hp_j = int(enc.hp[j])
            j_mortal = not enc.immortal[j]
            for n, groups in zip(items, got):
                key, _, _, m, weight, box = work[n]
                # who falls first is read from the mass moved where no outcome fells i (the cells
                # with only j fallen: all stood before); else from the cells where nobody had fallen
                by_moves = j_mortal and not (mortal and any(g[2] for g in groups))
                # the mass that acts, over the box where it can be (i and j standing; unflanked under
                # focus: i's melee allies fallen), unless i's own damage, a refund or who falls first
                # read the rest of the grid
                span = box if by_moves and not refund else (slice(None),) * len(self.shape)
                part = m[span] * weight[span]
                if not part.any():  # (no mass acts: nothing to move)
                    continue
                intact = None if by_moves else self.intact_of(part, i, j)
                to = span[:j] + (slice(None),) + span[j + 1 :]  # (the damage moves along all of j's axis)
                first = self.only_fallen(j, to) if by_moves else None
                for ki, kj, own, dmg, p in groups:
                    # the damage to j along its axis, capped at HP (fallen): a (HP + 1) x (HP + 1) matrix
                    M = np.zeros((hp_j + 1, hp_j + 1))
                    x = np.arange(hp_j)
                    np.add.at(
                        M, (np.repeat(x, dmg.size), np.minimum(np.add.outer(x, dmg), hp_j).ravel()), np.tile(p, hp_j)
                    )
                    # (j's axis of the span starts at 0: no damage taken)
                    moved = _along(part, j, M[: part.shape[j]])
                    if own and mortal:  # (then the span is the whole grid)
                        to_i = self.shift_to(((i, own),))
                        moved = np.bincount(to_i, weights=moved.ravel(), minlength=to_i.size).reshape(self.shape)
                    if first is not None:
                        tally.first[j] += float(moved[first].sum())
                    k2 = self.with_turn(key, i, ki, j, kj, attack=step == "turn")
                    if steps > 1:  # (the target kept for the turn's later steps; none after its last)
                        k2 = self.with_aim(k2, j if k < steps - 1 else -1)
                    if refund:
                        fell = np.zeros_like(moved)
                        at = [slice(None)] * len(self.shape)
                        at[j] = slice(hp_j, hp_j + 1)
                        fell[tuple(at)] = moved[tuple(at)]
                        fell *= self.alive[i] & self.going  # (an ended fight is harvested, not replayed)
                        if fell.any():
                            pending[k2] = pending[k2] + fell if k2 in pending else fell
                            moved = moved - fell
                    into(k2)[to] += moved
                    if intact is not None and intact.any():  # from the cells where nobody had fallen
                        kill = (dmg[None, :] >= (hp_j - np.arange(hp_j))[:, None]) @ p  # by j's damage
                        dies_i = (np.arange(intact.shape[0]) + own >= hp_i) if own and mortal else np.zeros(1, bool)
                        base = intact * kill[None, :]
                        j_first = base * (~dies_i[:, None] | (j < i))
                        i_first = intact * dies_i[:, None] * (1 - kill[None, :]) + base * dies_i[:, None] * (i < j)
                        tally.first[j] += float(j_first.sum())
                        tally.first[i] += float(i_first.sum())
        if pending:  # the refunded turns (each needs a kill, so they end), their ends recorded there
            refunded = getattr(enc.round_of(i, int(enc.foes(i)[0]), False, k), "refunded", None)
            if refunded is not None:  # (the state a refunded action starts from)
                pending = self.refunded(pending, i, refunded)
            for key, m in self.act(pending, i, step, tally, r, rester, k).items():
                into(key)[...] += m
        return self.harvest(acc, tally, r)

    def shift_to(self, moves: tuple[tuple[int, int], ...]) -> np.ndarray:
        """Return, for each cell of the grid (flat), the cell its mass goes to when each creature c of
        ``moves`` takes its damage d there ((c, d) pairs): c's damage taken plus d, capped at its HP
        (fallen; a heal, d < 0, floored at no damage); kept over the fight."""
        memo = ("shift", moves)
        got = self.cache.get(memo)
        if got is None:
            idx = list(np.indices(self.shape, sparse=True))
            for c, d in moves:
                idx[c] = np.clip(idx[c] + d, 0, int(self.enc.hp[c]))
            got = self.cache[memo] = np.ravel_multi_index(np.broadcast_arrays(*idx), self.shape).ravel()
        return got

    def flank_split(self, i: int, w: np.ndarray, flank: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Return (the weight ``w`` where i's attack flanks, where it does not) for the cell mask
        ``flank``; under focus, where the mask is i's alone (:meth:`flank_mask`), kept per weight."""
        if self.enc.targeting != "focus":
            return w * flank, w * ~flank
        memo = ("split", i, id(w))
        got = self.cache.get(memo)
        if got is None or got[0] is not w:  # (the weight kept with it: its id names no other array)
            got = self.cache[memo] = (w, w * flank, w * ~flank)
        return got[1], got[2]

    def intact_of(self, part: np.ndarray, i: int, j: int) -> np.ndarray:
        """Return the mass ``part`` where nobody has fallen, over (i's damage, j's damage)."""
        lo, hi = min(i, j), max(i, j)
        whole = part[self.box]
        intact = whole.sum(axis=tuple(a for a in range(len(self.shape)) if a not in (i, j)))
        intact = intact.reshape(whole.shape[lo], whole.shape[hi])
        return intact if i < j else intact.T

    def only_fallen(self, j: int, span: tuple[slice, ...]) -> tuple[slice, ...]:
        """Return the cells where j alone has fallen (its last cell, every other creature below its
        HP), as indices into the sub-grid ``span`` of the grid."""
        hp = int(self.enc.hp[j])
        out = []
        for c, n in enumerate(self.shape):
            lo, hi, _ = span[c].indices(n)
            b_lo, b_hi, _ = (slice(hp, hp + 1) if c == j else self.box[c]).indices(n)
            out.append(slice(max(b_lo - lo, 0), max(min(hi, b_hi) - lo, 0)))
        return tuple(out)

    def state(self, i: int, ki: _Key) -> Columns:
        """Return creature i's state (one row) of its key part ``ki``."""
        (got,) = from_key_rows((self.types[i],), np.array([ki], dtype=np.int64))
        return got

    @staticmethod
    def key_part(state: Columns) -> _Key:
        """Return the key part of a creature's state (one row)."""
        return tuple(int(v) for v in key_rows((state,))[0].tolist())

    def with_part(self, key: _Key, i: int, ki: _Key) -> _Key:
        """Return ``key`` with creature i's part ``ki``."""
        return key[: self.offset[i]] + ki + key[self.offset[i + 1] :]

    def passed(self, i: int, k: int, ki: _Key) -> _Key | None:
        """Return creature i's key part ``ki`` as step ``k`` of its turn passes it over (the turn has
        nothing left: ``Encounter.idle``), or None where it plays the step; asked once per key part."""
        memo = ("idle", i, k, ki)
        if memo not in self.cache:
            got = self.enc.idle(i, k, self.state(i, ki))
            self.cache[memo] = self.key_part(got[1]) if got is not None and bool(got[0][0]) else None
        return self.cache[memo]

    def retargeted(self, key: _Key, i: int, k: int) -> _Key:
        """Return ``key`` with creature i's part as step ``k`` of its turn finds it where the turn's
        target fell before it (``Encounter.retarget``); asked once per key part."""
        ki = self.part(key, i)
        memo = ("retarget", i, k, ki)
        if memo not in self.cache:
            got = self.enc.retarget(i, k, self.state(i, ki))
            self.cache[memo] = ki if got is None else self.key_part(got)
        return self.with_part(key, i, self.cache[memo])

    def refunded(self, mass: dict[_Key, np.ndarray], i: int, refunded: Any) -> dict[_Key, np.ndarray]:
        """Return ``mass`` with creature i's part of each key as its round's hook ``refunded`` leaves
        it (the state a refunded action starts from)."""
        out: dict[_Key, np.ndarray] = {}
        for key, m in mass.items():
            k2 = self.with_part(key, i, self.key_part(refunded(self.state(i, self.part(key, i)))))
            out[k2] = out[k2] + m if k2 in out else m
        return out

    # ------------------------------------------------------------ turns that strike several foes
    def aims_group(self, key: _Key, i: int, reach: int) -> list[tuple[tuple[int, ...], np.ndarray]]:
        """Return (the foes i's turn strikes: its target first, then the next living foes by the same
        policy, up to ``reach``; the weight of the cells where it does, i standing and the fight
        going on) (CLARIFICATIONS.md, Encounters: multi-target abilities strike "every living foe up
        to the ability's number of targets"). Random targeting: the target uniform, the others in a
        uniformly random order: each ordered choice of reach - 1 living others (or of all of them,
        fewer) with equal weight, P(F - 1, reach - 1) choices per target, not (F - 1)! orders."""
        enc = self.enc
        hits = self.hits(key)
        memo = (i, hits)
        got = self.group_targets.get(memo)
        if got is not None:
            return got
        foes = enc.foes(i)
        F = len(foes)
        alive = np.stack([self.alive[f] for f in foes])
        acting = self.alive[i] & self.going
        out: dict[tuple[int, ...], np.ndarray] = {}
        if enc.targeting == "random":
            # the target uniform among the living foes, then the first reach - 1 living others in a
            # uniformly random order: each ordered choice of them (all living, as many as reach - 1
            # or every living other) with weight 1 / (m (m - 1) ... ), m the living others
            n = alive.sum(axis=0)
            for k in range(F):
                base = np.where(acting & alive[k], 1.0 / np.maximum(n, 1), 0.0)
                if not base.any():
                    continue
                others = [x for x in range(F) if x != k]
                m = n - 1
                takes = np.minimum(reach - 1, m)
                for length in range(min(reach - 1, F - 1) + 1):
                    falling = np.ones(self.going.shape)
                    for q in range(length):
                        falling = falling * np.maximum(m - q, 1)
                    here = base * (takes == length) / falling
                    if not here.any():
                        continue
                    for t in itertools.permutations(others, length):
                        w = here * np.logical_and.reduce([alive[x] for x in t]) if t else here
                        if w.any():
                            tup = (int(foes[k]), *(int(foes[x]) for x in t))
                            out[tup] = out[tup] + w if tup in out else w
        else:
            scores = [enc.foe_score(f, self.left[f], hits[f] if hits else 0) for f in foes]
            score = np.where(alive, np.stack(np.broadcast_arrays(*scores, alive[0])[:F]), np.inf)
            weight = acting.astype(np.float64)
            order = np.argsort(score, axis=0, kind="stable")[:reach]
            valid = np.take_along_axis(alive, order, axis=0)
            code = np.zeros(self.going.shape, np.int64)
            for p_ in range(order.shape[0]):
                code += np.where(valid[p_], order[p_] + 1, 0) * (F + 1) ** p_
            for c in np.unique(code[weight > 0]):
                tup_: list[int] = []
                rest = int(c)
                while rest:
                    tup_.append(int(foes[rest % (F + 1) - 1]))
                    rest //= F + 1
                w = weight * (code == c)
                out[tuple(tup_)] = out[tuple(tup_)] + w if tuple(tup_) in out else w
        result = list(out.items())
        self.group_targets[memo] = result
        return result

    def n_foes(self, i: int, tup: tuple[int, ...]) -> int:
        """Return how many of the creatures ``tup`` a turn of i strikes are its foes: they come first,
        then its allies in an area (:meth:`allies_hit`)."""
        return int((self.enc.side[list(tup)] != self.enc.side[i]).sum())

    def allies_hit(self, i: int) -> list[tuple[tuple[int, ...], np.ndarray | None]]:
        """Return (the allies an area set of i's strikes beside its foes: the first ``allies_struck``
        living ones in listed order, "area attacks ... can and will harm the user's allies if they are
        standing in the target area" (annulus-attacks.txt; CLARIFICATIONS.md, Encounters:
        ``allies_in_area``); the cells where those are the ones), or one entry of no ally (None: every
        cell)."""
        memo = ("allies", i)
        got = self.cache.get(memo)
        if got is None:
            n = self.enc.allies_struck(i)
            if not n:
                got = [((), None)]
            else:
                mates = self.enc.allies(i)
                alive = np.stack([self.alive[m] for m in mates])
                first = alive & (np.cumsum(alive, axis=0) <= n)  # (the first n living, in listed order)
                code = np.tensordot(1 << np.arange(len(mates), dtype=np.int64), first.astype(np.int64), axes=1)
                got = [
                    (tuple(int(m) for b, m in enumerate(mates) if int(c) >> b & 1), code == c) for c in np.unique(code)
                ]
            self.cache[memo] = got
        return got

    def group_turn(
        self, i: int, tup: tuple[int, ...], states: list[Columns], draw: Enumerator, before: _Key = ()
    ) -> tuple[tuple[Columns, ...], np.ndarray]:
        """Return (the states of i and each creature of ``tup`` (its foes, then its allies in an area:
        :meth:`n_foes`) after i's turn on them, the attacks on each foe) from ``states``, enumerated by
        ``draw``: the dice its turn rolls before its plan (the round's ``ready``, against its target),
        then its ``group_turn``, as the simulation plays it, the next foes taken by the policy as the
        turn stands (``Encounter.foe_order``; ``before``: under spread, the attacks on each foe this
        round before the turn)."""
        enc = self.enc
        rnd = enc.round_of(i, tup[0])
        me, first = play(rnd, states[0], states[1], draw, ("ready",))
        others = [s.take(draw.origin) for s in states[2:]]
        allies = len(tup) - self.n_foes(i, tup)
        more = {"allies": allies} if allies else {}
        models = [enc.creatures[t] for t in tup]
        K = self.n_foes(i, tup)
        order = enc.foe_order(i, tup[:K], np.array(before, np.int64) if before else None)
        me, foes, struck = rnd.group_turn(me, [first, *others], draw, models, order=order, **more)  # type: ignore[attr-defined]
        return (me, *foes), struck

    def turn_rows(
        self,
        i: int,
        tup: tuple[int, ...],
        rows: np.ndarray,
        taken: Sequence[np.ndarray] | None = None,
        counted: _Key = (),
    ) -> tuple[np.ndarray, np.ndarray]:
        """Return (the distinct outcomes of i's turn on the creatures ``tup`` (its foes, then any allies
        struck) from the key rows ``rows``, one fight each, with ``taken`` the damage each of i and
        them has taken (else that of the keys), as rows: the fight, the damage dealt to i and each of
        them, the attacks on each foe (spread targeting counts them), every key after; their
        probabilities): the round's ``group_turn`` enumerated in ONE call (:meth:`group_turn`;
        ``counted``: the attacks on its foes counted before the turn)."""
        who = (i, *tup)
        states = list(from_key_rows(tuple(self.types[c] for c in who), rows))
        if taken is not None:
            states = [s.replace(**{s.POOL: np.asarray(d, np.int64)}) for s, d in zip(states, taken)]
        before = [np.asarray(getattr(s, s.POOL), np.int64) for s in states]
        draw = Enumerator(rows.shape[0])
        after, struck = self.group_turn(i, tup, states, draw, counted)
        dealt = [np.asarray(getattr(x, x.POOL), np.int64) - b[draw.origin] for x, b in zip(after, before)]
        hits = np.asarray(struck, np.int64).reshape(-1, self.n_foes(i, tup))
        uniq, inverse = distinct_rows(np.column_stack([draw.origin, *dealt, hits, key_rows(after)]))
        return uniq, np.bincount(inverse.ravel(), weights=draw.weight, minlength=uniq.shape[0])

    def parts_of(self, who: tuple[int, ...], rows: np.ndarray) -> list[tuple[_Key, ...]]:
        """Return each of ``rows`` (every key of the creatures ``who``, end to end) as their keys."""
        cuts = np.concatenate(([0], np.cumsum([self.width[c] for c in who]))).astype(int)
        return [tuple(tuple(r[cuts[x] : cuts[x + 1]]) for x in range(len(who))) for r in rows.tolist()]

    def group_outcomes(
        self, i: int, tup: tuple[int, ...], keys: list[tuple[_Key, ...]], before: _Key = ()
    ) -> list[list[tuple[int, tuple[int, ...], tuple[_Key, ...], float, tuple[int, ...]]]]:
        """Return, per (i's key, each struck creature's key) of ``keys``, the outcomes of i's turn on
        the creatures ``tup`` (:meth:`turn_rows`): (the damage i deals itself, the damage each of them
        takes, every key after, probability, the attacks on each foe); each enumerated once per fight
        (and ``before``: under spread, the attacks on each foe before the turn, which the order of the
        next foes reads), the new ones in ONE call."""
        new = [k for k in dict.fromkeys(keys) if ("group", i, tup, before, *k) not in self.cache]
        if new:
            T, K = len(tup), self.n_foes(i, tup)
            rows = np.array([sum(k, ()) for k in new], np.int64).reshape(len(new), -1)
            uniq, weight = self.turn_rows(i, tup, rows, counted=before)
            # (each distinct key after made a tuple once: many outcomes share it)
            after_keys, which = distinct_rows(uniq[:, 2 + T + K :])
            parts = self.parts_of((i, *tup), after_keys)
            per: list[list[Any]] = [[] for _ in new]
            for r, w, a in zip(uniq[:, : 2 + T + K].tolist(), weight.tolist(), which.tolist()):
                per[r[0]].append((int(r[1]), tuple(r[2 : 2 + T]), parts[a], w, tuple(r[2 + T : 2 + T + K])))
            for k, got in zip(new, per):
                self.cache[("group", i, tup, before, *k)] = got
        return [self.cache[("group", i, tup, before, *k)] for k in keys]

    def act_group(self, mass: dict[_Key, np.ndarray], i: int, tally: Tally, r: int) -> dict[_Key, np.ndarray]:
        """Return the alive mass after creature i's turn over several foes (:meth:`aims_group`,
        :meth:`group_outcomes`): each outcome moves the mass along every struck foe's axis at once."""
        enc = self.enc
        reach = enc.reach(i)
        acc: dict[_Key, np.ndarray] = {}

        def into(k: _Key) -> np.ndarray:
            got = acc.get(k)
            if got is None:
                got = acc[k] = np.zeros(self.shape)
            return got

        # (per creatures struck and, under spread, the attacks on the foes before the turn)
        work: dict[tuple[tuple[int, ...], _Key], list[tuple[_Key, np.ndarray]]] = {}
        for key, m in mass.items():
            rest = np.where(self.alive[i] & self.going, 0.0, m)  # who does not act keeps its mass
            hits = self.hits(key)
            for tup, w in self.aims_group(key, i, reach):
                before = tuple(hits[t] for t in tup) if hits else ()
                for mates, there in self.allies_hit(i):  # (an area set's allies struck, as they stand)
                    part = m * w if there is None else m * w * there
                    if part.any():
                        work.setdefault(((*tup, *mates), before), []).append((key, part))
            if rest.any():
                into(key)[...] += rest
        C = enc.size
        # a turn over several foes reads who still stands ("the next living foes"), so the cells
        # near a fall are played from the full state whatever its round says of a duel
        mid_turn = reach > 1 or self.falls_mid_turn(i)
        cells = int(np.prod(self.shape))
        keys_of = {g: [tuple(self.part(key, c) for c in (i, *g[0])) for key, _ in items] for g, items in work.items()}
        outcomes_of = {g: self.group_outcomes(i, g[0], keys, g[1]) for g, keys in keys_of.items()}
        moves = sum(len(o) for outs in outcomes_of.values() for o in outs) * cells
        if moves > MAX_TURN_MOVES:
            raise _PastBound(f"a turn's outcomes x the HP grid over {MAX_TURN_MOVES:,} cells")
        rows = sum(self.full_rows(i, g, items, keys_of[g], outcomes_of[g]) for g, items in work.items())
        if rows > MAX_TURN_ROWS:
            raise _PastBound(f"a turn re-ranking three foes or more: its outcomes x cells over {MAX_TURN_ROWS:,}")
        for g, items in work.items():
            tup, before = g
            keys = keys_of[g]
            whole = self.reranks(i, tup)
            near: list[tuple[_Key, tuple[_Key, ...], np.ndarray, np.ndarray]] = []
            for (key, part), kt, outcomes in zip(items, keys, outcomes_of[g]):
                if not part.any():
                    continue
                if whole:  # every cell played from its full state: the order of the next foes reads its HP
                    near.append((key, kt, part, np.zeros(1 + len(tup), np.int64)))
                    continue
                if mid_turn:  # the cells near a fall are played from the full state, the rest shifted
                    lines, safe = self.safe_region(i, tup, kt, outcomes, before)
                    if not safe.all():
                        near.append((key, kt, part * ~safe, lines))
                    part = part * safe
                    if not part.any():
                        continue
                intact = part * self.intact
                # (who falls first is read only where nobody has fallen yet: often nowhere)
                flat, fresh = part.ravel(), intact.ravel() if intact.any() else None
                for own, dealt, parts, p, hits in outcomes:
                    k2 = self.after_group(key, i, tup, parts, hits)
                    shifts = tuple((t, d) for t, d in zip(tup, dealt) if d)
                    if own and not enc.immortal[i]:
                        shifts += ((i, own),)
                    to = self.shift_to(shifts)
                    into(k2)[...] += np.bincount(to, weights=flat * p, minlength=cells).reshape(self.shape)
                    if fresh is not None:  # (falls in one turn: in the order it struck them, then i)
                        fell = np.bincount(to, weights=fresh * p, minlength=cells)
                        first = self.first_dead_in((*tup, i)).ravel()
                        tally.first += np.bincount(first, weights=fell, minlength=C + 1)[:C]
            if near:
                self.act_near(i, tup, near, into, tally, before)
        return self.harvest(acc, tally, r)

    def full_rows(
        self,
        i: int,
        g: tuple[tuple[int, ...], _Key],
        items: list[tuple[_Key, np.ndarray]],
        keys: list[tuple[_Key, ...]],
        outcomes: list[list[Any]],
    ) -> int:
        """Return how many rows the turn of i over the creatures and attacks counted ``g`` will
        enumerate from full states where it re-ranks its foes (:meth:`reranks`; else 0): per fight
        (``keys``), its outcomes from no damage (``outcomes``) times the cells of i's and their damages
        where the mass of ``items`` lies that the fight has not met yet (:meth:`near_move` keeps
        those it met)."""
        tup, before = g
        if not self.reranks(i, tup):
            return 0
        who = (i, *tup)
        others = tuple(c for c in range(len(self.shape)) if c not in who)
        ranked = sorted(who)
        axes = [ranked.index(c) for c in who]
        cells: dict[tuple[_Key, ...], np.ndarray] = {}
        count: dict[tuple[_Key, ...], int] = {}
        for (_, part), kt, outs in zip(items, keys, outcomes):
            here = np.flatnonzero(np.transpose(part.any(axis=others) if others else part != 0, axes))
            cells[kt] = here if kt not in cells else np.union1d(cells[kt], here)
            count[kt] = len(outs)
        rows = 0
        for kt, here in cells.items():
            met = self.cache.get(("move", i, tup, kt, before))
            new = here if met is None else np.setdiff1d(here, met[2], assume_unique=True)
            rows += int(new.size) * count[kt]
        return rows

    def reranks(self, i: int, tup: tuple[int, ...]) -> bool:
        """Return whether the order in which i's turn over the creatures ``tup`` takes its next foes
        reads the HP left of each cell: under ``focus`` (or a targeting function, which may read it)
        over three foes or more ("the next living foe by the same policy" is the one with the fewest
        HP left as the turn stands, which an area set or a multi-target use may have changed; of two
        foes the next is the other one). Such a turn is played from every cell's full state
        (:meth:`act_near`, no damage played at 0)."""
        return self.enc.reads_hp and self.n_foes(i, tup) >= 3

    # ------------------------------------------------------------ turns that can end part-way
    def falls_mid_turn(self, i: int) -> bool:
        """Return whether creature i's turn can end part-way in a way the rest of it reads (its
        round's ``falls_mid_turn``: Annulus, a Counter felling the striker or a foe falling before the
        turn's later uses); such a turn is played by :meth:`act_group`, near a fall from the full
        state (:meth:`act_near`)."""
        memo = ("mid turn", i)
        if memo not in self.cache:
            enc = self.enc
            rnd = None if enc.resting(i) else enc.round_of(i, int(enc.foes(i)[0]))
            self.cache[memo] = bool(getattr(rnd, "falls_mid_turn", False))
        return bool(self.cache[memo])

    def safe_lines(self, i: int, tup: tuple[int, ...], outcomes: list[Any]) -> np.ndarray:
        """Return, for i and each foe of ``tup``, the damage taken below which no outcome of the turn
        (damage-free: ``outcomes`` of :meth:`group_outcomes`) fells it: its HP less the most damage an
        outcome deals it (0 where an outcome heals: then every cell is played from the full state;
        an immortal creature's whole axis)."""
        enc = self.enc
        dealt = np.array([(own, *d) for own, d, _, _, _ in outcomes], np.int64).reshape(-1, len(tup) + 1)
        who = (i, *tup)
        hp = np.array([self.shape[c] if enc.immortal[c] else int(enc.hp[c]) for c in who], np.int64)
        mortal = np.array([not enc.immortal[c] for c in who])
        lines = hp - dealt.max(axis=0, initial=0)
        lines[mortal & (dealt.min(axis=0, initial=0) < 0)] = 0
        return np.where(mortal, np.maximum(lines, 0), hp)

    def safe_region(
        self, i: int, tup: tuple[int, ...], kt: tuple[_Key, ...], outcomes: list[Any], before: _Key = ()
    ) -> tuple[np.ndarray, np.ndarray]:
        """Return (:meth:`safe_lines`, :meth:`below` them) of i's turn on the foes ``tup`` from the
        keys ``kt`` (``before``: the attacks counted before it), worked out once per fight."""
        memo = ("safe", i, tup, kt, before)
        got = self.cache.get(memo)
        if got is None:
            lines = self.safe_lines(i, tup, outcomes)
            got = self.cache[memo] = (lines, self.below(i, tup, lines))
        return got

    def below(self, i: int, tup: tuple[int, ...], lines: np.ndarray) -> np.ndarray:
        """Return the cells where i and every foe of ``tup`` are below their ``lines`` (the safe
        region: no outcome fells any of them), broadcast over the grid."""
        safe = np.ones(self.going.shape, bool)
        for c, line in zip((i, *tup), lines.tolist()):
            safe = safe & (self.idx[c] < line)
        return safe

    def near_outcomes(
        self,
        i: int,
        tup: tuple[int, ...],
        kt: tuple[_Key, ...],
        codes: np.ndarray,
        sub: tuple[int, ...],
        before: _Key = (),
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, list[tuple[_Key, ...]]]:
        """Return the outcomes of i's turn on the foes ``tup`` from the keys ``kt`` and the damages
        taken ``codes`` (flat indices over ``sub``: i's damage, then each foe's), each played from
        that full state (one call for those not met before; kept over the fight): (the codes met,
        sorted; the first row of each; the rows' damage dealt to i and each foe (rows x creatures);
        each row's keys after, an index into the last value; probabilities; the keys after)."""
        memo = ("near", i, tup, kt, before)
        got = self.cache.get(memo)
        if got is None:
            got = self.cache[memo] = {"codes": np.zeros(0, np.int64), "rows": [], "keys": {}}
        new = np.setdiff1d(codes, got["codes"])
        if new.size:
            who = (i, *tup)
            K = self.n_foes(i, tup)
            rows = np.repeat(np.array([sum(kt, ())], np.int64).reshape(1, -1), new.size, axis=0)
            uniq, weight = self.turn_rows(i, tup, rows, np.unravel_index(new, sub), before)
            keys: dict[tuple[Any, ...], int] = got["keys"]
            # (each distinct (attacks, keys after) numbered once: many outcomes share it)
            after_keys, which = distinct_rows(uniq[:, 1 + len(who) :])
            parts = self.parts_of(who, after_keys[:, K:])
            number = np.array(
                [keys.setdefault((p, tuple(r[:K])), len(keys)) for p, r in zip(parts, after_keys.tolist())], np.int64
            )
            at = number[which]
            got["rows"].append((new[uniq[:, 0]], uniq[:, 1 : 1 + len(who)], at, weight))
            # (every row so far, by code: the table the cells read)
            code = np.concatenate([r[0] for r in got["rows"]])
            order = np.argsort(code, kind="stable")
            got["rows"] = [
                (
                    code[order],
                    np.concatenate([r[1] for r in got["rows"]])[order],
                    np.concatenate([r[2] for r in got["rows"]])[order],
                    np.concatenate([r[3] for r in got["rows"]])[order],
                )
            ]
            got["codes"] = np.union1d(got["codes"], new)
        code, dealt, at, p = got["rows"][0]
        firsts = np.searchsorted(code, got["codes"])
        return got["codes"], firsts, dealt, at, p, list(got["keys"])

    def near_move(
        self,
        i: int,
        tup: tuple[int, ...],
        kt: tuple[_Key, ...],
        lines: np.ndarray,
        need: np.ndarray,
        before: _Key = (),
    ) -> tuple[sparse.csr_matrix, list[tuple[Any, ...]]]:
        """Return (the move of i's turn on the foes ``tup`` from the keys ``kt`` over the cells near a
        fall (outside the safe region of ``lines``) met so far, ``need`` among them, each played from
        its full state: a sparse matrix whose rows are (the keys after, the cell after) and columns
        the cells before, over the sub-grid of i's and the foes' damages; the keys after, (their
        parts, the attacks on each foe)), kept over the fight and built again when a cell not met
        before has mass. A cell's damages below their lines are played at 0: a creature that cannot
        fall this turn plays alike at any damage taken."""
        memo = ("move", i, tup, kt, before)
        got = self.cache.get(memo)
        if got is None or not np.isin(need, got[2], assume_unique=True).all():
            who = (i, *tup)
            sub = tuple(self.shape[c] for c in who)
            S = int(np.prod(sub))
            src = need if got is None else np.union1d(got[2], need)
            taken = np.array(np.unravel_index(src, sub)).reshape(len(who), -1)
            played = np.where(taken >= lines[:, None], taken, 0)
            codes = np.ravel_multi_index(tuple(played), sub)
            met, firsts, dealt, at, p, keys = self.near_outcomes(i, tup, kt, np.unique(codes), sub, before)
            u = np.searchsorted(met, codes)
            lo = firsts[u]
            count = np.append(firsts[1:], p.size)[u] - lo
            cell = np.repeat(np.arange(src.size), count)
            row = np.arange(int(count.sum())) - np.repeat(np.cumsum(count) - count - lo, count)
            top = np.array(sub)[:, None] - 1
            after = np.clip(taken[:, cell] + dealt[row].T, 0, top)
            dst = np.ravel_multi_index(tuple(after), sub)
            T = sparse.csr_matrix((p[row], (at[row] * S + dst, src[cell])), shape=(len(keys) * S, S))
            got = self.cache[memo] = (T, keys, src)
        return got[0], got[1]

    def act_near(
        self,
        i: int,
        tup: tuple[int, ...],
        items: list[tuple[_Key, tuple[_Key, ...], np.ndarray, np.ndarray]],
        into: Any,
        tally: Tally,
        before: _Key = (),
    ) -> None:
        """Add to ``into`` the mass of each of ``items`` (a key, its parts of i and the foes ``tup``,
        its mass near a fall, the turn's safe ``lines``) after i's turn on those foes, each cell
        played from its full state (:meth:`near_move`), the damage capped at HP (fallen); who fell
        first counted as :meth:`act_group` counts it. The keys sharing their parts of i and the foes
        move in ONE sparse product, their masses side by side."""
        enc = self.enc
        who = (i, *tup)
        n = len(who)
        moved_axes = list(range(n))
        sub = tuple(self.shape[c] for c in who)
        S = int(np.prod(sub))
        rest_shape = tuple(self.shape[c] for c in range(len(self.shape)) if c not in who)
        R = int(np.prod(rest_shape, dtype=np.int64))
        by_kt: dict[tuple[_Key, ...], list[int]] = {}
        for x, (_, kt, _, _) in enumerate(items):
            by_kt.setdefault(kt, []).append(x)
        C = len(self.shape)
        rest = [c for c in range(C) if c not in who]
        # (the grid's axes with i's and the foes' first, the keys' axis after them: one transpose for
        # all of a batch's keys; back again the same way)
        forward = [1 + c for c in who] + [0] + [1 + c for c in rest]
        back = [0, n + 1] + [1 + who.index(c) if c in who else n + 2 + rest.index(c) for c in range(C)]
        fell = np.zeros((S, R))
        for kt, xs in by_kt.items():
            stacked = np.stack([items[x][2] for x in xs])
            flats = stacked.transpose(forward).reshape(S, len(xs) * R)
            need = np.flatnonzero(flats.any(axis=1))
            if not need.size:  # (no mass near a fall in this batch)
                continue
            T, keys = self.near_move(i, tup, kt, items[xs[0]][3], need, before)
            A = T.shape[0] // S
            moved = np.asarray(T @ flats).reshape((A, *sub, len(xs), *rest_shape)).transpose(back)
            hit = moved.reshape(A, len(xs), -1).any(axis=2)
            for a, y in zip(*np.nonzero(hit)):
                k2 = self.after_group(items[xs[y]][0], i, tup, *keys[a])
                into(k2)[...] += moved[a, y]
            intact = (stacked * self.intact).transpose(forward).reshape(S, len(xs) * R)
            if intact.any():
                fell += np.asarray(T @ intact).reshape(A, S, len(xs), R).sum(axis=(0, 2))
        if fell.any():  # (falls in one turn: in the order it struck them, then i)
            grid = np.moveaxis(fell.reshape(sub + rest_shape), moved_axes, who)
            first = self.first_dead_in((*tup, i)).ravel()
            tally.first += np.bincount(first, weights=grid.ravel(), minlength=enc.size + 1)[: enc.size]

    def after_group(
        self, key: _Key, i: int, tup: tuple[int, ...], parts: tuple[_Key, ...], hits: tuple[int, ...]
    ) -> _Key:
        """Return ``key`` after i's turn on the foes ``tup``: i's and their key ``parts`` after, and
        under spread targeting the attacks the turn made on each (``hits``) counted this round."""
        k2 = list(key)
        for c, kc in zip((i, *tup), parts):
            k2[self.offset[c] : self.offset[c + 1]] = kc
        if self.spread:
            base = int(self.offset[-1])
            for t, h in zip(tup, hits):
                k2[base + t] += int(h)
        return tuple(k2)

    def first_dead_in(self, order: tuple[int, ...]) -> np.ndarray:
        """Return, per cell, the first creature fallen taking ``order`` first, then the others in
        listed order (C where every creature stands): who fell first of several felled in one turn
        over several foes, the foes in the order the turn struck them (its target first)."""
        got = self.cache.get(("first dead", order))
        if got is None:
            C = self.enc.size
            ranked = [*order, *(c for c in range(C) if c not in order)]
            dead = np.stack([~self.alive[c] for c in ranked])
            got = np.where(dead.any(axis=0), np.array(ranked)[np.argmax(dead, axis=0)], C)
            self.cache[("first dead", order)] = got
        return got

    def harvest(self, mass: dict[_Key, np.ndarray], tally: Tally, r: int) -> dict[_Key, np.ndarray]:
        """Return ``mass`` without the cells where a side has no creature standing, recorded as ended
        in round r + 1 (r -1: unresolved, every cell recorded). The ends are read on their sub-grids
        (:attr:`end_cells`) of every key's grid stacked, recorded once per end, and cleared there in
        place (``mass`` is the turn's own: its grids are returned)."""
        if not mass:
            return {}
        every = (tuple(slice(None) for _ in self.shape), None, list(range(self.enc.size)), self.count)
        # every key's grid at once (what a fight ends with does not depend on its key): each end read
        # and recorded once per round, summed over the keys
        keys = list(mass)
        grids = [mass[k] for k in keys]
        for k, cells in enumerate(self.end_cells if r >= 0 else [every]):
            if cells is None:
                continue
            at, where, free, counts = cells
            # (each key's sub-grid where the end holds, stacked: a slice of its grid, so small)
            parts = np.stack([g[at] for g in grids])
            ended = parts if where is None else parts * where
            total = float(ended.sum())
            if total <= 0:
                continue
            self.record(tally, ended.sum(axis=0), total, k if r >= 0 else 3, r, free, counts)
            if r >= 0:  # cleared in place (the grids are the turn's own)
                for n in np.flatnonzero(ended.reshape(len(grids), -1).any(axis=1)).tolist():
                    g = grids[n]
                    g[at] = 0.0 if where is None else g[at] * ~where
        if r < 0:
            return {}
        return {key: g for key, g in zip(keys, grids) if g.any()}

    def record(
        self,
        tally: Tally,
        ended: np.ndarray,
        total: float,
        outcome: int,
        r: int,
        free: list[int],
        counts: list[np.ndarray],
    ) -> None:
        """Record the mass ``ended`` (a sub-grid over the creatures ``free``; the others fallen) as
        fights ended in round r + 1 with ``outcome`` (3: unresolved): the survivors of each side
        (``counts`` over the sub-grid) and each creature's HP left."""
        if outcome < 3:
            tally.ends[outcome, r] += total
        else:
            tally.unresolved += total
        width = tally.survivors.shape[1]
        for s in (0, 1):
            shaped = np.broadcast_to(counts[s], ended.shape)
            tally.survivors[s] += np.bincount(shaped.ravel(), weights=ended.ravel(), minlength=width)[:width]
        for c in range(self.enc.size):
            if c not in free:  # fallen: no HP left
                tally.hp_left[c][outcome, 0] += total
                continue
            axis = free.index(c)
            marg = ended.sum(axis=tuple(a for a in range(ended.ndim) if a != axis))
            tally.hp_left[c][outcome, int(self.enc.hp[c]) - np.arange(self.shape[c])] += marg


def _along(a: np.ndarray, axis: int, M: np.ndarray) -> np.ndarray:
    """Return ``a`` times ``M`` along ``axis`` (out[..., y, ...] = the sum over x of a[..., x, ...]
    M[x, y]) in a's own axis order: one matrix product over a C-contiguous ``a`` with no copy of it
    (``np.tensordot`` transposes ``a`` first)."""
    n = a.shape[axis]
    lead = int(np.prod(a.shape[:axis], dtype=np.int64))
    tail = int(np.prod(a.shape[axis + 1 :], dtype=np.int64))
    a = np.ascontiguousarray(a)
    out = a.reshape(lead, n) @ M if tail == 1 else np.matmul(M.T, a.reshape(lead, n, tail))
    return out.reshape(a.shape[:axis] + (M.shape[1],) + a.shape[axis + 1 :])


def solve(
    enc: Encounter,
    order: str,
    first: int,
    max_rounds: int,
    max_cells: int | None = None,
    why: list[str] | None = None,
) -> tuple[Tally, int] | None:
    """Return (the exact :class:`~workbench.fight.encounter.Tally` of the encounter with side
    ``first`` acting first, the most keys x cells held), or None past a counted bound (the caller
    simulates): ``max_cells`` keys x cells (default :data:`MAX_CELLS`), a turn's
    :data:`MAX_TURN_MOVES` or its :data:`MAX_TURN_ROWS`; ``why`` (a list) is then given the bound
    passed."""
    try:
        return _solve(enc, order, first, max_rounds, MAX_CELLS if max_cells is None else max_cells)
    except _PastBound as exc:
        if why is not None:
            why.append(str(exc))
        return None


def _solve(enc: Encounter, order: str, first: int, max_rounds: int, max_cells: int) -> tuple[Tally, int]:
    """Return :func:`solve`'s value, or raise _PastBound."""
    cells = grid_cells(enc)
    if cells > max_cells:
        raise _PastBound(f"the joint HP grid ({cells:,} cells) over {max_cells:,} cells")
    chain = _Chain(enc, max_rounds)
    tally = Tally.empty(enc, max_rounds)
    mass = {chain.start_key(): np.zeros(chain.shape)}
    mass[chain.start_key()][(0,) * enc.size] = 1.0
    turns = enc.turns(order, first)
    chain.later = later_allies(enc, turns)
    most = cells
    for i in enc.phased:  # before the first round: its kills count in round 1
        mass = chain.act(mass, i, "opening", tally, 0)
    for r in range(max_rounds):
        if not mass:
            break
        if chain.spread or chain.track_melee:
            fresh: dict[_Key, np.ndarray] = {}
            for k, m in mass.items():
                k2 = chain.new_round(k)
                fresh[k2] = fresh[k2] + m if k2 in fresh else m
            mass = fresh
        for i in turns:
            mass = chain.act(mass, i, "turn", tally, r)
            most = max(most, len(mass) * cells)
            if len(mass) * cells > max_cells:
                raise _PastBound(f"the joint state (keys x HP grid) over {max_cells:,} cells")
        for i in enc.phased:
            mass = chain.act(mass, i, "between", tally, r)
        for j in enc.resters:  # a passive target's turn: its rest, from side a's first creature's round
            mass = chain.act(mass, 0, "rest", tally, r, rester=j)
        check_time(f"the exact encounter over every creature's state, round {r + 1:,}")
        if sum(float(m.sum()) for m in mass.values()) < CHAIN_TAIL:
            mass = {}
            break
    if mass:
        chain.harvest(mass, tally, -1)
    return tally, most
