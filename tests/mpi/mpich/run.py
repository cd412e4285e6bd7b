#!/usr/bin/env python3
"""Build and run MPICH's own test suite (its test/mpi tree, fetched by
tests/mpi/mpich/fetch.sh into build/src/mpich-tests) with scc-mpicc and
scc-mpiexec, as MPICH's runtests does: each test of the folders' testlist
with the process count it gives, passing when it exits 0 and prints
" No Errors". MTest's util files are used unchanged.

    tests/mpi/mpich/run.py [--host | --chip | --timing] [--dirs pt2pt,coll,...]
                           [--only DIR/NAME|NAME...] [--jobs N] [--timeout S]

`make mpich-tests` runs all three (MPICH_ARGS=... passes options on).
--timing runs the ten tests of TIMING (or those --only names) on the chip
in its timing mode (scc-mpiexec --timing, MPI_Wtime in modeled time).
The last line says `N passed, N failed, N not built`; above it, for
each test not built its name and the first function it lacks (or the
compiler's first error), for each failure its name and why.
"""
from __future__ import annotations

import argparse
import concurrent.futures as cf
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
SRC = REPO / "build" / "src" / "mpich-tests"
BIN = REPO / "build" / "venv" / "bin"
DIRS = ["pt2pt", "coll", "comm", "group", "datatype", "init", "attr", "errhan"]
# Ten tests that also pass in the chip's timing mode (--timing): point to
# point, collectives on world and on an intercommunicator, communicators,
# groups, attributes, at 1 to 5 ranks.
TIMING = ["pt2pt/sendrecv2", "pt2pt/anyall", "pt2pt/bsend1", "pt2pt/isendself",
          "coll/bcasttest", "coll/scantst", "coll/icbarrier", "comm/dup", "group/grouptest2",
          "attr/attrt"]
# The chip's share in `make test` (tests/test_mpi.py): a few of each folder.
CHIP_QUICK = ["pt2pt/sendrecv2", "pt2pt/isendself", "pt2pt/probenull", "coll/allredmany",
              "coll/icbcast", "coll/scantst", "comm/dup", "comm/icsplit", "group/grouptest2",
              "init/exitst1", "attr/attrt", "attr/keyval_double_free", "datatype/lbub",
              "errhan/errstring2"]
UTIL = ["util/mtest.c", "util/mtest_common.c", "util/mtest_thread.c", "util/dtypes.c",
        "dtpools/src/dtpools.c", "dtpools/src/dtpools_attr.c", "dtpools/src/dtpools_custom.c",
        "dtpools/src/dtpools_desc.c", "dtpools/src/dtpools_init_verify.c",
        "dtpools/src/dtpools_misc.c"]
CONF = Path(__file__).resolve().parent


def cc(host: bool, out: Path, srcs: list[str], extra: list[str] = ()) -> subprocess.CompletedProcess:
    """Compiled (or kept: newer than its sources, the library and this
    configuration); written under another name first, so that two runs
    (the chip's and the timing mode's) may share the outputs."""
    lib = REPO / "build" / "libscc" / "mpi" / ("host" if host else "chip") / "libmpi.a"
    deps = [Path(x) for x in srcs] + [lib, CONF / "mpitestconf.h", CONF / "dtpoolsconf.h"]
    if out.exists() and all(d.exists() and d.stat().st_mtime <= out.stat().st_mtime
                            for d in deps):
        return subprocess.CompletedProcess([], 0, "", "")
    tmp = out.with_name(f".{out.name}.{os.getpid()}.{threading.get_ident()}")
    # dtpools includes "../dtpoolsconf.h": from out/include, out's copy of ours
    inc = out.parent / "include" if out.suffix == ".o" else out.parents[1] / "include"
    cmd = [str(BIN / "scc-mpicc"), *(["--host"] if host else []), "-O1", "-w",
           "-I", str(SRC / "include"), "-I", str(SRC / "dtpools" / "include"), "-I", str(inc),
           "-I", str(CONF), *extra, "-o", str(tmp), *srcs]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if r.returncode == 0:
        os.replace(tmp, out)
    else:
        tmp.unlink(missing_ok=True)
        out.unlink(missing_ok=True)
    return r


def why_not_built(text: str) -> str:
    for pat in (r"undefined reference to `([A-Za-z_0-9]+)'", r"(multiple definition of `[A-Za-z_0-9]+')",
                r"implicit declaration of function .([A-Za-z_0-9]+).",
                r".(MPI[A-Za-z_0-9]*). undeclared"):
        m = re.search(pat, text)
        if m:
            return m.group(1)
    err = [l for l in text.splitlines() if "error" in l]
    return (err[0] if err else text.strip().splitlines()[-1] if text.strip() else "?")[:160]


def tests(dirs: list[str]) -> list[tuple[str, str, int, list[str], dict]]:
    """(dir, name, nprocs, args, options) of each testlist line; options
    holds env=... (as env), resultTest= and timeLimit=."""
    out = []
    for d in dirs:
        f = SRC / d / "testlist.in"
        for line in (f if f.exists() else SRC / d / "testlist").read_text().splitlines():
            line = line.split("#", 1)[0].strip()
            if not line or "@" in line:
                continue
            words = line.split()
            if len(words) < 2 or not words[1].isdigit():
                continue
            args = [w[4:] for w in words[2:] if w.startswith("arg=")]
            opts = {"env": dict(w[4:].split("=", 1) for w in words[2:] if w.startswith("env="))}
            for w in words[2:]:
                k, _, v = w.partition("=")
                if k in ("resultTest", "timeLimit"):
                    opts[k] = v
            out.append((d, words[0], int(words[1]), args, opts))
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    g = p.add_mutually_exclusive_group()
    g.add_argument("--host", action="store_true", default=True)
    g.add_argument("--chip", action="store_true")
    g.add_argument("--timing", action="store_true", help="the chip in timing mode: TIMING's tests")
    p.add_argument("--dirs", default=",".join(DIRS))
    p.add_argument("--only", nargs="*")
    p.add_argument("--quick", action="store_true", help="CHIP_QUICK's tests only")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--timeout", type=float, default=120)
    a = p.parse_args(argv)
    host = not (a.chip or a.timing)
    if a.timing and not a.only:
        a.only = TIMING
    if a.quick and not a.only:
        a.only = CHIP_QUICK
    t0 = time.monotonic()
    if not (SRC / "util" / "mtest.c").exists():
        print(f"{SRC} is missing: make mpich-tests-src", file=sys.stderr)
        return 2
    out = REPO / "build" / "mpich-tests" / ("host" if host else "chip")      # timing: chip's
    out.mkdir(parents=True, exist_ok=True)
    (out / "include").mkdir(exist_ok=True)
    conf = (CONF / "dtpoolsconf.h").read_text()
    if not (out / "dtpoolsconf.h").exists() or (out / "dtpoolsconf.h").read_text() != conf:
        (out / "dtpoolsconf.h").write_text(conf)
    objs = []
    for u in UTIL:
        o = out / (Path(u).stem + ".o")
        r = cc(host, o, [str(SRC / u)], ["-c"])
        if r.returncode == 0:
            objs.append(str(o))
        else:
            print(f"util/{u}: not built: {why_not_built(r.stderr)}")
    dirs = a.dirs.split(",")
    if a.only:      # the folders of DIR/NAME names, even outside --dirs
        dirs += [o.split("/")[0] for o in a.only if "/" in o and o.split("/")[0] not in dirs]
    todo = [t for t in tests(dirs)
            if (not a.only or t[1] in a.only or f"{t[0]}/{t[1]}" in a.only)
            and (SRC / t[0] / f"{t[1]}.c").exists()]     # C tests only (.cxx, .f90 aside)
    if a.timing:    # one run of each, its testlist's first
        todo = [t for k, t in enumerate(todo) if all(u[:2] != t[:2] for u in todo[:k])]
    built: dict[tuple[str, str], str | None] = {}

    def build(key):
        d, name = key
        exe = out / d / (name + ("" if host else ".elf"))
        exe.parent.mkdir(parents=True, exist_ok=True)
        r = cc(host, exe, [str(SRC / d / f"{name}.c"), *objs])
        return key, None if r.returncode == 0 else why_not_built(r.stderr + r.stdout)

    with cf.ThreadPoolExecutor(a.jobs) as ex:
        for key, why in ex.map(build, sorted({(t[0], t[1]) for t in todo})):
            built[key] = why

    def run(t):
        d, name, n, args, opts = t
        exe = out / d / (name + ("" if host else ".elf"))
        limit = min(float(opts.get("timeLimit", a.timeout)), a.timeout)
        try:
            r = subprocess.run([str(BIN / "scc-mpiexec"), "-n", str(n), "--timeout",
                                str(limit), *(["--timing"] if a.timing else []), str(exe),
                                *args], capture_output=True,
                               text=True, errors="replace", timeout=limit + 60,
                               env={**os.environ, **opts["env"], "SCC_HOST_STALL_S": "10"},
                               stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            return t, "timed out"
        if opts.get("resultTest") in ("TestStatus", "TestErrFatal"):
            # these pass only when the run fails (runtests' TestStatus/TestErrFatal)
            return t, None if r.returncode else "exit 0 where a failure was expected"
        # runtests: " No Errors" (or "No errors"), and no other output at all
        lines = [l for l in (r.stdout + r.stderr).splitlines() if l.strip()]
        noerr = [l for l in lines if re.match(r"^\s*No [Ee]rrors\s*$", l)]
        other = [l for l in lines if not re.match(r"^\s*(No [Ee]rrors|Test Passed)\s*$", l)]
        if r.returncode == 0 and noerr and not other:
            return t, None
        if r.returncode == 0 and noerr:
            return t, f"unexpected output: {other[0][:160]}"
        tail = (r.stderr.strip().splitlines() or r.stdout.strip().splitlines() or ["?"])
        errs = [l for l in r.stderr.splitlines() if l.startswith(("MPI rank", "MPI:", "MPI_Abort"))]
        # the program's own words first (the chip's machine adds its core states after them)
        said = [l for l in (r.stdout + "\n" + r.stderr).splitlines() if l.strip() and
                not l.startswith(("qemu-system", "scc-mpiexec")) and
                not re.match(r"^\s*No [Ee]rrors\s*$", l)]
        why = {124: "timed out", 247: "deadlock (no rank can make progress)"}.get(r.returncode)
        return t, f"exit {r.returncode}: {(errs or ([why] if why else said or tail))[-1][:160]}"

    t_built = time.monotonic()
    runnable = [t for t in todo if built[(t[0], t[1])] is None]
    passed = failed = 0
    with cf.ThreadPoolExecutor(a.jobs) as ex:
        for t, why in ex.map(run, runnable):
            label = f"{t[0]}/{t[1]} -n {t[2]}{' ' + ' '.join(t[3]) if t[3] else ''}"
            if why is None:
                passed += 1
            else:
                failed += 1
                print(f"FAIL {label}: {why}")
            sys.stdout.flush()
    nb = [t for t in todo if built[(t[0], t[1])] is not None]
    for t in nb:
        print(f"NOT BUILT {t[0]}/{t[1]}: {built[(t[0], t[1])]}")
    where = "host" if host else "chip, timing mode" if a.timing else "chip"
    t1 = time.monotonic()
    print(f"({where}: {len(todo)} testlist entries, {t1 - t0:.0f} s host wall clock: "
          f"{t_built - t0:.0f} s building, {t1 - t_built:.0f} s running)")
    print(f"{passed} passed, {failed} failed, {len(nb)} not built")
    return 0 if not failed else 1


if __name__ == "__main__":
    sys.exit(main())
