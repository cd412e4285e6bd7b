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

import sys

from scc.machine import sdk
from scc.machine.sdk import CcError


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
        f = sdk.flags()
        if a["print"]:
            parts = sdk.flag_parts(f, a["host"])
            if a["print"] not in ("all", *parts):
                raise CcError("--print-flags takes cflags, ldflags or libs")
            for k in (parts if a["print"] == "all" else [a["print"]]):
                print(" ".join(parts[k]) if a["print"] != "all" else f"{k}: {' '.join(parts[k])}")
            return 0
        if not a["sources"] and not a["objects"]:
            raise CcError("no input files (scc-cc --help)")
        if a["compile_only"]:
            sdk.compile_only(f, a["host"], a["sources"], a["cflags"], a["out"], a["verbose"])
            return 0
        sdk.link(f, a["host"], a["sources"], a["objects"], a["cflags"], a["ldpaths"],
                 a["libs"], a["out"] or "a.out", a["verbose"])
        return 0
    except CcError as e:
        print(f"scc-cc: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
