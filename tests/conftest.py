"""Shared test settings: hypothesis profiles (CI runs a fixed, derandomised profile).

``HYPOTHESIS_PROFILE`` picks a profile by name: ``ci`` (what CI runs), ``dev`` (the default
locally) or ``long`` (10,000 examples per test, for a local run; see docs/limits.md). The hostile
input suite (tests/hostile/test_input.py, tests/io/test_hostile.py) runs 2,000 examples per entry
point under ``ci`` and ``dev`` and 10,000 under ``long``.
"""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=200, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", max_examples=10_000, deadline=None, suppress_health_check=list(HealthCheck))
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev"))
