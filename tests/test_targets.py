"""The report's targets beyond the papers (experiments/report/targets.toml,
their measures in tools/scc/report/targets.py): which
number is ours, the papers' best and RCCE_comm's, the ratio and the
verdict, on results tables made here with expectations worked out by
hand; and that every target's experiments expand to runnable points."""
from __future__ import annotations

import pandas as pd
import pytest

from conftest import REPO
from scc.bench import experiment as xp
from scc.report import make
from scc.report import rows as data
from scc.report import targets as T

TARGETS = data.all_targets()
# which algorithm is whose, per collective (targets.toml's [origin.OP])
ORIGIN = {op: o for t in TARGETS for op, o in t.origin.items()}


def _df(op, times, col="median_us", ran=None):
    """A results table as scc-bench makes it, with a failed point that the
    measures must ignore. times: {alg: {bytes: value}}."""
    rows = []
    for alg, by in times.items():
        for b, v in by.items():
            r = {"alg": alg, "bytes": b, col: v, "status": "ok", "clock": "modeled",
                 "algorithm": alg.split(":")[0], "params": ""}
            if alg == "auto" and ran:
                r["algorithm"], r["params"] = ran[b]
            rows.append(r)
    rows.append({"alg": "binomial", "status": "failed", "why": "time limit"})
    return {f"targets-{op}": pd.DataFrame(rows)}


def _by(tid):
    return next(t for t in TARGETS if t.id == tid)


def test_one_line_takes_the_best_of_each_origin():
    dfs = _df("bcast", {"binomial": {32: 21.0}, "scatter_allgather": {32: 300.0},
                        "oc:k=7": {32: 16.0}, "dopl": {32: 18.0}, "logp": {32: 11.5},
                        "flat": {32: 35.0}, "auto": {32: 11.9}},
              ran={32: ("logp", "lat=2,chunk=60")})
    row = T.judge(_by("T1"), dfs)
    (ln,) = row["lines"]
    assert (ln["ours"], ln["ours_alg"]) == (11.5, "logp")
    assert (ln["papers"], ln["papers_alg"]) == (16.0, "oc:k=7")
    assert (ln["rcce_comm"], ln["rcce_comm_alg"]) == (21.0, "binomial")
    assert ln["ratio"] == pytest.approx(21.0 / 11.5)
    assert ln["auto"] == 11.9 and ln["auto_ran"] == "logp:lat=2,chunk=60"
    assert ln["met"] and row["verdict"] == "met"
    # 12.5 us is not under 12
    dfs["targets-bcast"].loc[dfs["targets-bcast"]["alg"] == "logp", "median_us"] = 12.5
    dfs["targets-bcast"].loc[dfs["targets-bcast"]["alg"] == "auto", "median_us"] = 12.6
    assert T.judge(_by("T1"), dfs)["verdict"] == "not met"


def test_auto_counts_as_ours_with_what_it_ran():
    dfs = _df("reduce_scatter", {"bucket": {8: 312.0}, "bucket_relaxed": {8: 240.0},
                                 "auto": {8: 203.0}}, ran={8: ("reduce", "")})
    o = ORIGIN["reduce_scatter"]
    ln = T.line("reduce_scatter", o, 8, *T.table(dfs, "targets-reduce_scatter"))
    assert (ln["ours"], ln["ours_alg"]) == (203.0, "auto: reduce")
    assert ln["papers_alg"] == "bucket_relaxed"
    assert ln["ratio"] == pytest.approx(312.0 / 203.0)


def test_peak_is_each_algorithms_best_size_and_meets_by_the_models_limit():
    # 44.5 MB/s: under 45, but 91 % of the model's 49 MB/s
    dfs = _df("bcast", {"scatter_allgather": {65536: 14.0, 1048576: 12.0},
                        "oc:k=7": {65536: 35.0, 1048576: 32.0},
                        "flat": {65536: 41.0, 1048576: 44.5}}, col="mb_per_s")
    row = T.judge(_by("T2"), dfs)
    (ln,) = row["lines"]
    assert (ln["ours"], ln["ours_alg"], ln["bytes"]) == (44.5, "flat", 1048576)
    assert (ln["papers"], ln["rcce_comm"]) == (35.0, 14.0)
    assert ln["ratio"] == pytest.approx(44.5 / 14.0)
    assert row["verdict"] == "met"
    dfs["targets-bcast"].loc[dfs["targets-bcast"]["alg"] == "flat", "mb_per_s"] = 43.0
    assert T.judge(_by("T2"), dfs)["verdict"] == "not met"      # 88 % of 49


def test_allreduce_is_held_to_bucket_at_every_size():
    dfs = _df("allreduce", {"bucket": {8: 350.0, 4096: 1500.0},
                            "reduce_bcast": {8: 40.0, 4096: 900.0},
                            "inmpb": {8: 60.0, 4096: 500.0}, "hybrid": {8: 70.0, 4096: 650.0}})
    row = T.judge(_by("T3"), dfs)
    a, b = row["lines"]
    # at 8 B RCCE_comm's own reduce_bcast is the best of all: the ratio is
    # still over bucket, as the target says
    assert (a["bytes"], a["ours_alg"], a["ratio"]) == (8, "reduce_bcast", pytest.approx(8.75))
    assert (b["ours_alg"], b["ratio"]) == ("inmpb", pytest.approx(3.0))
    assert row["verdict"] == "met"
    dfs["targets-allreduce"].loc[dfs["targets-allreduce"]["alg"] == "inmpb", "median_us"] = 700.0
    # 4096 B: 1500 / 650 (hybrid) = 2.3 < 2.5
    assert T.judge(_by("T3"), dfs)["verdict"] == "not met"


def test_other_five_take_rcce_comms_best_as_the_baseline():
    dfs = {}
    for op in ("allgather", "alltoall", "reduce_scatter"):
        dfs.update(_df(op, {ORIGIN[op]["rcce_comm"][0]: {8: 320.0},
                            ORIGIN[op]["papers"][0]: {8: 200.0}}))
    # reduce: RCCE_comm's binomial beats its bucket and everything else
    dfs.update(_df("reduce", {"binomial": {8: 19.0}, "bucket": {8: 40.0},
                              "bucket_relaxed": {8: 25.0}}))
    dfs.update(_df("bcast", {"binomial": {32: 21.0}, "scatter_allgather": {32: 300.0},
                             "logp": {32: 11.0}}))
    dfs.update(_df("alltoall-mpbt", {"blocking:order=1": {8: 300.0}, "pull": {8: 250.0}}))
    row = T.judge(_by("T4"), dfs)
    got = {ln["op"]: ln for ln in row["lines"]}
    assert set(got) == {"allgather", "alltoall", "reduce", "reduce_scatter", "bcast"}
    assert got["allgather"]["ratio"] == pytest.approx(1.6) and got["allgather"]["met"]
    assert got["reduce"]["rcce_comm_alg"] == "binomial" and got["reduce"]["ratio"] == 1.0
    assert not got["reduce"]["met"] and row["verdict"] == "not met"
    assert got["bcast"]["ratio"] == pytest.approx(21.0 / 11.0)


def test_alltoall_on_mpbt_buffers_counts_as_ours_against_rcce_comm_on_plain_ones():
    """Ours is the best of the plain run and the MPBT run; RCCE_comm's
    baseline stays the plain run (004's); the note gives the MPBT run's
    own ratio, RCCE_comm's algorithm on the same buffers over its best.
    Without the MPBT run the target has no result, not a plain-only one."""
    dfs = _df("alltoall", {"blocking:order=1": {4096: 10700.0, 16384: 36800.0},
                           "pairwise_relaxed": {4096: 7400.0, 16384: 27400.0},
                           "auto": {4096: 7500.0, 16384: 27500.0}},
              ran={4096: ("pairwise_relaxed", ""), 16384: ("pairwise_relaxed", "")})
    dfs.update(_df("alltoall-mpbt", {"blocking:order=1": {4096: 8200.0, 16384: 25700.0},
                                     "pull": {4096: 2900.0, 16384: 30000.0}}))
    o = ORIGIN["alltoall"]
    tab, ran = T.table(dfs, o["experiment"])
    mt, _ = T.table(dfs, o["mpbt_experiment"])
    more = [f"{a} ({T.MPBT})" for a in mt]
    tab.update({f"{a} ({T.MPBT})": v for a, v in mt.items()})
    a = T.line("alltoall", o, 4096, tab, ran, more=more)
    assert (a["ours"], a["ours_alg"]) == (2900.0, f"pull ({T.MPBT})")
    assert (a["rcce_comm"], a["rcce_comm_alg"]) == (10700.0, "blocking:order=1")
    assert a["ratio"] == pytest.approx(10700.0 / 2900.0)
    assert "2.83x on the same buffers" in T.same_buffers("alltoall", o, 4096, tab, more)
    # at 16 KiB the plain run's pairwise_relaxed is the best: still ours
    b = T.line("alltoall", o, 16384, tab, ran, more=more)
    assert (b["ours"], b["ours_alg"]) == (25700.0, f"blocking:order=1 ({T.MPBT})")
    del dfs["targets-alltoall-mpbt"]
    dfs.update(_df("allgather", {"bucket": {8: 320.0}}))
    dfs.update(_df("reduce", {"binomial": {8: 19.0}}))
    dfs.update(_df("reduce_scatter", {"bucket": {8: 320.0}}))
    dfs.update(_df("bcast", {"binomial": {32: 21.0}}))
    row = T.judge(_by("T4"), dfs)
    assert row["verdict"] == "no result" and "targets-alltoall-mpbt" in row["why"]


def test_a_missing_experiment_is_no_result_not_a_crash():
    row = T.judge(_by("T3"), {"targets-allreduce": pd.DataFrame(
        [{"alg": "bucket", "status": "failed", "why": "time limit"}])})
    assert row["verdict"] == "no result" and row["lines"] == []


@pytest.mark.parametrize("quick", [False, True])
def test_target_experiments_expand_on_48_cores(quick):
    """Each collective's experiment sweeps every algorithm of its origin
    table and auto (quick: some of them); its MPBT run, RCCE_comm's and
    pull, on MPBT buffers."""
    specs = make.specs([], TARGETS, quick)
    runs = {o["experiment"]: (op, False) for op, o in ORIGIN.items()}
    runs.update({o["mpbt_experiment"]: (op, True) for op, o in ORIGIN.items()
                 if "mpbt_experiment" in o})
    assert set(specs) == set(runs)
    for name, spec in specs.items():
        op, mpbt = runs[name]
        assert spec["experiment"]["mode"] == "timing" and spec["experiment"]["cores"] == "0-47"
        algs = spec["sweep"]["alg"]
        assert ORIGIN[op]["rcce_comm"][0] in algs
        if mpbt:
            assert spec["args"]["mpbt"] == "both" and "pull" in algs
        elif quick:
            assert "auto" in algs and set(algs) <= set(T.all_algs(ORIGIN[op])) | {"auto"}
        else:
            assert algs == T.all_algs(ORIGIN[op]) + ["auto"]
        exp = xp.expand(spec)
        assert exp.points
        for p in exp.points:
            assert p.app.endswith(".elf") and (REPO / "apps").is_dir()
