"""Bounds on sizes the rules never need, so that no input makes the workbench work without end.

Each bound sits well above the largest value of the rules texts (/work/shared/rules) and of the
published stat lines (/work/shared/data and workbench/catalog); a value past it raises
RulesError naming the field and citing ``LIMITS`` (the table is in docs/limits.md, which
tests/hostile/test_input.py checks against these numbers).
"""

from __future__ import annotations

__all__ = [
    "LIMITS",
    "MAX_NAME",
    "MAX_TEXT",
    "MAX_LIST",
    "MAX_HP",
    "MAX_CHAIN_HP",
    "MAX_OUTCOME",
    "MAX_SUPPORT",
    "MAX_POOL_DICE",
    "MAX_KEEP_DICE",
    "MAX_MIXTURE",
    "MAX_FILE_BYTES",
    "MAX_SHARE_CODE",
    "MAX_DOCUMENT_BYTES",
    "MAX_NESTING",
    "MAX_ITEMS",
    "MAX_ROUNDS",
    "MAX_FIGHTS",
    "MAX_PLAN",
    "MAX_SEED",
    "MAX_SECONDS",
    "MAX_MATCHUPS",
    "MAX_SIM_FIGHTS",
    "MAX_FIGHT_ROUNDS",
    "MAX_STATE_ROW_FIGHTS",
    "MAX_GROUP_ROW_FIGHTS",
    "MAX_COMBINATIONS",
    "MAX_EXPLORE_ROWS",
    "MAX_TABLE_CELLS",
    "MAX_COMPARE_ROWS",
    "MAX_CHAIN_CELLS",
    "MAX_VARY",
    "MAX_TOP_K",
    "BUDGET",
]

#: the rule cited by every RulesError for a value past one of these bounds
LIMITS = "docs/limits.md: sizes the rules never need"

# ------------------------------------------------------------------ every system
MAX_NAME = 200  #: characters of a name (longest published: 46)
MAX_TEXT = 500  #: characters of other text: statuses, tags, sources (longest published source: ~80)
MAX_LIST = 50  #: entries of a list of names (tags, immunities, damage types)
MAX_HP = 1000  #: hit points (largest published: 155 Last Odyssey health, 150 Unbound)
MAX_CHAIN_HP = 100_000  #: HP of the chain of a custom per-turn Dist (rounds_to_kill(turn, hp=), duels of Dists):
#: 100,000 HP runs in under 1.5 s (benchmarks/README.md)

# ------------------------------------------------------------------ distributions (workbench.dist)
MAX_OUTCOME = 10**12  #: |outcome| of a Dist (far inside int64, so sums and products never wrap)
MAX_SUPPORT = 10**7  #: outcomes of one Dist's range (80 MB of float64)
MAX_POOL_DICE = 1000  #: dice of Dist.pool / trials of Dist.binomial (float binomial coefficients stay finite)
MAX_KEEP_DICE = 50  #: dice of Dist.highest / lowest keeping 2 or more (an n^2 walk per face)
MAX_MIXTURE = 10_000  #: components of Dist.mixture

# ------------------------------------------------------------------ files and share codes (workbench.io)
MAX_FILE_BYTES = 1 << 20  #: 1 MiB: a file of every catalog creature is under 100 KB
MAX_SHARE_CODE = 64 * 1024  #: characters of a share code
MAX_DOCUMENT_BYTES = 1 << 20  #: 1 MiB of JSON inflated from a share code
MAX_NESTING = 32  #: nesting of tables and lists in a file or code (a model needs 4)
MAX_ITEMS = 1000  #: models in one file or code

# ------------------------------------------------------------------ fights (workbench.combat, workbench.simulate)
MAX_ROUNDS = 10_000  #: max_rounds of rounds_to_kill, duel and compare (rounds_to_kill's default)
MAX_FIGHTS = 10_000_000  #: simulated fights of one duel or rounds_to_kill (about 1.5 GB of state at the bound)
MAX_PLAN = 50  #: attacks listed in one plan
MAX_SEED = 2**128  #: seeds are whole numbers 0 <= seed < 2**128 (numpy's SeedSequence takes any)

# ------------------------------------------------------------------ bounded work (docs/limits.md, Bounded work)
#: the rule cited by a refusal of long work
BUDGET = "docs/limits.md: bounded work"
#: the seconds on the reference machine that the counted bounds below correspond to (calibrated by
#: benchmarks/bench_work.py; docs/limits.md, Bounded work): information only, no clock decides
MAX_SECONDS = 10.0
#: The rates in brackets are the slowest measured on the reference machine (2 cores, load 3,
#: benchmarks/bench_work.py, 2026-12-04); each bound is about MAX_SECONDS of that rate, rounded down.
#:
#: work units of compare's distinct matchups (each weighted by its system's cost, comparison.
#: matchup_weight, + 1 per 5 rows), summed over a call: compare, and a sweep's or variants'
#: compares together [9.4e-5 s a unit, Annulus 11 x 11]
MAX_MATCHUPS = 100_000
#: simulated fights one duel or rounds_to_kill may need (its ``fights``) [1.7e-6 s a fight, Ogre vs Drake]
MAX_SIM_FIGHTS = 5_000_000
#: fight-rounds a simulation plays (its undecided fights summed over its rounds): counted while it
#: runs, the same on every machine since the fights are seeded [about 4e-7 s each, Ogre vs Drake]
MAX_FIGHT_ROUNDS = 25_000_000
#: compare's rows whose fight carries state x its ``fights``, counted once the turn tables are built
#: and before any fight: each such row is chained over its state or simulated [4.3e-6 s each,
#: Annulus 8 x 8: 8.6 ms a row at compare's 2,000 fights]
MAX_STATE_ROW_FIGHTS = 2_000_000
#: compare's and explore's rows against a group ("3 x Wolf") x the copies in it x ``fights``: each is
#: a passive group fight of every copy, ten times a row-fight's cost [measured beside 8 CPU burners
#: (load 12.5): 4.4e-4 s each for explore budget 2 vs 3 x Wolf, 1.4e-4 for compare Ogre vs 3 x Wolf,
#: 4.0e-5 for a row-fight (4.3e-6 idle); scaled by that, about 4.7e-5 s idle: 10 s buys 213,000]
MAX_GROUP_ROW_FIGHTS = 200_000
#: combinations explore(budget=) walks [7.5e-6 s each, Annulus budget 6]
MAX_COMBINATIONS = 1_000_000
#: builds x targets explore evaluates [2.8e-4 s each, Annulus budget 5 x 3 targets]
MAX_EXPLORE_ROWS = 35_000
#: cells (rows x damage outcomes) of one Unbound outcome table, counted before it is allocated
#: [about 1.5e-7 s a cell to build, and as much again to sum a turn's uses: 8 weapons of 100d100+50
#: in one turn's plans are 45 M cells, 8 s for the turn and 40 s for a duel; 4 of them 5.1 M, 1 s]
MAX_TABLE_CELLS = 8_000_000
#: rows of one compare frame past which compare asks (confirm=True), whatever the estimate
MAX_COMPARE_ROWS = 1_000_000
#: rows x max_rounds of compare(chain=True)'s list column past which compare asks (400 MB of float64)
MAX_CHAIN_CELLS = 50_000_000
#: values of one varied field of explore(vary=...), and combinations of all of them
MAX_VARY = 100_000
MAX_TOP_K = MAX_COMPARE_ROWS  #: top_k of explore: rows kept per target (a frame past it is refused anyway)
