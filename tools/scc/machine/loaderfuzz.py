"""Fuzz the scc machine's ELF loader with mutated images.

Each case takes a good ELF (a kernel, or the boot stub), mutates its
headers, program headers, sizes or offsets, or truncates it, and hands it
to QEMU through one of three paths: -kernel, a core map line, or -bios (the
boot stub). QEMU must either refuse the image with a message that names
the file, or run it; it must never crash (a signal, an assertion, an exit
without a message) and never outlive its time limit by itself... except
that a mutated image that loads may run code that loops, which the guest
is entitled to: such a case is counted as "ran until the time limit".

    from scc.machine.loaderfuzz import fuzz
    stats = fuzz(kernel_elf, stub_elf, cases=100, seed=1, workdir=tmp)

scc-fuzz-loader (tools/scc/cli/fuzz_loader.py) is the command-line front end.
"""
from __future__ import annotations

import random
import struct
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from scc.machine import sccrun
from scc.machine.coremap import machine_cores

PATHS = ("kernel", "coremap", "stub")
# A small chip: a case costs one QEMU start, and four cores boot fastest.
SMALL_CHIP = {"mesh-x": "2", "mesh-y": "2", "cores-per-tile": "1"}
INTERESTING = [0, 1, 2, 0x20, 0x34, 0xFFF, 0x1000, 0x7FFFFFFF, 0x80000000,
               0xFFFFFFFF, 0xFFFFFFF0, 0x100000, 0xFFF000, 0x1000000, 0x8000, 0xF000]


@dataclass
class Outcome:
    case: int
    path: str
    mutation: str
    kind: str          # refused | ran | time-limit | crash
    detail: str = ""


@dataclass
class Stats:
    outcomes: list[Outcome] = field(default_factory=list)

    def count(self, kind: str | None = None, path: str | None = None) -> int:
        return sum(1 for o in self.outcomes
                   if (kind is None or o.kind == kind) and (path is None or o.path == path))

    def crashes(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.kind == "crash"]


def _phdr_field(rng: random.Random, data: bytearray) -> str:
    """Set one field of one program header to an interesting value."""
    phoff, = struct.unpack_from("<I", data, 28)
    phnum, = struct.unpack_from("<H", data, 44)
    names = ["p_type", "p_offset", "p_vaddr", "p_paddr", "p_filesz", "p_memsz",
             "p_flags", "p_align"]
    i = rng.randrange(max(phnum, 1))
    f = rng.randrange(len(names))
    value = rng.choice(INTERESTING + [len(data), len(data) + 1, rng.getrandbits(32)])
    if names[f] == "p_memsz" and rng.random() < 0.3:
        value = 0                       # the p_memsz 0, p_filesz > 0 crash
    off = phoff + 32 * i + 4 * f
    if off + 4 <= len(data):
        struct.pack_into("<I", data, off, value)
    return f"phdr[{i}].{names[f]}=0x{value:x}"


def _ehdr_field(rng: random.Random, data: bytearray) -> str:
    fields = [("e_type", 16, "<H"), ("e_machine", 18, "<H"), ("e_entry", 24, "<I"),
              ("e_phoff", 28, "<I"), ("e_shoff", 32, "<I"), ("e_phentsize", 42, "<H"),
              ("e_phnum", 44, "<H"), ("e_shentsize", 46, "<H"), ("e_shnum", 48, "<H"),
              ("e_shstrndx", 50, "<H")]
    name, off, fmt = rng.choice(fields)
    bits = 16 if fmt == "<H" else 32
    value = rng.choice(INTERESTING + [rng.getrandbits(bits)]) & ((1 << bits) - 1)
    struct.pack_into(fmt, data, off, value)
    return f"{name}=0x{value:x}"


def mutate(good: bytes, rng: random.Random) -> tuple[bytes, str]:
    """A mutated copy of good and a description of what was done."""
    data = bytearray(good)
    kinds = ["phdr", "phdr", "phdr", "ehdr", "ident", "truncate", "flip", "flip-headers",
             "append"]
    done = []
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        k = rng.choice(kinds)
        if len(data) < 52 and k in ("phdr", "ehdr", "ident"):
            k = "append"                # a header needs a whole ELF header
        if k == "phdr":
            done.append(_phdr_field(rng, data))
        elif k == "ehdr":
            done.append(_ehdr_field(rng, data))
        elif k == "ident":
            i = rng.randrange(16)
            data[i] = rng.getrandbits(8)
            done.append(f"e_ident[{i}]=0x{data[i]:x}")
        elif k == "truncate":
            n = rng.choice([0, 1, 4, 51, 52, 53, rng.randrange(len(data) + 1)])
            del data[n:]
            done.append(f"truncate@{n}")
        elif k == "flip":
            if data:
                i = rng.randrange(len(data))
                data[i] ^= 1 << rng.randrange(8)
                done.append(f"flip@{i}")
        elif k == "flip-headers":
            if len(data) > 1:
                i = rng.randrange(min(len(data), 52 + 32 * 8))
                data[i] = rng.getrandbits(8)
                done.append(f"byte@{i}=0x{data[i]:x}")
        else:
            extra = rng.randbytes(rng.randrange(1, 4096))
            data += extra
            done.append(f"append {len(extra)}")
    return bytes(data), ", ".join(done)


def classify(r: sccrun.RunResult, image: Path) -> tuple[str, str]:
    """What one run did: refused, ran, time-limit or crash."""
    tail = (r.stderr.strip().splitlines() or [""])[-1][:300]
    if r.timed_out:
        return "time-limit", tail
    if r.returncode < 0:
        return "crash", f"killed by signal {-r.returncode}: {tail}"
    low = r.stderr.lower()
    if "assert" in low or "aborted" in low or "segmentation" in low or "core dumped" in low:
        return "crash", tail
    if r.returncode == 1 and "scc:" in r.stderr and image.name in r.stderr:
        return "refused", tail
    if r.returncode == 1 and not r.stdout:
        # QEMU exits 1 for errors: each must say what and which file.
        return "crash", f"exit 1 without a message naming {image.name}: {tail}"
    return "ran", f"exit {r.returncode}"


def run_case(i: int, path: str, good_kernel: bytes, good_stub: bytes, workdir: Path,
             seed: int, timeout: float, tcg: str | None = None) -> Outcome:
    rng = random.Random(f"{seed}:{path}:{i}")
    good = good_stub if path == "stub" else good_kernel
    data, what = mutate(good, rng)
    case_dir = workdir / f"{path}-{i}"
    case_dir.mkdir(parents=True, exist_ok=True)
    image = case_dir / f"fuzz-{path}-{i}.elf"
    image.write_bytes(data)
    kernel_file = case_dir / "kernel.elf"
    if path != "stub":
        machine = dict(SMALL_CHIP)
        if path == "kernel":
            r = sccrun.run(image, machine=machine, timeout=timeout, tcg=tcg)
        else:
            cmap = case_dir / "cores.map"
            cmap.write_text(f"0-3 {image.name}\n")
            machine["coremap"] = str(cmap)
            r = sccrun.run(machine=machine, timeout=timeout, tcg=tcg)
    else:
        kernel_file.write_bytes(good_kernel)
        r = sccrun.run(kernel_file, machine=dict(SMALL_CHIP), timeout=timeout, bios=image,
                       tcg=tcg)
    kind, detail = classify(r, image)
    for f in case_dir.iterdir():
        f.unlink()
    case_dir.rmdir()
    return Outcome(i, path, what, kind, detail)


def fuzz(kernel: Path, stub: Path, *, cases: int, seed: int, workdir: Path,
         paths=PATHS, timeout: float = 10.0, jobs: int = 2) -> Stats:
    """cases mutated images through each of paths."""
    good_kernel, good_stub = Path(kernel).read_bytes(), Path(stub).read_bytes()
    stats = Stats()
    work = [(i, p) for p in paths for i in range(cases)]
    # `jobs` QEMUs share the host: --tcg auto must know (sccrun.choose_tcg).
    tcg = sccrun.choose_tcg(None, machine_cores(SMALL_CHIP), runs=jobs)
    with ThreadPoolExecutor(max_workers=jobs) as ex:
        for o in ex.map(lambda ip: run_case(ip[0], ip[1], good_kernel, good_stub,
                                            Path(workdir), seed, timeout, tcg), work):
            stats.outcomes.append(o)
    return stats
