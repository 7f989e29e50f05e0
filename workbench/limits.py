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
    "MAX_RUN_SECONDS",
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
#: a call estimated to take longer than this many seconds says so and asks (confirm=True / --yes)
MAX_SECONDS = 10.0
#: work already running stops and asks after this long (a chain round or a simulated round checks
#: it), so that a call answers within MAX_SECONDS even on a loaded machine: the whole of a
#: ``duel`` / ``rounds_to_kill`` (arguments.bounded), compare's rows (fight_rows.ROWS_SECONDS)
MAX_RUN_SECONDS = 8.0
#: rows of one compare frame past which compare asks (confirm=True), whatever the estimate
MAX_COMPARE_ROWS = 1_000_000
#: rows x max_rounds of compare(chain=True)'s list column past which compare asks (400 MB of float64)
MAX_CHAIN_CELLS = 50_000_000
#: values of one varied field of explore(vary=...), and combinations of all of them
MAX_VARY = 100_000
MAX_TOP_K = MAX_COMPARE_ROWS  #: top_k of explore: rows kept per target (a frame past it is refused anyway)
