"""Shared test settings: hypothesis profiles (CI runs a fixed, derandomised profile).

``HYPOTHESIS_PROFILE`` picks a profile by name: ``ci`` (what CI runs), ``dev`` (the default
locally) or ``long`` (10,000 examples per test, for a local run; see docs/limits.md). The hostile
input suite (tests/hostile/test_input.py, tests/io/test_hostile.py) runs 2,000 examples per entry
point under ``ci`` and ``dev`` and 10,000 under ``long``.
"""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    max_examples=200,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", max_examples=10_000, deadline=None, suppress_health_check=list(HealthCheck))
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev"))


import pytest  # noqa: E402


@pytest.fixture
def state_too_large(monkeypatch):
    """Every catalog fight's state fits its chain now, so a test of what a *simulated* figure shows
    (its method, standard error, forced_by) makes the state too large for the chain: the bounds on
    the keys a chain may meet (workbench.state_chain.MAX_KEYS and the duel's MAX_CELLS,
    workbench.fight.duel) set to 0, as a
    fight past them would be. The fights then take the simulation, as a user's larger fight does."""
    import importlib

    monkeypatch.setattr("workbench.state_chain.MAX_KEYS", 0)
    monkeypatch.setattr(importlib.import_module("workbench.fight.duel"), "MAX_CELLS", 0)


@pytest.fixture(autouse=True)
def _no_whole_results_from_other_tests():
    """Each test starts without the whole results of earlier tests' calls (workbench.memo.CALLS: a
    repeated identical compare answers from it), so a test that changes a bound or spies on a step
    sees its own call run; the tables and chains in MEMO stay, as in one session."""
    from workbench.memo import CALLS

    CALLS.clear()
