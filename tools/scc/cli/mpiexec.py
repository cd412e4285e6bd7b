"""scc-mpiexec: run an MPI program (libscc/mpi) on N ranks, on the emulated
chip or, for a host binary (scc-mpicc --host), as N processes on the host.

    scc-mpiexec -n N [--timing] [--cores LIST] [-l] [--timeout S] PROG [ARGS...]

Rank r runs on core LIST[r] (default 0..N-1; LIST increasing, as scc-run
writes it: 0-3,8,10). Each rank's stdout and stderr lines come out as it
wrote them; -l prefixes them with "[r] ", as MPICH's mpiexec does. The
exit status is that of the first rank that failed (MPI_Abort's error code,
a fatal MPI error's class), 0 when every rank returned 0 after
MPI_Finalize, 124 at the time limit. --timing runs the chip in its timing
mode: MPI_Wtime is then modeled SCC time.
"""
from __future__ import annotations

import argparse
import sys

from scc.machine import mpirun
from scc.machine.coremap import SccRunError, parse_cores


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="scc-mpiexec", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__.split("\n\n", 1)[1])
    p.add_argument("-n", "-np", dest="n", type=int, required=True, help="number of ranks")
    p.add_argument("--cores", help="the ranks' cores (default 0..N-1)")
    p.add_argument("--timing", action="store_true", help="the chip's timing mode")
    p.add_argument("-l", dest="label", action="store_true", help="prefix lines with the rank")
    p.add_argument("--timeout", type=float, default=600, help="time limit, s (default 600)")
    p.add_argument("prog")
    p.add_argument("args", nargs=argparse.REMAINDER)
    a = p.parse_args(sys.argv[1:] if argv is None else argv)
    try:
        if a.n < 1 or a.n > 48:
            raise SccRunError(f"-n {a.n}: the chip has 48 cores")
        cores = ([c for part in a.cores.split(",") for c in parse_cores(part, 48)]
                 if a.cores else list(range(a.n)))
        if len(cores) != a.n:
            raise SccRunError(f"--cores names {len(cores)} cores for {a.n} ranks")
        out = mpirun.Output(label=a.label)
        if mpirun.is_chip_elf(a.prog):
            return mpirun.run_chip(a.prog, cores, a.args, out, timing=a.timing,
                                   timeout=a.timeout)
        if a.timing:
            raise SccRunError("--timing is the chip's: a host binary has no modeled time")
        return mpirun.run_host(a.prog, cores, a.args, out, timeout=a.timeout)
    except SccRunError as e:
        print(f"scc-mpiexec: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
