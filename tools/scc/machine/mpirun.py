"""Running an MPI program (libscc/mpi, docs/mpi.md) on N ranks: what
scc-mpiexec (tools/scc/cli/mpiexec.py) does.

Rank r runs on core cores[r]; libscc numbers UEs in increasing core order,
so the list must increase. A chip ELF runs under the machine (sccrun.run_app,
with its time limit); every core's console lines come back as the rank's
own stdout and stderr. A host binary runs as one PROCESS per rank (an MPI
program's globals are its rank's), over a shared file that stands in for
the chip's MPBs (libscc/mpi/host/proc.c): SCC_MPI_SHM names it,
SCC_MPI_CORE and SCC_MPI_CORES say where the rank is. The first rank that
fails ends the run, as on the chip; the run's status is its status.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from typing import BinaryIO, Callable, Sequence

from scc.machine import coremap, sccrun
from scc.machine.coremap import SccRunError
from scc.paths import REPO

EM_386 = 3
TIMED_OUT = 124
STALLED = 247           # the machine's SCC_EXIT_STALLED
# A host run is deadlocked when for SCC_HOST_STALL_S seconds (default 10;
# 0: never) no rank wrote a line of any MPB and the ranks together used
# less than this share of one CPU (waiting ranks sleep on futexes, waking
# 50 times a second). Low CPU alone is not enough: on a host whose CPUs
# others take, ranks that yield get little of them and still progress.
STALL_CPU_SHARE = 0.05
HOST_SHARED_H = REPO / "libscc" / "mpi" / "host" / "shared.h"


def is_chip_elf(path: str) -> bool:
    """An ELF32 for i386: a program for the chip (else a host binary)."""
    try:
        with open(path, "rb") as f:
            head = f.read(20)
    except OSError as e:
        raise SccRunError(f"{path}: {e.strerror}") from None
    if head[:4] != b"\x7fELF":
        raise SccRunError(f"{path}: not an ELF program")
    return head[4] == 1 and int.from_bytes(head[18:20], "little") == EM_386


@dataclass
class Output:
    """Where the ranks' lines go: stdout and stderr as written, each line
    prefixed "[r] " with label=True (mpiexec -l)."""
    label: bool = False
    out: BinaryIO = field(default_factory=lambda: sys.stdout.buffer)
    err: BinaryIO = field(default_factory=lambda: sys.stderr.buffer)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def line(self, rank: int, stream: str, data: bytes) -> None:
        sink = self.out if stream == "stdout" else self.err
        with self.lock:
            sink.write((f"[{rank}] ".encode() if self.label else b"") + data)
            sink.flush()


def check_cores(cores: Sequence[int]) -> None:
    if list(cores) != sorted(set(cores)):
        raise SccRunError("the cores must be listed in increasing order, each once: "
                          "libscc numbers ranks in increasing core order")


def run_chip(elf: str, cores: Sequence[int], args: Sequence[str], out: Output, *,
             timing: bool = False, timeout: float = 600) -> int:
    """The program on the chip; the run's status (124 at the time limit)."""
    check_cores(cores)
    rank_of = {c: r for r, c in enumerate(cores)}
    pending: dict[tuple[int, str], bytes] = {}

    def console(line: str) -> None:
        rec = sccrun.parse_console_line(line)
        if rec is None or rec.core not in rank_of:      # the machine's own lines
            with out.lock:
                out.err.write(line.encode("utf-8", "replace"))
                out.err.flush()
            return
        key = (rec.core, rec.stream)
        data = pending.pop(key, b"") + rec.data()
        if rec.more:
            pending[key] = data
        else:
            out.line(rank_of[rec.core], rec.stream, data)

    res = sccrun.run_app(elf, cores=list(cores), args=list(args), timeout=timeout,
                         machine={"timing": "on"} if timing else None, stream=True,
                         on_console=console)
    for (core, stream), data in pending.items():
        out.line(rank_of[core], stream, data + b"\n")
    if res.timed_out:
        print(f"scc-mpiexec: timed out after {timeout:g} s", file=sys.stderr)
        return TIMED_OUT
    return res.returncode


def _pump(pipe: BinaryIO, emit: Callable[[bytes], None]) -> None:
    for data in iter(pipe.readline, b""):
        emit(data if data.endswith(b"\n") else data + b"\n")
    pipe.close()


def _cpu_ticks(pid: int) -> int:
    """utime + stime of a process, in clock ticks (0 if it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])
    except (OSError, IndexError, ValueError):
        return 0


class StallWatch:
    """Whether the ranks have been stuck for the limit: no write to any
    MPB line (the shared file's per-core write counters stood still) and
    next to no CPU used. Host time decides only when a hung run ends."""

    def __init__(self, procs: list, limit: float, shm: str):
        self.procs, self.limit, self.shm = procs, limit, shm
        what = "the host ranks' shared layout"
        self.cores = coremap.header_number(HOST_SHARED_H, "SCC_MPI_HOST_CORES", what)
        self.stride = coremap.header_number(HOST_SHARED_H, "SCC_MPI_WAKE_STRIDE", what)
        self.hz = os.sysconf("SC_CLK_TCK")
        self.since, self.ticks, self.writes = time.monotonic(), self._total(), self._writes()

    def _total(self) -> int:
        return sum(_cpu_ticks(p.pid) for p in self.procs if p.poll() is None)

    def _writes(self) -> bytes:
        """Every core's write counter, as the file holds them now."""
        try:
            with open(self.shm, "rb") as f:
                data = f.read(self.cores * self.stride)
        except OSError:
            return b""
        return b"".join(data[c * self.stride:c * self.stride + 4] for c in range(self.cores))

    def stalled(self) -> bool:
        if not self.limit:
            return False
        now = time.monotonic()
        if now - self.since < self.limit:
            return False
        ticks, writes = self._total(), self._writes()
        idle = (writes == self.writes and
                ticks - self.ticks < STALL_CPU_SHARE * (now - self.since) * self.hz)
        self.since, self.ticks, self.writes = now, ticks, writes
        return idle


def _status(code: int) -> int:
    return 128 - code if code < 0 else code


def run_host(prog: str, cores: Sequence[int], args: Sequence[str], out: Output, *,
             timeout: float = 600) -> int:
    """The program as one process per rank; the first failing rank's
    status, or 0 (124 at the time limit, 247 when every rank only waits:
    StallWatch)."""
    check_cores(cores)
    if os.sep not in prog and os.path.exists(prog):
        prog = os.path.abspath(prog)    # as MPICH's mpiexec: the current directory too
    fd, shm = tempfile.mkstemp(prefix="scc-mpi-", dir="/dev/shm" if os.path.isdir("/dev/shm")
                               else None)
    os.close(fd)
    procs: list[subprocess.Popen] = []
    pumps: list[threading.Thread] = []
    try:
        env = dict(os.environ, SCC_MPI_SHM=shm, SCC_MPI_CORES=",".join(map(str, cores)))
        for rank, core in enumerate(cores):
            try:
                p = subprocess.Popen([prog, *args], env=dict(env, SCC_MPI_CORE=str(core)),
                                     stdin=subprocess.DEVNULL if rank else None,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            except OSError as e:
                raise SccRunError(f"{prog}: {e.strerror}") from None
            procs.append(p)
            for stream, pipe in (("stdout", p.stdout), ("stderr", p.stderr)):
                t = threading.Thread(target=_pump, daemon=True,
                                     args=(pipe, lambda d, r=rank, s=stream: out.line(r, s, d)))
                t.start()
                pumps.append(t)
        status, deadline = 0, time.monotonic() + timeout
        limit = float(os.environ.get("SCC_HOST_STALL_S", "10") or 0)
        watch = StallWatch(procs, limit, shm)
        while [p.poll() for p in procs].count(None):
            failed = [(r, p.returncode) for r, p in enumerate(procs)
                      if p.returncode not in (None, 0)]
            stalled = not failed and watch.stalled()
            if failed or stalled or time.monotonic() > deadline:
                time.sleep(0.2)     # the rank's last words first
                if failed:
                    rank, code = failed[0]
                    status = _status(code)
                    print(f"scc-mpiexec: rank {rank} exited with status {status}: "
                          "the run ends", file=sys.stderr)
                elif stalled:
                    status = STALLED
                    waiting = [r for r, p in enumerate(procs) if p.poll() is None]
                    print(f"scc-mpiexec: no rank can make progress: for {limit:g} s the "
                          f"ranks still running ({', '.join(map(str, waiting))}) wrote no "
                          "MPB line and only waited (a deadlock?); SCC_HOST_STALL_S sets "
                          "how long, 0 never", file=sys.stderr)
                else:
                    status = TIMED_OUT
                    print(f"scc-mpiexec: timed out after {timeout:g} s", file=sys.stderr)
                for p in procs:
                    if p.poll() is None:
                        p.send_signal(signal.SIGKILL)
                break
            time.sleep(0.02)
        for p in procs:
            p.wait()
        for t in pumps:
            t.join(timeout=5)
        if not status:
            bad = [(r, p.returncode) for r, p in enumerate(procs) if p.returncode]
            if bad:
                status = _status(bad[0][1])
                print(f"scc-mpiexec: rank {bad[0][0]} exited with status {status}",
                      file=sys.stderr)
        return status
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
        os.unlink(shm)
