"""Helpers the test files share: what a failed run showed, the build's
artifacts by name, and ELF32 program headers (the machine's loader reads
the same fields: qemu/overlay/hw/scc/scc-elf.c)."""
from __future__ import annotations

import os
import struct
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
BUILD = REPO / "build"

PT_LOAD = 1
PHDR_FIELDS = ("p_type", "p_offset", "p_vaddr", "p_paddr", "p_filesz", "p_memsz",
               "p_flags", "p_align")


def explain(r, tail: int = 4000) -> str:
    """A run's exit, whether it timed out, and the ends of its streams."""
    return (f"exit {getattr(r, 'returncode', None)}, timed out {getattr(r, 'timed_out', False)}\n"
            f"--- stdout (end)\n{r.stdout[-tail:]}\n--- stderr (end)\n{r.stderr[-tail:]}")


def artifact(*parts: str) -> Path:
    """build/PARTS..., which must exist (else: run `make`)."""
    p = BUILD.joinpath(*parts)
    assert p.is_file(), f"{p} missing: run `make`"
    return p


def guest(name: str) -> Path:
    """A bare-metal machine test: build/tests/guest/NAME.elf."""
    return artifact("tests", "guest", f"{name}.elf")


def test_app(name: str) -> Path:
    """A kernel test application: build/tests/apps/NAME.elf."""
    return artifact("tests", "apps", f"{name}.elf")


test_app.__test__ = False       # not a test, whatever pytest thinks of its name


def app(name: str) -> Path:
    """An application or benchmark: build/apps/NAME.elf."""
    return artifact("apps", f"{name}.elf")


def kernel() -> Path:
    """The build's kernel, build/kernel/kernel.elf (run_app runs
    $SCC_KERNEL instead when it is set: sccrun.default_kernel())."""
    return artifact("kernel", "kernel.elf")


def libscc_test(name: str) -> Path:
    """A libscc test program for the chip: build/tests/libscc/NAME.elf."""
    return artifact("tests", "libscc", f"{name}.elf")


def host_test(variant: str, name: str) -> Path:
    """A libscc test program of a host build (host, tsan, asan):
    build/libscc/rcce/VARIANT/tests/NAME."""
    return artifact("libscc", "rcce", variant, "tests", name)


def host_app(variant: str, name: str) -> Path:
    """An app of a host build (host, tsan, asan): build/libscc/rcce/VARIANT/NAME."""
    return artifact("libscc", "rcce", variant, name)


def phdrs(data: bytes) -> list[tuple[int, dict]]:
    """An ELF32 file's program headers: (file offset of the header, its
    fields by name)."""
    phoff, = struct.unpack_from("<I", data, 28)
    phentsize, phnum = struct.unpack_from("<HH", data, 42)
    out = []
    for i in range(phnum):
        off = phoff + i * phentsize
        out.append((off, dict(zip(PHDR_FIELDS, struct.unpack_from("<8I", data, off)))))
    return out


def first_load(data: bytes) -> tuple[int, dict]:
    """The first PT_LOAD program header: (its offset, its fields)."""
    for off, ph in phdrs(data):
        if ph["p_type"] == PT_LOAD:
            return off, ph
    raise AssertionError("no PT_LOAD")


def set_phdr(data: bytearray, off: int, **fields: int) -> None:
    """Write program header fields in place."""
    for name, value in fields.items():
        struct.pack_into("<I", data, off + 4 * PHDR_FIELDS.index(name), value)


def one_cpu():
    """A preexec_fn keeping a host program to one CPU, or None.

    Under `make test`'s shared pass (SCC_PARALLEL_RUNS workers, as xdist's
    gw0, gw1, ...) each worker's host programs keep to a CPU of its own, as
    its QEMU runs get one. A host program of many UE threads then spends
    less CPU time switching among them than spread over every CPU (the
    collective harness, reduce on 24 UEs: 20 CPU-s on one CPU against 28
    on two), and the other worker keeps the other CPU."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    cpus = sorted(os.sched_getaffinity(0))
    if int(os.environ.get("SCC_PARALLEL_RUNS", "1")) < 2 or not worker.startswith("gw") \
            or len(cpus) < 2:
        return None
    cpu = cpus[int(worker[2:]) % len(cpus)]
    return lambda: os.sched_setaffinity(0, {cpu})
