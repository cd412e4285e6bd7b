"""MPI on libscc (libscc/mpi, docs/mpi.md): the programs of tests/mpi/ on
the chip and as host processes, run by scc-mpiexec; the semantics of
issue 46, section 5, each by a program that fails against a broken
library; scc-mpicc and scc-mpiexec themselves."""
from __future__ import annotations

import os
import shutil
import subprocess
import time

import pytest

from conftest import BUILD, REPO

MPIEXEC = BUILD / "venv" / "bin" / "scc-mpiexec"
MPICC = BUILD / "venv" / "bin" / "scc-mpicc"
CHIP_LIMIT = 120        # scc-mpiexec's own limit on a chip run, s

# error classes (libscc/mpi/include/mpi.h)
MPI_ERR_BUFFER, MPI_ERR_COUNT, MPI_ERR_TRUNCATE, MPI_ERR_NO_MEM = 1, 2, 15, 20


def program(backend: str, name: str) -> str:
    p = (BUILD / "tests" / "mpi" / f"{name}.elf" if backend == "chip"
         else BUILD / "libscc" / "mpi" / "host" / "tests" / name)
    assert p.is_file(), f"{p} missing: run `make libscc-mpi`"
    return str(p)


def mpiexec(backend: str, name: str, n: int = 4, *args: str, opts=(),
            env=None) -> subprocess.CompletedProcess:
    """The program on n ranks; every run has a time limit."""
    return subprocess.run([str(MPIEXEC), "-n", str(n), "--timeout", str(CHIP_LIMIT), *opts,
                           program(backend, name), *args], capture_output=True, text=True,
                          timeout=CHIP_LIMIT + 60, errors="replace", stdin=subprocess.DEVNULL,
                          env=None if env is None else {**os.environ, **env})


def backends(*marks):
    return pytest.mark.parametrize("backend", [
        pytest.param("host", marks=pytest.mark.no_qemu), pytest.param("chip")])


def explain(r) -> str:
    return f"exit {r.returncode}\n--- stdout\n{r.stdout[-3000:]}\n--- stderr\n{r.stderr[-3000:]}"


@backends()
@pytest.mark.parametrize("name", ["basic", "order", "truncate", "procnull", "cancel", "bsend",
                                  "types", "groups", "colls", "persist", "attrs",
                                  "intercomm", "intercoll", "mpi1", "topo"])
def test_program_passes(backend, name):
    """Each prints MPICH's " No Errors" from rank 0 and exits 0."""
    r = mpiexec(backend, name)
    assert r.returncode == 0 and r.stdout == " No Errors\n", explain(r)


@pytest.mark.parametrize("backend,n,opts", [
    pytest.param("host", 48, (), marks=pytest.mark.no_qemu),
    ("chip", 48, ()),
    ("chip", 5, ("--timing", "--cores", "0,1,10,11,47")),
])
@pytest.mark.parametrize("name", ["basic", "colls"])
def test_on_many_ranks_and_in_timing_mode(name, backend, n, opts):
    """Every collective on all 48 cores (lent to libscc's where they map,
    and on a subset), and on five scattered cores with modeled time."""
    r = mpiexec(backend, name, n, opts=opts)
    assert r.returncode == 0 and r.stdout == " No Errors\n", explain(r)


@backends()
def test_intercommunicator_collectives_on_uneven_groups(backend):
    """intercoll.c on 7 ranks: groups of 2 and 5, so that the split and
    the create of the intercommunicator keep members on both sides."""
    r = mpiexec(backend, "intercoll", 7)
    assert r.returncode == 0 and r.stdout == " No Errors\n", explain(r)


@backends()
def test_truncated_receive_is_fatal_by_default(backend):
    r = mpiexec(backend, "truncate", 2, "fatal")
    assert r.returncode == MPI_ERR_TRUNCATE, explain(r)
    assert "MPI rank 0: MPI_Recv: MPI_ERR_TRUNCATE" in r.stderr, explain(r)


@backends()
def test_bsend_beyond_the_buffer_is_fatal_by_default(backend):
    r = mpiexec(backend, "bsend", 2, "fatal")
    assert r.returncode == MPI_ERR_BUFFER, explain(r)
    assert "MPI rank 1: MPI_Bsend: MPI_ERR_BUFFER" in r.stderr, explain(r)


@backends()
def test_mismatched_collective_is_an_error_on_every_rank(backend):
    """No hang: with MPI_ERRORS_RETURN every rank gets MPI_ERR_COUNT from
    both calls and the run ends normally; with the default handler the
    run ends with that class and says why."""
    r = mpiexec(backend, "mismatch", 4)
    assert r.returncode == 0, explain(r)
    for rank in range(4):
        for call in ("bcast", "allreduce"):
            assert f"rank {rank}: {call} error class {MPI_ERR_COUNT}\n" in r.stdout, explain(r)
    r = mpiexec(backend, "mismatch", 4, "fatal")
    assert r.returncode == MPI_ERR_COUNT, explain(r)
    assert "MPI_Bcast: MPI_ERR_COUNT" in r.stderr and "different amounts of data" in r.stderr


@backends()
def test_abort_ends_the_run_with_its_code(backend):
    t0 = time.monotonic()
    r = mpiexec(backend, "abort", 4)
    assert r.returncode == 7, explain(r)
    assert "MPI_Abort: rank 1 ends the run with error code 7" in r.stderr, explain(r)
    assert time.monotonic() - t0 < CHIP_LIMIT / 2, "the others' wait was not ended at once"


@backends()
def test_deadlock_ends_the_run(backend):
    """Every rank waiting for a message nobody sends: the chip's stall
    detection, or scc-mpiexec's on the host, ends the run with 247."""
    r = mpiexec(backend, "deadlock", 3, env={"SCC_HOST_STALL_S": "2"})
    assert r.returncode == 247, explain(r)
    assert "not reached" not in r.stdout
    if backend == "host":
        assert "no rank can make progress" in r.stderr, explain(r)


@pytest.mark.no_qemu
def test_slow_run_is_not_a_deadlock():
    """Rank 0 sleeps 0.4 s before each of 8 messages: for 1 s at a time
    the ranks use next to no CPU, but they write MPB lines, so the host's
    stall detection (1 s here) lets the run finish."""
    r = mpiexec("host", "slow", 2, env={"SCC_HOST_STALL_S": "1"})
    assert r.returncode == 0 and r.stdout == " No Errors\n", explain(r)


@backends()
def test_rank_without_finalize_is_reported(backend):
    r = mpiexec(backend, "nofinalize", 3)
    assert r.returncode != 0, explain(r)
    assert "MPI rank 1: the program ended without calling MPI_Finalize" in r.stderr, explain(r)


@backends()
def test_too_many_unexpected_messages_is_a_clear_error(backend):
    r = mpiexec(backend, "flood", 2)
    assert r.returncode == MPI_ERR_NO_MEM, explain(r)
    assert "MPI rank 0: more unexpected messages than this rank can hold" in r.stderr, explain(r)
    assert "rank 0: the messages fit" not in r.stdout


@pytest.mark.no_qemu
def test_mpiexec_prefixes_lines_with_the_rank():
    r = mpiexec("host", "mismatch", 3, opts=("-l",))
    assert r.returncode == 0, explain(r)
    lines = sorted(r.stdout.splitlines())
    assert lines[:2] == ["[0] rank 0: allreduce error class 2", "[0] rank 0: bcast error class 2"]
    assert len(lines) == 6


@pytest.mark.no_qemu
def test_mpiexec_refuses_cores_out_of_order():
    r = subprocess.run([str(MPIEXEC), "-n", "2", "--cores", "3,1", program("host", "basic")],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "increasing order" in r.stderr


@pytest.mark.no_qemu
def test_mpicc_show_prints_the_commands():
    r = subprocess.run([str(MPICC), "-show", "-O2", "-o", "x.elf", "x.c"], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "libscc/mpi/include" in r.stdout and "libmpi.a" in r.stdout, r.stdout
    assert "librcce.a" in r.stdout


@backends()
def test_mpicc_builds_a_program_out_of_the_tree(backend, tmp_path):
    shutil.copy(REPO / "tests" / "mpi" / "basic.c", tmp_path)
    exe = "basic.elf" if backend == "chip" else "basic"
    host = ["--host"] if backend == "host" else []
    b = subprocess.run([str(MPICC), *host, "-O2", "-o", exe, "basic.c"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=300)
    assert b.returncode == 0, b.stderr
    r = subprocess.run([str(MPIEXEC), "-n", "3", "--timeout", str(CHIP_LIMIT), exe],
                       cwd=tmp_path, capture_output=True, text=True, timeout=CHIP_LIMIT + 60)
    assert r.returncode == 0 and r.stdout == " No Errors\n", explain(r)


@backends()
def test_readme_mpi_example(backend, tmp_path):
    """README.md, "MPI programs": its hello.c, built and run as it says."""
    import re
    text = (REPO / "README.md").read_text()
    code = re.search(r"## MPI programs.*?```c\n(.*?)```", text, re.S).group(1)
    (tmp_path / "hello.c").write_text(code)
    exe, host = ("hello.elf", []) if backend == "chip" else ("./hello", ["--host"])
    b = subprocess.run([str(MPICC), *host, "-O2", "-o", exe, "hello.c"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=300)
    assert b.returncode == 0, b.stderr
    r = subprocess.run([str(MPIEXEC), "-n", "4", "-l", "--timeout", str(CHIP_LIMIT), exe],
                       cwd=tmp_path, capture_output=True, text=True, timeout=CHIP_LIMIT + 60)
    assert r.returncode == 0, explain(r)
    tiles = {0: "tile00(0,0)", 1: "tile00(0,0)", 2: "tile01(1,0)", 3: "tile01(1,0)"}
    assert sorted(r.stdout.splitlines()) == [
        f"[{k}] rank {k} of 4 on scc-core{k:02d}-{tiles[k]}: ranks sum to 6" for k in range(4)]


@pytest.mark.no_qemu
@pytest.mark.parametrize("name,args,head", [
    ("pingpong", ["32", "65536"], "api,bytes,iterations,usec_per_roundtrip,MB_per_s"),
    ("collbench", ["8", "4096"],
     "collective,bytes,iterations,mpi_us,libscc_us,ratio,mpi_b2b_us,libscc_b2b_us,"
     "libscc_algorithm"),
])
def test_benchmarks_run(name, args, head):
    """The section-4 benchmarks (docs/mpi.md, "Performance") run and print
    their CSV; their modeled numbers come from the chip in timing mode."""
    r = mpiexec("host", name, 3, *args)
    assert r.returncode == 0, explain(r)
    lines = r.stdout.splitlines()
    assert lines[0] == head and len(lines) == 1 + len(args) * 2 + (name == "collbench")


# --- MPICH's own test suite (tests/mpi/mpich/run.py, docs/mpi.md) ------------------------

MPICH_SRC = BUILD / "src" / "mpich-tests"
RUNNER = REPO / "tests" / "mpi" / "mpich" / "run.py"


def mpich_suite(*args: str, timeout: float) -> tuple[subprocess.CompletedProcess, dict]:
    """The runner with args; its closing line's numbers."""
    import re
    import sys
    if not (MPICH_SRC / "util" / "mtest.c").is_file():
        pytest.skip(f"MPICH's test suite is not in {MPICH_SRC}: this machine could not fetch "
                    "bookworm's mpich source (make mpich-tests-src says why)")
    r = subprocess.run([sys.executable, str(RUNNER), *args], capture_output=True, text=True,
                       timeout=timeout, stdin=subprocess.DEVNULL)
    lines = r.stdout.strip().splitlines() or ["?"]
    m = re.fullmatch(r"(\d+) passed, (\d+) failed, (\d+) not built", lines[-1])
    assert m and r.returncode in (0, 1), \
        f"exit {r.returncode}\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    return r, dict(zip(("passed", "failed", "not_built"), map(int, m.groups())))


@pytest.mark.slow
@pytest.mark.no_qemu
def test_mpich_suite_on_the_host():
    """The folders comm, group, init, attr and errhan on the host (about
    80 testlist entries; all eight folders, 397 entries, take `make
    mpich-tests` ten minutes): every test that builds passes."""
    r, n = mpich_suite("--host", "--dirs", "comm,group,init,attr,errhan", timeout=1500)
    assert n["failed"] == 0 and n["passed"] >= 70, r.stdout[-6000:]


@pytest.mark.slow
def test_mpich_suite_on_the_chip():
    """A few tests of each folder on the chip (all of them: make mpich-tests)."""
    r, n = mpich_suite("--chip", "--quick", timeout=1500)
    assert n["failed"] == 0 and n["not_built"] == 0 and n["passed"] > 0, r.stdout[-6000:]


@pytest.mark.slow
def test_mpich_suite_in_timing_mode():
    """The ten tests chosen for the chip's timing mode pass there."""
    r, n = mpich_suite("--timing", timeout=1500)
    assert n == {"passed": 10, "failed": 0, "not_built": 0}, r.stdout[-6000:]


@pytest.mark.slow
def test_netpipe_runs_between_two_cores_in_timing_mode():
    """NetPIPE 3.7.2's MPI module, built unchanged (make netpipe), on
    cores 0 and 1 in timing mode, 1 byte to 8 KiB with 20 repeats: its
    output file (/dev/stdout) has a line per size, and the curve rises
    (docs/mpi.md, "NetPIPE", has the whole of it)."""
    exe = BUILD / "netpipe" / "NPmpi.elf"
    if not exe.is_file():
        pytest.skip(f"{exe} is not built: make netpipe (NetPIPE's source could not be fetched?)")
    r = subprocess.run([str(MPIEXEC), "-n", "2", "--timing", "--timeout", str(CHIP_LIMIT),
                        str(exe), "-o", "/dev/stdout", "-u", "8192", "-n", "20"],
                       capture_output=True, text=True, timeout=CHIP_LIMIT + 60,
                       stdin=subprocess.DEVNULL)
    assert r.returncode == 0, explain(r)
    rows = {}
    for line in r.stdout.splitlines():
        f = line.split()
        if len(f) == 3 and f[0].isdigit():
            rows[int(f[0])] = (float(f[1]), float(f[2]))     # bytes: Mbit/s, seconds
    assert 1 in rows and 8192 in rows and len(rows) > 30, explain(r)
    assert 0 < rows[1][1] < 20e-6, f"1 byte one way in {rows[1][1] * 1e6:.2f} us (modeled)"
    assert rows[8192][0] > 2 * rows[64][0], explain(r)
