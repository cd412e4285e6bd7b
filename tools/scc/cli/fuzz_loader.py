"""Fuzz the scc machine's ELF loader: mutated kernels, core-map images and
boot stubs, each run once in QEMU with a time limit. Prints one line per
path with the outcomes and exits 1 if QEMU ever crashed.

    scc-fuzz-loader [--cases N] [--seed S] [--paths kernel,coremap,stub]
                    [--kernel ELF] [--stub ELF] [--timeout S] [--jobs J]

The default kernel is build/tests/guest/ids.elf (it boots, prints and
exits at once), the default stub build/boot/scc-boot.elf.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

from scc.machine import loaderfuzz, sccrun
from scc.paths import BUILD


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="scc-fuzz-loader", description=__doc__.split("\n\n")[0])
    p.add_argument("--cases", type=int, default=1000, help="cases per path (default 1000)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--paths", default=",".join(loaderfuzz.PATHS))
    p.add_argument("--kernel", default=str(BUILD / "tests" / "guest" / "ids.elf"))
    p.add_argument("--stub", default=sccrun.boot_elf())
    p.add_argument("--timeout", type=float, default=10.0, help="per case, seconds")
    p.add_argument("--jobs", type=int, default=2)
    a = p.parse_args(argv)
    paths = a.paths.split(",")
    bad = [x for x in paths if x not in loaderfuzz.PATHS]
    if bad or a.cases < 1 or a.jobs < 1 or not a.timeout > 0:
        p.error(f"--paths takes {','.join(loaderfuzz.PATHS)}; --cases, --jobs, --timeout > 0")
    for f in (a.kernel, a.stub):
        if not os.path.isfile(f):
            p.error(f"{f} not found: run `make` first")
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="scc-fuzz-") as tmp:
        stats = loaderfuzz.fuzz(a.kernel, a.stub, cases=a.cases, seed=a.seed, workdir=tmp,
                                paths=paths, timeout=a.timeout, jobs=a.jobs)
    print(f"path,cases,refused,ran,time-limit,crash  (seed {a.seed}, "
          f"{time.monotonic() - t0:.0f} s host wall clock)")
    for path in paths:
        print(",".join([path, str(stats.count(path=path))] +
                       [str(stats.count(k, path)) for k in ("refused", "ran", "time-limit", "crash")]))
    for o in stats.crashes()[:20]:
        print(f"CRASH {o.path} case {o.case} ({o.mutation}): {o.detail}")
    return 1 if stats.crashes() else 0


if __name__ == "__main__":
    sys.exit(main())
