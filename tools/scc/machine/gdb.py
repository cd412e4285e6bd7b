"""gdb on the emulated chip: `scc-run --gdb[=PORT]` starts the machine
stopped, with QEMU's gdbstub on PORT, and writes a gdb command file that
connects, loads the kernel's and the app's symbols and selects a core.

QEMU shows each core as a gdb thread: core N is thread N + 1. Every core
runs the same app at the same virtual addresses, so a breakpoint stops
whichever core gets there first; to stop one core only, make it
conditional on the thread: `break work if $_thread == 6` (core 5). The
gdbstub's breakpoints are the emulator's, not int3s written into memory:
no core's memory changes, and in timing mode no modeled number does.
See docs/debugging.md.
"""
from __future__ import annotations

import os
from pathlib import Path

DEFAULT_PORT = 1234


def thread_of(core: int) -> int:
    """gdb's thread number of a core (QEMU numbers its CPUs from 1)."""
    return core + 1


def script(port: int, kernel: str, app: str | None, core: int) -> str:
    """The gdb commands that attach to the machine and select @core."""
    lines = [
        "# written by scc-run --gdb: gdb -x THIS_FILE",
        "set pagination off",
        "set confirm off",
        "set architecture i386",
        f"symbol-file {os.path.abspath(kernel)}",
    ]
    if app:
        lines.append(f"add-symbol-file {os.path.abspath(app)}")
    lines += [
        f"target remote 127.0.0.1:{port}",
        f"# core {core} is thread {thread_of(core)}; break on it alone with",
        f"#   break FUNCTION if $_thread == {thread_of(core)}",
        f"thread {thread_of(core)}",
    ]
    return "\n".join(lines) + "\n"


def write_script(path: str | Path, port: int, kernel: str, app: str | None, core: int) -> Path:
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(script(port, kernel, app, core), encoding="utf-8")
    return p


def parse_port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise ValueError(f"--gdb={text}: not a port number") from None
    if not 1 <= port <= 65535:
        raise ValueError(f"--gdb={text}: a port is 1-65535")
    return port
