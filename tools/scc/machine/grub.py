"""Booting through GRUB 2 (scc-run --grub, docs/grub.md).

Without GRUB the machine places each core's kernel and modules itself, as
sccKit's loader did. With --grub every started core boots GRUB instead
(build/grub: GRUB 2 for the i386-multiboot platform, built from Debian's
grub2 source by scripts/build-grub.sh), and GRUB loads the kernel and its
modules with `multiboot` and `module`, as a boot loader on a PC would.

The run's boot plan (a core map, or a kernel with its command line and
modules for every core) becomes, in a temporary directory:
  - a memdisk (a tar file) holding each kernel and module once and
    /boot/grub/grub.cfg, one block per core-map line, chosen by the core id
    register (GRUB variable scc_core, set by the "scc" GRUB module);
  - grub.elf, made by grub-mkimage with that memdisk;
  - a core map that runs grub.elf on the same cores (held ones stay held).

The kernel and modules get the command lines the machine's own loader would
give them: the grub.cfg passes each word as GRUB's multiboot command wants
it, and words GRUB would change (an empty word, or one with a quote or a
backslash) are refused before anything runs.
"""
from __future__ import annotations

import os
import re
import shlex
import subprocess
import tarfile
from dataclasses import dataclass, field
from pathlib import Path

from scc.machine.coremap import SccRunError, coremap_lines, format_cores, parse_cores
from scc.paths import BUILD

GRUB_DIR = BUILD / "grub"
# The modules of each core's GRUB image: its console and core id first, so
# that every later message is seen.
GRUB_MODULES = ["scc", "memdisk", "tar", "normal", "multiboot", "echo", "test"]
# What a core whose GRUB did not boot ends with (abi.h: SCC_EXIT_BADBOOT).
EXIT_BADBOOT = 252


def grub_tools() -> tuple[Path, Path]:
    """grub-mkimage and GRUB's module directory, as `make` builds them."""
    mkimage = Path(os.environ.get("SCC_GRUB_MKIMAGE") or GRUB_DIR / "grub-mkimage")
    moddir = Path(os.environ.get("SCC_GRUB_DIR") or GRUB_DIR / "grub-core")
    for what, path in (("grub-mkimage", mkimage), ("GRUB's scc module", moddir / "scc.mod"),
                       ("GRUB's kernel image", moddir / "kernel.img")):
        if not path.is_file():
            raise SccRunError(f"--grub: {what} {path} not found: run `make` first to build GRUB")
    return mkimage, moddir


@dataclass
class BootLine:
    """One line of a boot plan: the cores, the kernel, its command line (as
    the machine joins it) and its modules (path, name as written)."""
    cores: list[int]
    kernel: str
    cmdline: str = ""
    modules: list[tuple[str, str]] = field(default_factory=list)
    hold: bool = False
    where: str = ""


def plan_from_coremap(path, ncores: int) -> list[BootLine]:
    """The lines of a core map, read as the machine reads it (scc.rst)."""
    here = os.path.dirname(os.path.abspath(os.fspath(path)))
    lines = []
    text = Path(path).read_text(encoding="utf-8", errors="replace")
    for lineno, words in coremap_lines(text):
        where = f"core map {os.fspath(path)}:{lineno}"
        if words is None:
            raise SccRunError(f"{where}: the line does not split into words (an open quote "
                              "or a trailing backslash)")
        if len(words) < 2:
            raise SccRunError(f"{where}: a line needs cores and a kernel")
        line = BootLine(cores=parse_cores(words[0], ncores),
                        kernel=os.path.join(here, words[1]), where=where)
        args = []
        for w in words[2:]:
            if w.startswith("module="):
                name = w[len("module="):]
                line.modules.append((os.path.join(here, name), name))
            elif w == "hold":
                line.hold = True
            else:
                args.append(w)
        line.cmdline = " ".join(args)
        lines.append(line)
    return lines


def plan_for_kernel(kernel, append: str | None, modules, ncores: int) -> list[BootLine]:
    """-kernel with -append and modules: the same on every core."""
    return [BootLine(cores=list(range(ncores)), kernel=os.fspath(kernel),
                     cmdline=append or "",
                     modules=[(os.fspath(m), os.fspath(m)) for m in modules],
                     where="kernel command line")]


def kernel_words(cmdline: str) -> list[str]:
    """The command line's words as the kernel splits them: spaces separate,
    double quotes group and are dropped (kernel/exec.c)."""
    words, word, quoted, started = [], [], False, False
    for c in cmdline:
        if c == '"':
            quoted, started = not quoted, True
        elif c == " " and not quoted:
            if started:
                words.append("".join(word))
            word, started = [], False
        else:
            word.append(c)
            started = True
    if started:
        words.append("".join(word))
    return words


_GRUB_CHANGES = re.compile(r"[\\'\"]")


def grub_word(word: str, where: str) -> str:
    """A word as a grub.cfg argument that GRUB's multiboot passes on
    unchanged: GRUB puts a word with a space in double quotes (which the
    kernel drops again), but drops an empty word and backslash-escapes
    quotes and backslashes."""
    if word == "":
        raise SccRunError(f"{where}: --grub cannot pass an empty argument (GRUB drops it)")
    if _GRUB_CHANGES.search(word):
        raise SccRunError(f"{where}: --grub cannot pass {word!r}: GRUB would put a backslash "
                          "before its quotes or backslashes")
    if "\n" in word:
        raise SccRunError(f"{where}: --grub cannot pass a line break")
    return "'" + word + "'"


def _core_runs(cores: list[int]) -> list[tuple[int, int]]:
    """Consecutive runs of a sorted core list: [(first, last), ...]."""
    runs, start = [], None
    for i, c in enumerate(cores):
        if start is None:
            start = c
        if i + 1 == len(cores) or cores[i + 1] != c + 1:
            runs.append((start, c))
            start = None
    return runs


def grub_cfg(plan: list[BootLine], names: dict[str, str]) -> str:
    """The grub.cfg of a boot plan; names maps a file to its memdisk path.
    Each run of cores picks its line first (GRUB's test has no precedence
    between -a and -o, so there is one test per run), then the line's block
    boots."""
    out = ["# written by scc-run --grub (tools/scc/machine/grub.py): the scc module sets",
           "# scc_core from this core's id register; each run of cores names its",
           "# core-map line, and that line's block boots.",
           "set pager=0", "set line=none"]
    for n, line in enumerate(plan):
        for a, b in _core_runs(line.cores):
            test = f'"$scc_core" -eq {a}' if a == b else f'"$scc_core" -ge {a} -a "$scc_core" -le {b}'
            out.append(f"if [ {test} ]; then set line={n}; fi")
    for n, line in enumerate(plan):
        words = [grub_word(w, line.where) for w in kernel_words(line.cmdline)]
        out.append(f'if [ "$line" = {n} ]; then')
        out.append("  " + " ".join(["multiboot", names[line.kernel], *words]))
        for path, name in line.modules:
            out.append("  " + " ".join(["module", names[path], grub_word(name, line.where)]))
        out.append("  boot")
        out.append("fi")
    out += [f'scc_exit {EXIT_BADBOOT} "grub: core $scc_core: nothing was booted (see above)"', ""]
    return "\n".join(out)


def make_image(plan: list[BootLine], workdir) -> Path:
    """grub.elf for a boot plan, in workdir (with its memdisk and grub.cfg)."""
    mkimage, moddir = grub_tools()
    workdir = Path(workdir)
    names: dict[str, str] = {}
    files = [p for line in plan for p in [line.kernel, *(m for m, _ in line.modules)]]
    for path in files:
        if path not in names:
            names[path] = f"/f/{len(names)}-{re.sub(r'[^A-Za-z0-9._-]', '_', os.path.basename(path))}"
    cfg = grub_cfg(plan, names)
    (workdir / "grub.cfg").write_text(cfg, encoding="utf-8")
    memdisk = workdir / "memdisk.tar"
    # run_app links its files into a directory: the tar holds what they point to.
    with tarfile.open(memdisk, "w", format=tarfile.USTAR_FORMAT, dereference=True) as tar:
        tar.add(workdir / "grub.cfg", arcname="boot/grub/grub.cfg")
        for path, name in names.items():
            tar.add(path, arcname=name.lstrip("/"))
    image = workdir / "grub.elf"
    cmd = [os.fspath(mkimage), "-d", os.fspath(moddir), "-O", "i386-multiboot",
           "-p", "(memdisk)/boot/grub", "-m", os.fspath(memdisk), "-o", os.fspath(image),
           *GRUB_MODULES]
    done = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=120)
    if done.returncode != 0:
        raise SccRunError(f"--grub: grub-mkimage failed: {done.stderr.strip()}")
    return image


def grub_coremap(plan: list[BootLine], image: Path, workdir) -> Path:
    """A core map that boots grub.elf on the plan's cores."""
    path = Path(workdir) / "grub.map"
    lines = ["# written by scc-run --grub: every core of the plan boots GRUB"]
    for line in plan:
        lines.append(" ".join([format_cores(line.cores), shlex.quote(os.fspath(image)),
                               *(["hold"] if line.hold else [])]))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
