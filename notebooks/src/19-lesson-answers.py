# %% [markdown]
# # Teacher's notebook: the lessons' answers
#
# The answers to the exercises of the lessons (notebooks 10 to 16), each with its reason, and the
# same check the students run, here given the right answer. Every answer is computed by the workbench
# when this notebook runs, so it always matches the lessons (if a rule's default changes, so does the
# answer). Keep this notebook away from the students' copies.
#
# The exercises and their computations are in `lesson_exercises.py`, next to the notebooks.

# %%
import workbench as wb  # noqa: F401  (first: altair then imports faster)

from IPython.display import display

from classroom import ask, check, solution
import lesson_exercises  # noqa: F401  (registers the exercises)

# %% [markdown]
# ## Lesson 10: Annulus
#
# Talking points: each point of defense takes one success off every hit; each advantage is one more
# die, so it matters most when the pool is small; a condition lasts more than one recovery check on
# average (section 4 of the lesson computes how many).

# %%
for key in ("10.1", "10.2", "10.3"):
    display(ask(key))
    check(key, solution(key))

# %% [markdown]
# ## Lesson 11: Unbound (d20)
#
# Talking points: the natural 1 and 20 keep every chance to hit away from 0 and from certainty; a +2
# is always two faces of the d20, while advantage helps most near an even chance; two-weapon fighting trades accuracy
# on every attack for one more attack.

# %%
for key in ("11.1", "11.2", "11.3"):
    display(ask(key))
    check(key, solution(key))

# %% [markdown]
# ## Lesson 12: Last Odyssey
#
# Talking points: on the hit die low is good, so the biggest hits are the least likely; a Shell makes
# spells the right tool; the element table can multiply damage up or down several times over.

# %%
for key in ("12.1", "12.2", "12.3"):
    display(ask(key))
    check(key, solution(key))

# %% [markdown]
# ## Lesson 13: Glass Empires
#
# Talking points: the bands make 7 a "half hit", and a natural 12 or 2 overrides every modifier; armor
# points soak 2 damage each, so light weapons are stopped first; extra Strikes wear armor down for
# the Strikes after them.

# %%
for key in ("13.1", "13.2"):
    display(ask(key))
    check(key, solution(key))

# %% [markdown]
# ## Lesson 14: duels
#
# Talking points: a duel is decided by damage per turn against hit points on both sides, and by the
# order of the turns; a coin toss for the first turn gives the average of the two orders; a few hit
# points can move the favourite.

# %%
for key in ("14.1", "14.2"):
    display(ask(key))
    check(key, solution(key))

# %% [markdown]
# ## Lesson 15: designing with the numbers
#
# Talking points: the best set for a budget is found by trying every legal one, not by intuition;
# the ranking counts damage only (Reckless's cost to its user is not subtracted); a rule variant
# changes fighters by different amounts, so it changes who is strongest, not only how strong.

# %%
for key in ("15.1", "15.2"):
    display(ask(key))
    check(key, solution(key))

# %% [markdown]
# ## Lesson 16: encounters
#
# Talking points: in a group every living creature acts each round, so numbers count twice (more
# attacks, and foes felled early stop attacking); going first matters most when a side's turns come
# together; a rule that helps only the bigger side (flanking) can swap the favourite; Glass Empires'
# refund makes a kill worth a whole extra Attack; an exact answer counts every way the fight goes,
# a simulated one comes with its standard error; one foe more can turn a safe fight into a deadly one.

# %%
for key in ("16.1", "16.2", "16.3"):
    display(ask(key))
    check(key, solution(key))
