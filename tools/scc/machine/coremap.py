"""Core maps: which cores run which kernel, module and arguments, and the
core lists they name. The one reading and writing of the format
(qemu/overlay/docs/system/i386/scc.rst, "Core maps") for every tool:
the runner (sccrun) writes an app's map, scc-bench writes a point's map
with other apps, GRUB's boot plan reads one.

SccRunError is the runner's error for bad arguments and missing files;
it is raised here first, so it lives here.
"""
from __future__ import annotations

import os
import re
import shlex
from pathlib import Path
from typing import Iterable, Mapping, Sequence

from scc.paths import REPO


class SccRunError(Exception):
    """Bad arguments or a missing binary: raised before QEMU is started."""



def machine_cores(machine: Mapping[str, str] | None = None) -> int:
    """The number of cores of a machine with these -M options."""
    m = dict(machine or {})
    try:
        return (int(str(m.get("mesh-x", 6)), 0) * int(str(m.get("mesh-y", 4)), 0)
                * int(str(m.get("cores-per-tile", 2)), 0))
    except ValueError as e:
        raise SccRunError(f"bad mesh option: {e}") from None


def parse_cores(spec: str | int | Iterable[int], ncores: int = 48) -> list[int]:
    """Core ids from a core-map style spec: "all", "N", "N-M", or a comma
    separated list of these; or an int, or an iterable of ints. Sorted,
    without duplicates; every id must be < ncores."""
    if isinstance(spec, bool):
        raise SccRunError(f"bad core spec {spec!r}")
    if isinstance(spec, int):
        ids = [spec]
    elif isinstance(spec, str):
        text = spec.strip()
        if text == "all":
            return list(range(ncores))
        ids = []
        if not text:
            raise SccRunError("empty core spec")
        for part in text.split(","):
            m = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", part)
            if not m:
                raise SccRunError(f"bad core spec {spec!r}: {part!r} is not N or N-M")
            lo = int(m.group(1))
            hi = int(m.group(2)) if m.group(2) is not None else lo
            if hi < lo:
                raise SccRunError(f"bad core spec {spec!r}: range {lo}-{hi} is backwards")
            # Checked before the range is built: "0-99999999999" would
            # otherwise fill memory before any id was looked at.
            if hi >= ncores:
                _check_core(max(lo, ncores), ncores)  # the first that does not exist
            ids.extend(range(lo, hi + 1))
    else:
        try:
            ids = list(spec)
        except TypeError:
            raise SccRunError(f"bad core spec {spec!r}") from None
        if not all(isinstance(i, int) and not isinstance(i, bool) for i in ids):
            raise SccRunError(f"bad core spec {spec!r}: core ids must be ints")
    if not ids:
        raise SccRunError("no cores selected")
    for i in ids:
        _check_core(i, ncores)
    # A core named twice is a mistake (a core map refuses it too): merged,
    # a list of N cores would start fewer than N.
    seen: set[int] = set()
    for i in ids:
        if i in seen:
            raise SccRunError(f"bad core spec {spec!r}: core {i} is listed twice")
        seen.add(i)
    return sorted(ids)


def _check_core(core: int, ncores: int) -> None:
    if not 0 <= core < ncores:
        raise SccRunError(f"core {core} does not exist (the machine has {ncores} cores: "
                          f"0-{ncores - 1})")


def format_cores(ids: Sequence[int]) -> str:
    """The shortest core-map spec for sorted ids: [0,1,2,5] -> "0-2,5"."""
    parts = []
    ids = sorted(set(ids))
    i = 0
    while i < len(ids):
        j = i
        while j + 1 < len(ids) and ids[j + 1] == ids[j] + 1:
            j += 1
        parts.append(str(ids[i]) if i == j else f"{ids[i]}-{ids[j]}")
        i = j + 1
    return ",".join(parts)


_KOPT = re.compile(r"[A-Za-z0-9_.-]+(=[^\s\"'\\]*)?")


def kernel_options(opts: Mapping[str, object] | Sequence[str] | None) -> list[str]:
    """Kernel options as command-line words: ["mbox=poll", "tick=100"] or
    {"mbox": "poll", "tick": 100}."""
    if opts is None:
        return []
    if isinstance(opts, (str, bytes)):
        raise SccRunError("kernel options must be a sequence of KEY=VALUE strings or a mapping, "
                          "not a string")
    if isinstance(opts, Mapping):
        words = [f"{k}={v}" for k, v in opts.items()]
    else:
        words = [str(w) if isinstance(w, os.PathLike) else w for w in opts]
    for w in words:
        if not isinstance(w, str) or not _KOPT.fullmatch(w):
            raise SccRunError(f"bad kernel option {w!r}: want KEY=VALUE (or a bare flag) without "
                              "spaces or quotes")
        if w in ("hold", "--") or w.startswith("module="):
            raise SccRunError(f"kernel option {w!r} is reserved (the runner writes the core map's "
                              "module= and hold itself)")
    return words


_PLAIN_ARG = re.compile(r"[^\s\"'\\]+")


def kernel_arg(arg: str) -> str:
    """An application argument as a word of the kernel command line.

    The core map joins its words with single spaces into the kernel's
    command line, so an argument with a space survives only if the kernel
    reads it quoted: it is put in double quotes, as on Linux's command line
    ("two words"; "" for an empty argument; single quotes and backslashes
    are quoted too, so a kernel that splits like a POSIX shell reads the
    same). An argument with a double quote, a backslash or a control
    whitespace character (tab, newline) cannot be passed."""
    if not isinstance(arg, str):
        raise SccRunError(f"application arguments must be strings, not {type(arg).__name__}")
    if _PLAIN_ARG.fullmatch(arg):
        return arg
    if re.search(r'["\\\t\n\r\v\f]', arg):
        raise SccRunError(f"application argument {arg!r}: a double quote, a backslash or a "
                          "control whitespace character cannot be passed on the kernel command line")
    return f'"{arg}"'


def header_number(path: Path, name: str, what: str) -> int:
    """The number a C header defines as @name (`#define NAME 123`): facts
    the C side and the tools share have their one definition there.
    SccRunError, saying it wanted @what, if the header cannot be read or
    does not define it."""
    try:
        m = re.search(rf"^#define\s+{name}\s+(\d+)\b", path.read_text(), re.M)
    except OSError as e:
        raise SccRunError(f"cannot read {what} from {path}: {e.strerror}") from None
    if not m:
        raise SccRunError(f"{path} does not define {name} as a number")
    return int(m.group(1))


KERNEL_DEFS = REPO / "kernel" / "defs.h"


def kernel_cmdline_max() -> int:
    """The longest kernel command line the kernel keeps whole: its buffer,
    CMDLINE_MAX in kernel/defs.h (the one definition), less the NUL. A
    longer one the kernel cuts, mid-word, and runs the app anyway."""
    return header_number(KERNEL_DEFS, "CMDLINE_MAX", "the kernel's limits") - 1


def check_cmdline(words: Sequence[str]) -> None:
    """Refuse a kernel command line (the core map line's words that the
    machine joins with spaces) that the kernel would cut."""
    size = len(" ".join(words).encode("utf-8"))
    limit = kernel_cmdline_max()
    if size > limit:
        raise SccRunError(f"the application's arguments and kernel options make a kernel "
                          f"command line of {size} bytes; the kernel keeps at most {limit}")


def app_coremap(app: str, *, kernel: str = "kernel.elf", cores: str | int | Iterable[int] = "all",
                args: Sequence[str] = (), kernel_opts=None, ncores: int = 48) -> str:
    """The text of a core map that runs `kernel` with `app` as its module on
    `cores` (the others are in no line: held in reset)."""
    if isinstance(args, (str, bytes)):
        raise SccRunError("args must be a sequence of strings, not a string")
    ids = parse_cores(cores, ncores)
    opts = kernel_options(kernel_opts)
    arg_words = [kernel_arg(a) for a in args]
    # The machine passes the line's words but module= and hold to the kernel.
    check_cmdline([*opts, "--", *arg_words])
    words = [format_cores(ids), kernel, *opts, f"module={app}", "--", *arg_words]
    line = " ".join(shlex.quote(w) for w in words)
    return ("# written by sccrun.run_app: the kernel, its options, the app as its module,\n"
            "# then the app's arguments (cores in no line are held in reset)\n"
            f"{line}\n")


def rcce_words(cores: Sequence[int]) -> list[str]:
    """RCCE's words for an app on @cores, as rccerun passed them: the
    number of UEs, the clock in GHz (RCCE ignores it), the core ids."""
    return [str(len(cores)), "0.533", *map(str, cores)]


def app_link_name(app) -> str:
    """The name run_app gives the app in its core map: the app's argv[0]."""
    name = os.path.basename(os.fspath(app))
    return "app-kernel.elf" if name == "kernel.elf" else name



# --- reading a core map's text ------------------------------------------------

def coremap_lines(text: str):
    """(line number, words) of each line of a core map's text that is not
    blank or a comment, split as the machine splits it (shell words, `#`
    comments); words is None for a line that does not split (an open
    quote). The one reading of the format for every tool (scc.rst)."""
    for lineno, line in enumerate(text.splitlines(), 1):
        try:
            words = shlex.split(line, comments=True)
        except ValueError:
            yield lineno, None
            continue
        if words:
            yield lineno, words


def _coremap_cores(path, ncores: int, held: bool) -> set[int] | None:
    """The cores of a core map's lines (with held: those marked `hold` too);
    None if the file is not a regular file (a FIFO would block the runner)
    or does not parse (the machine will say why)."""
    if not os.path.isfile(path):
        return None
    try:
        cores = set()
        for _, words in coremap_lines(Path(path).read_text(encoding="utf-8", errors="replace")):
            if words is None:
                return None
            if len(words) >= 2 and (held or "hold" not in words[2:]):
                cores.update(parse_cores(words[0], ncores))
        return cores
    except (OSError, SccRunError):
        return None


def coremap_started(path, ncores: int) -> int:
    """How many cores a core map starts (its lines without `hold`); all
    cores if the file cannot be read or parsed."""
    started = _coremap_cores(path, ncores, held=False)
    return ncores if started is None else len(started)


def coremap_cores(path, ncores: int) -> list[int]:
    """The cores a core map's lines name (held ones too), sorted; none if
    the file cannot be read or parsed."""
    return sorted(_coremap_cores(path, ncores, held=True) or ())



def coremap_files(path) -> list[tuple[str, str]]:
    """(what, path) of every kernel and module a core map names, with its
    line, the paths as the machine resolves them (relative to the map's
    directory); lines that do not parse are left to the machine."""
    text = Path(path).read_text(encoding="utf-8", errors="replace")
    here = os.path.dirname(os.fspath(path))
    files = []
    for lineno, words in coremap_lines(text):
        if words is None:
            continue
        where = f"core map {os.fspath(path)}:{lineno}:"
        if len(words) >= 2:
            files.append((f"{where} kernel", os.path.join(here, words[1])))
        files += [(f"{where} module", os.path.join(here, w[len("module="):]))
                  for w in words[2:] if w.startswith("module=")]
    return files

