"""Run the emulated SCC chip (QEMU ``-M scc``) with a hard time limit.

    from sccrun import run
    r = run("build/kernel/kernel.elf", timeout=60)
    assert r.returncode == 0 and len(r.core_lines()) == 48

Every run has a time limit. QEMU runs in a process group of its own, which is
killed whole on timeout, on Ctrl-C and on any other exit from ``run``, so no
QEMU is ever left behind. QEMU's stdin is /dev/null.

Environment:
  SCC_QEMU   the QEMU binary (default: build/qemu/qemu-system-i386 in the repo)
  SCC_BOOT   the boot ELF given as -bios (default: build/boot/scc-boot.elf)
"""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence, TextIO

REPO = Path(__file__).resolve().parent.parent
DEFAULT_QEMU = REPO / "build" / "qemu" / "qemu-system-i386"
DEFAULT_BOOT = REPO / "build" / "boot" / "scc-boot.elf"
DEFAULT_TIMEOUT = 120.0

_CORE_LINE = re.compile(r"^\[(\d+)\] ?(.*)$")


class SccRunError(Exception):
    """Bad arguments or a missing binary: raised before QEMU is started."""


@dataclass
class RunResult:
    returncode: int  # QEMU's exit status; -1 if timed out
    stdout: str  # everything QEMU printed to stdout (the console lines "[NN] text")
    stderr: str
    timed_out: bool

    def core_lines(self) -> dict[int, list[str]]:
        """Console lines by core: "[NN] text" -> {NN: [text, ...]}, in order."""
        out: dict[int, list[str]] = {}
        for line in self.stdout.splitlines():
            m = _CORE_LINE.match(line.rstrip("\r"))
            if m:
                out.setdefault(int(m.group(1)), []).append(m.group(2))
        return out


def qemu_binary() -> str:
    return os.environ.get("SCC_QEMU") or str(DEFAULT_QEMU)


def boot_elf() -> str:
    return os.environ.get("SCC_BOOT") or str(DEFAULT_BOOT)


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
                  bios: str | None = None) -> list[str]:
    """The QEMU command line for a run. Checks the arguments, not the files."""
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

    machine_arg = ",".join(["scc"] + [f"{k}={v}" for k, v in opts.items()])
    cmd = [qemu or qemu_binary(), "-M", machine_arg, "-bios", bios or boot_elf(),
           "-display", "none", "-nodefaults", "-serial", "stdio",
           "-monitor", "none", "-no-reboot"]
    if kernel is not None:
        cmd += ["-kernel", kernel]
    if append is not None:
        cmd += ["-append", append]
    if modules:
        cmd += ["-initrd", ",".join(modules)]
    cmd += list(extra_args)
    return cmd


def _check_files(kernel: str | None, coremap: str | None, modules: Sequence[str],
                 qemu: str, bios: str) -> None:
    if not (os.path.isfile(qemu) and os.access(qemu, os.X_OK)):
        hint = "run `make` first to build it" if "SCC_QEMU" not in os.environ else "check SCC_QEMU"
        raise SccRunError(f"QEMU binary {qemu} not found or not executable: {hint}")
    if not os.path.isfile(bios):
        hint = "run `make` first to build it" if "SCC_BOOT" not in os.environ else "check SCC_BOOT"
        raise SccRunError(f"boot ELF {bios} not found: {hint}")
    if kernel is not None and not os.path.isfile(kernel):
        raise SccRunError(f"kernel {kernel} not found")
    if coremap is not None and not os.path.isfile(coremap):
        raise SccRunError(f"core map {coremap} not found")
    for m in modules:
        if not os.path.isfile(m):
            raise SccRunError(f"module {m} not found")


def _kill_group(proc: subprocess.Popen) -> None:
    """SIGKILL QEMU's whole process group and reap QEMU."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL does not fail
        pass


def _pump(pipe, sink: list[str], echo: TextIO | None) -> None:
    for line in iter(pipe.readline, ""):
        sink.append(line)
        if echo is not None:
            echo.write(line)
            echo.flush()
    pipe.close()


def run(kernel: str | None = None, *, coremap: str | None = None, append: str | None = None,
        modules: Sequence[str] = (), machine: Mapping[str, str] | None = None,
        timeout: float = DEFAULT_TIMEOUT, extra_args: Sequence[str] = (),
        stream: bool = False) -> RunResult:
    """Run QEMU -M scc until it exits or `timeout` seconds pass.

    With stream=True, QEMU's stdout and stderr are also copied live to ours.
    Raises SccRunError (before starting anything) on bad arguments or a
    missing file.
    """
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not timeout > 0 \
            or timeout != timeout or timeout == float("inf"):
        raise SccRunError(f"timeout must be a positive number of seconds, not {timeout!r}")
    qemu, bios = qemu_binary(), boot_elf()
    cmd = build_command(kernel, coremap=coremap, append=append, modules=modules,
                        machine=machine, extra_args=extra_args, qemu=qemu, bios=bios)
    coremap_file = coremap if coremap is not None else dict(machine or {}).get("coremap")
    _check_files(os.fspath(kernel) if kernel is not None else None,
                 os.fspath(coremap_file) if coremap_file is not None else None,
                 [os.fspath(m) for m in modules], qemu, bios)

    out: list[str] = []
    err: list[str] = []
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, errors="replace",
                            bufsize=1, start_new_session=True)
    readers = [threading.Thread(target=_pump, args=(proc.stdout, out, sys.stdout if stream else None),
                                daemon=True),
               threading.Thread(target=_pump, args=(proc.stderr, err, sys.stderr if stream else None),
                                daemon=True)]
    for t in readers:
        t.start()
    timed_out = False
    try:
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            _kill_group(proc)
        else:
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
    return RunResult(returncode=-1 if timed_out else proc.returncode,
                     stdout="".join(out), stderr="".join(err), timed_out=timed_out)
