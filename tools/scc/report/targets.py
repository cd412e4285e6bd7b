"""Beyond the papers: the measures of libscc's targets
(experiments/report/targets.toml) and their verdict. A target's measure
gets {experiment name: its results table}, the [origin.OP] tables of the
target's collectives (which algorithm is RCCE_comm's, the papers', ours;
the experiment that ran them) and the target's [target.with] values, and
returns its lines: per size, ours (the best of every algorithm libscc
has, auto's choice among them), the papers' best, RCCE_comm's, the ratio,
what `auto` ran and whether the target is met there.
"""
from __future__ import annotations

import math

from scc.bench.tuning import spec_of
from scc.report.tables import MeasureError, results_of, where

# The same collective run again with every buffer in MPBT pages (coll_bench
# --mpbt both, an origin's mpbt_experiment), as a program chooses for its
# own buffers: alltoall `pull` reads the owners' DRAM only then. RCCE_comm's
# algorithm runs there too, so that the ratio on the same buffers is shown
# beside the target's.
MPBT = "MPBT buffers"


def on_mpbt(alg):
    """An algorithm's name in a table that holds both runs."""
    return f"{alg} ({MPBT})"


def all_algs(o: dict) -> list[str]:
    """Every algorithm of an origin table: RCCE_comm's, the papers', ours."""
    return o["rcce_comm"] + o["papers"] + o["ours"]


def table(dfs, experiment, col="median_us"):
    """{alg: {bytes: value}} of the points that ran, and what auto ran."""
    df = results_of(dfs, experiment)
    out: dict[str, dict[int, float]] = {}
    for alg in set(df["alg"].astype(str)):
        d = where(df, alg=alg)
        out[alg] = {int(b): float(v) for b, v in d.groupby("bytes")[col].median().items()}
    ran = {}
    a = where(df, alg="auto")
    if "algorithm" in a.columns:
        for b, g in a.groupby("bytes"):
            p = g["params"].iloc[0] if "params" in g.columns else None
            p = "" if p is None or (isinstance(p, float) and math.isnan(p)) else str(p).strip()
            ran[int(b)] = spec_of(str(g["algorithm"].iloc[0]), p)
    return out, ran


def _best(tab, algs, size, higher=False):
    have = [(tab[a][size], a) for a in algs if a in tab and size in tab[a]]
    if not have:
        return None, None
    return (max if higher else min)(have)


def line(op, o, size, tab, ran, *, higher=False, base_algs=None, more=()):
    """One line of @op (origin table @o): the best of each origin at @size,
    the ratio of RCCE_comm's to ours (a speed-up, whichever way the unit
    goes); @more: ours may also be these entries of @tab."""
    ours, ours_alg = _best(tab, all_algs(o) + ["auto", *more], size, higher)
    ours_key = ours_alg             # its entry in @tab, before auto is named
    if ours_alg == "auto":
        ours_alg = f"auto: {ran.get(size) or '?'}"
    if ours is None:
        raise MeasureError(f"{op}: no algorithm ran at {size} B")
    pap, pap_alg = _best(tab, o["rcce_comm"] + o["papers"], size, higher)
    rc, rc_alg = _best(tab, base_algs or o["rcce_comm"], size, higher)
    auto = tab.get("auto", {}).get(size)
    ratio = None
    if rc:
        ratio = ours / rc if higher else rc / ours
    return {"op": op, "bytes": size, "ours": ours, "ours_alg": ours_alg, "ours_key": ours_key,
            "papers": pap,
            "papers_alg": pap_alg, "rcce_comm": rc, "rcce_comm_alg": rc_alg, "ratio": ratio,
            "auto": auto, "auto_ran": ran.get(size, "")}


def same_buffers(op, o, size, tab, more):
    """The MPBT run's own comparison at @size: its best against RCCE_comm's
    algorithm on the same buffers."""
    ours, alg = _best(tab, more, size)
    rc, rc_alg = _best(tab, [on_mpbt(a) for a in o["rcce_comm"]], size)
    if ours is None or rc is None:
        return f"{size} B, {MPBT}: did not run"

    def us(v):
        return f"{v:,.0f}" if v >= 1000 else f"{v:.4g}"
    return (f"{size} B, {MPBT} on every member (--mpbt both): {alg.split(' (')[0]} "
            f"{us(ours)} us, RCCE_comm's {rc_alg.split(' (')[0]} {us(rc)} us: "
            f"{rc / ours:.2f}x on the same buffers")


# --- the measures ------------------------------------------------------------------------

def one_line_latency(dfs, origin, bytes, at_most_us):
    """The broadcast of one line: met at @at_most_us or less."""
    (op, o), = origin.items()
    tab, ran = table(dfs, o["experiment"])
    ln = line(op, o, bytes, tab, ran)
    ln["met"] = ln["ours"] <= at_most_us
    return [ln]


def best_peak_throughput(dfs, origin, at_least_mb_per_s, share, model_limit_mb_per_s):
    """Each algorithm's peak over the sizes run (bytes / median latency):
    met at @at_least_mb_per_s, or at @share of the model's own limit."""
    (op, o), = origin.items()
    tab, ran = table(dfs, o["experiment"], col="mb_per_s")
    peak = {a: {0: max(v.values())} for a, v in tab.items() if v}
    at = {a: max(v, key=v.get) for a, v in tab.items() if v}
    ln = line(op, o, 0, peak, {}, higher=True)
    ln["bytes"] = at[ln["ours_key"]]
    ln["auto_ran"] = ran.get(ln["bytes"], "")
    if ln["ours_key"] == "auto":    # what auto ran at its peak's size
        ln["ours_alg"] = f"auto: {ln['auto_ran'] or '?'}"
    ln["met"] = ln["ours"] >= at_least_mb_per_s or ln["ours"] >= share * model_limit_mb_per_s
    ln["note"] = (f"at {ln['bytes']} B; the model's limit {model_limit_mb_per_s:g} MB/s "
                  f"(ours is {ln['ours'] / model_limit_mb_per_s:.0%} of it)")
    return [ln]


def factor_over_baseline(dfs, origin, factor, baseline):
    """Ours over RCCE_comm's @baseline algorithm at every size it ran:
    met at @factor or more."""
    (op, o), = origin.items()
    tab, ran = table(dfs, o["experiment"])
    lines = []
    for size in sorted(tab.get(baseline, {})):
        ln = line(op, o, size, tab, ran, base_algs=[baseline])
        ln["met"] = ln["ratio"] is not None and ln["ratio"] >= factor
        lines.append(ln)
    if not lines:
        raise MeasureError(f"{op}: the {baseline} baseline did not run")
    return lines


def factor_over_rcce_comm(dfs, origin, factor):
    """Ours over the best of RCCE_comm's algorithms, each collective at
    every size those ran: met at @factor or more. Where a collective ran
    on MPBT buffers too, ours is the best of both runs, and a note gives
    the MPBT run's ratio on its own buffers."""
    lines = []
    for op, o in origin.items():
        tab, ran = table(dfs, o["experiment"])
        sizes = sorted({s for a in o["rcce_comm"] for s in tab.get(a, {})})
        if not sizes:
            raise MeasureError(f"{op}: no RCCE_comm baseline ran")
        more = []
        if "mpbt_experiment" in o:
            mt, _ = table(dfs, o["mpbt_experiment"])
            more = [on_mpbt(a) for a in mt]
            tab.update({on_mpbt(a): v for a, v in mt.items()})
        for size in sizes:
            ln = line(op, o, size, tab, ran, more=more)
            ln["met"] = ln["ratio"] is not None and ln["ratio"] >= factor
            if more:
                ln["note"] = same_buffers(op, o, size, tab, more)
            lines.append(ln)
    return lines


def judge(t, dfs: dict) -> dict:
    """One target: its lines, and met only if every line is."""
    row = {"id": t.id, "result": t.result, "goal": t.goal, "unit": t.unit, "lines": [],
           "why": ""}
    failed = [n for n, df in dfs.items() if (df["status"] != "ok").any()]
    try:
        row["lines"] = t.measure(dfs)
    except Exception as e:
        row.update(verdict="no result", why=f"{type(e).__name__}: {e}")
        return row
    row["verdict"] = "met" if all(ln["met"] for ln in row["lines"]) else "not met"
    if failed:
        row["why"] = "some points failed: " + ", ".join(failed)
    return row
