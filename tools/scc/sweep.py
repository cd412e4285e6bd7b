"""Running an experiment's points: on Dask workers (a local cluster, an
existing scheduler, or a Slurm/PBS cluster through dask-jobqueue), each
point once, with a time limit, its result cached when it is modeled.

A point's result is a dict (plain data, so it travels between Dask
processes and machines): its rows (the app's CSV, one dict a row), its
status ("ok", "failed", "timeout", "error"), why it ended, the tail of its
console, and the host wall time it took.
"""
from __future__ import annotations

import csv
import io
import json
import os
import re
import socket
import subprocess
import time
from pathlib import Path

from scc import provenance, sccrun
from scc.experiment import Point

TAIL = 3000     # characters of console kept for a point that failed


def _csv_text(text: str) -> str:
    """The app's CSV out of its stdout: `#` comments and the rows of the
    first header (a line with commas) on; anything else (a summary line
    of an app that prints one on stdout) is left out."""
    lines = [l for l in text.splitlines() if l.strip()]
    out, width = [], None
    for line in lines:
        if line.startswith("#"):
            out.append(line)
            continue
        try:
            fields = len(next(csv.reader([line])))
        except csv.Error:
            continue
        if width is None:
            if fields > 1:
                width = fields
                out.append(line)
        elif fields == width:
            out.append(line)
    return "\n".join(out) + "\n"


def parse_rows(text: str) -> list[dict]:
    import pandas as pd
    csv = _csv_text(text)
    if not any(l and not l.startswith("#") for l in csv.splitlines()):
        return []
    df = pd.read_csv(io.StringIO(csv), comment="#", keep_default_na=False)
    return json.loads(df.to_json(orient="records"))


def _why(r) -> str:
    if r.timed_out:
        return "time limit"
    for line in r.stderr.splitlines():
        m = re.search(r"scc: (core \d+ failed.*|stopping the run.*|no core can make progress.*)",
                      line)
        if m:
            return m.group(1)
    return f"exit status {r.returncode}"


def _run_chip(point: Point) -> tuple[str, str, str, str]:
    machine = dict(point.machine)
    if point.mode == "timing":
        machine["timing"] = "on"
    r = sccrun.run_app(point.app, cores=list(point.cores), args=list(point.args),
                       kernel_opts=point.kernel or None, machine=machine,
                       timeout=point.timeout)
    status = "timeout" if r.timed_out else ("ok" if r.returncode == 0 else "failed")
    report = min(point.cores)
    return status, ("" if status == "ok" else _why(r)), r.core_stdout(report), \
        (r.stdout[-TAIL:] + "\n" + r.stderr[-TAIL:])


def _run_host(point: Point) -> tuple[str, str, str, str]:
    if not os.path.isfile(point.app):
        return "error", f"{point.app}: not built", "", ""
    try:
        p = subprocess.run([point.app, *point.args], capture_output=True, text=True,
                           timeout=point.timeout, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        return "timeout", "time limit", out, out[-TAIL:]
    status = "ok" if p.returncode == 0 else "failed"
    return status, ("" if status == "ok" else f"exit status {p.returncode}"), p.stdout, \
        (p.stdout[-TAIL:] + "\n" + p.stderr[-TAIL:])


def run_point(point: Point) -> dict:
    """Run one point (on whichever worker Dask chose): its result dict."""
    start, t0 = provenance.now(), time.monotonic()
    host = socket.gethostname()
    try:
        status, why, out, tail = (_run_host if point.backend == "host" else _run_chip)(point)
    except sccrun.SccRunError as e:
        status, why, out, tail = "error", str(e), "", ""
    rows: list[dict] = []
    if status == "ok":
        try:
            rows = parse_rows(out)
        except Exception as e:          # a malformed table is the point's failure
            status, why, tail = "failed", f"its CSV does not parse: {e}", out[-TAIL:]
        if status == "ok" and not rows:
            status, why, tail = "failed", "it printed no CSV rows", out[-TAIL:]
    return {"rows": rows, "status": status, "why": why, "tail": "" if status == "ok" else tail,
            "wall_s": round(time.monotonic() - t0, 3), "host": host, "start": start,
            "csv_comments": [l for l in out.splitlines() if l.startswith("#")][:20]}


# --- the cache --------------------------------------------------------------------

def cache_dir() -> Path:
    return Path(os.environ.get("SCC_BENCH_CACHE") or sccrun.REPO / "build" / "bench-cache")


def cache_get(key: str) -> dict | None:
    f = cache_dir() / key[:2] / f"{key}.json"
    try:
        return json.loads(f.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def cache_put(key: str, result: dict) -> None:
    d = cache_dir() / key[:2]
    d.mkdir(parents=True, exist_ok=True)
    tmp = d / f".{key}.{os.getpid()}.tmp"
    tmp.write_text(json.dumps(result), encoding="utf-8")
    tmp.replace(d / f"{key}.json")      # atomic: a reader never sees half


# --- Dask ----------------------------------------------------------------------------

def client(workers: int | None = None, scheduler: str | None = None):
    """A Dask client: of the scheduler at @scheduler, or of a local cluster
    of @workers single-threaded workers (one emulator each at a time)."""
    from dask.distributed import Client, LocalCluster
    if scheduler:
        return Client(scheduler, timeout="30s")
    n = workers or os.cpu_count() or 1
    # Several emulators share the host: each then runs single-threaded
    # (sccrun's TCG choice reads this).
    os.environ["SCC_PARALLEL_RUNS"] = str(n)
    cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                           dashboard_address=None, silence_logs=40)
    return Client(cluster)
