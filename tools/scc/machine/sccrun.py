"""Run the emulated SCC chip (QEMU ``-M scc``) with a hard time limit.

    from scc.machine.sccrun import run, run_app
    r = run("build/kernel/kernel.elf", timeout=60)
    assert r.returncode == 0 and len(r.core_lines()) == 48
    r = run_app("build/apps/hello.elf", cores="0-3", args=["x"], kernel_opts=["mbox=poll"])
    print(r.core_stdout(0), end="")     # what core 0 wrote to stdout, exactly

Every run has a time limit. QEMU runs in a process group of its own, which is
killed whole on timeout, on Ctrl-C and on any other exit from ``run``, so no
QEMU is ever left behind. QEMU's stdin is /dev/null.

Environment:
  SCC_QEMU   the QEMU binary (default: build/qemu/qemu-system-i386 in the repo)
  SCC_BOOT   the boot ELF given as -bios (default: build/boot/scc-boot.elf)
  SCC_KERNEL the kernel run_app runs (default: build/kernel/kernel.elf)
  SCC_TCG    single, multi or auto: how QEMU's TCG runs the cores (default
             auto; see choose_tcg); the tcg= argument overrides it
  SCC_PARALLEL_RUNS  how many QEMU runs share the host at once (default 1);
             set by whoever starts several in parallel, read by auto
"""
from __future__ import annotations

import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Iterable, Mapping, Sequence, TextIO

from scc.machine import grub as grubboot
from scc.machine.coremap import (SccRunError, app_coremap, app_link_name, coremap_files,
                                 coremap_started, machine_cores, parse_cores)
from scc.paths import BUILD

DEFAULT_QEMU = BUILD / "qemu" / "qemu-system-i386"
DEFAULT_BOOT = BUILD / "boot" / "scc-boot.elf"
DEFAULT_KERNEL = BUILD / "kernel" / "kernel.elf"
DEFAULT_TIMEOUT = 120.0

# A console line (qemu/overlay/docs/system/i386/scc.rst, "The console"):
# "[NN] text" is core NN's stdout, "[NN!] text" its stderr; a "+" after
# them ("[NN+] ", "[NN!+] ") marks a piece of a longer line that the next
# piece of the same core and stream continues.
_CORE_LINE = re.compile(r"^\[(\d+)(!?)(\+?)\] ?(.*)$")
# The machine's escapes: \xNN for a byte that is not printable ASCII, \\
# for a backslash.
_ESCAPE = re.compile(r"\\(x[0-9a-fA-F]{2}|\\)")
STREAMS = ("stdout", "stderr")


def _unescape(text: str) -> bytes:
    """The bytes a core wrote, from the machine's escaped text."""
    out = bytearray()
    pos = 0
    for m in _ESCAPE.finditer(text):
        out += text[pos:m.start()].encode("utf-8", "surrogateescape")
        out += b"\\" if m.group(1) == "\\" else bytes([int(m.group(1)[1:], 16)])
        pos = m.end()
    out += text[pos:].encode("utf-8", "surrogateescape")
    return bytes(out)


@dataclass
class ConsoleRecord:
    """One console line as the machine printed it."""
    core: int
    stream: str         # "stdout" or "stderr"
    more: bool          # a piece: the next of this core and stream continues it
    text: str           # escaped, as shown

    def data(self) -> bytes:
        """The bytes the core wrote that this line shows (its newline too,
        unless the line is a piece)."""
        return _unescape(self.text) + (b"" if self.more else b"\n")


def parse_console_line(line: str) -> ConsoleRecord | None:
    """A console line's core, stream and text; None for any other line."""
    m = _CORE_LINE.match(line.rstrip("\r\n"))
    if not m:
        return None
    return ConsoleRecord(int(m.group(1)), STREAMS[bool(m.group(2))], bool(m.group(3)),
                         m.group(4))


class OutputClosed(Exception):
    """The reader of the streamed console went away (e.g. `| head -1`):
    QEMU was stopped."""


@dataclass
class RunResult:
    returncode: int  # QEMU's exit status; -1 if timed out
    # everything QEMU printed to stdout: the console, "[NN] text" (stdout),
    # "[NN!] text" (stderr), pieces "[NN+] "; core_stdout() takes it apart
    stdout: str
    stderr: str
    timed_out: bool  # the time limit ended the run (QEMU got SIGTERM, then SIGKILL)
    # When each stdout line arrived, in seconds since QEMU was started, in
    # the order of stdout's lines (empty for results made by hand).
    line_times: list[float] = field(default_factory=list)
    elapsed: float = 0.0  # seconds from QEMU's start to its exit (or the kill)

    def _lines(self, stream: str | None = None):
        """(core, text, time of its first piece) of each whole console line
        (of one stream, or of both), pieces joined, in the order the lines
        were completed."""
        if stream is not None and stream not in STREAMS:
            raise ValueError(f"stream must be one of {', '.join(STREAMS)}, not {stream!r}")
        times = self.line_times or []
        pending: dict[tuple[int, str], tuple[str, float | None]] = {}
        for i, line in enumerate(self.stdout.splitlines()):
            rec = parse_console_line(line)
            if rec is None or stream not in (None, rec.stream):
                continue
            key = (rec.core, rec.stream)
            head, t = pending.pop(key, ("", times[i] if i < len(times) else None))
            if rec.more:
                pending[key] = (head + rec.text, t)
            else:
                yield rec.core, head + rec.text, t
        # a piece whose end never came (QEMU was killed): what there is
        for (core, _), (text, t) in pending.items():
            yield core, text, t

    def core_lines(self, stream: str | None = None) -> dict[int, list[str]]:
        """Console lines by core: "[NN] text" -> {NN: [text, ...]}, in
        order, as the machine shows them (\\xNN escapes); a line the
        machine printed in pieces is whole. By default both streams, as
        the console interleaves them ("[NN!] text" is stderr's); stream=
        "stdout" or "stderr" keeps one. For a core's output as written,
        see core_stdout."""
        out: dict[int, list[str]] = {}
        for core, text, _ in self._lines(stream):
            out.setdefault(core, []).append(text)
        return out

    def core_stream(self, core: int, stream: str = "stdout") -> bytes:
        """The bytes core `core` wrote to `stream` ("stdout" or "stderr"),
        exactly: no prefix, no other core's, escapes undone, pieces joined.
        (A last line the core left unfinished gets its newline: the
        machine prints it as a line.)"""
        if stream not in STREAMS:
            raise ValueError(f"stream must be one of {', '.join(STREAMS)}, not {stream!r}")
        out = bytearray()
        for line in self.stdout.splitlines():
            rec = parse_console_line(line)
            if rec is not None and rec.core == core and rec.stream == stream:
                out += rec.data()
        return bytes(out)

    def core_stdout(self, core: int) -> str:
        """What core `core` wrote to stdout, as it wrote it (UTF-8)."""
        return self.core_stream(core, "stdout").decode("utf-8", "replace")

    def core_stderr(self, core: int) -> str:
        """What core `core` wrote to stderr, as it wrote it (UTF-8)."""
        return self.core_stream(core, "stderr").decode("utf-8", "replace")

    def cores_written(self) -> list[int]:
        """The cores that wrote anything to the console, sorted."""
        return sorted({rec.core for rec in map(parse_console_line, self.stdout.splitlines())
                       if rec is not None})

    def first_line_times(self, mark: str | None = None) -> dict[int, float]:
        """{core: seconds after QEMU's start of the core's first console line
        (the first that contains `mark`, if given)}."""
        out: dict[int, float] = {}
        for core, text, t in self._lines():
            if core not in out and t is not None and (mark is None or mark in text):
                out[core] = t
        return out


def default_kernel() -> str:
    return os.environ.get("SCC_KERNEL") or str(DEFAULT_KERNEL)


def qemu_binary() -> str:
    return os.environ.get("SCC_QEMU") or str(DEFAULT_QEMU)


def boot_elf() -> str:
    return os.environ.get("SCC_BOOT") or str(DEFAULT_BOOT)


# --- TCG threading: one host thread for all cores, or one per core ----------------

TCG_MODES = ("single", "multi", "auto")


def parallel_runs() -> int:
    """How many QEMU runs share the host ($SCC_PARALLEL_RUNS, default 1)."""
    text = os.environ.get("SCC_PARALLEL_RUNS", "").strip()
    if not text:
        return 1
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise SccRunError(f"SCC_PARALLEL_RUNS={text!r}: expected a whole number >= 1")
    return n


def host_cpus() -> int:
    """The host CPUs this process may run on (its affinity, not the
    machine's count: a container or taskset may allow fewer)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - Linux has it
        return os.cpu_count() or 1


def tcg_mode(mode: str | None = None) -> str:
    """The requested mode: `mode`, else $SCC_TCG, else auto; checked."""
    if mode is None:
        mode = os.environ.get("SCC_TCG", "").strip() or "auto"
        what = f"SCC_TCG={mode!r}"
    else:
        what = f"tcg={mode!r}"
    if mode not in TCG_MODES:
        raise SccRunError(f"{what}: expected one of {', '.join(TCG_MODES)}")
    return mode


# auto gives each core a thread only while there are at most this many
# cores to a host CPU: measured, 5 cores on 2 CPUs run faster multi-threaded,
# 48 on 2 as fast or faster single-threaded (docs/functional-mode.md).
TCG_MULTI_MAX_PER_CPU = 4


def choose_tcg(mode: str | None, started: int, cpus: int | None = None,
               runs: int | None = None) -> str:
    """single or multi for a run that starts `started` cores.

    auto is a rule of three facts known before the run, so that the same
    run on the same host always gets the same choice (no load sampling).
    The run's CPUs are the host CPUs this process may use divided by the
    runs that share them ($SCC_PARALLEL_RUNS). multi-threaded TCG (a host
    thread per core) wins when there are at least two such CPUs, more than
    one core, and at most TCG_MULTI_MAX_PER_CPU cores a CPU; otherwise the
    cores' threads mostly take turns on the same CPUs and pay for the
    cross-thread work (TLB flushes, big-lock hand-offs) that one thread
    running the cores round-robin does not.
    """
    mode = tcg_mode(mode)
    if mode != "auto":
        return mode
    cpus = host_cpus() if cpus is None else cpus
    runs = parallel_runs() if runs is None else runs
    mine = cpus // runs
    if started > 1 and mine >= 2 and started <= TCG_MULTI_MAX_PER_CPU * mine:
        return "multi"
    return "single"


def _option_value(name: str, value) -> str:
    """A machine option's value as QEMU's -M syntax wants it."""
    if isinstance(value, bool):
        value = "on" if value else "off"
    elif isinstance(value, int):
        value = str(value)
    elif isinstance(value, os.PathLike):
        value = os.fspath(value)
    if not isinstance(value, str):
        raise SccRunError(f"machine option {name}: value must be a string, not {type(value).__name__}")
    if "," in value:
        # QEMU's option syntax would read a comma as the start of the next option.
        raise SccRunError(f"machine option {name}={value!r}: values must not contain ','")
    return value


def build_command(kernel: str | None = None, *, coremap: str | None = None,
                  append: str | None = None, modules: Sequence[str] = (),
                  machine: Mapping[str, str] | None = None,
                  extra_args: Sequence[str] = (), qemu: str | None = None,
                  bios: str | None = None, tcg: str | None = None,
                  started: int | None = None) -> list[str]:
    """The QEMU command line for a run. Checks the arguments, not the files.

    tcg: single, multi or auto (default $SCC_TCG, else auto); auto counts
    the cores the run starts (`started`, else from the core map, else all)."""
    if isinstance(modules, (str, bytes)):
        raise SccRunError("modules must be a sequence of file names, not a string")
    if isinstance(extra_args, (str, bytes)):
        raise SccRunError("extra_args must be a sequence of arguments, not a string")
    kernel = os.fspath(kernel) if kernel is not None else None
    modules = [os.fspath(m) for m in modules]
    opts: dict[str, str] = {}
    for name, value in dict(machine or {}).items():
        if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9_.-]+", name):
            raise SccRunError(f"bad machine option name {name!r}")
        opts[name] = _option_value(name, value)
    if coremap is not None:
        coremap = _option_value("coremap", coremap)
        if "coremap" in opts and opts["coremap"] != coremap:
            raise SccRunError("coremap given both as an argument and in machine")
        opts["coremap"] = coremap
    if kernel is None and "coremap" not in opts:
        raise SccRunError("nothing to run: give a kernel or a coremap")
    for m in modules:
        if "," in m:
            raise SccRunError(f"module {m!r}: file names must not contain ','")
    if kernel is None and (append is not None or modules):
        raise SccRunError("append and modules need a kernel (with a coremap, put them in its lines)")

    mode = tcg_mode(tcg)
    timing = opts.get("timing") in ("on", "true", "yes")
    if timing:
        # The timing mode runs the cores in modeled-time order, on one
        # thread, with exact instruction budgets (QEMU's icount machinery).
        if mode == "multi":
            raise SccRunError("machine option timing=on runs the cores on one thread: "
                              "tcg=multi does not go with it")
        mode = "single"
    if mode == "auto":
        if started is None:
            ncores = machine_cores(opts)
            started = coremap_started(opts["coremap"], ncores) if kernel is None else ncores
        mode = choose_tcg(mode, started)

    machine_arg = ",".join(["scc"] + [f"{k}={v}" for k, v in opts.items()])
    cmd = [qemu or qemu_binary(), "-M", machine_arg, "-bios", bios or boot_elf(),
           "-accel", f"tcg,thread={mode}",
           "-display", "none", "-nodefaults", "-serial", "stdio",
           "-monitor", "none", "-no-reboot"]
    if timing:
        cmd += ["-icount", "shift=0,sleep=off"]
    if kernel is not None:
        cmd += ["-kernel", kernel]
    if append is not None:
        cmd += ["-append", append]
    if modules:
        cmd += ["-initrd", ",".join(modules)]
    cmd += list(extra_args)
    return cmd


_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISSOCK, "a socket"))


def check_file(what: str, path: str, hint: str = "") -> None:
    """Only a regular file will do: the machine reads a kernel, a module or
    a core map to its end, which a FIFO or /dev/zero never has. A missing
    file, a directory and the others get words of their own."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise SccRunError(f"{what} {path} not found{hint}") from None
    except OSError as e:
        raise SccRunError(f"{what} {path}: {e.strerror}") from None
    if stat.S_ISDIR(mode):
        raise SccRunError(f"{what} {path} is a directory, not a file")
    if not stat.S_ISREG(mode):
        kind = next((name for test, name in _KINDS if test(mode)), "not a file")
        raise SccRunError(f"{what} {path} is not a regular file ({kind})")


def _check_files(kernel: str | None, coremap: str | None, modules: Sequence[str],
                 qemu: str, bios: str) -> None:
    if not (os.path.isfile(qemu) and os.access(qemu, os.X_OK)):
        hint = "run `make` first to build it" if "SCC_QEMU" not in os.environ else "check SCC_QEMU"
        raise SccRunError(f"QEMU binary {qemu} not found or not executable: {hint}")
    if not os.path.isfile(bios):
        hint = "run `make` first to build it" if "SCC_BOOT" not in os.environ else "check SCC_BOOT"
        raise SccRunError(f"boot ELF {bios} not found: {hint}")
    if kernel is not None:
        check_file("kernel", kernel)
    if coremap is not None:
        check_file("core map", coremap)
        for what, path in coremap_files(coremap):
            # A missing file or a directory the machine names with its
            # line; a FIFO or a device it would read for ever.
            if os.path.exists(path) and not os.path.isdir(path):
                check_file(what, path)
    for m in modules:
        check_file("module", m)


# After SIGTERM, QEMU pauses the cores and reports where each one was
# (hw/scc/scc-supervisor.c); this is how long it gets before SIGKILL.
TERM_GRACE = 5.0


def _kill_group(proc: subprocess.Popen, grace: float = 0.0) -> None:
    """End QEMU: SIGTERM first when grace > 0 (so that it reports its
    cores), then SIGKILL to its whole process group, and reap it."""
    if grace > 0 and proc.poll() is None:
        try:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=grace)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            pass
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL does not fail
        pass


def _pump(pipe, sink: list[str], echo: TextIO | Callable[[str], None] | None,
          times: list[float] | None = None, t0: float = 0.0,
          closed: threading.Event | None = None) -> None:
    """Collect a pipe's lines; echo each (to a stream, or to a function)."""
    for line in iter(pipe.readline, ""):
        if times is not None:
            times.append(time.monotonic() - t0)
        sink.append(line)
        if echo is not None:
            try:
                if callable(echo):
                    echo(line)
                else:
                    echo.write(line)
                    echo.flush()
            except (BrokenPipeError, ValueError):
                # Our reader is gone: stop echoing, and tell run().
                echo = None
                if closed is not None:
                    closed.set()
    pipe.close()


def run(kernel: str | None = None, *, coremap: str | None = None, append: str | None = None,
        modules: Sequence[str] = (), machine: Mapping[str, str] | None = None,
        timeout: float = DEFAULT_TIMEOUT, extra_args: Sequence[str] = (),
        stream: bool = False, bios: str | None = None, tcg: str | None = None,
        started: int | None = None,
        on_console: Callable[[str], None] | None = None, grub: bool = False) -> RunResult:
    """Run QEMU -M scc until it exits or `timeout` seconds pass.

    With grub=True every started core boots GRUB, which loads the same
    kernels, command lines and modules (scc.machine.grub).

    With stream=True, QEMU's stdout and stderr are also copied live to ours
    (with on_console, each stdout line goes to on_console(line) instead:
    parse_console_line tells whose it is); if our stdout is closed by its reader
    (on_console raised BrokenPipeError), QEMU is stopped and OutputClosed
    is raised. At the time limit QEMU gets SIGTERM (it then reports every
    core's state on stderr) and, TERM_GRACE seconds later, SIGKILL.
    Raises SccRunError (before starting anything) on bad arguments or a
    missing file.
    """
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not timeout > 0 \
            or timeout != timeout or timeout == float("inf"):
        raise SccRunError(f"timeout must be a positive number of seconds, not {timeout!r}")
    qemu, bios = qemu_binary(), os.fspath(bios) if bios is not None else boot_elf()
    cmd = build_command(kernel, coremap=coremap, append=append, modules=modules,
                        machine=machine, extra_args=extra_args, qemu=qemu, bios=bios,
                        tcg=tcg, started=started)
    coremap_file = coremap if coremap is not None else dict(machine or {}).get("coremap")
    _check_files(os.fspath(kernel) if kernel is not None else None,
                 os.fspath(coremap_file) if coremap_file is not None else None,
                 [os.fspath(m) for m in modules], qemu, bios)
    if grub:
        ncores = machine_cores(machine)
        plan = (grubboot.plan_from_coremap(coremap_file, ncores) if coremap_file is not None
                else grubboot.plan_for_kernel(kernel, append, modules, ncores))
        workdir = tempfile.mkdtemp(prefix="scc-grub-")
        try:
            image = grubboot.make_image(plan, workdir)
            gmap = grubboot.grub_coremap(plan, image, workdir)
            gmachine = {k: v for k, v in dict(machine or {}).items() if k != "coremap"}
            return run(coremap=os.fspath(gmap), machine=gmachine, timeout=timeout,
                       extra_args=extra_args, stream=stream, bios=bios, tcg=tcg,
                       started=started, on_console=on_console)
        finally:
            shutil.rmtree(workdir, ignore_errors=True)

    out: list[str] = []
    err: list[str] = []
    times: list[float] = []
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, errors="replace",
                            bufsize=1, start_new_session=True)
    closed = threading.Event()
    echo = (on_console or sys.stdout) if stream else None
    readers = [threading.Thread(target=_pump, args=(proc.stdout, out, echo, times, t0, closed),
                                daemon=True),
               threading.Thread(target=_pump, args=(proc.stderr, err, sys.stderr if stream else None,
                                                    None, 0.0, closed),
                                daemon=True)]
    for t in readers:
        t.start()
    timed_out = False
    deadline = t0 + timeout
    try:
        while True:
            try:
                proc.wait(timeout=max(0.0, min(0.2, deadline - time.monotonic())))
                break
            except subprocess.TimeoutExpired:
                if closed.is_set():
                    _kill_group(proc)
                    raise OutputClosed()
                if time.monotonic() >= deadline:
                    timed_out = True
                    break
        if timed_out:
            elapsed = time.monotonic() - t0
            _kill_group(proc, grace=TERM_GRACE)
        else:
            elapsed = time.monotonic() - t0
            # QEMU exited. Anything it left in its group that still holds
            # the output pipes open is ended too.
            for t in readers:
                t.join(timeout=2)
            if any(t.is_alive() for t in readers):
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
    except BaseException:
        # Ctrl-C or any other exception: nothing of the run survives.
        _kill_group(proc)
        raise
    for t in readers:
        t.join(timeout=5)
    stdout = "".join(out)
    # One time per line of stdout.splitlines() (a line's own line breaks
    # aside, which readline does not split).
    line_times = [t for line, t in zip(out, times) for _ in (line.splitlines() or [""])]
    return RunResult(returncode=-1 if timed_out else proc.returncode,
                     stdout=stdout, stderr="".join(err), timed_out=timed_out,
                     line_times=line_times, elapsed=elapsed)


def run_app(app, *, cores: str | int | Iterable[int] = "all", args: Sequence[str] = (),
            kernel_opts=None, kernel=None, machine: Mapping[str, str] | None = None,
            timeout: float = DEFAULT_TIMEOUT, extra_args: Sequence[str] = (),
            stream: bool = False, tcg: str | None = None,
            on_console: Callable[[str], None] | None = None, grub: bool = False) -> RunResult:
    """Run the kernel (default: $SCC_KERNEL, or build/kernel/kernel.elf) on
    `cores` with `app` as its application module.

    A temporary directory holds the core map and links named kernel.elf and
    after the app's file name (the app's argv[0]); it is removed afterwards.
    kernel_opts: ["mbox=poll", ...] or {"mbox": "poll"}; args: the app's
    arguments (after argv[0]). Raises SccRunError before starting anything
    on bad arguments or missing files.
    """
    kernel = os.fspath(kernel) if kernel is not None else default_kernel()
    app = os.fspath(app)
    if "coremap" in dict(machine or {}):
        raise SccRunError("run_app writes its own core map: do not pass machine option coremap")
    ncores = machine_cores(machine)
    for what, path in (("kernel", kernel), ("application", app)):
        check_file(what, path, ": run `make` first to build it" if what == "kernel" else "")
    app_name = app_link_name(app)
    text = app_coremap(app_name, kernel="kernel.elf", cores=cores, args=args,
                       kernel_opts=kernel_opts, ncores=ncores)
    tmp = tempfile.mkdtemp(prefix="scc-app-")
    try:
        if "," in tmp:
            raise SccRunError(f"temporary directory {tmp} has a ',' in its name (check TMPDIR)")
        os.symlink(os.path.abspath(kernel), os.path.join(tmp, "kernel.elf"))
        os.symlink(os.path.abspath(app), os.path.join(tmp, app_name))
        cmap = os.path.join(tmp, "cores.map")
        with open(cmap, "w", encoding="utf-8") as f:
            f.write(text)
        return run(coremap=cmap, machine=machine, timeout=timeout, extra_args=extra_args,
                   stream=stream, tcg=tcg, started=len(parse_cores(cores, ncores)),
                   on_console=on_console, grub=grub)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
