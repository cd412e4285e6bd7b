"""Reading results tables, what the report's measures are made of: the
rows that ran, one value of a column where parameters have given values,
the peak, a geometric mean, a speed-up of one algorithm over another. A
measure (measures.py, targets.py) takes {experiment name: its results
table} (scc-bench's DataFrames) and returns a number (a row of the
papers) or lines (a target); MeasureError says what the results lack.
"""
from __future__ import annotations

import math


class MeasureError(ValueError):
    """The results lack what a measure needs (a point failed, a row is missing)."""


def ok_rows(df):
    """The rows of points that ran (status ok), numbers as numbers."""
    import pandas as pd
    if "status" in df.columns:
        df = df[df["status"].astype(str) == "ok"]
    df = df.copy()
    for c in df.columns:
        if df[c].dtype == object:
            conv = pd.to_numeric(df[c], errors="coerce")
            if conv.notna().all() and len(conv):
                df[c] = conv
    return df


def one(df, what: str, col: str) -> float:
    if len(df) == 0:
        raise MeasureError(f"no row for {what}")
    if col not in df.columns:
        raise MeasureError(f"no column {col} for {what}")
    v = df[col].astype(float)
    if len(v) > 1 and v.nunique() > 1:
        raise MeasureError(f"{len(v)} different rows for {what}")
    x = float(v.iloc[0])
    if not math.isfinite(x):
        raise MeasureError(f"{what}: {col} is not a number")
    return x


def results_of(dfs, name):
    if name not in dfs:
        raise MeasureError(f"no results of experiment {name}")
    return ok_rows(dfs[name])


def where(df, **eq):
    for k, v in eq.items():
        if k not in df.columns:
            raise MeasureError(f"no column {k}")
        if isinstance(v, str):
            df = df[df[k].astype(str) == v]
        else:
            df = df[df[k].astype(float) == float(v)]
    return df


def at(dfs, name, col, **eq) -> float:
    return one(where(results_of(dfs, name), **eq), f"{name} {eq}", col)


def peak(dfs, name, col, **eq) -> float:
    df = where(results_of(dfs, name), **eq)
    if len(df) == 0:
        raise MeasureError(f"no rows for {name} {eq}")
    return float(df[col].astype(float).max())


def geomean(xs) -> float:
    xs = list(xs)
    if not xs:
        raise MeasureError("nothing to average")
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def geomean_speedup(dfs, name, base: str, opt: str, col="median_us", sizes=None) -> float:
    """Geometric mean over the sizes both ran of t(base) / t(opt)."""
    df = results_of(dfs, name)
    b = where(df, alg=base).groupby("bytes")[col].median()
    o = where(df, alg=opt).groupby("bytes")[col].median()
    common = [s for s in b.index if s in o.index and (sizes is None or sizes(s))]
    if not common:
        raise MeasureError(f"{name}: no size that both {base} and {opt} ran")
    return geomean(float(b[s]) / float(o[s]) for s in common)
