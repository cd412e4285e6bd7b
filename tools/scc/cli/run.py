"""Run a kernel (or a core map) on the emulated SCC chip, with a time limit.

Streams QEMU's console live and exits with QEMU's exit status; on timeout it
stops QEMU (which reports where every core was), prints "scc-run: timed out
after S s" and exits 124. When a core fails, the machine stops the run and
reports every core (--keep-going lets the other cores run on).

    scc-run [options] KERNEL                       the kernel on every core
    scc-run [options] --coremap F                  a core map
    scc-run [options] --app APP [--cores SPEC] [--kopt K=V]... [KERNEL] [-- ARGS...]
                                                   the kernel (default
                                                   build/kernel/kernel.elf) with
                                                   APP as its application on
                                                   SPEC's cores (default all),
                                                   ARGS as the app's arguments

With --app, the program's words go after `--`: words typed without it
(`--app ring.elf --cores 0-3 4 0.533 0 1 2 3`) are refused, exit status
2, not taken for KERNEL. An RCCE program (its ELF has RCCE_init) run
without RCCE's words first gets a note on stderr before the run: --rcce
writes them from --cores.

--tcg chooses how QEMU's TCG runs the cores: single (one host thread
runs them all, round-robin), multi (a host thread per core) or auto (the
default, or $SCC_TCG): multi when the run has at least two host CPUs to
itself (the CPUs this process may use, divided by $SCC_PARALLEL_RUNS, the
number of runs that share the host; default 1) and starts from 2 to 4
cores a CPU, else single.

The console shows core NN's stdout as "[NN] text" and its stderr as
"[NN!] text" (a long line in pieces, "[NN+] ..." continued by the next).
--stdout-of N prints only core N's stdout, exactly as the program wrote
it, and sends the rest of the console to stderr; --output-dir DIR writes
every core's streams to DIR/core-NN.stdout and DIR/core-NN.stderr.

--time prints, at the end, when every started core had printed its first
console line (with --time-mark TEXT: its first line containing TEXT) and
when QEMU exited, in wall-clock seconds after QEMU's start. With an app
that prints as it starts (build/apps/hello.elf), that is the boot-to-app-
start time.
"""
from __future__ import annotations

import argparse
import os
import shlex
import signal
import sys

from scc.machine import coremap, sccrun
from scc.machine import gdb as scc_gdb
from scc.machine.coremap import SccRunError
from scc.machine.elf import elf_defines
from scc.paths import BUILD


def machine_option(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    return name, value


def positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds: {text!r}")
    return value


def timing_report(result: sccrun.RunResult, started: list[int] | None,
                  mark: str | None) -> str:
    """The --time line: when every core had printed (its first line, or its
    first line containing mark), and when QEMU exited."""
    firsts = result.first_line_times(mark)
    what = "first console line" if mark is None else f"first line containing {mark!r}"
    parts = []
    if firsts:
        last_core = max(firsts, key=lambda c: firsts[c])
        parts.append(f"{len(firsts)} cores printed their {what}; the first after "
                     f"{min(firsts.values()):.3f} s, the last (core {last_core:02d}) after "
                     f"{firsts[last_core]:.3f} s")
    else:
        parts.append(f"no core printed a {what}")
    if started is not None:
        missing = [c for c in started if c not in firsts]
        if missing:
            parts.append(f"{len(missing)} started cores did not (first: core {missing[0]:02d})")
    end = "killed at the timeout" if result.timed_out else "exited"
    parts.append(f"QEMU {end} after {result.elapsed:.3f} s")
    return "scc-run: time: " + "; ".join(parts)


def only_stdout_of(core: int):
    """The console's echo for --stdout-of: core's stdout, as written, to
    our stdout as it comes; every other line to our stderr."""
    out = sys.stdout.buffer

    def echo(line: str) -> None:
        rec = sccrun.parse_console_line(line)
        if rec is not None and rec.core == core and rec.stream == "stdout":
            out.write(rec.data())
            out.flush()
        else:
            sys.stderr.write(line)
            sys.stderr.flush()
    return echo


def write_streams(result: sccrun.RunResult, directory: str, cores: list[int]) -> None:
    """DIR/core-NN.stdout and .stderr for every core of the run (and any
    other that wrote)."""
    for core in sorted(set(cores) | set(result.cores_written())):
        for stream in sccrun.STREAMS:
            path = os.path.join(directory, f"core-{core:02d}.{stream}")
            try:
                with open(path, "wb") as f:
                    f.write(result.core_stream(core, stream))
            except OSError as e:
                raise SccRunError(f"cannot write {path}: {e.strerror}") from None


def rcce_hint(app: str, words: list[str]) -> str | None:
    """A note for an RCCE program (one that has RCCE_init) run without
    RCCE's words: None if it is not one, or its first word is a number."""
    if words and words[0].isdigit():
        return None
    if not elf_defines(app, "RCCE_init"):
        return None
    got = f"its first word is {words[0]!r}" if words else "it gets no words"
    return (f"scc-run: note: {app} is an RCCE program (it has RCCE_init), and {got}: "
            "RCCE_init takes RCCE's words first (the number of UEs, the clock in GHz, the "
            "core ids); give --rcce to have them written from --cores, or put them after "
            "-- (-- N 0.533 CORE... [the program's own words])")


def stray_words(p: argparse.ArgumentParser, args, stray: list[str]) -> None:
    """Words after the options that are not an option's: with --app, the
    program's words typed without `--` before them (the first of them
    taken for KERNEL when it is not a file): refused, saying where they
    go (argparse's usage error, exit status 2)."""
    if any(w.startswith("-") for w in stray) or args.app is None:
        if stray:
            p.error(f"unrecognized arguments: {' '.join(stray)}")
        return
    words = list(stray)
    k = args.kernel
    if k is not None and not os.path.exists(k) and "/" not in k and not k.endswith(".elf"):
        words.insert(0, k)
        args.kernel = None
    if words:
        p.error(f"{shlex.join(words)}: with --app, the program's words go after -- "
                f"(scc-run ... --app {shlex.quote(args.app)} -- {shlex.join(words)}); "
                "--rcce writes RCCE's words (the number of UEs, 0.533, the core ids) "
                "from --cores")


def gdb_setup(args, cores: list[int], kernel: str | None) -> list[str]:
    """QEMU's arguments for --gdb, after writing the gdb command file and
    telling the user how to attach."""
    if (args.gdb_core is not None or args.gdb_script) and args.gdb is None:
        raise SccRunError("--gdb-core and --gdb-script need --gdb")
    try:
        port = scc_gdb.parse_port(args.gdb)
    except ValueError as e:
        raise SccRunError(str(e)) from None
    core = cores[0] if args.gdb_core is None else args.gdb_core
    if core not in cores:
        raise SccRunError(f"--gdb-core {core}: the core does not run")
    path = args.gdb_script or str(BUILD / "gdb" / f"scc-{port}.gdb")
    scc_gdb.write_script(path, port, kernel or sccrun.default_kernel(), args.app, core)
    print(f"scc-run: the machine waits for gdb on 127.0.0.1:{port} (the time limit, "
          f"{args.timeout:g} s, runs meanwhile: --timeout); attach with\n"
          f"    gdb -x {path}\n"
          f"core {core} is gdb thread {scc_gdb.thread_of(core)}; `continue` starts the cores",
          file=sys.stderr, flush=True)
    return ["-gdb", f"tcp:127.0.0.1:{port}", "-S"]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="scc-run",
        description="Run QEMU -M scc with a hard time limit, streaming the console.",
        epilog="Environment: SCC_QEMU (QEMU binary), SCC_BOOT (boot ELF, -bios), "
               "SCC_KERNEL (the kernel --app runs by default), SCC_TCG (the default "
               "of --tcg), SCC_PARALLEL_RUNS (runs sharing the host, for --tcg auto).")
    p.add_argument("kernel", nargs="?", help="kernel ELF to run on every core (or use --coremap)")
    p.add_argument("--timeout", type=positive_seconds, default=sccrun.DEFAULT_TIMEOUT,
                   metavar="S", help="kill QEMU after S seconds (default %(default)g)")
    p.add_argument("--coremap", metavar="F", help="core map file (machine option coremap=F)")
    p.add_argument("--append", metavar="A", help="kernel command line")
    p.add_argument("--module", metavar="M", action="append", default=[],
                   help="Multiboot module (repeatable)")
    p.add_argument("--machine", metavar="K=V", type=machine_option, action="append", default=[],
                   help="machine option, e.g. private-mem=32M (repeatable)")
    p.add_argument("--keep-going", action="store_true",
                   help="when a core fails, let the others run on (machine option "
                        "on-failure=continue; the default stops the run at once)")
    p.add_argument("--timing", action="store_true",
                   help="modeled SCC time (machine option timing=on): per-core clocks, mesh "
                        "costs, identical on every run; QEMU runs single-threaded with "
                        "instruction counting")
    p.add_argument("--timing-stats", metavar="F",
                   help="with --timing: write per-core counters and link traffic as CSV to F "
                        "at exit ('-': stderr)")
    p.add_argument("--tcg", choices=sccrun.TCG_MODES,
                   help="TCG threading: single, multi or auto (default: $SCC_TCG, else auto: "
                        "multi if the run has 2 or more host CPUs to itself and starts 2 to 4 "
                        "cores a CPU)")
    p.add_argument("--grub", action="store_true",
                   help="boot every started core through GRUB 2, which loads the same kernel, "
                        "command line and modules from its memdisk (docs/grub.md); the run "
                        "takes longer to start")
    p.add_argument("--print-command", action="store_true",
                   help="print the QEMU command line and exit (with --app: the core map too)")
    app = p.add_argument_group("applications")
    app.add_argument("--app", metavar="APP",
                     help="run APP (an ELF linked with libscc) as the kernel's application; "
                          "arguments after -- go to it")
    app.add_argument("--cores", metavar="SPEC", default="all",
                     help="with --app: cores to start, as in a core map (N, N-M, lists, all); "
                          "the others are held in reset (default %(default)s)")
    app.add_argument("--rcce", action="store_true",
                     help="with --app: pass RCCE's words (number of UEs, 0.533, the core ids "
                          "of --cores) before the arguments after --, so the cores are typed "
                          "once")
    app.add_argument("--kopt", metavar="K=V", action="append", default=[],
                     help="with --app: kernel option, e.g. mbox=poll (repeatable)")
    out = p.add_argument_group("output")
    out.add_argument("--stdout-of", metavar="N", type=int,
                     help="print only core N's stdout, as the program wrote it (no prefix, "
                          "no other core's lines); the rest of the console goes to stderr")
    out.add_argument("--output-dir", metavar="DIR",
                     help="write every core's stdout and stderr, as written, to "
                          "DIR/core-NN.stdout and DIR/core-NN.stderr (NN: the core id)")
    dbg = p.add_argument_group("debugging")
    dbg.add_argument("--gdb", nargs="?", const=str(scc_gdb.DEFAULT_PORT), metavar="PORT",
                     help="start the machine stopped with QEMU's gdbstub on 127.0.0.1:PORT "
                          f"(default {scc_gdb.DEFAULT_PORT}) and write a gdb command file that "
                          "loads the kernel's and the app's symbols and selects a core: "
                          "gdb -x FILE (docs/debugging.md; core N is gdb thread N+1)")
    dbg.add_argument("--gdb-core", metavar="N", type=int,
                     help="with --gdb: the core the command file selects (default: the first)")
    dbg.add_argument("--gdb-script", metavar="FILE",
                     help="with --gdb: where to write the command file (default "
                          "build/gdb/scc-PORT.gdb)")
    p.add_argument("--time", action="store_true",
                   help="print wall-clock times at the end: every core's first console line, "
                        "QEMU's exit")
    p.add_argument("--time-mark", metavar="TEXT",
                   help="with --time: time each core's first line containing TEXT instead")

    argv = list(sys.argv[1:] if argv is None else argv)
    app_args: list[str] = []
    if "--" in argv:
        i = argv.index("--")
        argv, app_args = argv[:i], argv[i + 1:]
    args, stray = p.parse_known_args(argv)
    stray_words(p, args, stray)
    if args.app is None:
        if app_args:
            p.error("arguments after -- are the application's: they need --app")
        if args.kopt or args.cores != "all":
            p.error("--kopt and --cores need --app")
    elif args.coremap or args.append is not None or args.module:
        p.error("--app writes its own core map: it does not go with --coremap, --append or --module")
    if args.rcce:
        if args.app is None:
            p.error("--rcce needs --app")
        try:
            app_args = coremap.rcce_words(coremap.parse_cores(
                args.cores, coremap.machine_cores(dict(args.machine)))) + app_args
        except SccRunError as e:
            p.error(str(e))
    if args.grub and args.print_command:
        p.error("--print-command shows the direct boot; --grub writes its image at run time")
    if args.time_mark is not None and not args.time:
        p.error("--time-mark needs --time")

    if args.timing_stats is not None and not args.timing:
        p.error("--timing-stats needs --timing")
    if args.output_dir is not None and not args.output_dir:
        p.error("--output-dir needs a directory name")
    machine = dict(args.machine)
    if args.timing:
        machine["timing"] = "on"
    if args.timing_stats is not None:
        machine["timing-stats"] = args.timing_stats
    if args.keep_going:
        machine["on-failure"] = "continue"
    try:
        if args.app is not None:
            kernel = args.kernel or sccrun.default_kernel()
            # Checks the spec, options and arguments before anything runs.
            cmap = coremap.app_coremap(coremap.app_link_name(args.app), cores=args.cores,
                                       args=app_args, kernel_opts=args.kopt,
                                       ncores=coremap.machine_cores(machine))
        if args.print_command:
            if args.app is not None:
                print(shlex.join(sccrun.build_command(
                    None, coremap="cores.map", machine=machine, tcg=args.tcg,
                    started=len(coremap.parse_cores(args.cores, coremap.machine_cores(machine))))))
                print(f"# cores.map (kernel.elf -> {kernel}, "
                      f"{coremap.app_link_name(args.app)} -> {args.app}):")
                sys.stdout.write(cmap)
                return 0
            print(shlex.join(sccrun.build_command(
                args.kernel, coremap=args.coremap, append=args.append,
                modules=args.module, machine=machine, tcg=args.tcg)))
            return 0
        ncores = coremap.machine_cores(machine)
        if args.app is not None:
            cores = coremap.parse_cores(args.cores, ncores)
        elif args.coremap is not None:
            cores = coremap.coremap_cores(args.coremap, ncores)
        else:
            cores = list(range(ncores))
        if args.stdout_of is not None:
            coremap.parse_cores(args.stdout_of, ncores)      # one that exists
            if args.app is not None and args.stdout_of not in cores:
                raise SccRunError(f"--stdout-of {args.stdout_of}: the core does not run "
                                         f"the app (--cores {args.cores})")
        if args.output_dir is not None:
            try:
                os.makedirs(args.output_dir, exist_ok=True)
            except OSError as e:
                raise SccRunError(f"--output-dir {args.output_dir}: "
                                         f"{e.strerror}") from None
        extra: list[str] = []
        if args.gdb is not None:
            extra = gdb_setup(args, cores, kernel if args.app is not None else args.kernel)
        console = None if args.stdout_of is None else only_stdout_of(args.stdout_of)
        # A SIGTERM ends the run like Ctrl-C: QEMU's process group is killed.
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))
        if args.app is not None:
            hint = None if args.rcce else rcce_hint(args.app, app_args)
            if hint:
                print(hint, file=sys.stderr, flush=True)
            result = sccrun.run_app(args.app, cores=args.cores, args=app_args,
                                    kernel_opts=args.kopt, kernel=kernel, machine=machine,
                                    timeout=args.timeout, stream=True, tcg=args.tcg,
                                    on_console=console, extra_args=extra, grub=args.grub)
            started = cores
        else:
            result = sccrun.run(args.kernel, coremap=args.coremap, append=args.append,
                                modules=args.module, machine=machine, timeout=args.timeout,
                                stream=True, tcg=args.tcg, on_console=console,
                                extra_args=extra, grub=args.grub)
            started = None
        if args.output_dir is not None:
            write_streams(result, args.output_dir, cores)
    except SccRunError as e:
        print(f"scc-run: error: {e}", file=sys.stderr)
        return 2
    except sccrun.OutputClosed:
        # `scc-run ... | head -1`: the reader went away; QEMU is stopped.
        # Point stdout at /dev/null so that Python's final flush is quiet.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 128 + signal.SIGPIPE
    except KeyboardInterrupt:
        print("scc-run: interrupted", file=sys.stderr)
        return 130
    if args.time:
        print(timing_report(result, started, args.time_mark), file=sys.stderr)
    if result.timed_out:
        print(f"scc-run: timed out after {args.timeout:g} s", file=sys.stderr)
        return 124
    rc = result.returncode
    return rc if rc >= 0 else 128 - rc  # killed by signal N -> 128+N, as a shell does


if __name__ == "__main__":
    sys.exit(main())
