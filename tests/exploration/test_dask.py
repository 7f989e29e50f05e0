"""explore(executor=Client) runs its chunks as Dask tasks on a 2-worker LocalCluster and returns
the single-process result row for row, and writes the same dataset (issue 19 item 2)."""

from __future__ import annotations

import dask.distributed as distributed  # in the test extra (pyproject.toml): installed in CI
import polars as pl
import pytest

import workbench as wb
from workbench.exploration import explore

A = wb.system("annulus")
CAT = A.catalog()
TARGETS = [CAT.creature("Wolf"), CAT.creature("Hill Giant")]
ARGS = dict(targets=TARGETS, budget=3, top_k=3, chunk_size=25, progress=False)


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0")
    with distributed.Client(cluster) as c:
        yield c
    cluster.close()


def test_dask_equals_one_process_row_for_row(client, tmp_path):
    one = explore("annulus", **ARGS, output=tmp_path / "one")
    many = explore("annulus", **ARGS, executor=client, output=tmp_path / "dask")
    assert many.equals(one)
    assert one.height > 0 and one["pareto"].any()
    parts = sorted(p.name for p in (tmp_path / "one").glob("part-*.parquet"))
    assert parts == sorted(p.name for p in (tmp_path / "dask").glob("part-*.parquet")) and len(parts) > 2
    for name in parts:
        assert pl.read_parquet(tmp_path / "one" / name).equals(pl.read_parquet(tmp_path / "dask" / name)), name
    by_kill = explore("annulus", **ARGS, by="p_kill_one_turn", executor=client)
    assert by_kill.equals(explore("annulus", **ARGS, by="p_kill_one_turn"))


def test_a_bad_engine_or_executor_is_refused():
    with pytest.raises(wb.RulesError) as e:
        explore("annulus", **ARGS, engine="spark")
    assert e.value.field == "engine"
    with pytest.raises(wb.RulesError) as e:
        explore("annulus", **ARGS, executor="tcp://scheduler:8786")
    assert e.value.field == "executor"


def test_engine_dask_starts_and_closes_a_local_cluster():
    got = explore("annulus", targets=TARGETS[:1], budget=2, top_k=2, progress=False, engine="dask")
    assert got.equals(explore("annulus", targets=TARGETS[:1], budget=2, top_k=2, progress=False))


def test_a_choice_space_on_dask_equals_one_process(client):
    """The other systems' build spaces (RuleSystem.build_choices) run on the cluster unchanged: Glass
    Empires at budget 1 (316 builds) against the Creeping Cap and the Wolf, row for row."""
    G = wb.system("glass_empires")
    args = dict(targets=[G.catalog().creature("Creeping Cap"), G.catalog().creature("Wolf")], budget=1, top_k=3,
                chunk_size=40, progress=False)
    one = explore("glass_empires", **args)
    assert one.height > 0 and one["legal_sets"][0] == 316
    assert explore("glass_empires", **args, executor=client).equals(one)
