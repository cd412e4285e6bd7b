"""Running an experiment's points: on Dask workers (a local cluster, an
existing scheduler, or a Slurm/PBS cluster through dask-jobqueue), each
point once, with a time limit, its result cached when it is modeled.

A point's result is a dict (plain data, so it travels between Dask
processes and machines): its rows (the app's CSV, one dict a row), its
status ("ok", "failed", "timeout", "error"), why it ended, the tail of its
console, and the host wall time it took.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from scc.bench import outputs, provenance
from scc.bench.experiment import Point
from scc.machine import coremap, sccrun
from scc.paths import BUILD

TAIL = 3000     # characters of console kept for a point that failed


# A line that says something went wrong (an app's usage error, a wrong
# result, a refusal), as against a summary line on stderr.
_ERROR_WORDS = re.compile(r"\b(error|unknown|bad|usage|invalid|fail\w*|wrong|refus\w*|cannot|"
                          r"can't|lacks?|needs?|must|not)\b", re.I)


def first_error(lines) -> str:
    """The first of @lines (an app's stderr) that says what went wrong,
    whole; else its first line; "" if it wrote none."""
    lines = [l.strip() for l in lines if l.strip()]
    for line in lines:
        if _ERROR_WORDS.search(line):
            return line
    return lines[0] if lines else ""


def _app_error(r, core: int | None) -> str:
    """The app's first error line: of the core that failed, else of the
    first core that wrote to stderr."""
    lines = r.core_lines("stderr")      # {core: its lines}, pieces joined
    if core is not None and first_error(lines.get(core, [])):
        return first_error(lines[core])
    for text in lines.values():
        if first_error(text):
            return first_error(text)
    return ""


def why_failed(r) -> str:
    """Why a run failed: scc-run's reason (the core that failed and how),
    then the app's first error line, whole."""
    if r.timed_out:
        return "time limit"
    why, core = f"exit status {r.returncode}", None
    for line in r.stderr.splitlines():
        m = re.search(r"scc: (core (\d+) failed.*|stopping the run.*|no core can make progress.*)",
                      line)
        if m:
            why = m.group(1)
            core = int(m.group(2)) if m.group(2) else None
            break
    said = _app_error(r, core)
    return f"{why}: {said}" if said else why


def core_map(point: Point) -> tuple[str, dict[str, str]]:
    """The core map of a point with other apps: its text (a line for the
    app, one for each other app, all with the point's kernel options; the
    cores in no line held in reset) and {name in the map: file}, the
    links it expects beside it (kernel.elf, and each app by its file name,
    the app's argv[0] as run_app gives it)."""
    ncores = coremap.machine_cores(point.machine)
    kernel = sccrun.default_kernel()
    files = {"kernel.elf": kernel}
    lines = ["# written by scc-bench: the kernel, its options, each app as its module on its",
             "# cores, then the app's arguments (cores in no line are held in reset)"]
    for app, cores, args in [(point.app, point.cores, point.args),
                             *((o.app, o.cores, o.args) for o in point.other)]:
        name = coremap.app_link_name(app)
        files[name] = app
        text = coremap.app_coremap(name, kernel="kernel.elf", cores=list(cores),
                                   args=list(args), kernel_opts=point.kernel or None,
                                   ncores=ncores)
        lines += [l for l in text.splitlines() if l and not l.startswith("#")]
    return "\n".join(lines) + "\n", files


def _run_with_others(point: Point, machine: dict, timeout: float):
    """sccrun.run_app for a point with other apps: its core map and links
    in a temporary directory, removed afterwards."""
    text, files = core_map(point)
    for name, path in files.items():
        sccrun.check_file("kernel" if name == "kernel.elf" else "application", path,
                          ": run `make` first to build it")
    tmp = tempfile.mkdtemp(prefix="scc-bench-")
    try:
        if "," in tmp:
            raise coremap.SccRunError(f"temporary directory {tmp} has a ',' in its name "
                                     "(check TMPDIR)")
        for name, path in files.items():
            os.symlink(os.path.abspath(path), os.path.join(tmp, name))
        cmap = os.path.join(tmp, "cores.map")
        with open(cmap, "w", encoding="utf-8") as f:
            f.write(text)
        started = len(point.cores) + sum(len(o.cores) for o in point.other)
        return sccrun.run(coremap=cmap, machine=machine, timeout=timeout, started=started)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _run_chip(point: Point) -> tuple[str, str, str, str]:
    machine = dict(point.machine)
    if point.mode == "timing":
        machine["timing"] = "on"
    if point.other:
        r = _run_with_others(point, machine, point.timeout)
    else:
        r = sccrun.run_app(point.app, cores=list(point.cores), args=list(point.args),
                           kernel_opts=point.kernel or None, machine=machine,
                           timeout=point.timeout)
    status = "timeout" if r.timed_out else ("ok" if r.returncode == 0 else "failed")
    report = min(point.cores)
    return status, ("" if status == "ok" else why_failed(r)), r.core_stdout(report), \
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
    said = first_error(p.stderr.splitlines())
    why = f"exit status {p.returncode}" + (f": {said}" if said else "")
    return status, ("" if status == "ok" else why), p.stdout, \
        (p.stdout[-TAIL:] + "\n" + p.stderr[-TAIL:])


def run_point(point: Point) -> dict:
    """Run one point (on whichever worker Dask chose): its result dict."""
    start, t0 = provenance.now(), time.monotonic()
    host = socket.gethostname()
    try:
        status, why, out, tail = (_run_host if point.backend == "host" else _run_chip)(point)
    except coremap.SccRunError as e:
        status, why, out, tail = "error", str(e), "", ""
    rows: list[dict] = []
    fmt = getattr(point, "output", "csv")
    comments = outputs.comments(out)
    what = "CSV" if fmt == "csv" else f"{fmt} output"
    if status == "ok":
        try:
            rows, comments = outputs.parse(fmt, out)
        except Exception as e:          # a malformed table is the point's failure
            status, why, tail = "failed", f"its {what} does not parse: {e}", out[-TAIL:]
        if status == "ok" and not rows:
            status, why, tail = "failed", f"it printed no {what} rows", out[-TAIL:]
    return {"rows": rows, "status": status, "why": why, "tail": "" if status == "ok" else tail,
            "wall_s": round(time.monotonic() - t0, 3), "host": host, "start": start,
            "csv_comments": comments}


# --- the cache --------------------------------------------------------------------

def cache_dir() -> Path:
    return Path(os.environ.get("SCC_BENCH_CACHE") or BUILD / "bench-cache")


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
