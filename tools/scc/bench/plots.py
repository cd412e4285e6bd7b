"""Plots of a results table (matplotlib, PNG and SVG), for papers.

Every axis names its unit and, for times, the clock they were taken on
(modeled SCC time, the emulator's functional clock, host wall clock): the
`clock` column of the rows plotted.

    scc-bench plot DIR --kind latency|throughput|speedup|scaling|ipi|copy
                       [--baseline ALG] [--size BYTES] [--x COL --y COL]
                       [--hue COL[,COL]] [--facet COL[,COL]] [--query EXPR] [--out FILE.png]

A plot never takes the median over rows that differ in a dimension of the
table (a swept parameter, what the app says it measured: an algorithm and
its parameters, a root, a core count; a mode, a machine, a build) without
saying so. Each point of a line is the median of rows that differ only in
what was measured; a dimension that still varies among them gets its own
lines (the hue, when the kind has none) or panels (facets, one per value);
more than MAX_FACETS panels are refused, naming the dimensions, for
--query to pick values. The title says what the rows held fixed.
"""
from __future__ import annotations

import json
import math
import textwrap
from pathlib import Path

from scc.machine.coremap import parse_cores

CLOCK_NAMES = {"modeled": "modeled SCC time", "emulated": "emulated functional clock",
               "host": "host wall clock"}

# kind -> (x, y, hue, y label, log x, log y); columns are tried in order
KINDS = {
    "latency": (["bytes"], ["median_us", "t_avg_us", "us"], ["alg", "algorithm"],
                "latency (µs, {clock})", True, True),
    "throughput": (["bytes"], ["mb_per_s", "MB/s"], ["alg", "algorithm"],
                   "throughput (MB/s, {clock})", True, False),
    "speedup": (["bytes"], ["median_us", "t_avg_us"], ["alg", "algorithm"],
                "speed-up over {baseline} (x, {clock})", True, False),
    "scaling": (["ncores", "ues", "cores_n"], ["median_us", "t_avg_us"], ["alg", "algorithm"],
                "latency (µs, {clock})", False, False),
    "ipi": (["hops"], ["cycles", "mean_cycles", "median_cycles", "roundtrip_cycles"],
            ["scheme", "kind", "mode", "what"], "cost (core cycles, {clock})", False, False),
    "copy": (["copy_cores", "copiers", "cores_n"], ["mb_per_s", "MB/s"],
             ["method", "algorithm"], "copy bandwidth (MB/s, {clock})", False, False),
}
XLABELS = {"bytes": "message size (bytes)", "hops": "distance (mesh hops)",
           "ncores": "cores", "ues": "cores", "cores_n": "cores",
           "copy_cores": "copy cores", "copiers": "copy cores"}

# Columns that say where a row came from, not what ran: never a dimension.
BOOKKEEPING = ("point", "status", "why", "cached", "wall_s", "cache_key", "app_args", "host",
               "start_time")
# Provenance that says what ran: a dimension if it varies (a table of two
# modes, machines or builds), else something the rows held fixed.
CONFIG = ("experiment", "app", "backend", "mode", "clock", "machine", "kernel_options",
          "core_list", "other_apps", "commit", "dirty", "qemu_version")
# The apps' numeric columns that say what was measured rather than a result.
NUMERIC_DIMS = ("bytes", "hops", "cores", "ncores", "ues", "cores_n", "copy_cores", "copiers",
                "root", "peer", "senders", "receiver")
# Text columns that are results, not dimensions.
RESULT_TEXT = ("verified",)
# Held fixed but left out of the title: the y label's (clock), the build's,
# and the app's name, which heads the title.
UNTITLED = ("clock", "commit", "dirty", "qemu_version", "experiment", "app")
# More panels than this and the plot is refused: --query picks values.
MAX_FACETS = 12


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
        df["ncores"] = [len(parse_cores(str(c), 48)) for c in df["core_list"]]
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


def column_label(col: str) -> str:
    """A column's name in a legend or a title: a parameter that the app had
    a column of (param_cores) by its own name; the core list as cores."""
    if col.startswith("param_"):
        return col[len("param_"):]
    return "cores" if col == "core_list" else col


def _text(v) -> str:
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def _full_algorithm(df):
    """bcast_bench and its kin print an algorithm and its parameters apart
    (oc, k=7): the algorithm column becomes the whole spec (oc:k=7), as
    --alg takes it and a legend should name it."""
    if "algorithm" not in df.columns or "params" not in df.columns:
        return df
    df = df.copy()
    p = df["params"].fillna("").astype(str)
    df["algorithm"] = df["algorithm"].astype(str) + p.where(p == "", ":" + p)
    return df


def table_params(df) -> list[str]:
    """The swept parameters' columns, from the table alone: those (not
    provenance, not floats: measured values) that hold one value in each
    point's rows and differ between points; param_NAME first."""
    if "point" not in df.columns or df["point"].nunique() < 2:
        return []
    per_point = df.groupby("point")
    out = [c for c in df.columns
           if c not in BOOKKEEPING and c not in CONFIG and c != "point"
           and df[c].dtype.kind != "f" and df[c].nunique() > 1
           and per_point[c].nunique().max() == 1]
    return sorted(out, key=lambda c: not c.startswith("param_"))


def manifest_params(d: Path, columns) -> list[str] | None:
    """The columns of the parameters DIR/manifest.json says the points
    had (NAME, or param_NAME where the app had a column NAME); None
    without a manifest."""
    try:
        m = json.loads((Path(d) / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    names: list[str] = []
    for pt in m.get("points", []) if isinstance(m, dict) else []:
        for k in (pt.get("params") or {}) if isinstance(pt, dict) else {}:
            if k not in names:
                names.append(k)
    cols = set(columns)
    return [f"param_{k}" if f"param_{k}" in cols else k for k in names
            if k in cols or f"param_{k}" in cols]


def _dimensions(df, params: list[str], skip) -> list[str]:
    """The columns that tell one configuration from another, most telling
    first: the parameters, then the app's own (text columns and the known
    numeric ones: bytes, cores, root, ...), then the provenance of what ran."""
    out = [c for c in params if c in df.columns and c not in skip]
    rest = [c for c in df.columns if c not in out and c not in skip and c not in BOOKKEEPING
            and c not in RESULT_TEXT
            and (c in CONFIG or c in NUMERIC_DIMS or df[c].dtype.kind in "Ob")]
    return (out + [c for c in rest if c.startswith("param_")]
            + [c for c in rest if c not in CONFIG and not c.startswith("param_")]
            + [c for c in rest if c in CONFIG])


def _varying(df, keys: list[str], cols: list[str]) -> list[str]:
    """Those of @cols that take more than one value among the rows of one
    group of @keys (rows a plot would draw as one point)."""
    g = df.groupby(keys, sort=False, dropna=False) if keys else None
    out = []
    for c in cols:
        if c in keys:
            continue
        n = g[c].nunique(dropna=False).max() if g is not None else df[c].nunique(dropna=False)
        if n > 1:
            out.append(c)
    return out


def _columns(df, given: str | None, what: str) -> list[str]:
    cols = [c.strip() for c in (given or "").split(",") if c.strip()]
    for c in cols:
        if c not in df.columns:
            raise ValueError(f"no column {c!r} for --{what} (columns: {', '.join(df.columns)})")
    return cols


def _fixed(df, dims: list[str], used) -> dict[str, str]:
    """What the rows held fixed: {name: value} of each dimension with one
    value (a name once: param_cores, the app's cores and core_list are all
    `cores`)."""
    out: dict[str, str] = {}
    for c in dims:
        if c in used or c in UNTITLED:
            continue
        vals = df[c].unique()
        if len(vals) != 1:
            continue
        v = _text(vals[0])
        if v in ("", "{}", "nan") or column_label(c) in out:
            continue
        out[column_label(c)] = v
    return out


def _label(cols: list[str], key, named: bool) -> str:
    key = key if isinstance(key, tuple) else (key,)
    if named:
        return ", ".join(f"{column_label(c)}={_text(v)}" for c, v in zip(cols, key))
    return "/".join(_text(v) for v in key)


def plot(df, kind: str, out: Path, *, baseline=None, size=None, x=None, y=None, hue=None,
         facet=None, params: list[str] | None = None, query: str | None = None,
         title: str | None = None) -> dict:
    """Draw @df as @kind into @out (PNG) and its SVG twin.

    hue and facet: column names (a comma list, or a list). params: the
    columns of the swept parameters (manifest_params; default: what
    table_params finds in the table). A dimension (_dimensions) that varies
    among rows of the same x, hue and facet is drawn apart, not merged: as
    the hue if there is none, else as facets; ValueError if that takes more
    than MAX_FACETS panels. Returns what was drawn: {"x", "y", "xlabel",
    "ylabel", "title", "hue", "facet" (column lists), "auto" (the columns
    added to them because they varied), "fixed" ({name: value}), "facets"
    ({facet label: {series: [(x, y), ...]}}, {} without facets), "series"
    (every line: {name: points}, "NAME (FACET)" with facets)}."""
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
    df = _full_algorithm(df)
    xcol, ycol = _pick(df, xs, x, "x"), _pick(df, ys, y, "y")
    if size is not None and "bytes" in df.columns:
        df = df[df["bytes"] == size]
        if not len(df):
            raise ValueError(f"--size {size}: no rows of that size")
    as_list = (lambda v: ",".join(v) if isinstance(v, (list, tuple)) else v)
    hcols = _columns(df, as_list(hue), "hue")
    fcols = _columns(df, as_list(facet), "facet")
    if not hcols:
        hcols = [c for c in hues if c in df.columns][:1]
    params = table_params(df) if params is None else [c for c in params if c in df.columns]
    dims = _dimensions(df, params, skip={xcol, ycol})
    # Whatever still varies among the rows of one point of a line is drawn
    # apart: the kind's own lines (alg) first, then the most telling, until
    # nothing does.
    auto: list[str] = []
    while True:
        varying = _varying(df, [xcol, *hcols, *fcols], dims)
        if not varying:
            break
        c = next((h for h in hues if h in varying), varying[0])
        (hcols if not hcols else fcols).append(c)
        auto.append(c)
    nfacets = df.groupby(fcols, sort=False).ngroups if fcols else 1
    if nfacets > MAX_FACETS:
        extra = [c for c in auto if c in fcols] or fcols
        first = extra[0]
        raise ValueError(
            f"the rows differ in {', '.join(f'{c} ({df[c].nunique()} values)' for c in extra)}"
            f" at the same {', '.join([xcol, *hcols])}; drawn apart, not merged, that is "
            f"{nfacets} panels (at most {MAX_FACETS}): pick values with --query (e.g. "
            f"--query \"{first} == {df[first].iloc[0]!r}\") or choose the lines and panels "
            f"with --hue and --facet")
    facets: dict[str, dict] = {}
    fgroups = df.groupby(fcols, sort=False) if fcols else [((), df)]
    for fkey, fdf in fgroups:
        series = {}
        hgroups = fdf.groupby(hcols, sort=False) if hcols else [(("all",), fdf)]
        for hkey, g in hgroups:
            g = g.groupby(xcol, as_index=False)[ycol].median().sort_values(xcol)
            series[_label(hcols, hkey, named=False)] = list(zip(g[xcol].astype(float),
                                                                g[ycol].astype(float)))
        facets[_label(fcols, fkey, named=True) if fcols else ""] = series
    if kind == "speedup":
        base = baseline or next(iter(next(iter(facets.values()))))
        for fl, series in facets.items():
            if base not in series:
                raise ValueError(f"no algorithm {base!r} to compare with"
                                 f"{' in ' + fl if fl else ''} (have {', '.join(series)})")
            ref = dict(series[base])
            facets[fl] = {n: [(a, ref[a] / b) for a, b in pts if a in ref and b > 0]
                          for n, pts in series.items() if n != base}
        ylabel = ylabel.replace("{baseline}", base)
    ylabel = ylabel.format(clock=_clock(df))
    xlabel = XLABELS.get(xcol, xcol)
    # (the kind's other line columns too: algorithm says again what alg does)
    fixed = _fixed(df, dims, {xcol, ycol, *hcols, *fcols, *(hues if hcols else ())})
    head = title or (_text(df["app"].iloc[0]).removesuffix(".elf")
                     if "app" in df.columns and df["app"].nunique() == 1 else "")
    if query:
        head = f"{head} [{query}]".strip()
    what = ", ".join(f"{k}={v}" for k, v in fixed.items())
    full_title = textwrap.fill(f"{head}: {what}" if head and what else head or what,
                               width=80 if nfacets == 1 else 120)

    ncols = 1 if nfacets == 1 else 2 if nfacets <= 4 else 3
    nrows = math.ceil(nfacets / ncols)
    fig, axes = plt.subplots(nrows, ncols, squeeze=False, sharex=True, sharey=True,
                             figsize=(7, 4.5) if nfacets == 1 else (5 * ncols, 3.6 * nrows + 0.8))
    big_x = logx and df[xcol].min() > 0 and df[xcol].max() / max(df[xcol].min(), 1) >= 100
    legend_title = "/".join(column_label(c) for c in hcols) or None
    for ax, (fl, series) in zip(axes.flat, facets.items()):
        for name, pts in series.items():
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=name)
        if big_x:
            ax.set_xscale("log", base=2)
        if logy and kind != "speedup":
            ax.set_yscale("log")
        if fl:
            ax.set_title(fl, fontsize="medium")
        ax.grid(True, which="both", alpha=0.3)
        if any(series.values()) and (len(series) > 1 or hcols):
            ax.legend(fontsize="small", title=legend_title, title_fontsize="small")
    for ax in list(axes.flat)[nfacets:]:
        ax.set_visible(False)
    if nfacets == 1:
        ax = axes[0][0]
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        if full_title:
            ax.set_title(full_title, fontsize="medium")
    else:
        fig.supxlabel(xlabel)
        fig.supylabel(ylabel)
        if full_title:
            fig.suptitle(full_title, fontsize="medium")
    fig.tight_layout()
    _save(fig, out)
    flat = {}
    for fl, series in facets.items():
        for name, pts in series.items():
            flat[f"{name} ({fl})" if fl else name] = pts
    return {"x": xcol, "y": ycol, "xlabel": xlabel, "ylabel": ylabel, "title": full_title,
            "hue": hcols, "facet": fcols, "auto": auto, "fixed": fixed,
            "facets": facets if fcols else {}, "series": flat}


def _save(fig, out: Path) -> None:
    """The PNG and its SVG twin written."""
    import matplotlib.pyplot as plt

    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=120)
    fig.savefig(out.with_suffix(".svg"))
    plt.close(fig)


def _finish(fig, ax, out: Path, xlabel: str, ylabel: str, title: str | None,
            legend: bool, outside: bool = False) -> None:
    """Labels, grid and legend (@outside: right of the axes, where a long
    legend in words hides no point); the PNG and its SVG twin written."""
    import matplotlib.pyplot as plt

    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    if legend and outside:
        ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.02, 1.0),
                  borderaxespad=0.0)
    elif legend:
        ax.legend(fontsize="small")
    fig.tight_layout()
    _save(fig, out)


def series_label(cols: list[str], key, words: dict | None) -> str:
    """A series in words for a legend: each hue column's value as @words
    ({column: {value: words}}) says it, else `column value`; joined by
    commas ("RCCE API, RCCE 1.x word copy, MPBT off", not rcce/rcce1/off)."""
    key = key if isinstance(key, tuple) else (key,)
    words = words or {}
    out = []
    for c, v in zip(cols, key):
        w = words.get(c, {}).get(_text(v))
        out.append(w if w else f"{column_label(c)} {_text(v)}")
    return ", ".join(out)


def published_points(spec: dict, ours: dict) -> list[tuple]:
    """The points of one published series (a row's [[row.plot.published]]):
    `points` as given ([[x, y], ...]); `y` alone, a number without a size,
    as None for a level across the plot; `scale` (a number, or [[x,
    factor], ...]) of our series `of` (its key: the hue values joined by
    /), for a paper that gives a ratio only: the paper's claim drawn on our
    baseline."""
    if "points" in spec:
        return [(p[0], float(p[1])) for p in spec["points"]]
    if "y" in spec:
        return [(None, float(spec["y"]))]
    if "scale" in spec:
        if spec.get("of") not in ours:
            raise ValueError(f"published {spec.get('label')!r}: no series {spec.get('of')!r} "
                             f"of ours to scale (have {', '.join(map(str, ours))})")
        f = spec["scale"]
        factor = dict((float(a), float(b)) for a, b in f) if isinstance(f, list) else None
        return [(a, b * (factor[float(a)] if factor else float(f)))
                for a, b in ours[spec["of"]] if not factor or float(a) in factor]
    raise ValueError(f"published {spec.get('label')!r}: needs points, y or scale")


def plot_xy(df, out: Path, *, x: str, y: str, hue: str | list | None = None, logx=False,
            logy=False, xlabel: str | None = None, ylabel: str | None = None,
            title: str | None = None, words: dict | None = None,
            published: list | tuple = ()) -> dict:
    """A plot of named columns (the report's rows each say which); the y
    label gets the rows' clock kind unless it names one. hue: a column, or
    several (one line for each combination of their values), each named
    in the legend in words (@words: {column: {value: words}}, series_label).
    published: the paper's values beside ours, each {label, points | y |
    scale and of} (published_points), drawn as open markers (a dashed
    level for a number without a size) under their label, which says the
    paper and figure. Returns {"x", "y", "ylabel", "series" ({key: points},
    the key the hue values joined by /), "labels" ({key: legend words}),
    "published" ({label: points})}."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    if "status" in df.columns:
        df = df[df["status"] == "ok"]
    hues = [hue] if isinstance(hue, str) else list(hue or [])
    for c in (x, y, *hues):
        if c not in df.columns:
            raise ValueError(f"no column {c!r}")
    # rows of another table the app printed (calibrate's points beside its
    # parameters) have no value in x or y: not a category of their own
    blank = df[x].astype(str).str.strip().isin(["", "nan", "None", "<NA>"])
    df = df[df[x].notna() & df[y].notna() & ~blank]
    if not len(df):
        raise ValueError("no rows with status ok to plot")
    ylabel = ylabel or y
    if not any(k in ylabel for k in ("modeled", "emulated", "host wall")):
        ylabel = f"{ylabel} ({_clock(df)})"
    series, labels = {}, {}
    # categories (001's parameter names) are not a line
    numeric_x = df[x].dtype.kind in "iuf"
    groups = df.groupby(hues if len(hues) > 1 else hues[0], sort=False) if hues \
        else [("all", df)]
    fig, ax = plt.subplots(figsize=(13, 5.5))
    for name, g in groups:
        g = g.groupby(x, as_index=False)[y].median().sort_values(x)
        key = "/".join(map(_text, name)) if isinstance(name, tuple) else _text(name)
        series[key] = list(zip(g[x], g[y].astype(float)))
        labels[key] = ("ours: " + series_label(hues, name, words)) if hues \
            else "ours (modeled)"
        ax.plot(g[x], g[y], marker="o", label=labels[key],
                linestyle="-" if numeric_x else "none")
    shown = {}
    for i, spec in enumerate(published or ()):
        pts = published_points(spec, series)
        label = spec.get("label") or "published"
        shown[label] = pts
        colour = f"C{(len(series) + i) % 10}"
        if pts and pts[0][0] is None:
            ax.axhline(pts[0][1], color=colour, linestyle="--", linewidth=1.2, label=label)
            continue
        numeric = all(isinstance(p[0], (int, float)) for p in pts)
        ax.plot([p[0] for p in pts], [p[1] for p in pts],
                linestyle=":" if len(pts) > 1 and numeric else "none", marker="D", markersize=8, markerfacecolor="none",
                markeredgewidth=1.6, color=colour, label=label)
    if logx:
        ax.set_xscale("log", base=2)
    if logy:
        ax.set_yscale("log")
    _finish(fig, ax, out, xlabel or XLABELS.get(x, x), ylabel, title,
            legend=bool(hue) or bool(shown), outside=True)
    return {"x": x, "y": y, "ylabel": ylabel, "series": series, "labels": labels,
            "published": shown}
