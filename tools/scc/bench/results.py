"""Running experiments' points and keeping their results: one table per
experiment (DIR/results.csv: one row per point x the app's rows, with the
point's parameters and its provenance), DIR/manifest.json (the experiment
file and the environment) and DIR/failed/POINT.log (the console tail of
each point that failed). Modeled points (chip, timing mode) are cached by
the content of everything that decides them (build/bench-cache, or
$SCC_BENCH_CACHE): a rerun runs only the points whose inputs changed.
scc-bench run and scc-report run their points here; see
docs/experiments.md.
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from scc.bench import appopts, provenance, sweep
from scc.bench import experiment as xp
from scc.bench.progress import Progress
from scc.machine.coremap import SccRunError

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
    except SccRunError as e:            # the point's run will say so too
        return f"# {e}\n"


def run_many(jobs: list[tuple[xp.Experiment, Path]], *, workers: int | None = None,
             scheduler: str | None = None, cache_all: bool = False,
             progress: bool | None = None, label: str | None = None,
             progress_every: float | None = None):
    """Run the points of several experiments on one Dask cluster at once,
    each experiment's results into its own directory. Returns a list of
    (DataFrame, counts), one per job. Before anything runs (or a directory
    is made), every app must be built and take every option the points
    give it (tools/scc/bench/appopts.py): else ExperimentError, naming each
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
    bar = Progress(len(todo), name, mode, progress_every,
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
    mean (apps/lib/bench.h), each line once, in the order the app printed
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
