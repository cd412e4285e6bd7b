"""scc-cc: compile and link your own program for the emulated SCC, or for
libscc's host backend, from anywhere.

    scc-cc [-O2] [-g] [-c] [-o OUT] [-I DIR] [-D X[=Y]] [-L DIR] [-l LIB] FILES...
    scc-cc --host ...           # the same source, one thread per UE on the host
    scc-cc [--host] --print-flags [cflags|ldflags|libs]

For the chip, a program is linked with picolibc, the runtime (crt0, system
calls: libscc/sys) and libscc (RCCE, iRCCE, RCCEnb, the collectives): the
result is an ELF that `scc-run --app` runs on each core. For the host it
is linked with the host build of libscc (threads, OpenMP threadprivate,
-lm). C and assembler (.S, .s) files, .o and .a files, any number of them.
The flags are this build's own (build/sdk/scc-cc.json, written by `make`
from the variables the project's apps are built with); warnings are not
turned into errors in your code, and your -O and other flags come after
ours, so they win.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from scc import sccrun

SDK = sccrun.REPO / "build" / "sdk" / "scc-cc.json"
# Ours for the project's own code, not for a user's program.
DROP = {"-Werror", "-MMD", "-MP"}


class CcError(Exception):
    pass


def flags() -> dict:
    try:
        f = json.loads(SDK.read_text(encoding="utf-8"))
    except OSError:
        raise CcError(f"{SDK} is missing: run `make` in {sccrun.REPO} first") from None
    for k, v in f.items():
        if isinstance(v, list):
            f[k] = [_abs(t) for t in v if t not in DROP]
    return f


def _abs(token: str) -> str:
    """A path relative to the repository, made absolute (flags stay)."""
    if token.startswith("-") or os.path.isabs(token):
        return token
    p = sccrun.REPO / token
    return str(p) if p.exists() else token


def _run(cmd: list[str], verbose: bool) -> None:
    if verbose:
        print(" ".join(cmd), file=sys.stderr)
    try:
        r = subprocess.run(cmd)
    except FileNotFoundError:
        raise CcError(f"{cmd[0]}: not found (the build installs it: run `make`)") from None
    if r.returncode:
        raise SystemExit(r.returncode)


def parse(argv: list[str]) -> dict:
    a = {"host": False, "compile_only": False, "out": None, "print": None, "verbose": False,
         "sources": [], "objects": [], "cflags": [], "ldpaths": [], "libs": []}
    it = iter(argv)
    for arg in it:
        def value(flag=arg):
            v = next(it, None)
            if v is None:
                raise CcError(f"{flag} needs a value")
            return v
        if arg == "--host":
            a["host"] = True
        elif arg == "--print-flags":
            a["print"] = "all"
        elif arg.startswith("--print-flags="):
            a["print"] = arg.split("=", 1)[1]
        elif arg == "-c":
            a["compile_only"] = True
        elif arg == "-o":
            a["out"] = value()
        elif arg == "-v":
            a["verbose"] = True
        elif arg in ("-I", "-D", "-U", "-include"):
            a["cflags"] += [arg, value()]
        elif arg == "-L":
            a["ldpaths"].append(value())
        elif arg.startswith("-L"):
            a["ldpaths"].append(arg[2:])
        elif arg == "-l":
            a["libs"].append(value())
        elif arg.startswith("-l"):
            a["libs"].append(arg[2:])
        elif arg in ("-h", "--help"):
            a["print"] = "help"
        elif arg.startswith("-"):
            a["cflags"].append(arg)     # -O2, -g, -std=, -W..., -f..., -DX, -Idir
        elif arg.endswith((".c", ".S", ".s")):
            a["sources"].append(arg)
        elif arg.endswith((".o", ".a")):
            a["objects"].append(arg)
        else:
            raise CcError(f"{arg}: not a C (.c), assembler (.S, .s), object (.o) or "
                          "archive (.a) file")
    return a


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        a = parse(argv)
        if a["print"] == "help":
            print(__doc__.strip())
            return 0
        f = flags()
        side = "host" if a["host"] else "chip"
        if a["print"]:
            parts = {"cflags": f[f"{side}_cflags"],
                     "ldflags": [] if a["host"] else f["chip_ldflags"] + f["chip_start"],
                     "libs": f[f"{side}_libs"]}
            if a["print"] not in ("all", *parts):
                raise CcError("--print-flags takes cflags, ldflags or libs")
            for k in (parts if a["print"] == "all" else [a["print"]]):
                print(" ".join(parts[k]) if a["print"] != "all" else f"{k}: {' '.join(parts[k])}")
            return 0
        if not a["sources"] and not a["objects"]:
            raise CcError("no input files (scc-cc --help)")
        if a["compile_only"]:
            if a["out"] and len(a["sources"]) > 1:
                raise CcError("-c with -o takes one source file")
            cc = f["host_cc"] if a["host"] else f["chip_cc"]
            for src in a["sources"]:
                out = a["out"] or Path(src).with_suffix(".o").name
                _run([cc, *_cflags(f, side, src), *a["cflags"], "-c", "-o", out, src],
                     a["verbose"])
            return 0
        out = a["out"] or "a.out"
        if a["host"]:
            _run([f["host_cc"], *f["host_cflags"], *a["cflags"], "-o", out, *a["sources"],
                  *a["objects"], *[f"-L{d}" for d in a["ldpaths"]],
                  *[f"-l{l}" for l in a["libs"]], *f["host_libs"]], a["verbose"])
            return 0
        with tempfile.TemporaryDirectory(prefix="scc-cc-") as tmp:
            objs = []
            for i, src in enumerate(a["sources"]):
                o = os.path.join(tmp, f"{i}-{Path(src).stem}.o")
                _run([f["chip_cc"], *_cflags(f, side, src), *a["cflags"], "-c", "-o", o, src],
                     a["verbose"])
                objs.append(o)
            # picolibc's libm is in the runtime's group already
            libs = [f"-l{l}" for l in a["libs"] if l != "m"]
            _run([f["chip_ld"], *f["chip_ldflags"], "-o", out, *f["chip_start"], *objs,
                  *a["objects"], *[f"-L{d}" for d in a["ldpaths"]], *libs, *f["chip_libs"]],
                 a["verbose"])
        return 0
    except CcError as e:
        print(f"scc-cc: error: {e}", file=sys.stderr)
        return 2


def _cflags(f: dict, side: str, src: str) -> list[str]:
    if side == "chip" and src.endswith((".S", ".s")):
        return f["chip_asflags"]
    return f[f"{side}_cflags"]


if __name__ == "__main__":
    sys.exit(main())
