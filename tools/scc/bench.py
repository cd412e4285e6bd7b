"""scc-bench: run an experiment's points on Dask and keep one results table.

    scc-bench run EXPERIMENT.toml [--workers N | --scheduler ADDRESS] [--out DIR]
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
import os
import sys
import time
from pathlib import Path

from scc import appopts, experiment as xp
from scc import provenance, sccrun, sweep

PROVENANCE = ("experiment", "point", "status", "why", "cached", "wall_s", "cache_key",
              "commit", "dirty", "qemu_version", "backend", "mode", "clock", "machine",
              "kernel_options", "app", "app_args", "core_list", "other_apps", "host", "start_time")


def _rows(point: xp.Point, result: dict, cached: bool, key: str) -> list[dict]:
    prov = provenance.row_columns(point, result.get("host", ""), result.get("start", ""))
    prov.update(status=result["status"], why=result.get("why", ""), cached=cached,
                wall_s=result.get("wall_s", 0.0), cache_key=key)
    rows = result["rows"] or [{}]
    out = []
    for r in rows:
        row = dict(r)
        for k, v in point.params.items():
            if isinstance(v, (list, dict)):     # other = [{...}]: one cell
                v = json.dumps(v, sort_keys=True)
            row[k if k not in r else f"param_{k}"] = v
        for k, v in prov.items():
            if k not in row:
                row[k] = v
        out.append(row)
    return out


class _Progress:
    """Points done, running and failed, and the time left: a bar on a
    terminal; elsewhere (a log, a pipe) a plain line on stderr when the
    run starts, every @interval seconds (default 30, or
    $SCC_PROGRESS_INTERVAL) and when it ends, as tqdm and pip do."""

    def __init__(self, total: int, name: str, mode: str | None,
                 interval: float | None = None, cached: int = 0):
        import threading
        self.total, self.done, self.failed, self.running = total, 0, 0, 0
        self.name, self.cached = name, cached
        self.p = None
        self.t0 = time.monotonic()
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.thread = None
        if mode == "bar" and total:
            from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                       TimeElapsedColumn, TimeRemainingColumn)
            self.p = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                              TextColumn("{task.fields[state]}"), TimeElapsedColumn(),
                              TextColumn("left"), TimeRemainingColumn(), transient=True)
            self.task = self.p.add_task(name, total=total, state="")
            self.p.start()
        elif mode == "lines" and total:
            if interval is None:
                interval = progress_interval()
            self.line()
            self.thread = threading.Thread(target=self._tick, args=(interval,), daemon=True,
                                           name="scc-bench-progress")
            self.thread.start()

    def _tick(self, interval: float):
        while not self.stop.wait(interval):
            self.line()

    def line(self, end: bool = False):
        """One plain progress line on stderr."""
        with self.lock:
            done, failed, running = self.done, self.failed, self.running
        el = time.monotonic() - self.t0
        if end:
            left = "finished"
        elif done:
            left = f"about {_clock(el / done * (self.total - done))} left"
        else:
            left = "time left not known yet"
        cached = f" ({self.cached} more cached)" if self.cached else ""
        print(f"{self.name}: {done}/{self.total} points done{cached}, {failed} failed, "
              f"{running} running, {_clock(el)} elapsed, {left}", file=sys.stderr, flush=True)

    def update(self, done=0, failed=0, running=None):
        with self.lock:
            self.done += done
            self.failed += failed
            if running is not None:
                self.running = running
        if self.p:
            self.p.update(self.task, completed=self.done,
                          state=f"running {self.running}, failed {self.failed}")

    def close(self):
        if self.p:
            self.p.stop()
        if self.thread:
            self.stop.set()
            self.thread.join()
            with self.lock:
                self.running = 0
            self.line(end=True)


def progress_interval() -> float:
    """Seconds between two plain progress lines: $SCC_PROGRESS_INTERVAL,
    else 30."""
    v = os.environ.get("SCC_PROGRESS_INTERVAL", "")
    try:
        x = float(v)
    except ValueError:
        return 30.0
    return x if x > 0 else 30.0


def _clock(s: float) -> str:
    """Seconds as H:MM:SS or M:SS."""
    s = int(round(s))
    h, m = divmod(s, 3600)
    return f"{h}:{m // 60:02d}:{m % 60:02d}" if h else f"{m // 60}:{m % 60:02d}"


def run_experiment(exp: xp.Experiment, out: Path, *, workers: int | None = None,
                   scheduler: str | None = None, cache_all: bool = False,
                   progress: bool | None = None):
    """Run @exp's points; write @out/results.csv and the manifest. Returns
    (the results DataFrame, {"run": n, "cached": n, "failed": n})."""
    (df, counts), = run_many([(exp, out)], workers=workers, scheduler=scheduler,
                             cache_all=cache_all, progress=progress)
    return df, counts


def _manifest(exp: xp.Experiment) -> dict:
    return {"experiment": exp.name, "file": exp.path, "source": exp.source,
            "spec": exp.spec, "environment": provenance.environment(),
            "points": [{"index": p.index, "params": p.params, "app": p.app,
                        "args": list(p.args), "cores": list(p.cores), "mode": p.mode,
                        "backend": p.backend, "machine": p.machine, "kernel": p.kernel,
                        "timeout_s": p.timeout,
                        **({"other": [{"app": o.app, "cores": list(o.cores),
                                       "args": list(o.args)} for o in p.other],
                            "coremap": _coremap_text(p)} if p.other else {})}
                       for p in exp.points]}


def _coremap_text(p: xp.Point) -> str:
    try:
        return sweep.core_map(p)[0]
    except sccrun.SccRunError as e:     # the point's run will say so too
        return f"# {e}\n"


def run_many(jobs: list[tuple[xp.Experiment, Path]], *, workers: int | None = None,
             scheduler: str | None = None, cache_all: bool = False,
             progress: bool | None = None, label: str | None = None,
             progress_every: float | None = None):
    """Run the points of several experiments on one Dask cluster at once,
    each experiment's results into its own directory. Returns a list of
    (DataFrame, counts), one per job. Before anything runs (or a directory
    is made), every app must be built and take every option the points
    give it (tools/scc/appopts.py): else ExperimentError, naming each
    mistake. @progress: True a bar, False nothing, None a bar on a
    terminal and plain lines elsewhere (every @progress_every seconds)."""
    import pandas as pd
    appopts.check([exp for exp, _ in jobs])
    results: dict[tuple[int, int], tuple[dict, bool, str]] = {}
    todo, counts, manifests = [], [], []
    for j, (exp, out) in enumerate(jobs):
        out.mkdir(parents=True, exist_ok=True)
        (out / "failed").mkdir(exist_ok=True)
        manifests.append(_manifest(exp))
        c = {"run": 0, "cached": 0, "failed": 0}
        for p in exp.points:
            key = provenance.cache_key(p)
            hit = sweep.cache_get(key) if (p.cache or cache_all) else None
            if hit is not None:
                results[j, p.index] = (hit, True, key)
                c["cached"] += 1
            else:
                todo.append((j, p, key))
        counts.append(c)
    name = label or ", ".join(e.name for e, _ in jobs)
    if progress is None:
        mode = "bar" if sys.stderr.isatty() else "lines"
    else:
        mode = "bar" if progress else None
    bar = _Progress(len(todo), name, mode, progress_every,
                    cached=sum(c["cached"] for c in counts))
    t0 = time.monotonic()
    try:
        if todo:
            from dask.distributed import as_completed
            client = sweep.client(workers, scheduler)
            try:
                futures = {client.submit(sweep.run_point, p, pure=False,
                                         key=f"{p.experiment}-{p.index}-{key[:12]}"): (j, p, key)
                           for j, p, key in todo}
                bar.update(running=min(len(todo), _nworkers(client)))
                done = 0
                for fut in as_completed(futures):
                    j, p, key = futures[fut]
                    out = jobs[j][1]
                    try:
                        r = fut.result()
                    except Exception as e:      # the worker died: the point failed
                        r = {"rows": [], "status": "error", "why": f"worker: {e}",
                             "tail": "", "wall_s": 0.0}
                    results[j, p.index] = (r, False, key)
                    counts[j]["run"] += 1
                    done += 1
                    failed = r["status"] != "ok"
                    if failed:
                        counts[j]["failed"] += 1
                        (out / "failed" / f"{p.index}.log").write_text(
                            f"point {p.index}: {p.label()}\nstatus {r['status']}: {r['why']}\n"
                            f"args: {' '.join(p.args)}\n--- console tail\n{r.get('tail', '')}\n",
                            encoding="utf-8")
                    elif p.cache or cache_all:
                        sweep.cache_put(key, r)
                    bar.update(done=1, failed=int(failed),
                               running=min(len(todo) - done, _nworkers(client)))
            finally:
                client.close()
                if not scheduler:
                    try:
                        client.cluster.close()
                    except Exception:
                        pass
    finally:
        bar.close()
    wall = round(time.monotonic() - t0, 2)
    frames = []
    for j, (exp, out) in enumerate(jobs):
        rows = []
        for p in exp.points:
            r, cached, key = results[j, p.index]
            rows.extend(_rows(p, r, cached, key))
        df = pd.DataFrame(rows)
        front = [c for c in df.columns if c not in PROVENANCE]
        df = df[front + [c for c in PROVENANCE if c in df.columns]]
        df.to_csv(out / "results.csv", index=False)
        manifests[j].update(wall_s=wall, counts=counts[j],
                            legend=_legend(exp, [results[j, p.index][0] for p in exp.points]))
        (out / "manifest.json").write_text(json.dumps(manifests[j], indent=1, default=str),
                                           encoding="utf-8")
        frames.append((df, counts[j]))
    return frames


def _legend(exp: xp.Experiment, results: list[dict]) -> dict:
    """{app: its `#` lines} of the experiment's points: what the app says
    above its CSV of itself, its build, its clock and what its columns
    mean (apps/benchout.h), each line once, in the order the app printed
    them; the command lines (one a point, in the points' args) left out."""
    out: dict[str, list[str]] = {}
    for p, r in zip(exp.points, results):
        lines = out.setdefault(Path(p.app).name.removesuffix(".elf"), [])
        for line in r.get("csv_comments", []):
            if not line.startswith("# command:") and line not in lines:
                lines.append(line)
    return out


def _nworkers(client) -> int:
    try:
        return max(1, len(client.scheduler_info()["workers"]))
    except Exception:
        return 1


def load_results(d: Path):
    import pandas as pd
    f = d / "results.csv"
    if not f.is_file():
        raise FileNotFoundError(f"{f}: no results (run `scc-bench run FILE --out {d}` first)")
    return pd.read_csv(f, keep_default_na=False)


def show(d: Path, out=None) -> int:
    import pandas as pd
    out = out or sys.stdout
    df = load_results(d)
    ok = df[df["status"] == "ok"]
    cols = [c for c in df.columns if c not in PROVENANCE or c in ("point", "clock")]
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
    r.add_argument("--cache-all", action="store_true",
                   help="cache functional-mode and host points too (their times are "
                        "the host's, not deterministic)")
    r.add_argument("--no-progress", action="store_true",
                   help="no progress bar (on a terminal) or lines (elsewhere: every 30 s, "
                        "or $SCC_PROGRESS_INTERVAL seconds, on stderr)")
    s = sub.add_parser("show", help="print a results directory's table and its failures")
    s.add_argument("dir", metavar="DIR")
    t = sub.add_parser("tune", help="libscc's defaults (tuning.json) from the results of "
                       "experiments/tuning.toml (tools/scc/tuning.py)")
    t.add_argument("dir", metavar="DIR")
    t.add_argument("--out", metavar="FILE",
                   help="write here (libscc/src/coll/tuning.json); default: stdout")
    pl = sub.add_parser("plot", help="plot a results directory's table")
    pl.add_argument("dir", metavar="DIR")
    from scc import plots
    plots.add_arguments(pl)
    a = p.parse_args(argv)
    try:
        if a.cmd == "run":
            if a.workers is not None and a.workers < 1:
                p.error("--workers must be at least 1")
            exp = xp.load(a.file)
            out = Path(a.out) if a.out else Path("build") / "bench" / exp.name
            _, c = run_experiment(exp, out, workers=a.workers, scheduler=a.scheduler,
                                  cache_all=a.cache_all,
                                  progress=False if a.no_progress else None)
            print(f"results: {out / 'results.csv'}")
            print(f"points: {c['run']} run, {c['cached']} cached, {c['failed']} failed")
            return 1 if c["failed"] else 0
        if a.cmd == "show":
            return show(Path(a.dir))
        if a.cmd == "tune":
            from scc import tuning
            return tuning.main_tune(a, list(argv if argv is not None else sys.argv[1:]),
                                    sccrun.REPO)
        return plots.main_plot(a)
    except (xp.ExperimentError, FileNotFoundError, ValueError) as e:
        print(f"scc-bench: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
