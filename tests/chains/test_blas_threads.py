"""One BLAS thread inside the engine (issue 38, item 3): ``workbench.chains.one_blas_thread`` and the
calls that run under it; the numbers are the same with and without it."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from threadpoolctl import threadpool_info, threadpool_limits

import workbench as wb
import workbench.chains as chains


def _blas_threads() -> list[int]:
    return [lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"]


@pytest.fixture
def two_blas_threads():
    """BLAS at two threads for the test (as OpenBLAS's default on a 2-core machine)."""
    if not _blas_threads():
        pytest.skip("no BLAS library that threadpoolctl controls")
    with threadpool_limits(2, user_api="blas"):
        yield


def test_one_blas_thread_limits_and_restores(two_blas_threads):
    before = _blas_threads()
    with chains.one_blas_thread():
        assert set(_blas_threads()) == {1}
        with chains.one_blas_thread():  # nested: nothing more to do
            assert set(_blas_threads()) == {1}
        assert set(_blas_threads()) == {1}
    assert _blas_threads() == before
    with chains.one_blas_thread(False):
        assert _blas_threads() == before


def test_the_engine_runs_one_blas_thread(two_blas_threads, monkeypatch):
    """kill_chains (more than one row), by_round_from_steps, kill_stats and the bounded public calls
    (compare, rounds_to_kill, duel) run their products on one BLAS thread."""
    seen: list[list[int]] = []
    real_hp, real_steps = chains._hp_chains, chains._by_round_from_steps

    def hp_chains(*a, **k):
        seen.append(_blas_threads())
        return real_hp(*a, **k)

    def steps(*a, **k):
        seen.append(_blas_threads())
        return real_steps(*a, **k)

    monkeypatch.setattr(chains, "_hp_chains", hp_chains)
    monkeypatch.setattr(chains, "_by_round_from_steps", steps)
    x = np.array([0.2, 0.3, 0.5])
    chains.kill_chains(x, np.array([5, 9, 40]))
    chains.by_round_from_steps(np.array([[0.5, 0.5]]), np.array([0.5]), 10)
    d = wb.Dist.die(6)
    wb.rounds_to_kill(d, hp=20)
    assert len(seen) == 3 and all(set(s) == {1} for s in seen)
    assert _blas_threads() == [2] * len(_blas_threads())


def test_by_round_from_steps_same_numbers_either_way():
    rng = np.random.default_rng(3)
    steps = rng.random((300, 40))
    steps /= steps.sum(axis=1, keepdims=True)
    p = rng.choice([0.25, 0.5, 0.9], 300)
    with threadpool_limits(2, user_api="blas"):
        a = chains.by_round_from_steps(steps, p, 200)
    with threadpool_limits(1, user_api="blas"):
        b = chains.by_round_from_steps(steps, p, 200)
    np.testing.assert_allclose(a, b, rtol=0, atol=1e-15)


def test_a_blas_loaded_later_is_limited_too():
    """scipy.sparse.linalg (the fight's LU) loads scipy's own OpenBLAS beside numpy's: the controls
    are found again once it is imported, so both run one thread."""
    code = (
        "import numpy as np; from threadpoolctl import threadpool_info, threadpool_limits\n"
        "import workbench.chains as chains\n"
        "with threadpool_limits(2, user_api='blas'):\n"
        "    with chains.one_blas_thread(): pass\n"
        "    import scipy.sparse.linalg\n"
        "    threadpool_limits(2, user_api='blas')\n"
        "    with chains.one_blas_thread():\n"
        "        print(sorted(i['num_threads'] for i in threadpool_info() if i['user_api'] == 'blas'))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out and set("".join(out).strip("[]").split(",")) == {"1"}
