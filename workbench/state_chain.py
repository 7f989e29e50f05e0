"""The absorbing chain of a fight whose state is more than the damage taken: states (key, damage
taken), where a key is whatever else the fight carries (armor points left, a Shell's points, MP,
a jammed weapon) and one turn from key k is a table of rows (next key, damage to HP, probability).

Rules systems describe their state through ``RuleSystem.state_chain`` and build the turn of each
key from their own rules; this module only solves the chain (it names no system). The target is
killed when the damage taken reaches its HP; P(killed by round t) comes from iterating the
distribution over states, the mean from (I - Q) m = 1 over the transient states reached from the
start (scipy.sparse), as for any absorbing Markov chain; a reached state from which no kill can
ever follow makes the mean infinite.

Optimal play over the same states (:func:`solve_keyed_policy`, issue 15, item 4: "For fewest rounds
the plan may depend on the state (HP left, conditions): optimal play by dynamic programming over the
chain's states"): one turn from key k is then one table per legal plan, and the plan of each state
(key, damage taken) is chosen to make the expected rounds fewest, a stochastic shortest path solved
exactly by policy iteration.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .arguments import check_time
from .chains import CHAIN_TAIL

__all__ = [
    "KeyedTurn",
    "StateChain",
    "Branch",
    "PlannedChain",
    "KeyedPolicy",
    "MAX_KEYED_TRANSITIONS",
    "MAX_POLICY_TRANSITIONS",
    "MAX_KEYS",
    "solve_keyed_chain",
    "solve_keyed_policy",
]

#: transitions (states x turn-table rows) past which :func:`solve_keyed_chain` gives up (returns
#: None: the caller simulates): the chain's time and memory follow them (about 0.6 s and 200 MB
#: at 4 M here)
MAX_KEYED_TRANSITIONS = 4_000_000
#: transitions (rows of every plan x HP) past which optimal play (:func:`solve_keyed_policy`) gives
#: up: it solves in bands of BAND_TRANSITIONS, so its memory stays a band's while its time follows
#: them (the slowest Last Odyssey catalog fight it solves takes about 7 s here, most of it building
#: the planned chain; six larger ones are refused in about 1.5 s)
MAX_POLICY_TRANSITIONS = 16_000_000
#: keys (the state beyond the damage taken) past which the chain gives up: each asks its system for
#: one turn (a Last Odyssey (MP, Shell) key about 0.3 ms, a new MP value a plan choice of about
#: 10 ms), so the keys bound the time spent before the chain is built; the largest published state
#: (Shells of 75, Mana of 135) stays under a few thousand
MAX_KEYS = 20_000


@dataclass(frozen=True)
class KeyedTurn:
    """One turn from one key: parallel arrays, one entry per outcome row: ``keys`` (the key after
    the turn, a hashable), ``damage`` (to HP, >= 0) and ``probability`` (summing to 1)."""

    keys: Sequence[Hashable]
    damage: np.ndarray
    probability: np.ndarray


@dataclass(frozen=True)
class StateChain:
    """The solved chain: ``by`` (P(killed by round t), t = 1.. up to ``max_rounds`` or until the
    survival is below CHAIN_TAIL, or the survival in states from which a kill can still follow is:
    the rest of the curve is flat), ``mean`` (exact mean rounds, inf when a reached state can never
    be killed), ``states`` (how many (key, damage) states), ``weighted`` (with weights: sum over t
    of weights[t] x the alive mass after t rounds by damage taken, length hp; else None)."""

    by: np.ndarray
    mean: float
    states: int
    weighted: np.ndarray | None = None


@dataclass(frozen=True)
class KeyedChain:
    """One fight for :func:`solve_keyed_chains`: a target with ``hp`` hit points, the fight starting
    at key ``start`` with no damage taken, each turn from key k being ``turn(k)``; P(killed by round
    t) up to ``max_rounds``; ``weights`` and ``max_transitions`` as :func:`solve_keyed_chain`."""

    start: Hashable
    hp: int
    turn: Callable[[Hashable], KeyedTurn]
    max_rounds: int
    weights: np.ndarray | None = None
    max_transitions: int | None = None
    #: when the caller walked the fight already: its number of keys, numbered 0.. (``start`` 0), each
    #: reached from the start, each turn's ``keys`` an int array of them (the solver walks nothing)
    numbered: int | None = None


def solve_keyed_chain(
    start: Hashable,
    hp: int,
    turn: Callable[[Hashable], KeyedTurn],
    max_rounds: int,
    *,
    weights: np.ndarray | None = None,
    max_transitions: int | None = None,
) -> StateChain | None:
    """Return the :class:`StateChain` of a target with ``hp`` hit points, the fight starting at key
    ``start`` with no damage taken, each turn from key k being ``turn(k)``; None when the states
    reached times their turn rows pass ``max_transitions`` (default MAX_KEYED_TRANSITIONS) or the keys
    reached pass MAX_KEYS (the caller then simulates). The one fight of :func:`solve_keyed_chains`.

    From state (k, h) each row (k', d, p) of ``turn(k)`` leads to (k', h + d) with probability p,
    and h + d >= hp kills. The keys reached from ``start`` are found first (breadth first, each
    turn asked once). Bounded work: its keys and transitions are counted against MAX_KEYS and
    ``max_transitions`` as they are found (None past them: the caller simulates instead); every
    round reports progress (:func:`workbench.arguments.check_time`: a panel's Cancel; no clock).
    """
    return solve_keyed_chains([KeyedChain(start, hp, turn, max_rounds, weights, max_transitions)])[0]


def _walk(c: KeyedChain) -> tuple[list[Hashable], list[KeyedTurn]] | None:
    """Return (the keys reached from ``c.start``, breadth first, the start first; each one's turn),
    or None past ``c.max_transitions`` (rows x HP) or MAX_KEYS keys, counted as they are found."""
    bound = MAX_KEYED_TRANSITIONS if c.max_transitions is None else c.max_transitions
    if c.numbered is not None:  # (walked by the caller: every key's turn, counted the same)
        got = [c.turn(k) for k in range(c.numbered)]
        if sum(len(t.keys) for t in got) * c.hp > bound or c.numbered > MAX_KEYS:
            return None
        return list(range(c.numbered)), got
    keys: list[Hashable] = [c.start]
    where: dict[Hashable, int] = {c.start: 0}
    turns: list[KeyedTurn] = []
    rows_total = 0
    i = 0
    while i < len(keys):
        t = c.turn(keys[i])
        turns.append(t)
        rows_total += len(t.keys)
        if rows_total * c.hp > bound:
            return None
        for k in t.keys:
            if k not in where:
                where[k] = len(keys)
                keys.append(k)
        if len(keys) > MAX_KEYS:
            return None
        i += 1
        if i % 64 == 0:
            check_time(f"the state chain, {len(keys):,} keys found")
    return keys, turns


def _edges(
    keys: list[Hashable], turns: list[KeyedTurn], hp: int, numbered: bool = False
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Return one fight's transitions among its states, numbered damage taken x keys + key index:
    (from, to, probability) of every row that leaves the target standing, in order of the state
    they leave (so they are a CSR matrix's entries as they stand), and each state's kill chance.
    ``numbered``: the keys are their indices already (:attr:`KeyedChain.numbered`)."""
    lens = np.fromiter((len(t.keys) for t in turns), dtype=np.int64, count=len(turns))
    dmg = np.concatenate([np.asarray(t.damage, dtype=np.int64) for t in turns])
    p = np.concatenate([np.asarray(t.probability, dtype=np.float64) for t in turns])
    if numbered:
        dest = np.concatenate([np.asarray(t.keys, dtype=np.int64) for t in turns])
    else:
        where = {k: i for i, k in enumerate(keys)}
        dest = np.fromiter((where[k] for t in turns for k in t.keys), dtype=np.int64, count=int(lens.sum()))
    src_key = np.repeat(np.arange(len(turns)), lens)
    h = np.arange(hp)[:, None]
    hh = h + dmg[None, :]  # hp x rows: row r of key i from damage h leads to (dest r, h + d_r)
    dead = hh >= hp  # a kill
    # (a row whose probability underflowed to 0 is no edge: the searches read stored entries)
    alive = ~dead & (p > 0)[None, :]
    K = len(keys)
    src = h * K + src_key[None, :]  # (hp x rows, damage-major: ascending as the rows are laid out)
    pp = np.broadcast_to(p, hh.shape)
    kill = np.bincount(src[dead], weights=pp[dead], minlength=K * hp)
    return src[alive], (hh * K + dest[None, :])[alive], pp[alive], kill


def solve_keyed_chains(chains: Sequence[KeyedChain]) -> list[StateChain | None]:
    """Return the :class:`StateChain` of each fight of ``chains`` (:func:`solve_keyed_chain`), or
    None where its walk passes the counted bounds: all solved together, as one absorbing chain
    whose blocks are the fights (one sparse product a round for every fight, one breadth-first
    search for what each state reaches, one sparse solve for every mean), so a compare's many
    small fights cost little more than their arithmetic.

    P(killed by round t) comes from iterating each fight's distribution over its states until the
    mass left is below CHAIN_TAIL (or, where some reached state can never be killed, the mass that
    still can), at most ``max_rounds`` rounds; the mean from (I - Q) m = 1 over the states reached
    from the start, inf when a reached state can never be killed.
    """
    import scipy.sparse as sp
    import scipy.sparse.csgraph as csgraph
    import scipy.sparse.linalg as spl

    out: list[StateChain | None] = [None] * len(chains)
    live: list[int] = []  # the fights within the bounds
    parts = []
    size: list[int] = []
    for i, c in enumerate(chains):
        walked = _walk(c)
        if walked is None:
            continue
        live.append(i)
        parts.append(_edges(*walked, c.hp, c.numbered is not None))
        size.append(len(walked[0]) * c.hp)
    if not live:
        return out
    F = len(live)
    sizes = np.array(size, dtype=np.int64)
    offset = np.concatenate([[0], np.cumsum(sizes)])
    N = int(offset[-1])
    block = np.repeat(np.arange(F), sizes)  # each state's fight
    src = np.concatenate([s + o for (s, _, _, _), o in zip(parts, offset)])
    dst = np.concatenate([d + o for (_, d, _, _), o in zip(parts, offset)])
    val = np.concatenate([v for _, _, v, _ in parts])
    kill = np.concatenate([k for *_, k in parts])
    # (the entries come in order of the state they leave: the CSR arrays as they stand, no sort)
    Q = sp.csr_matrix((val, dst, np.concatenate([[0], np.cumsum(np.bincount(src, minlength=N))])), shape=(N, N))
    QT = Q.T.tocsr()

    # the states reached from each start, and whether each can still be killed (a kill state is
    # reachable from it): a reached state that cannot makes the mean infinite, and once the mass
    # that can still be killed has left, no kill chance changes any more (the iteration stops
    # there). Both are one compiled breadth-first search from an extra node N: its edges lead to
    # every start, or, over the edges reversed, to every state with a kill chance.
    def searched(m: Any, seeds: np.ndarray) -> np.ndarray:
        """The states a breadth-first search over the edges of the CSR matrix ``m`` meets from an
        extra node N whose edges lead to ``seeds``."""
        g = sp.csr_matrix(
            (
                np.ones(m.indices.size + seeds.size),
                np.concatenate([m.indices, seeds]),
                np.append(m.indptr, m.indptr[-1] + seeds.size),
            ),
            shape=(N + 1, N + 1),
        )
        got = np.zeros(N + 1, dtype=bool)
        got[csgraph.breadth_first_order(g, N, directed=True, return_predecessors=False)] = True
        return got[:N]

    reach = searched(Q, offset[:-1])
    can = searched(QT, np.flatnonzero(kill > 0))
    stuck = np.bincount(block, weights=reach & ~can, minlength=F) > 0
    limit = np.array([chains[i].max_rounds for i in live], dtype=np.int64)
    w = [None if chains[i].weights is None else np.asarray(chains[i].weights, dtype=np.float64) for i in live]
    weighted = [None if x is None else np.zeros(chains[i].hp) for x, i in zip(w, live)]
    reads = np.array([x is not None for x in w])
    wlen = np.array([0 if x is None else x.size for x in w], dtype=np.int64)

    # the rounds, every fight at once. ``blocks``: the fights in the current product, in order
    # (their states are those of QT, ``starts`` each one's first), ``on`` those still iterated
    # (the product drops the fights done once they are half its states)
    blocks = np.arange(F)
    on = limit > 0
    v = np.zeros(N)
    v[offset[:-1]] = 1.0  # each fight's start: no damage taken, key 0
    kq, cq = kill, can
    starts = offset[:-1].copy()
    rounds: list[tuple[np.ndarray, np.ndarray]] = []  # per round: (fights iterated, mass killed)

    def weigh(r: int, sel: np.ndarray) -> None:
        """Add the weights' round ``r`` of the alive mass, by damage taken, of the fights ``sel``
        (positions in ``blocks``) that read it."""
        for j in np.flatnonzero(sel & reads[blocks] & (r < wlen[blocks])):
            f = int(blocks[j])
            mass = v[starts[j] : starts[j] + sizes[f]].reshape(chains[live[f]].hp, -1)
            wf, acc = w[f], weighted[f]
            assert wf is not None and acc is not None  # (it reads weights)
            acc += wf[r] * mass.sum(axis=1)

    any_reads = bool(reads.any())
    if any_reads:
        weigh(0, ~on)  # (a fight of 0 rounds: the weights read its start)
    r = 0
    any_stuck = bool(stuck.any())
    soonest = int(limit[on].min()) if on.any() else 0  # (no fight meets its round limit before)
    while on.any():
        if any_reads:
            weigh(r, on)
        check_time(f"the state chains of {N:,} states, round {r + 1:,}")
        rounds.append((blocks[on], np.add.reduceat(v * kq, starts)[on]))
        v = QT @ v
        r += 1
        tail = np.add.reduceat(v, starts) < CHAIN_TAIL
        if any_stuck:
            # the mass left can never be killed: the kill chances are final (unless weights still read it)
            final = on & stuck[blocks] & (~reads[blocks] | (r >= wlen[blocks]))
            if final.any():
                tail |= final & (np.add.reduceat(np.where(cq, v, 0.0), starts) < CHAIN_TAIL)
        done = on & tail
        if r >= soonest:
            last = on & ~tail & (r >= limit[blocks])
            if any_reads:  # (at the round limit the weights read the mass after the last round too)
                weigh(r, last)
            done |= last
        if not done.any():
            continue
        on &= ~done
        if sizes[blocks[on]].sum() * 2 < v.size:
            keep = np.repeat(on, sizes[blocks])
            blocks, on = blocks[on], on[on]
            v, kq, cq = v[keep], kq[keep], cq[keep]
            starts = np.concatenate([[0], np.cumsum(sizes[blocks])[:-1]]).astype(np.int64)
            QT = QT[keep][:, keep]
    # each fight's P(killed by round t), t = 1.. its last round: the running sum of its kills
    fights = np.concatenate([a for a, _ in rounds] or [np.zeros(0, np.int64)])
    mass = np.concatenate([m for _, m in rounds] or [np.zeros(0)])
    order = np.argsort(fights, kind="stable")  # (stable: each fight's rounds in order)
    ends = np.cumsum(np.bincount(fights, minlength=F))
    mass = mass[order]
    # the means: (I - Q) m = 1 over every fight's reached states, one sparse solve (the fights are
    # its blocks); a fight whose reached state can never be killed has an infinite mean
    pick = reach & ~stuck[block]
    idx = np.flatnonzero(pick)
    mean = np.full(F, np.inf)
    if idx.size:
        sub = Q[idx][:, idx]
        m = np.atleast_1d(spl.spsolve((sp.identity(idx.size, format="csc") - sub).tocsc(), np.ones(idx.size)))
        first = np.flatnonzero(~stuck)
        mean[first] = m[np.searchsorted(idx, offset[first])]
    for f, i in enumerate(live):
        by = np.minimum(np.cumsum(mass[ends[f - 1] if f else 0 : ends[f]]), 1.0)
        out[i] = StateChain(by, float(mean[f]), int(sizes[f]), weighted[f])
    return out


#: two expected-rounds values closer than this (relative) are a tie: the plan listed first wins, as
#: in workbench.turns.best_plans
TIE = 1e-12
#: policy-improvement steps past which the solver stops (each step strictly improves a finite policy,
#: so this is never met on a fight of this size; it bounds the work all the same)
MAX_POLICY_STEPS = 200


@dataclass(frozen=True)
class Branch:
    """One outcome of the dice a round rolls before its plan is chosen (Annulus: the area sets'
    recharge, a Telegraphed strike): its ``probability``, the ``damage`` they dealt (to the damage
    dimension), what names it in a frame (``named``, column -> value), and the plans legal there,
    label -> :class:`KeyedTurn` (the rest of the round: its rows' damage is added to ``damage``)."""

    probability: float
    damage: int
    plans: dict[str, KeyedTurn]
    named: dict[str, Any]


@dataclass(frozen=True)
class PlannedChain:
    """A fight over keyed states with a choice of plan each round (``RuleSystem.state_plans``): the
    ``start`` key (no damage taken), the target's ``hp`` (the damage dimension), ``turn(key)`` the
    legal plans at a key, label -> :class:`KeyedTurn`, in the order ties go by (the first listed
    wins), or a list of :class:`Branch` when dice are rolled before the plan is chosen; and
    ``describe(key)`` naming a key's parts for a frame (column -> value). A key with no plan stays
    as it is, dealing nothing."""

    start: Hashable
    hp: int
    turn: Callable[[Hashable], dict[str, KeyedTurn] | list[Branch]]
    describe: Callable[[Hashable], dict[str, Any]]


@dataclass(frozen=True)
class KeyedPolicy:
    """Optimal play of a :class:`PlannedChain`: ``labels`` (every plan met, first met first),
    ``keys`` (every key reachable from the start under some play, the start first),
    ``rounds_left`` per state (key index, damage taken): the expected rounds to kill from there
    under the policy (inf where no play kills for certain); the decision points, ``branch_key`` (the
    key index of each branch, a key's branches in its order; one per key with plans when no dice
    come first) and ``branch_named``, and per (branch, damage taken) ``choice`` (an index into
    ``labels``; -1 where no plan can ever kill); ``by`` (P(killed by round t) from the start,
    t = 1..) and ``mean``."""

    labels: list[str]
    keys: list[Hashable]
    rounds_left: np.ndarray
    branch_key: np.ndarray
    branch_named: list[dict[str, Any]]
    choice: np.ndarray
    by: np.ndarray
    mean: float


#: rows x damage levels solved together in one band of optimal play (:func:`solve_keyed_policy`):
#: a band's sparse matrices hold about this many entries (about 50 MB), whatever the whole fight's
#: size; a fight within it is one band
BAND_TRANSITIONS = 2_000_000


def solve_keyed_policy(
    chain: PlannedChain,
    max_rounds: int,
    *,
    also: Sequence[Hashable] = (),
    max_transitions: int | None = None,
    band_transitions: int | None = None,
) -> KeyedPolicy | None:
    """Return the optimal :class:`KeyedPolicy` of ``chain`` (fewest expected rounds to kill), or None
    past MAX_KEYS keys or ``max_transitions`` (default MAX_POLICY_TRANSITIONS) transitions over
    every plan (rows x HP). ``also``: keys to include beside those reached from the start (a frame
    of every state).

    From state (k, h), branch b of ``turn(k)`` (probability p_b, damage d_b) then plan j leads by
    each row (k', d, p) to (k', h + d_b + d), a kill when that reaches hp. The expected rounds
    satisfy m(k, h) = 1 + sum_b p_b min_j sum p m(k', h + d_b + d), m = 0 once killed: a stochastic
    shortest path, each round costing 1. The damage taken never goes down, so the states are solved
    by backward induction over it, in bands of damage levels (``band_transitions``, default
    BAND_TRANSITIONS: rows x levels of one band; a small fight is one band), the highest first: a
    band's rows that reach a higher band read its solved values. Within a band, exactly, with no
    tolerance but the tie rule:

    1. the states from which some play kills with probability 1 (the largest set F whose states
       have, in every branch, a plan staying in F, and a path to a kill by such plans), by shortest
       paths to a kill (scipy.sparse.csgraph; a row into a higher band costs that state's own
       distance); outside F every play leaves a chance of never killing, m = inf;
    2. a first proper policy: in each state of F, a plan that steps towards a kill (a kill row, or a
       successor nearer to one) where there is one, else one staying in F;
    3. policy iteration: m of the policy from (I - Q) m = 1 + (what the rows into higher bands
       expect) (scipy.sparse, the states ordered so that every transition leads later when the keys
       never return), then at every decision the plan minimising sum p m (keeping the current one
       on a tie), until none changes; each step lowers m, and with every round costing 1 each
       greedy policy stays proper.

    The plan reported at a decision is the first listed among those within TIE of its minimum.
    Outside F the policy plays towards the nearest kill (the fewest rounds to a chance of one);
    P(killed by t) is the chain of the policy from the start. Bounded work: each band and step
    reports progress (:func:`workbench.arguments.check_time`: a panel's Cancel; no clock).
    """
    import scipy.sparse as sp

    bound = MAX_POLICY_TRANSITIONS if max_transitions is None else max_transitions
    hp = int(chain.hp)
    keys: list[Hashable] = [chain.start]
    where: dict[Hashable, int] = {chain.start: 0}
    for k in also:
        if k not in where:
            where[k] = len(keys)
            keys.append(k)
    labels: list[str] = []
    label_at: dict[str, int] = {}
    br_key: list[int] = []
    br_p: list[float] = []
    br_named: list[dict[str, Any]] = []
    act_branch: list[int] = []
    act_label: list[int] = []
    parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # per action: dest key, damage, p
    blocked: set[int] = set()  # keys with a branch that has no plan
    rows_total = 0
    i = 0
    while i < len(keys):
        got = chain.turn(keys[i])
        branches = [Branch(1.0, 0, got, {})] if isinstance(got, dict) else got
        for b in branches:
            if b.probability <= 0:
                continue
            if not b.plans:  # nothing to play: the state stays as it is, never certain to be killed
                blocked.add(i)
                continue
            br_key.append(i)
            br_p.append(float(b.probability))
            br_named.append(dict(b.named))
            for label, t in b.plans.items():
                if label not in label_at:
                    label_at[label] = len(labels)
                    labels.append(label)
                for k in t.keys:
                    if k not in where:
                        where[k] = len(keys)
                        keys.append(k)
                dest = np.fromiter((where[k] for k in t.keys), dtype=np.int64, count=len(t.keys))
                dmg = np.asarray(t.damage, dtype=np.int64) + int(b.damage)
                parts.append((dest, dmg, np.asarray(t.probability, dtype=np.float64)))
                act_branch.append(len(br_key) - 1)
                act_label.append(label_at[label])
                rows_total += len(t.keys)
        if rows_total * hp > bound or len(keys) > MAX_KEYS:
            return None
        i += 1
        if i % 64 == 0:
            check_time(f"optimal play, {len(keys):,} keys found")
    K, B, A = len(keys), len(br_key), len(act_branch)
    bk, bp = np.asarray(br_key, dtype=np.int64), np.asarray(br_p)
    ab = np.asarray(act_branch, dtype=np.int64)
    sizes = np.array([p[0].size for p in parts], dtype=np.int64)
    owner = np.repeat(np.arange(A), sizes)  # the action of each row (rows in action order)
    dest = np.concatenate([p[0] for p in parts]) if A else np.zeros(0, np.int64)
    dmg = np.concatenate([p[1] for p in parts]) if A else np.zeros(0, np.int64)
    prob = np.concatenate([p[2] for p in parts]) if A else np.zeros(0)
    live = prob > 0  # (a row of probability 0 leads nowhere)
    owner, dest, dmg, prob = owner[live], dest[live], dmg[live], prob[live]
    no_branch = np.ones(K, dtype=bool)
    no_branch[bk] = False
    blocked_keys = np.zeros(K, dtype=bool)
    blocked_keys[sorted(blocked)] = True
    rank = _key_rank(K, bk[ab][owner], dest)
    moves = _Moves(hp, K, B, A, bk, bp, ab, owner, dest, dmg, prob, no_branch | blocked_keys, rank)
    # what the bands below read of the solved ones, per (key, damage taken): m, F, and the fewest
    # rounds to a chance of a kill, by plays within F and by any play
    m_all = np.full((K, hp), np.inf)
    f_all = np.zeros((K, hp), dtype=bool)
    dist_ok_all = np.full((K, hp), np.inf)
    dist_any_all = np.full((K, hp), np.inf)
    policy_all = np.full((B, hp), -1, dtype=np.int64)  # the action of each decision (branch, damage taken)
    per_band = BAND_TRANSITIONS if band_transitions is None else band_transitions
    L_max = max(1, min(hp, per_band // max(int(owner.size), 1)))
    for h1 in range(hp, 0, -L_max):
        h0 = max(0, h1 - L_max)
        check_time(f"optimal play, damage taken {h0:,} to {h1 - 1:,} of {hp:,}")
        band = _solve_band(moves, h0, h1, m_all, f_all, dist_ok_all, dist_any_all)
        m_all[:, h0:h1], f_all[:, h0:h1], dist_ok_all[:, h0:h1], dist_any_all[:, h0:h1], policy_all[:, h0:h1] = band
    choice = np.asarray([*act_label, -1], dtype=np.int64)[np.where(policy_all >= 0, policy_all, A)]
    # P(killed by round t) under the policy: its chain from the start; a state with no decision
    # played stays as it is
    n = K * hp
    dec_b, dec_h = np.nonzero(policy_all >= 0)
    dec_a = policy_all[dec_b, dec_h]
    starts = np.concatenate([[0], np.cumsum(np.bincount(owner, minlength=A))])
    count = starts[dec_a + 1] - starts[dec_a]
    rep = np.repeat(np.arange(dec_a.size), count)
    row = starts[dec_a][rep] + (np.arange(rep.size) - np.repeat(np.cumsum(count) - count, count))
    src = bk[dec_b][rep] * hp + dec_h[rep]
    w = bp[dec_b][rep] * prob[row]
    to = dec_h[rep] + dmg[row]
    alive = to < hp
    Q = sp.csr_matrix((w[alive], (src[alive], (dest[row] * hp + to)[alive])), shape=(n, n))
    killv = np.bincount(src[~alive], weights=w[~alive], minlength=n)
    weight = np.asarray(Q.sum(axis=1)).ravel() + killv
    idle = np.flatnonzero(weight < 1 - 1e-9)  # the mass of decisions nobody plays: no change
    Q = (Q + sp.csr_matrix((1 - weight[idle], (idle, idle)), shape=(n, n))).tocsr()
    can = np.isfinite(dist_any_all).ravel()
    QT = Q.T.tocsr()
    v = np.zeros(n)
    v[0] = 1.0
    by: list[float] = []
    total = 0.0
    for r in range(max_rounds):
        check_time(f"optimal play's chain, round {r + 1:,}")
        total += float(v @ killv)
        by.append(min(total, 1.0))
        v = QT @ v
        if v.sum() < CHAIN_TAIL or float(v[can].sum()) < CHAIN_TAIL:
            break
    return KeyedPolicy(labels, keys, m_all, bk, br_named, choice, np.array(by), float(m_all[0, 0]))


@dataclass(frozen=True)
class _Moves:
    """A planned chain as flat arrays (:func:`solve_keyed_policy`): ``hp``; K keys, B branches (each
    a decision at every damage level), A actions (a plan of a branch); per branch its key ``bk`` and
    probability ``bp``, per action its branch ``ab``; per row its action ``owner`` (rows in action
    order), ``dest`` key, ``dmg`` (the branch's damage included) and ``prob``; per key ``bare`` (a
    branch with no plan, or no branch: never certain to be killed) and its topological ``rank``."""

    hp: int
    K: int
    B: int
    A: int
    bk: np.ndarray
    bp: np.ndarray
    ab: np.ndarray
    owner: np.ndarray
    dest: np.ndarray
    dmg: np.ndarray
    prob: np.ndarray
    bare: np.ndarray
    rank: np.ndarray


def _solve_band(
    moves: _Moves,
    h0: int,
    h1: int,
    m_all: np.ndarray,
    f_all: np.ndarray,
    dist_ok_all: np.ndarray,
    dist_any_all: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Return optimal play over damage taken h0..h1 - 1 (:func:`solve_keyed_policy`, steps 1-3),
    the levels from h1 up solved already (``m_all``, ``f_all``, ``dist_ok_all``, ``dist_any_all``):
    per key and level of the band, (m, F, the fewest rounds to a chance of a kill within F and by
    any play), and per (branch, level) the action played (-1: none)."""
    import scipy.sparse as sp
    import scipy.sparse.csgraph as csg
    import scipy.sparse.linalg as spl

    hp, K, B, A, bk, bp, ab = moves.hp, moves.K, moves.B, moves.A, moves.bk, moves.bp, moves.ab
    owner, dest, dmg, prob, rank = moves.owner, moves.dest, moves.dmg, moves.prob, moves.rank
    L = h1 - h0
    n = K * L  # the band's states: key * L + (h - h0)
    h = np.arange(L)
    hh = h[:, None] + h0 + dmg[None, :]  # L x rows: the damage taken after each row
    inside = hh < h1
    above = (hh >= h1) & (hh < hp)  # rows into a band solved already
    killed = hh >= hp
    pair = owner[None, :] * L + h[:, None]  # pair a * L + j: action a played at level h0 + j
    p2 = np.broadcast_to(prob, hh.shape)
    P = sp.csr_matrix((p2[inside], (pair[inside], (dest[None, :] * L + hh - h0)[inside])), shape=(A * L, n))
    kill = np.bincount(pair[killed], weights=p2[killed], minlength=A * L)
    # the rows into higher bands: what they expect, whether they all stay within F, and the nearest
    # kill by them
    up_pair = pair[above]
    up_dest = np.broadcast_to(dest, hh.shape)[above]
    up_h = hh[above]
    m_up = m_all[up_dest, up_h]
    up_val = np.bincount(up_pair, weights=p2[above] * np.where(np.isfinite(m_up), m_up, 0.0), minlength=A * L)
    up_bad = np.bincount(up_pair, weights=~f_all[up_dest, up_h], minlength=A * L) > 0
    up_ok = np.full(A * L, np.inf)
    np.minimum.at(up_ok, up_pair, dist_ok_all[up_dest, up_h])
    up_any = np.full(A * L, np.inf)
    np.minimum.at(up_any, up_pair, dist_any_all[up_dest, up_h])
    group_of = (ab[:, None] * L + h[None, :]).ravel()  # the decision (branch, level) each pair is played at
    state_of = (bk[ab][:, None] * L + h[None, :]).ravel()  # the state each pair is played from
    gstate = (bk[:, None] * L + h[None, :]).ravel()  # the state of each decision
    gweight = np.repeat(bp, L)  # the probability of each decision's branch

    # P's entries: each one's pair (P's rows in order), its successor state and the state it is
    # played from
    e_start = P.indptr[:-1]
    e_has = np.diff(P.indptr) > 0
    e_pair = np.repeat(np.arange(A * L), np.diff(P.indptr))
    e_from = state_of[e_pair]

    def toward(ok: np.ndarray, up: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Return (per state, the fewest rounds to a chance of a kill by the pairs ``ok``, inf if
        none, a row into a higher band costing that state's own (``up``: per pair, the least); per
        decision, a pair of ``ok`` stepping nearer, -1 if none), by shortest paths from the kill."""
        # state graph over n + 1 nodes (node n: killed), reversed: successor -> state; a kill costs
        # 1 round, a row into a higher band 1 + that state's distance
        mask = ok[e_pair]
        g = sp.csr_matrix((np.ones(int(mask.sum())), (P.indices[mask], e_from[mask])), shape=(n + 1, n + 1))
        cost = np.full(n, np.inf)
        np.minimum.at(cost, state_of[ok], np.where(kill > 0, 1.0, 1.0 + up)[ok])
        out = np.flatnonzero(np.isfinite(cost))
        g = (g + sp.csr_matrix((cost[out], (np.full(out.size, n), out)), shape=(n + 1, n + 1))).tocsr()
        if (cost[out] == 1.0).all():  # no row into a higher band: breadth first
            dist = csg.shortest_path(g, unweighted=True, indices=n, directed=True)[:n]
        else:
            g.data[: g.indptr[n]] = 1.0  # (a move met twice was added up: it costs 1; row n as given)
            dist = csg.dijkstra(g, directed=True, indices=n)[:n]
        near = np.where(kill > 0, 0.0, up)  # per pair: the nearest state its rows lead to
        if e_has.any():
            near[e_has] = np.minimum(near[e_has], np.minimum.reduceat(dist[P.indices], e_start[e_has]))
        good = np.flatnonzero(ok & (near < dist[state_of]))
        return dist, _first_pair(good, group_of, B * L)

    band_blocked = np.repeat(moves.bare, L)

    def covered(ok: np.ndarray) -> np.ndarray:
        """Per state: every branch of its key has a pair of ``ok`` (a state with no branch has none)."""
        has = np.zeros(B * L, dtype=bool)
        has[group_of[ok]] = True
        miss = band_blocked.copy()
        miss[gstate[~has]] = True
        return ~miss

    # 1. F: the states some play kills from with probability 1 (the largest such set)
    anyp = np.ones(A * L, dtype=bool)
    dist_any, near_any = toward(anyp, up_any)  # by any play: outside F, the policy plays towards a kill
    F = np.isfinite(dist_any) & covered(anyp)
    while True:
        check_time("optimal play, the states a kill is certain from")
        ok = F[state_of] & ((P @ (~F).astype(np.float64)) == 0) & ~up_bad
        dist, step = toward(ok, up_ok)
        F_new = F & np.isfinite(dist) & covered(ok)
        if (F_new == F).all():
            break
        F = F_new
    # 2. a first proper policy on F: at each decision a step towards a kill, else a pair staying in F
    policy = np.where(step >= 0, step, _first_pair(np.flatnonzero(ok), group_of, B * L))
    gin = F[gstate]  # the decisions of the states of F
    policy[~gin] = -1
    # the states of F in an order where every transition leads later (damage taken ascending, then
    # the keys in topological order of their own moves), so that I - Q is triangular when the keys
    # never return (armor points, Shells, MP only go down) and its LU has no fill-in
    order = np.lexsort((np.tile(rank, L), np.repeat(h, K)))
    flat = (np.tile(np.arange(K), L) * L + np.repeat(h, K))[order]
    inF = flat[F[flat]]
    G = np.flatnonzero(gin)

    def evaluate(pol: np.ndarray) -> np.ndarray:
        """m of the policy ``pol`` on F (inf elsewhere), from (I - Q) m = 1 + what the rows into
        higher bands expect."""
        m = np.full(n, np.inf)
        if inF.size:
            d = np.flatnonzero(pol >= 0)
            pick = sp.csr_matrix((gweight[d], (gstate[d], pol[d])), shape=(n, A * L))
            Q = (pick @ P).tocsr()[inF][:, inF]
            rhs = 1.0 + (pick @ up_val)[inF]
            M = (sp.identity(inF.size, format="csr") - Q).tocsr()
            if (M.indices < np.repeat(np.arange(inF.size), np.diff(M.indptr))).any():  # a key returns
                m[inF] = np.atleast_1d(spl.spsolve(M.tocsc(), rhs, permc_spec="NATURAL"))
            else:  # every transition leads later: back substitution, no factorisation
                m[inF] = spl.spsolve_triangular(M, rhs, lower=False)
        return m

    def greedy(m: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per pair sum p m (inf for pairs leaving F), and per decision its minimum."""
        fin = np.where(np.isfinite(m), m, 0.0)
        q = np.where(ok, P @ fin + up_val, np.inf)
        best = np.full(B * L, np.inf)
        np.minimum.at(best, group_of, q)
        return q, best

    m = evaluate(policy)
    for it in range(MAX_POLICY_STEPS):
        check_time(f"optimal play, policy step {it + 1:,}")
        q, best = greedy(m)
        cur = np.full(B * L, np.inf)
        cur[G] = q[policy[G]]
        better = gin & (cur > best + TIE * np.maximum(best, 1.0))
        if not better.any():
            break
        first = _first_within(q, best, group_of, B * L)
        policy[better] = first[better]
        m = evaluate(policy)
    # the plan reported: the first listed within TIE of the minimum; m of exactly that policy
    q, best = greedy(m)
    first = _first_within(q, best, group_of, B * L)
    policy[G] = first[G]
    m = evaluate(policy)
    # outside F: towards the nearest kill by any plan (every play's mean is infinite there)
    out = ~gin & (near_any >= 0)
    policy[out] = near_any[out]
    action = np.where(policy >= 0, policy // L, -1).reshape(B, L)
    return m.reshape(K, L), F.reshape(K, L), dist.reshape(K, L), dist_any.reshape(K, L), action


def _key_rank(K: int, src: np.ndarray, dest: np.ndarray) -> np.ndarray:
    """Return a rank per key, each key before every key its plans lead to (Kahn's topological
    order of the key graph from ``src`` to ``dest``, moves to the same key left out); keys on a
    cycle keep their order of discovery after the rest."""
    moves = src != dest
    code = np.unique(src[moves] * K + dest[moves])  # (one int per edge: sorts as (src, dest) pairs do)
    edge = np.stack([code // K, code % K])
    indeg = np.bincount(edge[1], minlength=K)
    out_start = np.searchsorted(edge[0], np.arange(K + 1))
    rank = np.full(K, -1, dtype=np.int64)
    ready = list(np.flatnonzero(indeg == 0)[::-1])
    r = 0
    while ready:
        k = ready.pop()
        rank[k] = r
        r += 1
        for j in edge[1, out_start[k] : out_start[k + 1]].tolist():
            indeg[j] -= 1
            if indeg[j] == 0:
                ready.append(j)
    left = np.flatnonzero(rank < 0)
    rank[left] = r + np.arange(left.size)
    return rank


def _first_within(q: np.ndarray, best: np.ndarray, group_of: np.ndarray, n: int) -> np.ndarray:
    """Return per decision the first pair (in pair order) whose value ``q`` is within TIE of its
    decision's ``best`` (-1 where none is finite)."""
    near = np.isfinite(q) & (q <= best[group_of] + TIE * np.maximum(best[group_of], 1.0))
    return _first_pair(np.flatnonzero(near), group_of, n)


def _first_pair(pairs: np.ndarray, group_of: np.ndarray, n: int) -> np.ndarray:
    """Return per decision the smallest of ``pairs`` played at it (pairs of a decision are in the
    order its plans are listed), -1 where none is."""
    first = np.full(n, np.iinfo(np.int64).max, dtype=np.int64)
    np.minimum.at(first, group_of[pairs], pairs)
    return np.where(first == np.iinfo(np.int64).max, -1, first)
