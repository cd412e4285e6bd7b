"""scc-mpicc: compile and link an MPI program (libscc/mpi, `#include <mpi.h>`)
for the emulated SCC, or with --host for the host (one process per rank,
run by scc-mpiexec).

    scc-mpicc [--host] [-show] [scc-cc's flags...] FILES...

The flags are scc-cc's (scc-cc --help), with MPI's header and library
added (build/sdk/scc-mpicc.json, written by `make`). -show prints the
commands it would run, as MPICH's mpicc does, and runs nothing.
"""
from __future__ import annotations

import json
import os
import sys

from scc.cli import cc
from scc.machine import sdk
from scc.machine.sdk import CcError
from scc.paths import BUILD, REPO

MPI_SDK = BUILD / "sdk" / "scc-mpicc.json"


def _abs(token: str) -> str:
    if token.startswith("-") or os.path.isabs(token):
        return token
    return str(REPO / token)


def mpi_flags(host: bool) -> dict:
    """scc-cc's flags with MPI's added."""
    f = sdk.flags()
    try:
        m = json.loads(MPI_SDK.read_text(encoding="utf-8"))
    except OSError:
        raise CcError(f"{MPI_SDK} is missing: run `make` in {REPO} first") from None
    m = {k: [_abs(t) for t in v] for k, v in m.items()}
    need = m["host_needs" if host else "chip_needs"]
    missing = [p for p in need if not os.path.exists(p)]
    if missing:
        raise CcError(f"{missing[0]} is missing: run `make libscc-mpi` in {REPO} first")
    for side in ("chip", "host"):
        f[f"{side}_cflags"] = f[f"{side}_cflags"] + m["cflags"]
    f["chip_libs"] = m["chip_libs"] + f["chip_libs"]
    f["host_libs"] = m["host_libs"]
    return f


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    show = "-show" in argv
    argv = [a for a in argv if a != "-show"]
    try:
        a = cc.parse(argv)
        if a["print"] == "help":
            print(__doc__.strip())
            return 0
        f = mpi_flags(a["host"])
        if a["print"]:
            for k, v in sdk.flag_parts(f, a["host"]).items():
                print(f"{k}: {' '.join(v)}")
            return 0
        if not a["sources"] and not a["objects"]:
            raise CcError("no input files (scc-mpicc --help)")
        if show:
            def run(cmd: list[str], verbose: bool) -> None:
                print(" ".join(cmd))
            sdk.run = run
        if a["compile_only"]:
            sdk.compile_only(f, a["host"], a["sources"], a["cflags"], a["out"], a["verbose"])
        else:
            sdk.link(f, a["host"], a["sources"], a["objects"], a["cflags"], a["ldpaths"],
                     a["libs"], a["out"] or "a.out", a["verbose"])
        return 0
    except CcError as e:
        print(f"scc-mpicc: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
