"""The demo `make run` shows: a 48-core broadcast comparison on the emulated
chip, printed as a table.

Runs build/apps/bcast_bench.elf on all 48 cores (the per-core kernel, one
UE per core) with RCCE_comm's binomial tree, RCCE_comm's scatter-allgather,
OC-Bcast with k=7 and libscc's default (auto: what its tuning file
measured fastest at each size), over a few sizes, and prints
the median latency of each (from the root's call to the last member's
return) and the throughput. Every result is checked in every iteration.

    scc-bcast-demo [--sizes 32,4096,65536] [--iters N] [--alg SPEC]... [--csv FILE]

The times are modeled SCC time: the machine runs in its timing mode
(timing=on), so they are the same on every run and every host. With
--functional the machine runs in functional mode and the times are the
emulator's clock: host time expressed in SCC units.
"""
from __future__ import annotations

import argparse
import csv
import io
import sys

from scc.bench.experiment import ExperimentError, parse_size
from scc.bench.tuning import spec_of
from scc.machine import sccrun
from scc.machine.coremap import SccRunError, rcce_words
from scc.paths import BUILD

# The papers' broadcasts next to libscc's default: `auto` takes, for each
# size, the algorithm its tuning file measured fastest on 48 cores
# (libscc/src/coll/tuning.json, made by `scc-bench tune`).
DEFAULT_ALGS = ["binomial", "scatter_allgather", "oc:k=7", "auto"]
WHO = {"binomial": "RCCE_comm", "scatter_allgather": "RCCE_comm", "oc:k=7": "OC-Bcast, 001",
       "auto": "libscc's default"}


def _groups(rows: list[dict], sizes: list[int], algs: list[str]) -> list[tuple[str, list]]:
    """(spec, its rows) in the order of the specs. The benchmark prints every
    size of one spec before the next, so whole runs of len(sizes) rows are
    one spec each, `auto` included (whose algorithm may change with the
    size); otherwise rows are told apart by algorithm and parameters (oc:k=2
    and oc:k=47 are both "oc")."""
    if len(rows) == len(algs) * len(sizes):
        return [(spec, rows[i * len(sizes):(i + 1) * len(sizes)])
                for i, spec in enumerate(algs)]
    variants: list[tuple[str, str]] = []
    for r in rows:
        v = (r["algorithm"], r["params"])
        if v not in variants:
            variants.append(v)
    return [(spec_of(a, p), [r for r in rows if (r["algorithm"], r["params"]) == (a, p)])
            for a, p in variants]


def table(rows: list[dict], sizes: list[int], algs: list[str]) -> str:
    """The median latencies and throughputs, a line per --alg spec, and what
    `auto` ran at each size."""
    groups = _groups(rows, sizes, algs)

    def label(spec: str) -> str:
        return f"{spec} ({WHO[spec]})" if spec in WHO else spec

    width = max([26] + [len(label(s)) + 2 for s, _ in groups])
    head = f"{'algorithm':<{width}}" + "".join(f"{s:>12} B" for s in sizes)
    lines = [head, "-" * len(head)]
    cells_of = {}
    for spec, rs in groups:
        by = {int(r["bytes"]): r for r in rs}
        cells_of[spec] = [by.get(s) for s in sizes]
        cells = []
        for r in cells_of[spec]:
            mark = "" if r is None or r["verified"] == "yes" else " WRONG"
            cells.append(f"{'-':>14}" if r is None else
                         f"{float(r['median_us']):>11.1f} us{mark}")
        lines.append(f"{label(spec):<{width}}" + "".join(cells))
    lines.append("")
    lines.append(f"{'throughput (MB/s)':<{width}}" + "".join(f"{s:>12} B" for s in sizes))
    for spec, _ in groups:
        lines.append(f"{label(spec):<{width}}" + "".join(
            f"{'-':>14}" if r is None else f"{float(r['mb_per_s']):>14.2f}"
            for r in cells_of[spec]))
    for spec, _ in groups:
        if spec == "auto":
            ran = [f"{spec_of(r['algorithm'], r['params'])} ({s} B)"
                   for s, r in zip(sizes, cells_of[spec]) if r is not None]
            lines.append("")
            lines.append("auto ran: " + ", ".join(ran))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="scc-bcast-demo", description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", default="32,4096,65536")
    p.add_argument("--iters", type=int, default=3)
    p.add_argument("--alg", action="append", metavar="SPEC",
                   help=f"an algorithm spec, repeatable (default: {' '.join(DEFAULT_ALGS)})")
    p.add_argument("--csv", metavar="FILE",
                   help="also write the benchmark's CSV here (with its `#` lines)")
    p.add_argument("--timeout", type=float, default=600)
    p.add_argument("--functional", action="store_true",
                   help="functional mode: faster, but times are host speed, not SCC time")
    a = p.parse_args(argv)
    try:
        sizes = [parse_size(s) for s in a.sizes.split(",")]
    except ExperimentError:
        p.error("--sizes takes sizes separated by commas (32, 4K, 1M)")
    if a.iters < 1 or any(s < 0 for s in sizes):
        p.error("--iters must be at least 1 and sizes not negative")
    algs = a.alg or DEFAULT_ALGS
    cores = list(range(48))
    app = BUILD / "apps" / "bcast_bench.elf"
    args = [*rcce_words(cores), "--sizes", ",".join(map(str, sizes)),
            "--iters", str(a.iters),
            "--warmup", "1"]
    for spec in algs:
        args += ["--alg", spec]
    print(f"Broadcast on 48 emulated SCC cores: {', '.join(algs)}; median of {a.iters} "
          "calls after 1 warm-up, root 0, every result verified.", flush=True)
    try:
        r = sccrun.run_app(app, cores=cores, args=args, timeout=a.timeout,
                           machine=None if a.functional else {"timing": "on"})
    except SccRunError as e:
        print(f"scc-bcast-demo: error: {e}", file=sys.stderr)
        return 2
    # UE 0's stdout is the CSV: `#` lines (command, commit, clocks), then
    # the header row and the rows (the summary went to its stderr).
    out = r.core_stdout(0)
    text = "\n".join(l for l in out.splitlines() if l and not l.startswith("#"))
    if r.timed_out or r.returncode != 0 or not text.startswith("collective,"):
        sys.stderr.write(r.stderr[-3000:])
        print(f"scc-bcast-demo: the benchmark failed (exit {r.returncode}, "
              f"timed out {r.timed_out})", file=sys.stderr)
        return 1
    rows = list(csv.DictReader(io.StringIO(text)))
    if a.csv:
        with open(a.csv, "w", encoding="utf-8") as f:
            f.write(out)
    print()
    print(table(rows, sizes, algs))
    print()
    if rows[0]["clock"] == "modeled":
        print("Times: modeled SCC time (clock=modeled; the machine's timing mode), "
              f"identical on every run. QEMU ran {r.elapsed:.1f} s of host wall clock.")
    else:
        print(f"Times: the emulator's clock in functional mode ({rows[0]['clock']}): host time "
              f"in SCC units, not modeled SCC time. QEMU ran {r.elapsed:.1f} s of host "
              "wall clock.")
    return 0 if all(x["verified"] == "yes" for x in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
