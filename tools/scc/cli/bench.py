"""scc-bench: run an experiment's points on Dask and keep one results table.

    scc-bench run EXPERIMENT.toml [--workers N | --scheduler ADDRESS] [--out DIR] [--quick]
    scc-bench show DIR              # the table so far, and what failed
    scc-bench plot DIR --kind KIND  # plots from the table, without rerunning
    scc-bench tune DIR --out FILE   # libscc's measured defaults from a tuning sweep

`run` writes DIR/results.csv (one row per point x the app's rows, with the
point's parameters and its provenance), DIR/manifest.json (the experiment
file and the environment), DIR/failed/POINT.log (the console tail of each
point that failed), and ends with the line `points: N run, N cached, N failed`.
Modeled points (chip, timing mode) are cached by the content of everything
that decides them (build/bench-cache, or $SCC_BENCH_CACHE): a rerun runs
only the points whose inputs changed. See docs/experiments.md.
"""
from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path

from scc.bench import experiment as xp
from scc.bench import plots, results, tuning
from scc.paths import REPO


def add_plot_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--kind", choices=sorted(plots.KINDS), required=True)
    p.add_argument("--baseline", metavar="ALG", help="speedup: the algorithm others are "
                   "divided by (default: the first)")
    p.add_argument("--size", metavar="BYTES", type=int, help="scaling: one message size")
    p.add_argument("--x", metavar="COL")
    p.add_argument("--y", metavar="COL")
    p.add_argument("--hue", metavar="COL[,COL]",
                   help="one line per value (of each combination of values) of these columns "
                        "(default: the kind's, e.g. alg or algorithm)")
    p.add_argument("--facet", metavar="COL[,COL]",
                   help="one panel per value of these columns (default: any other column "
                        "that still varies among the rows of a point of a line)")
    p.add_argument("--query", metavar="EXPR",
                   help="plot only the rows EXPR selects (pandas DataFrame.query: e.g. "
                        "\"bytes >= 1024 and alg != 'binomial'\"; `name` quotes a column "
                        "name with other characters)")
    p.add_argument("--out", metavar="FILE", help="PNG file; an SVG is written beside it "
                   "(default: DIR/KIND.png)")


def plot(a) -> int:
    d = Path(a.dir)
    df = plots.select(results.load_results(d), a.query)
    out = Path(a.out) if a.out else d / f"{a.kind}.png"
    info = plots.plot(df, a.kind, out, baseline=a.baseline, size=a.size, x=a.x, y=a.y,
                      hue=a.hue, facet=a.facet, params=plots.manifest_params(d, df.columns),
                      query=a.query)
    line = (f"{out} ({out.with_suffix('.svg').name}): {info['ylabel']} against "
            f"{info['xlabel']}, {len(info['series'])} series")
    if info["facet"]:
        line += (f", {len(info['facets'])} facets "
                 f"({', '.join(plots.column_label(c) for c in info['facet'])})")
    print(line)
    if info["auto"]:
        print(f"scc-bench: note: the rows also differ in {', '.join(info['auto'])}: drawn "
              "apart (lines or panels), not merged; --query picks values", file=sys.stderr)
    return 0


def show(d: Path, out=None) -> int:
    import pandas as pd
    out = out or sys.stdout
    df = results.load_results(d)
    ok = df[df["status"] == "ok"]
    cols = [c for c in df.columns if c not in results.PROVENANCE or c in ("point", "clock")]
    with pd.option_context("display.max_rows", 500, "display.max_columns", 30,
                           "display.width", 200):
        print(ok[cols].to_string(index=False) if len(ok) else "(no results yet)", file=out)
    bad = df[df["status"] != "ok"].drop_duplicates("point")
    n = df["point"].nunique()
    print(f"\n{n} point(s): {n - len(bad)} ok, {len(bad)} failed; clock: "
          f"{', '.join(sorted(set(df['clock'])))}", file=out)
    for _, r in bad.iterrows():
        print(f"  point {r['point']} {r['status']}: {r['why']} (args: {r['app_args']}; "
              f"log: {d / 'failed' / (str(r['point']) + '.log')})", file=out)
    return 0


def tune(a: argparse.Namespace, argv: list[str]) -> int:
    """scc-bench tune: write the tuning file of a results directory; argv is
    scc-bench's own (from `tune` on), recorded as the command."""
    data = tuning.tune(Path(a.dir), "scc-bench " + shlex.join(argv), REPO)
    tuning.check(data, "the new tuning file")
    text = json.dumps(data, indent=1) + "\n"
    if a.out:
        Path(a.out).write_text(text)
        n = sum(len(v) for v in data["rules"].values())
        print(f"tuning: {n} rules for {', '.join(data['rules'])} -> {a.out}")
    else:
        sys.stdout.write(text)
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="scc-bench", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="run an experiment file's points")
    r.add_argument("file", metavar="EXPERIMENT.toml")
    g = r.add_mutually_exclusive_group()
    g.add_argument("--workers", type=int, metavar="N",
                   help="a local Dask cluster of N workers (default: the host's CPUs)")
    g.add_argument("--scheduler", metavar="ADDRESS",
                   help="an existing Dask scheduler (tcp://host:8786), e.g. of a "
                        "dask-jobqueue Slurm or PBS cluster (docs/experiments.md)")
    r.add_argument("--out", metavar="DIR", help="results directory (default: "
                   "build/bench/NAME)")
    r.add_argument("--quick", action="store_true",
                   help="the experiment's quick variant (its [quick] table merged in)")
    r.add_argument("--cache-all", action="store_true",
                   help="cache functional-mode and host points too (their times are "
                        "the host's, not deterministic)")
    r.add_argument("--no-progress", action="store_true",
                   help="no progress bar (on a terminal) or lines (elsewhere: every 30 s, "
                        "or $SCC_PROGRESS_INTERVAL seconds, on stderr)")
    s = sub.add_parser("show", help="print a results directory's table and its failures")
    s.add_argument("dir", metavar="DIR")
    t = sub.add_parser("tune", help="libscc's defaults (tuning.json) from the results of "
                       "experiments/tuning.toml (tools/scc/bench/tuning.py)")
    t.add_argument("dir", metavar="DIR")
    t.add_argument("--out", metavar="FILE",
                   help="write here (libscc/src/coll/tuning.json); default: stdout")
    pl = sub.add_parser("plot", help="plot a results directory's table")
    pl.add_argument("dir", metavar="DIR")
    add_plot_arguments(pl)
    a = p.parse_args(argv)
    try:
        if a.cmd == "run":
            if a.workers is not None and a.workers < 1:
                p.error("--workers must be at least 1")
            exp = xp.load(a.file, quick=a.quick)
            out = Path(a.out) if a.out else Path("build") / "bench" / exp.name
            _, c = results.run_experiment(exp, out, workers=a.workers, scheduler=a.scheduler,
                                          cache_all=a.cache_all,
                                          progress=False if a.no_progress else None)
            print(f"results: {out / 'results.csv'}")
            print(f"points: {c['run']} run, {c['cached']} cached, {c['failed']} failed")
            return 1 if c["failed"] else 0
        if a.cmd == "show":
            return show(Path(a.dir))
        if a.cmd == "tune":
            return tune(a, list(argv if argv is not None else sys.argv[1:]))
        return plot(a)
    except (xp.ExperimentError, FileNotFoundError, ValueError) as e:
        print(f"scc-bench: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
