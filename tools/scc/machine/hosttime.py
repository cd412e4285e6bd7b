"""What runs of the machine cost in host wall clock: functional mode's two
TCG configurations, single- and multi-threaded, on an idle host and on
one loaded by busy loops (scc-bench-tcg, docs/functional-mode.md), and
the timing mode against functional mode on the 48-core broadcast
benchmark (scc-bench-timing, docs/timing.md). Every run has a time limit;
the busy loops end by themselves too.
"""
from __future__ import annotations

import os
import signal
import statistics
import subprocess
import sys
import time
from typing import Callable

from scc.machine import sccrun
from scc.machine.coremap import SccRunError, rcce_words
from scc.paths import BUILD

# --- scc-bench-tcg: single against multi ------------------------------------------

ALL48 = list(range(48))
FIVE = [0, 1, 2, 11, 47]        # the pingpong of tests/test_libscc.py

# name -> (what, app, cores, arguments)
WORKLOADS = {
    "hello": ("hello, 48 cores", BUILD / "apps" / "hello.elf", ALL48, []),
    "pingpong": ("pingpong, cores 0,1,2,11,47, 32 B-1 MiB, 8 MiB a size",
                 BUILD / "apps" / "pingpong.elf", FIVE, rcce_words(FIVE)),
    "bcast": ("bcast_bench, 48 cores, 4 algorithms, 32 B-64 KiB, 5 iterations",
              BUILD / "apps" / "bcast_bench.elf", ALL48,
              rcce_words(ALL48) + ["--sizes", "32,4096,65536", "--iters", "5", "--warmup", "1",
                                   "--alg", "binomial", "--alg", "scatter_allgather",
                                   "--alg", "oc:k=7", "--alg", "oc_tile:k=7"]),
}
TCG_MODES = ("single", "multi")
LOADS = ("idle", "loaded")
BUSY_LOOPS = 2


def start_busy_loops(n: int, limit: float) -> list[subprocess.Popen]:
    """n processes that spin until killed, or for `limit` seconds at most."""
    code = f"import time\nend = time.monotonic() + {limit:.0f}\nwhile time.monotonic() < end: pass\n"
    return [subprocess.Popen([sys.executable, "-c", code], start_new_session=True,
                             stdin=subprocess.DEVNULL)
            for _ in range(n)]


def stop_busy_loops(procs: list[subprocess.Popen]) -> None:
    for p in procs:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    for p in procs:
        p.wait()


def one_run(name: str, mode: str, timeout: float) -> tuple[float | None, str]:
    """(seconds, "") or (None, why it has no time)."""
    _, app, cores, args = WORKLOADS[name]
    r = sccrun.run_app(app, cores=cores, args=args, timeout=timeout, tcg=mode)
    if r.timed_out:
        return None, f"timeout ({timeout:g} s)"
    if r.returncode != 0:
        return None, f"failed ({r.returncode})"
    return r.elapsed, ""


def check_workloads(names: list[str]) -> None:
    """SccRunError unless every workload's app is built."""
    for n in names:
        sccrun.check_file("application", str(WORKLOADS[n][1]), ": run `make` first")


def measure_tcg(loads: list[str], names: list[str], repeat: int, timeout: float,
                done: Callable[[str, str, str, list[float], str], None] | None = None):
    """Each workload in each TCG mode under each load, `repeat` times (a
    failed run ends its case). Returns ({(load, name, mode): (times, why)},
    {load: the load average at its start}); done(load, name, mode, times,
    why) after each case."""
    # The busy loops end by themselves once every run could have timed out.
    budget = timeout * repeat * len(names) * len(TCG_MODES) + 60
    results: dict[tuple[str, str, str], tuple[list[float], str]] = {}
    loadavg: dict[str, float] = {}
    for load in loads:
        loops = start_busy_loops(BUSY_LOOPS, budget) if load == "loaded" else []
        try:
            if loops:
                time.sleep(1)   # let them take their CPUs
            loadavg[load] = os.getloadavg()[0]
            for name in names:
                for mode in TCG_MODES:
                    times, why = [], ""
                    for _ in range(repeat):
                        t, why = one_run(name, mode, timeout)
                        if t is None:
                            times = []
                            break
                        times.append(t)
                    results[(load, name, mode)] = (times, why)
                    if done:
                        done(load, name, mode, times, why)
        finally:
            stop_busy_loops(loops)
    return results, loadavg


# --- scc-bench-timing: the timing mode against functional mode ---------------------------

TIMING_MODES = (("functional, single-threaded", {"tcg": "single"}),
                ("functional, multi-threaded", {"tcg": "multi"}),
                ("timing", {"machine": {"timing": "on"}}))
BCAST_BENCH = BUILD / "apps" / "bcast_bench.elf"


def bcast_args(sizes: str, iters: int, algs: list[str]) -> list[str]:
    """bcast_bench's words on 48 cores: RCCE's, then sizes, iterations after
    one warm-up, and each algorithm."""
    args = [*rcce_words(ALL48), "--sizes", sizes, "--iters", str(iters), "--warmup", "1"]
    for spec in algs:
        args += ["--alg", spec]
    return args


def run_once(app, args, kw, timeout) -> float:
    t = time.monotonic()
    r = sccrun.run_app(app, cores="all", args=args, timeout=timeout, **kw)
    took = time.monotonic() - t
    if r.returncode != 0 or r.timed_out or ",NO" in r.stdout:
        raise SccRunError(f"the run failed (exit {r.returncode}"
                          f"{', timed out' if r.timed_out else ''}): {r.stderr[-300:]}")
    return took


def measure_timing_cost(args: list[str], repeat: int, timeout: float) -> dict[str, list[float]]:
    """Each mode once unmeasured (a first run pays for cold host caches),
    then `repeat` times, the modes taking turns so that a drift of the
    host's speed hits all alike: {mode: its measured seconds}."""
    times: dict[str, list[float]] = {name: [] for name, _ in TIMING_MODES}
    for rep in range(repeat + 1):
        for name, kw in TIMING_MODES:
            took = run_once(BCAST_BENCH, args, kw, timeout)
            if rep:
                times[name].append(took)
    return times


def paired(a: list[float], b: list[float]) -> tuple[float, float, float]:
    """The ratios a[i] / b[i] of runs taken in the same turn: (median, least, most)."""
    if not a or len(a) != len(b):
        raise ValueError("paired: two lists of runs of the same, nonzero length")
    r = [x / y for x, y in zip(a, b)]
    return statistics.median(r), min(r), max(r)
