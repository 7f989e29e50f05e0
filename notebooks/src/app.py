# %% [markdown]
# Pick a rule system, then an attack, an attacker and a target: the **Damage** tab shows the exact
# damage distribution. **Duel** pits the two creatures against each other until one falls,
# **Compare** sets the catalog's attacks against its creatures, **Build** assembles an attack
# set. Every number is exact where the maths can be. (`python3 tasks.py app` shows this app alone,
# in Voilà; the notebooks in this folder explain the rules behind it.)

# %%
import os

import workbench  # first: altair then imports 3 s faster (workbench/iri_stand_in.py)
import altair as alt

from widgets import Workbench, enable_offline
from widgets.app import setup_from_query
import saved_charts

# chart JavaScript from the installed packages, bundled once per install (without vl-convert, as
# in JupyterLite: from the CDN)
_ = alt.renderers.enable("jupyter", offline=enable_offline())

# %%
# NBVAL_IGNORE_OUTPUT
# a link made by "Get code" on the whole setup opens the app on that setup (?setup=wb1:...)
app = Workbench("annulus", setup=setup_from_query(os.environ.get("QUERY_STRING")))
# shown live once it runs; until then (GitHub, nbviewer, Lab on open) a picture of it and a sentence
saved_charts.with_picture(app, "../docs/screenshots/app.png",
                          "The Workbench app: run the notebook (or open it in Voilà) to use it; until then, a picture of it.")
