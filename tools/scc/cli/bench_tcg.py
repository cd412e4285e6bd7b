"""Time the functional mode's two TCG configurations: host wall clock of
hello (48 cores), pingpong (5 cores) and a 48-core broadcast, each with
--tcg single and --tcg multi, on an idle host and on one loaded by two busy
loops this tool starts and stops itself. Prints a markdown table.

    tools/scc-bench-tcg [--repeat N] [--timeout S] [--loads idle,loaded]
                        [--workloads hello,pingpong,bcast] [--note TEXT]

Every run has a time limit (--timeout, per run); the busy loops end by
themselves too, at the latest when the whole benchmark's time budget is
spent. A run that fails or times out shows as such in the table, not as a
time. The numbers are host seconds from QEMU's start to its exit (the
best of --repeat runs), which is what the choice between single and multi
changes; they depend on the host, so the table says what host it was.
"""
from __future__ import annotations

import argparse
import platform
import sys

from scc.machine import hosttime, sccrun
from scc.machine.coremap import SccRunError
from scc.machine.hosttime import BUSY_LOOPS, LOADS, TCG_MODES, WORKLOADS


def cell(times: list[float], why: str) -> str:
    if not times:
        return why
    return f"{min(times):.1f}" if len(times) == 1 else \
        f"{min(times):.1f} (of {', '.join(f'{t:.1f}' for t in times)})"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="scc-bench-tcg", description=__doc__.split("\n\n")[0])
    p.add_argument("--repeat", type=int, default=3, metavar="N",
                   help="runs of each case; the table shows the best (default %(default)s)")
    p.add_argument("--timeout", type=float, default=300, metavar="S",
                   help="time limit of each run (default %(default)g s)")
    p.add_argument("--loads", default=",".join(LOADS),
                   help="host conditions: idle, loaded (two busy loops) (default %(default)s)")
    p.add_argument("--workloads", default=",".join(WORKLOADS),
                   help=f"which of {', '.join(WORKLOADS)} (default all)")
    p.add_argument("--note", default="",
                   help="a word about the host, printed with the table (e.g. 'host busy')")
    a = p.parse_args(argv)
    loads = [x for x in a.loads.split(",") if x]
    names = [x for x in a.workloads.split(",") if x]
    if a.repeat < 1 or not 0 < a.timeout < float("inf"):
        p.error("--repeat must be at least 1 and --timeout a positive number of seconds")
    if not loads or any(x not in LOADS for x in loads):
        p.error(f"--loads takes {', '.join(LOADS)}")
    if not names or any(x not in WORKLOADS for x in names):
        p.error(f"--workloads takes {', '.join(WORKLOADS)}")
    try:
        hosttime.check_workloads(names)
    except SccRunError as e:
        print(f"scc-bench-tcg: error: {e}", file=sys.stderr)
        return 2

    def done(load, name, mode, times, why):
        print(f"scc-bench-tcg: {load:6s} {name:8s} {mode:6s} {cell(times, why)}",
              file=sys.stderr, flush=True)

    results, loadavg = hosttime.measure_tcg(loads, names, a.repeat, a.timeout, done)
    cpus = sccrun.host_cpus()
    print(f"Host wall clock, seconds (best of {a.repeat}), per TCG mode; host: "
          f"{cpus} CPUs available ({platform.machine()}), "
          + "; ".join(f"{load}: load average {loadavg[load]:.2f} at its start"
                      + (f" plus {BUSY_LOOPS} busy loops" if load == "loaded" else "")
                      for load in loads)
          + (f"; {a.note}" if a.note else "") + ".")
    print()
    cols = [(load, mode) for load in loads for mode in TCG_MODES]
    print("| workload | " + " | ".join(f"{load}, {mode}" for load, mode in cols)
          + " | auto picks |")
    print("|---|" + "---:|" * len(cols) + "---|")
    for name in names:
        auto = sccrun.choose_tcg("auto", len(WORKLOADS[name][2]), cpus=cpus, runs=1)
        print(f"| {WORKLOADS[name][0]} | "
              + " | ".join(cell(*results[(load, name, mode)]) for load, mode in cols)
              + f" | {auto} |")
    return 0 if all(times for times, _ in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
