"""Where a result came from: the build, the machine, the host, the inputs'
content hashes (which also key the result cache)."""
from __future__ import annotations

import datetime
import functools
import hashlib
import json
import os
import platform
import socket
import subprocess
import sys
from pathlib import Path

from scc.machine import coremap, sccrun
from scc.paths import BUILD, REPO


@functools.lru_cache(maxsize=None)
def _hash_cached(path: str, size: int, mtime_ns: int) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def file_hash(path: str | Path) -> str:
    """SHA-256 of a file's content ("missing" if there is none)."""
    try:
        st = os.stat(path)
    except OSError:
        return "missing"
    return _hash_cached(str(path), st.st_size, st.st_mtime_ns)


def git(*args: str) -> str:
    try:
        return subprocess.run(["git", *args], cwd=REPO, capture_output=True,
                              text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return ""


@functools.lru_cache(maxsize=1)
def build_info() -> dict:
    """The project's commit and whether the tree differs from it."""
    commit = git("rev-parse", "HEAD") or "unknown"
    dirty = bool(git("status", "--porcelain", "--untracked-files=no")) if commit != "unknown" else None
    return {"commit": commit, "dirty": dirty}


@functools.lru_cache(maxsize=1)
def qemu_version() -> str:
    f = BUILD / "qemu-version.txt"
    try:
        return f.read_text(encoding="utf-8").strip().splitlines()[0]
    except (OSError, IndexError):
        return "unknown"


def inputs(point) -> dict:
    """The content hashes of everything a run of @point executes."""
    files = {"app": point.app}
    for i, o in enumerate(getattr(point, "other", ())):
        files[f"other{i}"] = o.app
    if point.backend == "chip":
        files.update(qemu=sccrun.qemu_binary(), kernel=sccrun.default_kernel(),
                     boot=sccrun.boot_elf())
    return {k: file_hash(v) for k, v in files.items()}


def cache_key(point, hashes: dict | None = None) -> str:
    """Everything that decides a modeled result: the binaries' content and
    the point's arguments, machine and kernel options, cores and mode."""
    doc = {
        "inputs": hashes if hashes is not None else inputs(point),
        "backend": point.backend, "mode": point.mode, "cores": list(point.cores),
        "machine": dict(sorted(point.machine.items())),
        "kernel": dict(sorted(point.kernel.items())),
        "args": list(point.args),
    }
    if getattr(point, "other", ()):    # (absent without: the keys of before stay valid)
        doc["other"] = [{"cores": list(o.cores), "args": list(o.args)} for o in point.other]
    if getattr(point, "output", "csv") != "csv":   # the rows a cached result holds
        doc["output"] = point.output
    return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()


def now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def row_columns(point, host: str, start: str) -> dict:
    """The provenance columns every row of @point carries."""
    b = build_info()
    return {
        "experiment": point.experiment, "point": point.index,
        "commit": b["commit"], "dirty": b["dirty"], "qemu_version": qemu_version(),
        "backend": point.backend, "mode": point.mode, "clock": point.clock,
        "machine": json.dumps(point.machine, sort_keys=True),
        "kernel_options": " ".join(f"{k}={v}" for k, v in point.kernel.items()),
        "app": Path(point.app).name, "app_args": " ".join(point.args),
        "core_list": coremap.format_cores(list(point.cores)),
        "host": host, "start_time": start,
    } | ({"other_apps": "; ".join(o.label() for o in point.other)}
         if getattr(point, "other", ()) else {})


def environment() -> dict:
    """The manifest's account of the host and the software."""
    import importlib.metadata as md
    pkgs = {}
    for name in ("dask", "distributed", "pandas", "matplotlib", "rich", "numpy"):
        try:
            pkgs[name] = md.version(name)
        except md.PackageNotFoundError:
            pass
    return {**build_info(), "qemu_version": qemu_version(), "host": socket.gethostname(),
            "platform": platform.platform(), "python": sys.version.split()[0],
            "cpus": os.cpu_count(), "packages": pkgs, "time": now()}
