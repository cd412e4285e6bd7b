"""What an app accepts, read from its ELF, and an experiment checked
against it before any point runs.

Every benchmark in apps/ reads its options by one table (apps/lib/bench.h,
BENCH_OPTIONS), which the build also writes into the ELF as the section
.scc_options (not loaded: the guest never sees it), a text:

    scc-options 2
    init rcce                   (the program calls RCCE_init; or none)
    value sizes                 (an option that takes a value)
    flag list                   (one that takes none)

Every such program takes --KEY VALUE (and --KEY for a flag), the words
an experiment's arguments become.

It is read here from the file (chip ELF or host binary alike), without
running the app. check() refuses, naming each mistake: an app that is not
built (and says which are), an option the app does not take (and the
nearest it does), a value where a flag belongs or the reverse, an
rcce setting the app does not read its arguments by. An app
without the section (a program of one's own) is not checked.
"""
from __future__ import annotations

import difflib
import os
from dataclasses import dataclass
from pathlib import Path

from scc.bench import outputs
from scc.bench.experiment import ExperimentError
from scc.machine.coremap import format_cores
from scc.machine.elf import elf_section
from scc.paths import BUILD

SECTION = ".scc_options"
KINDS = ("value", "flag")


@dataclass(frozen=True)
class AppOptions:
    init: str                   # "rcce" (RCCE_init: RCCE words, --coll) or "none"
    options: dict               # name -> "value" | "flag", in the app's order

    def accepts(self) -> dict:
        """The options an experiment may name: the table's, and --coll
        (RCCE_init's) for an RCCE program."""
        out = dict(self.options)
        if self.init == "rcce":
            out.setdefault("coll", "value")
        return out


def parse(text: str, where: str = "") -> AppOptions:
    """The section's text as AppOptions; ValueError if it is malformed."""
    lines = [l for l in text.split("\0", 1)[0].splitlines() if l.strip()]
    if not lines or lines[0] != "scc-options 2":
        raise ValueError(f"{where}: {SECTION} does not begin with 'scc-options 2' "
                         "(an app built before apps/lib: rebuild it with `make`)")
    init, options = None, {}
    for line in lines[1:]:
        key, _, rest = line.partition(" ")
        if key == "init":
            init = rest
        elif key in KINDS and rest:
            options[rest] = key
        else:
            raise ValueError(f"{where}: {SECTION}: cannot read the line {line!r}")
    if init not in ("rcce", "none"):
        raise ValueError(f"{where}: {SECTION} lacks its init line")
    return AppOptions(init=init, options=options)


_cache: dict[tuple[str, int, int], AppOptions | None] = {}


def read(path: str | os.PathLike) -> AppOptions | None:
    """The options the app at @path lists; None if it lists none (no
    section). ValueError if the section is malformed."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    key = (str(path), st.st_mtime_ns, st.st_size)
    if key not in _cache:
        raw = elf_section(path, SECTION)
        _cache[key] = None if raw is None else parse(raw.decode("utf-8", "replace"), str(path))
    return _cache[key]


def app_dir(backend: str) -> Path:
    """Where the build puts the apps of @backend."""
    return BUILD / ("libscc/rcce/host" if backend == "host" else "apps")


def built_apps(backend: str) -> list[str]:
    """The names of the apps built for @backend."""
    d = app_dir(backend)
    if not d.is_dir():
        return []
    if backend == "host":
        return sorted(f.name for f in d.iterdir() if f.is_file() and os.access(f, os.X_OK)
                      and "." not in f.name)
    return sorted(f.stem for f in d.glob("*.elf") if f.is_file())


def _app_name(path: str) -> str:
    name = Path(path).name
    return name[:-4] if name.endswith(".elf") else name


def _missing(path: str, backend: str, output: str = "csv") -> str:
    name = _app_name(path)
    d = app_dir(backend)
    build = outputs.FORMATS[output].build if output in outputs.FORMATS else ""
    if build:                           # a program built apart from the apps
        return f"program {path} is not built: {build}"
    if Path(path).parent != d:          # a path of the experiment's own
        return f"app {path}: no such file"
    have = built_apps(backend)
    near = difflib.get_close_matches(name, have, n=1)
    return (f"app {name!r}: {path} does not exist" +
            (f" (did you mean {near[0]!r}?)" if near else "") +
            (f"; the {backend} apps built: {', '.join(have)}" if have else
             f"; no {backend} app is built (run `make`)"))


def _unknown(app: str, name: str, opts: AppOptions) -> str:
    have = list(opts.accepts())
    near = difflib.get_close_matches(name, have, n=1)
    return (f"{app} does not take the option {name!r}" +
            (f" (did you mean {near[0]!r}?)" if near else "") +
            f"; it takes: {', '.join(have) if have else 'no options'}")


def _word_problems(app: str, words: tuple[str, ...], opts: AppOptions) -> list[str]:
    """Problems of an other app's argument words (as the app would read
    them: apps/lib/bench.h's forms)."""
    words = list(words)
    out = []
    if opts.init == "rcce" and words and words[0].isdigit():
        words = words[2 + int(words[0]):]       # N GHz core ids
    acc = opts.accepts()
    i = 0
    while i < len(words):
        w = words[i]
        name, eq, _ = w[2 * w.startswith("--"):].partition("=")
        if w.startswith("--") or eq:
            if name not in acc:
                out.append(_unknown(app, name, opts))
            elif acc.get(name) == "value" and not eq:
                i += 1
        elif acc.get(w) != "flag":
            out.append(f"{app} takes --key value arguments, not the word {w!r}")
        i += 1
    return out


def _point_problems(p) -> list[str]:
    out = []
    if not Path(p.app).is_file():
        return [_missing(p.app, p.backend, getattr(p, "output", "csv"))]
    try:
        opts = read(p.app)
    except ValueError as e:
        return [str(e)]
    if opts is not None:
        app = _app_name(p.app)
        given = {k: v for k, v in p.options.items() if v is not False and v is not None}
        if opts.init == "rcce" and not p.rcce:
            out.append(f"{app} is an RCCE program: it needs rcce = true (the RCCE words "
                       "before its arguments)")
        elif opts.init != "rcce" and p.rcce:
            out.append(f"{app} is not an RCCE program: rcce = true would give it the RCCE "
                       "words as arguments")
        acc = opts.accepts()
        for k, v in given.items():
            kind = acc.get(k)
            if kind is None:
                out.append(_unknown(app, k, opts))
            elif kind == "value" and v is True:
                out.append(f"{app}'s option {k!r} takes a value, not true")
            elif kind == "flag" and v is not True:
                out.append(f"{app}'s option {k!r} takes no value: give it as {k} = true")
    for o in p.other:
        if not Path(o.app).is_file():
            out.append(_missing(o.app, "chip"))
            continue
        try:
            oo = read(o.app)
        except ValueError as e:
            out.append(str(e))
            continue
        if oo is not None:
            out += _word_problems(_app_name(o.app), o.args, oo)
    return out


def problems(experiments) -> dict[tuple[str, str], list[int]]:
    """Every app not built and every option an app does not take, in every
    point of @experiments: {(experiment name, the mistake): its points}."""
    found: dict[tuple[str, str], list[int]] = {}
    for exp in experiments:
        for p in exp.points:
            for problem in _point_problems(p):
                found.setdefault((exp.name, problem), []).append(p.index)
    return found


def check(experiments) -> None:
    """Raise ExperimentError naming every app that is not built and every
    option an app does not take, in every point of @experiments (each
    mistake once, with the points it is in)."""
    found = problems(experiments)
    if not found:
        return
    lines = []
    for (name, problem), points in found.items():
        where = (f"point {points[0]}" if len(points) == 1 else
                 f"points {format_cores(sorted(set(points)))}")
        lines.append(f"experiment {name!r}, {where}: {problem}")
    n = len(lines)
    raise ExperimentError(("\n  ".join([f"{n} mistake(s), nothing was run:"] + lines)))
