"""What the timing mode costs: the 48-core broadcast benchmark in
functional mode (single- and multi-threaded TCG) and in the timing mode,
in host wall clock seconds. Every run has a time limit.

    scc-bench-timing [--sizes 32,3072,65536] [--iters 3] [--alg SPEC]...
                     [--repeat 3]

Each mode runs once unmeasured (a first run pays for cold host caches and
memory: it took 1.5 s where the next took 0.9), then --repeat times, the
modes taking turns so that a drift of the host's speed hits all alike.
The median of each is printed, with the fastest and slowest run, and the
ratio of the medians; then the ratio pair by pair (each timing run over
the single-threaded functional run of its turn: median and range), which
a drift of the host's speed during the benchmark moves least, and the
host's load average before the first run (a loaded host slows the two
modes unequally: quote ratios from a quiet one). The issue's target is the
timing mode at most 3x single-threaded functional mode on this benchmark
(docs/timing.md).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys

from scc.machine import hosttime
from scc.machine.coremap import SccRunError


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="scc-bench-timing", description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", default="32,3072,65536")
    p.add_argument("--iters", type=int, default=3)
    p.add_argument("--alg", action="append", metavar="SPEC")
    p.add_argument("--repeat", type=int, default=3, help="measured runs of each mode (default 3)")
    p.add_argument("--timeout", type=float, default=1800, help="seconds, for each run")
    a = p.parse_args(argv)
    if a.iters < 1:
        p.error("--iters must be at least 1")
    if not 1 <= a.repeat <= 20:
        p.error("--repeat must be 1 to 20")
    algs = a.alg or ["binomial", "oc:k=7", "scatter_allgather"]
    print(f"bcast_bench on 48 cores: {', '.join(algs)}; sizes {a.sizes}; {a.iters} iterations "
          f"after 1 warm-up. Host wall clock seconds, median of {a.repeat} after one unmeasured "
          "run of each mode (fastest-slowest):", flush=True)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    try:
        times = hosttime.measure_timing_cost(hosttime.bcast_args(a.sizes, a.iters, algs),
                                             a.repeat, a.timeout)
    except SccRunError as e:
        print(f"scc-bench-timing: error: {e}", file=sys.stderr)
        return 1
    med = {name: statistics.median(t) for name, t in times.items()}
    for name, t in times.items():
        print(f"  {name:<30} {med[name]:8.2f} s  ({min(t):.2f}-{max(t):.2f})")
    single = "functional, single-threaded"
    pm, plo, phi = hosttime.paired(times["timing"], times[single])
    print(f"timing / functional single-threaded: {med['timing'] / med[single]:.1f}x")
    print(f"  pair by pair: {pm:.2f}x ({plo:.2f}-{phi:.2f}); "
          f"host load average before the first run: {load:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
