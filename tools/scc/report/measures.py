"""The measures of the papers' rows (experiments/report/rows.toml): each
computes one row's number from {experiment name: its results table}, with
the row's [row.with] values as keyword arguments (`experiment`: the row's
only experiment, unless the row names one). A row names its measure;
rows of one kind share one (memcpy_peak: rows 12c-12f), so a new row of
a kind here needs no Python. Each is named after what it measures.
"""
from __future__ import annotations

import math

from scc.report.tables import (MeasureError, at, geomean, geomean_speedup, one, peak,
                               results_of, where)

# The model's caches (docs/timing.md): the levels a buffer size falls in.
L1_BYTES, L2_BYTES = 8 << 10, 256 << 10


def _worst(ratios) -> float:
    """The ratio farthest from 1, in either direction (the first of equals)."""
    return max(ratios, key=lambda r: abs(math.log(r)))


# --- broadcasts: latency, throughput ---------------------------------------------------

def latency_at(dfs, experiment, alg, bytes):
    """The median latency (us) of @alg at @bytes."""
    return at(dfs, experiment, "median_us", alg=alg, bytes=bytes)


def peak_throughput(dfs, experiment, alg):
    """The highest MB/s of @alg over the sizes run."""
    return peak(dfs, experiment, "mb_per_s", alg=alg)


def throughput_ratio_at(dfs, experiment, alg, over, bytes):
    """MB/s of @alg over MB/s of @over, at @bytes."""
    return (peak(dfs, experiment, "mb_per_s", alg=alg, bytes=bytes)
            / peak(dfs, experiment, "mb_per_s", alg=over, bytes=bytes))


def less_time_percent(dfs, experiment, alg, than, bytes):
    """How much less time @alg takes than @than, in percent of @than's,
    averaged over the sizes of @bytes that both ran."""
    df = results_of(dfs, experiment)
    out = []
    for size in bytes:
        a = where(df, alg=alg, bytes=size)
        b = where(df, alg=than, bytes=size)
        if len(a) and len(b):
            ta, tb = one(a, alg, "median_us"), one(b, than, "median_us")
            out.append(100.0 * (tb - ta) / tb)
    if not out:
        raise MeasureError(f"no size of {bytes} that both {alg} and {than} ran")
    return sum(out) / len(out)


def time_fraction(dfs, experiment, alg, of, bytes, column="median_us"):
    """@alg's time as a fraction of @of's, at @bytes: the median latency
    (until the last member returns), or @column's (root_us: the root's
    own call time, what a paper that timed only the root measured)."""
    t = at(dfs, experiment, column, alg=alg, bytes=bytes)
    s = at(dfs, experiment, column, alg=of, bytes=bytes)
    return t / s


# --- speed-ups of one algorithm over another -----------------------------------------

def _sizes(bytes=None, min_bytes=None, max_bytes=None):
    """The sizes a speed-up takes: those of @bytes, and/or in [min, max]."""
    if bytes is None and min_bytes is None and max_bytes is None:
        return None
    return lambda s: ((bytes is None or s in bytes)
                      and (min_bytes is None or s >= min_bytes)
                      and (max_bytes is None or s <= max_bytes))


def speedup(dfs, experiment, base, opt, column="median_us", bytes=None, min_bytes=None,
            max_bytes=None):
    """t(@base) / t(@opt) (@column, the median latency unless it says
    otherwise), geometric mean over the sizes both ran (those of @bytes, or
    from @min_bytes to @max_bytes, if given)."""
    return geomean_speedup(dfs, experiment, base, opt, col=column,
                           sizes=_sizes(bytes, min_bytes, max_bytes))


def speedup_geomean(dfs, experiment, base, opts, column="median_us", bytes=None,
                    min_bytes=None, max_bytes=None):
    """The geometric mean of @base's speed-ups over each of @opts."""
    sizes = _sizes(bytes, min_bytes, max_bytes)
    return geomean([geomean_speedup(dfs, experiment, base, o, col=column, sizes=sizes)
                    for o in opts])


def smallest_speedup(dfs, pairs):
    """The smallest of the speed-ups {experiment: [base, opt]} (each a
    geometric mean over its sizes)."""
    return min(geomean_speedup(dfs, name, base, opt) for name, (base, opt) in pairs.items())


def largest_speedup(dfs, pairs):
    """The largest of the speed-ups {experiment: [base, opt]}."""
    return max(geomean_speedup(dfs, name, base, opt) for name, (base, opt) in pairs.items())


# --- 001's Table 1: calibrate's fit ------------------------------------------------------

def fitted_parameter(dfs, experiment, param):
    """calibrate's fitted parameter (its first table: param,modeled_us,...), in us."""
    return at(dfs, experiment, "modeled_us", param=param)


def fitted_parameters_worst_ratio(dfs, experiment, published):
    """The ratio ours / published farthest from 1 over the parameters
    {name: published us}."""
    return _worst([fitted_parameter(dfs, experiment, p) / v for p, v in published.items()])


def mpbt_line_read_cycles(dfs, experiment, core_hz):
    """o_r of a 32-byte MPBT line at the smallest distance (the local MPB,
    001's d = 1): o_mpb + 2 L_hop, in cycles of a core of @core_hz."""
    o = fitted_parameter(dfs, experiment, "o_mpb") + 2 * fitted_parameter(dfs, experiment,
                                                                          "L_hop")
    return o * core_hz / 1e6


# --- 001 section 3.3: MPB contention ------------------------------------------------------

def _contention_all(dfs, experiment, op, cores):
    """mpb_contention's row over the cores (core "all") of op at n cores."""
    df = where(results_of(dfs, experiment), op=op, cores=cores, core="all")
    if len(df) == 0:
        raise MeasureError(f"{experiment}: no {op} row for {cores} cores")
    return df


def _spread(dfs, experiment, op, cores):
    """Slowest / fastest core of @op at @cores cores."""
    df = _contention_all(dfs, experiment, op, cores)
    return (one(df, f"{op} at {cores}", "max_us")
            / one(df, f"{op} at {cores}", "min_us"))


# 001 section 3.3's four findings, as ratios whose published value is known:
# (what, published, ours from mpb_contention's rows)
MPB_FINDINGS = (
    ("no contention up to 24 cores (largest slowdown against alone, get or put)", 1.0,
     lambda dfs, e: max(one(_contention_all(dfs, e, op, 24), f"{op} at 24", "slowdown")
                        for op in ("get", "put"))),
    ("48 cores, get of 128 lines: slowest / fastest core > 2", 2.0,
     lambda dfs, e: _spread(dfs, e, "get", 48)),
    ("48 cores, put of 1 line: slowest / fastest core > 4", 4.0,
     lambda dfs, e: _spread(dfs, e, "put", 48)),
    ("a link loaded by 44 cores' gets: no slowdown", 1.0,
     lambda dfs, e: at(dfs, e, "slowdown", op="link_loaded")),
)


def mpb_contention_worst_ratio(dfs, experiment):
    """The ratio ours / 001 farthest from 1 over MPB_FINDINGS."""
    return _worst([f(dfs, experiment) / pub for _, pub, f in MPB_FINDINGS])


# --- interrupts and notification ---------------------------------------------------------

def round_trip_spread(dfs, experiment):
    """ipi_latency's largest mean round trip over its smallest, over the
    distances (hops)."""
    df = where(results_of(dfs, experiment), peer="all", kind="rtt")
    if df["hops"].nunique() < 2:
        raise MeasureError(f"{experiment}: round trips at fewer than two distances")
    per_hop = df.groupby("hops")["mean"].mean()
    return float(per_hop.max() / per_hop.min())


def trap_cycles(dfs, experiment):
    """ipi_latency's mean trap cost (kind trap) over the distances, in cycles."""
    df = where(results_of(dfs, experiment), peer="all", kind="trap")
    if len(df) == 0:
        raise MeasureError(f"{experiment}: no trap rows")
    return float(df["mean"].astype(float).mean())


def _scheme_key(df):
    """notify_pingpong's scheme with its parameters ("rcce:framed=1"): the
    app's own scheme and params columns (scc-bench renames the swept
    parameter of the same name to param_scheme)."""
    out = []
    for s, p in zip(df["scheme"].astype(str), df.get("params", [""] * len(df))):
        p = "" if p is None or (isinstance(p, float) and math.isnan(p)) else str(p)
        out.append(s if (":" in s or not p or p == "nan") else f"{s}:{p}")
    return out


def _round_trip(dfs, experiment, scheme: str, hops: int) -> float:
    df = results_of(dfs, experiment)
    df = df[[k == scheme for k in _scheme_key(df)]]
    return at({"x": df}, "x", "mean", peer="all", hops=hops)


def round_trip_kcycles(dfs, experiment, scheme, hops):
    """notify_pingpong's mean round trip of @scheme at @hops, in thousands
    of cycles."""
    return _round_trip(dfs, experiment, scheme, hops) / 1000.0


def round_trip_ratio(dfs, experiment, scheme, over, hops):
    """@scheme's mean round trip over @over's, at @hops."""
    return _round_trip(dfs, experiment, scheme, hops) / _round_trip(dfs, experiment, over, hops)


# --- memory -----------------------------------------------------------------------------

def _level(nbytes) -> str:
    return "L1" if nbytes <= L1_BYTES else "L2" if nbytes <= L2_BYTES else "DRAM"


def mem_single(dfs, experiment) -> dict:
    """{(op, mem, level): our MB/s} from mem_bench's single-core rows: the
    highest over the sizes of a level (002 measured 'the maximum memory
    throughput')."""
    df = where(results_of(dfs, experiment), kind="single")
    out: dict = {}
    for _, r in df.iterrows():
        k = (str(r["op"]), str(r["mem"]), _level(float(r["bytes"])))
        out[k] = max(out.get(k, 0.0), float(r["mb_per_s"]))
    return out


def memory_bandwidth_worst_ratio(dfs, experiment, published):
    """The ratio ours / published farthest from 1 over @published, a list
    of {op, mem, level, mb_per_s}."""
    ours = mem_single(dfs, experiment)
    pub = {(p["op"], p["mem"], p["level"]): p["mb_per_s"] for p in published}
    missing = [k for k in pub if k not in ours]
    if missing:
        raise MeasureError(f"{experiment}: no row for {missing}")
    return _worst([ours[k] / v for k, v in pub.items()])


def write_miss_stall_cycles(dfs, experiment, core_hz):
    """Cycles (of a core of @core_hz) per store of one core streaming plain
    4-byte stores to DRAM that no cache holds: each is posted, and the next
    waits until it is out, so a store costs the whole write to the memory
    controller."""
    mb_per_s = mem_single(dfs, experiment)[("write", "plain", "DRAM")]
    return 4 * core_hz / (mb_per_s * 1e6)


def aggregate_read_gb_per_s(dfs, experiment, cores):
    """GB/s of @cores cores reading their own DRAM at once."""
    return at(dfs, experiment, "mb_per_s", kind="aggregate", cores=cores) / 1000.0


def peak_aggregate_read_gb_per_s(dfs, experiment):
    """GB/s: the most the readers got together, over the core counts run."""
    return peak(dfs, experiment, "mb_per_s", kind="aggregate") / 1000.0


# --- ping-pong and copies --------------------------------------------------------------

def pingpong_peak(dfs, experiment, api, copy, mpbt):
    """The highest MB/s of @api's ping-pong (@copy's copies, MPBT buffers
    or not) over the sizes run."""
    return peak(dfs, experiment, "MB_per_s", api=api, copy=copy, mpbt=mpbt)


def pingpong_at(dfs, experiment, api, copy, mpbt, bytes):
    """MB/s of @api's ping-pong at @bytes."""
    return at(dfs, experiment, "MB_per_s", api=api, copy=copy, mpbt=mpbt, bytes=bytes)


def memcpy_peak(dfs, experiment, method):
    """The highest MB/s of core 0's local copy by @method over the sizes."""
    return peak(dfs, experiment, "mb_per_s", kind="local", method=method)


def copy_cores_over_local(dfs, experiment, copy_cores, method, bytes):
    """MB/s of a copy split over @copy_cores copy cores over the local copy
    by @method's, at @bytes."""
    split = at(dfs, experiment, "mb_per_s", kind="cores", copy_cores=copy_cores, bytes=bytes)
    return split / at(dfs, experiment, "mb_per_s", kind="local", method=method, bytes=bytes)
