"""Plots of a results table (matplotlib, PNG and SVG), for papers.

Every axis names its unit and, for times, the clock they were taken on
(modeled SCC time, the emulator's functional clock, host wall clock): the
`clock` column of the rows plotted.

    scc-bench plot DIR --kind latency|throughput|speedup|scaling|ipi|copy
                       [--baseline ALG] [--size BYTES] [--x COL --y COL --hue COL]
                       [--query EXPR] [--out FILE.png]
"""
from __future__ import annotations

import argparse
from pathlib import Path

CLOCK_NAMES = {"modeled": "modeled SCC time", "emulated": "emulated functional clock",
               "host": "host wall clock"}

# kind -> (x, y, hue, y label, log x, log y); columns are tried in order
KINDS = {
    "latency": (["bytes"], ["median_us", "t_avg_us", "us"], ["algorithm", "alg"],
                "latency (µs, {clock})", True, True),
    "throughput": (["bytes"], ["mb_per_s", "MB/s"], ["algorithm", "alg"],
                   "throughput (MB/s, {clock})", True, False),
    "speedup": (["bytes"], ["median_us", "t_avg_us"], ["algorithm", "alg"],
                "speed-up over {baseline} (x, {clock})", True, False),
    "scaling": (["ncores", "ues", "cores_n"], ["median_us", "t_avg_us"], ["algorithm", "alg"],
                "latency (µs, {clock})", False, False),
    "ipi": (["hops"], ["cycles", "mean_cycles", "median_cycles", "roundtrip_cycles"],
            ["scheme", "kind", "mode", "what"], "cost (core cycles, {clock})", False, False),
    "copy": (["copy_cores", "copiers", "cores_n"], ["mb_per_s", "MB/s"],
             ["method", "algorithm"], "copy bandwidth (MB/s, {clock})", False, False),
}
XLABELS = {"bytes": "message size (bytes)", "hops": "distance (mesh hops)",
           "ncores": "cores", "ues": "cores", "cores_n": "cores",
           "copy_cores": "copy cores", "copiers": "copy cores"}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--kind", choices=sorted(KINDS), required=True)
    p.add_argument("--baseline", metavar="ALG", help="speedup: the algorithm others are "
                   "divided by (default: the first)")
    p.add_argument("--size", metavar="BYTES", type=int, help="scaling: one message size")
    p.add_argument("--x", metavar="COL")
    p.add_argument("--y", metavar="COL")
    p.add_argument("--hue", metavar="COL")
    p.add_argument("--query", metavar="EXPR",
                   help="plot only the rows EXPR selects (pandas DataFrame.query: e.g. "
                        "\"bytes >= 1024 and alg != 'binomial'\"; `name` quotes a column "
                        "name with other characters)")
    p.add_argument("--out", metavar="FILE", help="PNG file; an SVG is written beside it "
                   "(default: DIR/KIND.png)")


def _pick(df, names, given, what):
    if given:
        if given not in df.columns:
            raise ValueError(f"no column {given!r} for {what} (columns: {', '.join(df.columns)})")
        return given
    for n in names:
        if n in df.columns:
            return n
    raise ValueError(f"none of the columns {', '.join(names)} for {what}: give --{what}")


def _clock(df) -> str:
    kinds = sorted(set(df["clock"])) if "clock" in df.columns else []
    return " / ".join(CLOCK_NAMES.get(k, k) for k in kinds) or "clock unknown"


def _ncores(df):
    """The number of cores of each row: the app's own `cores` column (a
    count), else the length of the point's core list."""
    if "ncores" in df.columns:
        return df
    df = df.copy()
    if "cores" in df.columns and str(df["cores"].dtype).startswith("int"):
        df["ncores"] = df["cores"]
    elif "core_list" in df.columns:
        from scc import sccrun
        df["ncores"] = [len(sccrun.parse_cores(str(c), 48)) for c in df["core_list"]]
    return df


def select(df, query: str | None):
    """The rows of @df that @query (pandas DataFrame.query) selects;
    ValueError, saying why, for an expression pandas cannot evaluate or
    one that selects no row."""
    if query is None:
        return df
    if not query.strip():
        raise ValueError("--query is empty")
    try:
        # evaluated on the table's columns only (an @name finds nothing)
        mask = df.eval(query, local_dict={}, global_dict={})
    except Exception as e:          # SyntaxError, NameError (no such column), TypeError...
        what = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise ValueError(f"--query {query!r}: {what} (columns: "
                         f"{', '.join(map(str, df.columns))})") from None
    if getattr(mask, "dtype", None) != bool or getattr(mask, "ndim", 0) != 1:
        raise ValueError(f"--query {query!r} is not a condition on each row (true or false; "
                         "compare columns with ==, <, ..., and combine with and, or, not)")
    out = df[mask]
    if not len(out):
        raise ValueError(f"--query {query!r} selects none of the {len(df)} rows")
    return out


def plot(df, kind: str, out: Path, *, baseline=None, size=None, x=None, y=None, hue=None,
         title: str | None = None) -> dict:
    """Draw @df as @kind into @out (PNG) and its SVG twin; returns what was
    drawn: {"x", "y", "xlabel", "ylabel", "series": {name: [(x, y), ...]}}."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    if "status" in df.columns:
        df = df[df["status"] == "ok"]
    if not len(df):
        raise ValueError("no rows with status ok to plot")
    xs, ys, hues, ylabel, logx, logy = KINDS[kind]
    if kind == "scaling":
        df = _ncores(df)
    xcol, ycol = _pick(df, xs, x, "x"), _pick(df, ys, y, "y")
    try:
        hcol = _pick(df, hues, hue, "hue")
    except ValueError:
        hcol = None
    if size is not None and "bytes" in df.columns:
        df = df[df["bytes"] == size]
    series = {}
    groups = df.groupby(hcol, sort=False) if hcol else [("all", df)]
    for name, g in groups:
        g = g.groupby(xcol, as_index=False)[ycol].median().sort_values(xcol)
        series[str(name)] = list(zip(g[xcol].astype(float), g[ycol].astype(float)))
    if kind == "speedup":
        base = baseline or next(iter(series))
        if base not in series:
            raise ValueError(f"no algorithm {base!r} to compare with (have {', '.join(series)})")
        ref = dict(series[base])
        series = {n: [(a, ref[a] / b) for a, b in pts if a in ref and b > 0]
                  for n, pts in series.items() if n != base}
        ylabel = ylabel.replace("{baseline}", base)
    ylabel = ylabel.format(clock=_clock(df))
    xlabel = XLABELS.get(xcol, xcol)
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for name, pts in series.items():
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=name)
    if logx and df[xcol].min() > 0 and df[xcol].max() / max(df[xcol].min(), 1) >= 100:
        ax.set_xscale("log", base=2)
    if logy and kind != "speedup":
        ax.set_yscale("log")
    _finish(fig, ax, out, xlabel, ylabel, title, legend=len(series) > 1 or bool(hcol))
    return {"x": xcol, "y": ycol, "xlabel": xlabel, "ylabel": ylabel, "series": series}


def _finish(fig, ax, out: Path, xlabel: str, ylabel: str, title: str | None,
            legend: bool) -> None:
    """Labels, grid and legend; the PNG and its SVG twin written."""
    import matplotlib.pyplot as plt

    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    if legend:
        ax.legend(fontsize="small")
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=120)
    fig.savefig(out.with_suffix(".svg"))
    plt.close(fig)


def main_plot(a) -> int:
    from scc.bench import load_results
    d = Path(a.dir)
    df = select(load_results(d), a.query)
    out = Path(a.out) if a.out else d / f"{a.kind}.png"
    info = plot(df, a.kind, out, baseline=a.baseline, size=a.size, x=a.x, y=a.y, hue=a.hue)
    print(f"{out} ({out.with_suffix('.svg').name}): {info['ylabel']} against {info['xlabel']}, "
          f"{len(info['series'])} series")
    return 0


def plot_xy(df, out: Path, *, x: str, y: str, hue: str | list | None = None, logx=False,
            logy=False, xlabel: str | None = None, ylabel: str | None = None,
            title: str | None = None) -> dict:
    """A plot of named columns (the report's rows each say which); the y
    label gets the rows' clock kind unless it names one. hue: a column, or
    several (one line for each combination of their values)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    if "status" in df.columns:
        df = df[df["status"] == "ok"]
    hues = [hue] if isinstance(hue, str) else list(hue or [])
    for c in (x, y, *hues):
        if c not in df.columns:
            raise ValueError(f"no column {c!r}")
    if not len(df):
        raise ValueError("no rows with status ok to plot")
    ylabel = ylabel or y
    if not any(k in ylabel for k in ("modeled", "emulated", "host wall")):
        ylabel = f"{ylabel} ({_clock(df)})"
    series = {}
    groups = df.groupby(hues if len(hues) > 1 else hues[0], sort=False) if hues \
        else [("all", df)]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for name, g in groups:
        g = g.groupby(x, as_index=False)[y].median().sort_values(x)
        label = "/".join(map(str, name)) if isinstance(name, tuple) else str(name)
        series[label] = list(zip(g[x], g[y].astype(float)))
        ax.plot(g[x], g[y], marker="o", label=label)
    if logx:
        ax.set_xscale("log", base=2)
    if logy:
        ax.set_yscale("log")
    _finish(fig, ax, out, xlabel or XLABELS.get(x, x), ylabel, title, legend=bool(hue))
    return {"x": x, "y": y, "ylabel": ylabel, "series": series}
