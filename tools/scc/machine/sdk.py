"""Compiling and linking a program of one's own for the emulated SCC, or for
libscc's host backend: what scc-cc (tools/scc/cli/cc.py) runs.

For the chip, a program is linked with picolibc, the runtime (crt0, system
calls: libscc/sys) and libscc (RCCE, iRCCE, RCCEnb, the collectives): the
result is an ELF that `scc-run --app` runs on each core. For the host it
is linked with the host build of libscc (threads, OpenMP threadprivate,
-lm). The flags are this build's own (build/sdk/scc-cc.json, written by
`make` from the variables the project's apps are built with); warnings are
not turned into errors in the user's code, and the user's -O and other
flags come after ours, so they win.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from scc.paths import BUILD, REPO

SDK = BUILD / "sdk" / "scc-cc.json"
# Ours for the project's own code, not for a user's program.
DROP = {"-Werror", "-MMD", "-MP"}


class CcError(Exception):
    pass


def flags() -> dict:
    """The build's flags (build/sdk/scc-cc.json), paths made absolute and
    the project's own strictness left out."""
    try:
        f = json.loads(SDK.read_text(encoding="utf-8"))
    except OSError:
        raise CcError(f"{SDK} is missing: run `make` in {REPO} first") from None
    for k, v in f.items():
        if isinstance(v, list):
            f[k] = [_abs(t) for t in v if t not in DROP]
    return f


def _abs(token: str) -> str:
    """A path relative to the repository, made absolute (flags stay)."""
    if token.startswith("-") or os.path.isabs(token):
        return token
    p = REPO / token
    return str(p) if p.exists() else token


def flag_parts(f: dict, host: bool) -> dict[str, list[str]]:
    """{cflags, ldflags, libs}: what a build system of one's own needs."""
    side = "host" if host else "chip"
    return {"cflags": f[f"{side}_cflags"],
            "ldflags": [] if host else f["chip_ldflags"] + f["chip_start"],
            "libs": f[f"{side}_libs"]}


def run(cmd: list[str], verbose: bool) -> None:
    """Run a compiler or linker; its failure ends scc-cc with its status."""
    if verbose:
        print(" ".join(cmd), file=sys.stderr)
    try:
        r = subprocess.run(cmd)
    except FileNotFoundError:
        raise CcError(f"{cmd[0]}: not found (the build installs it: run `make`)") from None
    if r.returncode:
        raise SystemExit(r.returncode)


def source_flags(f: dict, host: bool, src: str) -> list[str]:
    """Our flags for one source file: the assembler's for a chip .S or .s."""
    if not host and src.endswith((".S", ".s")):
        return f["chip_asflags"]
    return f["host_cflags" if host else "chip_cflags"]


def compile_only(f: dict, host: bool, sources: list[str], cflags: list[str],
                 out: str | None, verbose: bool) -> None:
    """-c: each source to an object (-o names it, for one source)."""
    if out and len(sources) > 1:
        raise CcError("-c with -o takes one source file")
    cc = f["host_cc"] if host else f["chip_cc"]
    for src in sources:
        obj = out or Path(src).with_suffix(".o").name
        run([cc, *source_flags(f, host, src), *cflags, "-c", "-o", obj, src], verbose)


def link(f: dict, host: bool, sources: list[str], objects: list[str], cflags: list[str],
         ldpaths: list[str], libs: list[str], out: str, verbose: bool) -> None:
    """A program from sources, objects and archives: for the host in one
    step; for the chip each source compiled first, then linked with the
    runtime (picolibc's libm is in the runtime's group already)."""
    if host:
        run([f["host_cc"], *f["host_cflags"], *cflags, "-o", out, *sources, *objects,
             *[f"-L{d}" for d in ldpaths], *[f"-l{l}" for l in libs], *f["host_libs"]],
            verbose)
        return
    with tempfile.TemporaryDirectory(prefix="scc-cc-") as tmp:
        objs = []
        for i, src in enumerate(sources):
            o = os.path.join(tmp, f"{i}-{Path(src).stem}.o")
            run([f["chip_cc"], *source_flags(f, host, src), *cflags, "-c", "-o", o, src],
                verbose)
            objs.append(o)
        run([f["chip_ld"], *f["chip_ldflags"], "-o", out, *f["chip_start"], *objs, *objects,
             *[f"-L{d}" for d in ldpaths], *[f"-l{l}" for l in libs if l != "m"],
             *f["chip_libs"]], verbose)
