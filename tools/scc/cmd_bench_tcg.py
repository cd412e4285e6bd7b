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
import os
import platform
import signal
import subprocess
import sys
import time


from scc import sccrun

BUILD = sccrun.REPO / "build"
ALL48 = list(range(48))
FIVE = [0, 1, 2, 11, 47]        # the pingpong of tests/test_libscc.py


def ue_args(cores: list[int]) -> list[str]:
    """RCCE_init's words: the UE count, a clock, the core ids."""
    return [str(len(cores)), "0.533", *map(str, cores)]


# name -> (what, app, cores, arguments)
WORKLOADS = {
    "hello": ("hello, 48 cores", BUILD / "apps" / "hello.elf", ALL48, []),
    "pingpong": ("pingpong, cores 0,1,2,11,47, 32 B-1 MiB, 8 MiB a size",
                 BUILD / "apps" / "pingpong.elf", FIVE, ue_args(FIVE)),
    "bcast": ("bcast_bench, 48 cores, 4 algorithms, 32 B-64 KiB, 5 iterations",
              BUILD / "apps" / "bcast_bench.elf", ALL48,
              ue_args(ALL48) + ["--sizes", "32,4096,65536", "--iters", "5", "--warmup", "1",
                                "--alg", "binomial", "--alg", "scatter_allgather",
                                "--alg", "oc:k=7", "--alg", "oc_tile:k=7"]),
}
MODES = ("single", "multi")
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
    for n in names:
        try:
            sccrun.check_file("application", str(WORKLOADS[n][1]), ": run `make` first")
        except sccrun.SccRunError as e:
            print(f"scc-bench-tcg: error: {e}", file=sys.stderr)
            return 2

    # The busy loops end by themselves once every run could have timed out.
    budget = a.timeout * a.repeat * len(names) * len(MODES) + 60
    results: dict[tuple[str, str, str], tuple[list[float], str]] = {}
    loadavg: dict[str, float] = {}
    for load in loads:
        loops = start_busy_loops(BUSY_LOOPS, budget) if load == "loaded" else []
        try:
            if loops:
                time.sleep(1)   # let them take their CPUs
            loadavg[load] = os.getloadavg()[0]
            for name in names:
                for mode in MODES:
                    times, why = [], ""
                    for _ in range(a.repeat):
                        t, why = one_run(name, mode, a.timeout)
                        if t is None:
                            times = []
                            break
                        times.append(t)
                    results[(load, name, mode)] = (times, why)
                    print(f"scc-bench-tcg: {load:6s} {name:8s} {mode:6s} "
                          f"{cell(times, why)}", file=sys.stderr, flush=True)
        finally:
            stop_busy_loops(loops)

    cpus = sccrun.host_cpus()
    print(f"Host wall clock, seconds (best of {a.repeat}), per TCG mode; host: "
          f"{cpus} CPUs available ({platform.machine()}), "
          + "; ".join(f"{load}: load average {loadavg[load]:.2f} at its start"
                      + (f" plus {BUSY_LOOPS} busy loops" if load == "loaded" else "")
                      for load in loads)
          + (f"; {a.note}" if a.note else "") + ".")
    print()
    cols = [(load, mode) for load in loads for mode in MODES]
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
