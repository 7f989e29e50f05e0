# %% [markdown]
# # Rules Workbench
#
# See what an attack really does. Pick a **rule system** at the top, then on the **Damage** tab an
# attacker, its attack and a target: the chart shows every amount of damage the attack can deal and
# how likely each one is, exactly (no random sampling). **Pin this build** keeps it on screen while you
# try changes, with the differences in numbers.
#
# The other tabs: **Duel** lets the two creatures fight until one falls; **Compare** sets several
# attackers against several targets; **Build** edits the attack and searches for the best build
# within a budget; **Sweep** runs one number over a range; **Race** races two builds to the kill;
# **Variants** tries the rules' optional variants; **Encounter** sets a group against a group (how
# many foes make a fight deadly?). Open **Dice box** under a chart to type any dice (`3d6+2`,
# `4d6kh3`, `d20+7 >= 16`) and see them beside the attack.
#
# To show someone what you see, press **Copy link** at the bottom: the link reopens this setup, pins
# included. Nothing you change here changes the rules for anyone else.

# %%
import os

import workbench  # first: altair then imports 3 s faster (workbench/iri_stand_in.py)
import altair as alt

from workbench.widgets import Workbench, enable_offline
from workbench.widgets.app import setup_from_query
import saved_charts

# chart JavaScript from the installed packages, bundled once per install (without vl-convert, as
# in JupyterLite: from the CDN)
_ = alt.renderers.enable("jupyter", offline=enable_offline())

# %%
# NBVAL_IGNORE_OUTPUT
# a link made by "Copy link" opens the app on that setup and its pins (?setup=wb2:..., or an older wb1:...)
app = Workbench("annulus", setup=setup_from_query(os.environ.get("QUERY_STRING")))
# shown live once it runs; until then (GitHub, nbviewer, Lab on open) a picture of it and a sentence
saved_charts.with_picture(app, "../docs/screenshots/app.png",
                          "The Workbench app: run the notebook (or open it in Voilà) to use it; until then, a picture of it.")
