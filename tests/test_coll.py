"""Every collective algorithm against a serial reference (tests/libscc/coll.c),
on the host backend (plain, ThreadSanitizer, AddressSanitizer+UBSan) and on
the emulated chip; forcing by name and its errors; the benchmark apps.

The harness computes every member's expected output from the same formulas
that made the inputs, serially, and compares byte by byte (reductions: every
type and operator, with values whose results are exact). The list of
algorithms comes from the library itself (scc_coll_names), so a new
algorithm is tested as soon as it is registered.
"""
from __future__ import annotations

import csv
import io
import re
import subprocess

import pytest

from lib import one_cpu
from lib.abi import EXIT_STALLED
from conftest import BUILD, REPO
from scc.machine.sccrun import run_app
from test_libscc import SANITIZER_ENV, SANITIZER_MARKS, ue_args

CORE_COUNTS = [1, 2, 3, 5, 12, 24, 47, 48]
# The host's 47 and 48 UEs take the longest: 48 threads on two or so host
# CPUs. At 1 MiB + 5 one collective's every algorithm took 3 min of host wall
# clock here and over 10 min on a loaded CI machine, so these counts stop at
# BIG_UE_SIZES' 70000 bytes (still many MPB chunks a call); the
# 1 MiB + 5 size runs at every count up to 24.
BIG_UE_COUNTS = CORE_COUNTS[-2:]
BIG_UE_SIZES = "sizes=0,1,8,31,32,33,3071,3072,3104,70000"
HOST_CORE_COUNTS = [*CORE_COUNTS[:-2], *(pytest.param(n, marks=pytest.mark.slow)
                                         for n in BIG_UE_COUNTS)]
OPS = ["bcast", "reduce", "allreduce", "allgather", "alltoall", "reduce_scatter", "scatter",
       "gather", "barrier", "stop"]


def cores_of(n):
    """n cores spread over the chip: the last one is always core 47."""
    if n == 1:
        return [0]
    return sorted({round(i * 47 / (n - 1)) for i in range(n)})


def host(variant, name):
    p = BUILD / "libscc" / "rcce" / variant / name
    assert p.is_file(), f"{p} missing: run `make`"
    return p


def run_host(exe, args, timeout=600):
    import os
    env = dict(os.environ, **SANITIZER_ENV)
    r = subprocess.run([str(exe), *args], capture_output=True, text=True, timeout=timeout,
                       env=env, errors="replace", preexec_fn=one_cpu())
    why = f"exit {r.returncode}\n--- stdout\n{r.stdout[-4000:]}\n--- stderr\n{r.stderr[-4000:]}"
    for mark in SANITIZER_MARKS:
        assert mark not in r.stderr, why
    return r, why


def algorithms(op):
    """The algorithms the library registers for op, from the harness itself."""
    r, why = run_host(host("host", "tests/coll"), ue_args([0]) + [f"names={op}"], 60)
    m = re.search(rf"^NAMES {op} (.*)$", r.stdout, re.M)
    assert r.returncode == 0 and m, why
    return m.group(1).split()


MISMATCH_OPS = ["bcast", "reduce", "allreduce", "reduce_scatter", "allgather", "alltoall",
                "scatter", "gather", "stop"]


@pytest.mark.no_qemu
@pytest.mark.parametrize("op", MISMATCH_OPS)
def test_host_mismatched_sizes_are_never_silent(op):
    """Every algorithm of op with the last member's size off by 32 (and by
    -32 with the root last): some member returns an error (the program
    exits 1) or everyone waits and the stall watchdog ends the run (247).
    Exit 0 would be every member succeeding on sizes that disagree: a
    silent wrong answer."""
    import os
    env = dict(os.environ, **SANITIZER_ENV, SCC_HOST_STALL_S="0.3")
    exe = host("host", "tests/mismatch")
    for alg in algorithms(op):
        for extra in ([], ["delta=-32", "root=3"]):
            r = subprocess.run([str(exe), *ue_args([0, 1, 2, 3]), f"{op}:{alg}", *extra],
                               capture_output=True, text=True, timeout=60, env=env)
            why = f"{op}:{alg} {extra}: exit {r.returncode}\n{r.stdout[-2000:]}\n{r.stderr[-2000:]}"
            assert r.returncode in (1, EXIT_STALLED), why
            if r.returncode == 1:
                assert re.search(r"RESULT ue \d code -?[1-9]", r.stdout), why
            else:
                assert "no UE can make progress" in r.stderr, why


@pytest.mark.no_qemu
@pytest.mark.parametrize("ncores", HOST_CORE_COUNTS)
@pytest.mark.parametrize("op", OPS)
def test_host_every_algorithm(op, ncores):
    """Every algorithm of op, default sizes (0 .. 1 MiB + 5; to 70000 at 47
    and 48 UEs), first, last and middle root, k in 1, 2, 7, 47 where the
    algorithm has k, shape=1 where it has a shape."""
    cores = cores_of(ncores)
    sizes = [BIG_UE_SIZES] if ncores in BIG_UE_COUNTS else []
    r, why = run_host(host("host", "tests/coll"), ue_args(cores) + [op] + sizes)
    assert r.returncode == 0, why
    assert f"PASS coll ({ncores} UEs," in r.stdout, why
    used = {line.split()[2].split(":")[0] for line in r.stdout.splitlines()
            if line.startswith(f"USED {op} ")}
    assert used == set(algorithms(op)), (used, why)


@pytest.mark.no_qemu
@pytest.mark.parametrize("ncores", [2, 3, 5, 12, 48])
@pytest.mark.parametrize("spec", ["alltoall:blocking:order=1", "bcast:cube:blocking=1"])
def test_host_blocking_orders(spec, ncores):
    """The parameters that change the order of an algorithm's blocking
    sends (not run by test_host_every_algorithm, which takes defaults):
    every size and root right, and no member waits for ever."""
    r, why = run_host(host("host", "tests/coll"), ue_args(cores_of(ncores)) + [spec])
    assert r.returncode == 0 and "PASS coll" in r.stdout, why
    op, alg, param = spec.split(":")
    used = [line.split()[2] for line in r.stdout.splitlines() if line.startswith(f"USED {op} ")]
    assert len(used) == 1 and used[0].startswith(alg + ":") and param in used[0], why


@pytest.mark.no_qemu
@pytest.mark.parametrize("ncores", [2, 3, 5])
@pytest.mark.parametrize("op", ["bcast", "reduce", "scatter", "gather", "stop"])
def test_host_every_root(op, ncores):
    r, why = run_host(host("host", "tests/coll"),
                      ue_args(cores_of(ncores)) + [op, "roots=all", "sizes=0,1,8,33,3104,70000"])
    assert r.returncode == 0 and "PASS coll" in r.stdout, why


@pytest.mark.no_qemu
@pytest.mark.parametrize("variant,ncores", [("tsan", 5), ("tsan", 12), ("asan", 5)])
def test_sanitizers(variant, ncores):
    """Every algorithm under ThreadSanitizer / ASan+UBSan: no report."""
    r, why = run_host(host(variant, "tests/coll"),
                      ue_args(cores_of(ncores)) + ["sizes=0,1,8,33,3104,70000", "fast"], 900)
    assert r.returncode == 0 and "PASS coll" in r.stdout, why


@pytest.mark.no_qemu
def test_host_mixed_back_to_back():
    r, why = run_host(host("host", "tests/coll"), ue_args(cores_of(12)) + ["mix=3000", "fast"])
    assert r.returncode == 0 and "PASS coll (12 UEs, 3000 calls)" in r.stdout, why


@pytest.mark.no_qemu
@pytest.mark.parametrize("args,want", [
    (["bcast:nosuch"], r"bcast: unknown algorithm 'nosuch' \(known: auto, binomial"),
    (["nosuch"], r"unknown collective nosuch"),
    (["bcast:binomial:k=3"], r"bcast binomial: unknown parameter 'k' \(parameters: none\)"),
    # flat's buffers must fit the region less the root's done words:
    # refused by its check at the call
    (["bcast:flat:chunk=57,bufs=3"], r"bcast flat: chunk=57 x bufs=3 lines: more than the "
                                     r"region's 114 \(120 less 6 of done words\)"),
])
def test_forcing_errors(args, want):
    r, why = run_host(host("host", "tests/coll"), ue_args([0, 1]) + args, 60)
    assert r.returncode != 0 and re.search(want, r.stdout), why


# --- the emulated chip ---------------------------------------------------------------

CHIP_TIMEOUT = 900


@pytest.mark.parametrize("op", OPS)
def test_chip_every_algorithm(op):
    """A representative subset on 48 cores: every algorithm once, odd sizes,
    first, last and middle roots."""
    cores = list(range(48))
    which = op
    r = run_app(BUILD / "tests" / "libscc" / "coll.elf", cores=cores, timeout=CHIP_TIMEOUT,
                args=ue_args(cores) + [which, "sizes=8,33,3104", "ks=7", "fast"])
    why = f"exit {r.returncode}, timed out {r.timed_out}\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    assert not r.timed_out and r.returncode == 0, why
    assert "PASS coll (48 UEs," in "\n".join(r.core_lines().get(0, [])), why


@pytest.mark.slow
def test_chip_mixed_back_to_back():
    """10 000 back-to-back collectives of mixed algorithms, sizes and roots:
    no corruption, no deadlock (on 8 cores, to keep the run short). The
    mix includes the T&S barrier, whose members hold T&S registers while
    others still wait in earlier collectives."""
    cores = [0, 1, 2, 11, 12, 30, 46, 47]
    r = run_app(BUILD / "tests" / "libscc" / "coll.elf", cores=cores, timeout=CHIP_TIMEOUT,
                args=ue_args(cores) + ["mix=10000", "fast"])
    why = f"exit {r.returncode}, timed out {r.timed_out}\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    assert not r.timed_out and r.returncode == 0, why
    assert "PASS coll (8 UEs, 10000 calls)" in "\n".join(r.core_lines().get(0, [])), why


# --- the benchmark apps ------------------------------------------------------------------

COLUMNS = ["collective", "algorithm", "params", "clock", "cores", "root", "bytes", "iters",
           "min_us", "median_us", "max_us", "mb_per_s", "verified"]


def rows_of(text):
    """The rows of a benchmark's CSV: its `#` lines skipped; the columns
    it always had come first (the columns added since follow)."""
    body = "\n".join(l for l in text.splitlines() if not l.startswith("#"))
    rows = list(csv.DictReader(io.StringIO(body)))
    assert rows and list(rows[0])[:len(COLUMNS)] == COLUMNS, text[:500]
    return rows


@pytest.mark.no_qemu
@pytest.mark.parametrize("app,op", [("bcast_bench", "bcast"), ("allreduce_bench", "allreduce"),
                                    ("coll_bench", "alltoall")])
def test_bench_host(app, op):
    args = ue_args(cores_of(5)) + ["--sizes", "32,97,3104", "--iters", "3", "--warmup", "1",
                                   "--alg", "all", "--root", "2"]
    if app == "coll_bench":
        args += ["--op", op]
    r, why = run_host(host("host", app), args)
    assert r.returncode == 0, why
    rows = rows_of(r.stdout)
    assert {x["algorithm"] for x in rows} == set(algorithms(op)), why
    for x in rows:
        assert x["collective"] == op and x["clock"] == "host" and x["verified"] == "yes", x
        assert int(x["cores"]) == 5 and int(x["iters"]) == 3
        assert float(x["min_us"]) <= float(x["median_us"]) <= float(x["max_us"]), x
        # the root's own call time (root 2, not UE 0): a call of its own,
        # which ends no later than the last member's return
        assert 0 < float(x["root_us"]) <= float(x["median_us"]), x
    # bytes as asked (reductions: whole elements)
    assert {int(x["bytes"]) for x in rows} == ({32, 96, 3104} if op == "allreduce"
                                               else {32, 97, 3104}), why


@pytest.mark.no_qemu
@pytest.mark.parametrize("buffers", ["fresh", "reuse"])
def test_bench_check_fails_where_nothing_arrives(tmp_path, buffers):
    """The harness's own check. A test build whose broadcasts deliver nothing
    after the first two measurements (CB_SELFTEST_SKIP_AFTER) must not
    verify there, whether each receive buffer is fresh (the zeros of a new
    arena, not written again) or holds the bytes the same iteration number
    of an earlier call left (--buffers reuse, one iteration each: the
    harness zeroes those)."""
    exe = tmp_path / "bcast_selftest"
    apps = REPO / "apps"
    p = subprocess.run([str(BUILD / "venv" / "bin" / "scc-cc"), "--host", "-O2",
                        "-DCB_SELFTEST_SKIP_AFTER=2", "-I", str(apps / "lib"), "-o", str(exe),
                        str(apps / "bcast_bench.c"), str(apps / "coll" / "collbench.c"),
                        *map(str, sorted((apps / "lib").glob("*.c")))],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    r, why = run_host(exe, ue_args(cores_of(4)) + [
        "--alg", "binomial", "--alg", "binomial", "--sizes", "32,3104", "--iters", "1",
        "--warmup", "0", "--buffers", buffers])
    assert [(x["bytes"], x["verified"]) for x in rows_of(r.stdout)] == \
        [("32", "yes"), ("3104", "yes"), ("32", "NO"), ("3104", "NO")], why


@pytest.mark.no_qemu
@pytest.mark.parametrize("args,want", [
    (["--alg", "nosuch"], "unknown algorithm 'nosuch'"),
    (["--alg", "binomial:k=3"], "unknown parameter 'k'"),
    (["--root", "9"], "--root out of range"),
    (["--sizes", "abc"], "bad --sizes"),
    (["--op", "nosuch"], "unknown --op"),
    (["--copy", "fast"], "bad --copy 'fast': want libscc, rcce1 or lockstep"),
    (["--mpbt", "all"], "bad --mpbt 'all': want none, in, out or both"),
    (["--mpbt", "both"], "--mpbt both: the host backend has no memory types"),
])
def test_bench_bad_options(args, want):
    r, why = run_host(host("host", "coll_bench"), ue_args(cores_of(3)) + args, 60)
    assert r.returncode == 2 and want in r.stderr, why


@pytest.mark.no_qemu
def test_bench_list():
    r, why = run_host(host("host", "bcast_bench"), ue_args([0]) + ["--list"], 60)
    assert r.returncode == 0, why
    for a in algorithms("bcast"):
        assert re.search(rf"^  {a}\s", r.stdout, re.M), (a, why)
    # the measured defaults (tuning.json), then the papers' table behind them
    assert re.search(r"^  default, measured \(tuning.json: commit [0-9a-f]{12}", r.stdout, re.M), why
    assert "the papers' findings (first rule that holds):" in r.stdout, why
    assert "REFUSED" not in r.stdout, why


def test_bench_chip():
    cores = cores_of(5)
    r = run_app(BUILD / "apps" / "bcast_bench.elf", cores=cores, timeout=CHIP_TIMEOUT,
                args=ue_args(cores) + ["--sizes", "33,3104", "--iters", "2", "--warmup", "1",
                                       "--root", "1"])
    why = f"exit {r.returncode}, timed out {r.timed_out}\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    assert not r.timed_out and r.returncode == 0, why
    rows = rows_of(r.core_stdout(0))
    assert all(x["clock"] == "emulated" and x["verified"] == "yes" for x in rows), rows


# 24, not 48: every member reads from every other, so the work grows with
# the square of the count (48 cores: about 17 s of host time, 24: 5 s)
@pytest.mark.parametrize("ncores", [2, 5, 24])
def test_chip_alltoall_pull_reads_the_owners_memory(tmp_path, ncores):
    """alltoall `pull` on the chip, in timing mode: with every input in
    MPBT pages (--mpbt in, both) each member reads its blocks from the
    owners' DRAM, and the blocks cross no MPB: the region's MPB line
    writes per call and member stay below one block's lines per other
    member (signals only). With plain inputs (--mpbt none) it runs the
    pairwise exchange, whose MPB writes carry every line. Every member's
    result is checked against the serial reference in every case."""
    import csv
    cores = cores_of(ncores)
    size, iters = 4096, 2
    writes = {}
    for mpbt in ("none", "in", "both"):
        f = tmp_path / f"{mpbt}.csv"
        r = run_app(BUILD / "apps" / "coll_bench.elf", cores=cores, timeout=CHIP_TIMEOUT,
                    machine={"timing": "on", "timing-stats": str(f)},
                    args=ue_args(cores) + ["--op", "alltoall", "--alg", "pull", "--sizes",
                                           f"0,1,33,{size}", "--iters", str(iters),
                                           "--warmup", "1", "--mpbt", mpbt, "--regions"])
        why = f"exit {r.returncode}\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
        assert not r.timed_out and r.returncode == 0, why
        rows = rows_of(r.core_stdout(0))
        assert len(rows) == 4 and all(x["verified"] == "yes" for x in rows), rows
        with open(f, encoding="utf-8") as fh:
            w = [int(x["value"]) for x in csv.DictReader(fh)
                 if x["scope"] == "region:alltoall" and x["counter"] == "mpb_line_writes"]
        assert len(w) == ncores, w
        # the region holds every size's timed calls; the largest dominates
        writes[mpbt] = max(w) / iters
    lines = size // 32 * (ncores - 1)
    assert writes["none"] > lines, writes
    assert writes["in"] < lines / 4 and writes["both"] < lines / 4, writes


def test_bench_copy_styles_chip():
    """--copy on every member: a scatter-allgather of 64 KiB on 4 cores
    (16 KiB pieces, several MPB chunks each) verifies in every style, and
    in modeled time lockstep sends (RCCE 1.x's: a chunk put only once the
    last was taken) take longer than libscc's pipelined ones, and RCCE
    1.x's word copies, written around the caches, longer still."""
    cores = cores_of(4)
    median = {}
    for style in ("libscc", "lockstep", "rcce1"):
        r = run_app(BUILD / "apps" / "bcast_bench.elf", cores=cores, timeout=CHIP_TIMEOUT,
                    machine={"timing": "on"},
                    args=ue_args(cores) + ["--alg", "scatter_allgather", "--sizes", "65536",
                                           "--iters", "1", "--warmup", "1", "--copy", style])
        why = f"exit {r.returncode}\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
        assert not r.timed_out and r.returncode == 0, why
        [row] = rows_of(r.core_stdout(0))
        assert row["verified"] == "yes" and row["clock"] == "modeled", row
        assert f"--copy {style}" in r.core_stdout(0), why      # the command line, kept
        median[style] = float(row["median_us"])
    assert median["libscc"] * 1.2 < median["lockstep"] < median["rcce1"] / 2, median
