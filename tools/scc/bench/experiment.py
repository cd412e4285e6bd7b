"""Experiment files: what to run, and the points a sweep expands to.

An experiment is a TOML file (read with the standard library's tomllib) or
the same structure as a dict:

    [experiment]
    name = "bcast"              # names the results
    app = "bcast_bench"         # build/apps/NAME.elf (chip) or the host build
                                # (build/libscc/rcce/host/NAME), or a path
    program = "netpipe/NPmpi.elf"   # instead of app: a program built elsewhere,
                                # its file in build/ (or absolute)
    output = "csv"              # what it prints: csv (apps/lib/bench.h) or
                                # netpipe (tools/scc/bench/outputs.py)
    backend = "chip"            # chip | host
    mode = "timing"             # timing (modeled SCC time) | functional
    cores = "0-47"              # the cores the app runs on
    rcce = true                 # RCCE's words (N 0.533 core ids) before the args
    timeout = 300               # seconds for one point of unit work (scaled)
    cache = true                # default: true for modeled (chip, timing) points
    other = [{ cores = "1-4", app = "copy_core", args = "" }]
                                # other apps on other cores (chip only): a core
                                # map per point runs each on its cores

    [machine]                   # machine options (-machine scc,KEY=VALUE)
    [kernel]                    # kernel options (KEY=VALUE on its command line)
    [args]                      # fixed app arguments; true = a bare flag
    [sweep]                     # the cross product of these lists
    [[points]]                  # explicit points, each a table of parameters
    [quick]                     # the quick variant: overrides of the sections
                                # above ([quick.args], [[quick.points]], ...)

An app argument KEY = VALUE is passed as the words --KEY VALUE (true: the
bare flag --KEY), the one convention of every program in apps/
(apps/lib/bench.h); a KEY that begins with "-" is the word as written
("-u" = 65536: -u 65536), for a program of another convention (NetPIPE's
getopt letters).

A parameter (in args, sweep or a point) is an app argument, or `cores`,
`mode`, `backend`, or `machine.KEY` / `kernel.KEY`, or `args.KEY` (the app
argument KEY, whatever its name: `args.cores`), or `other` (the list of
other apps), `other.KEY` (KEY of the only other app: `other.cores`) or
`other.N.KEY` (of the N-th, from 0). An app argument's text may say
`{other.cores}` or `{other.N.cores}`: that other app's cores, as a comma
list (copy_bench's --cores follows a sweep of the copy cores). A sweep value is a list,
a scalar, or a range: "A:B" (powers of two from A to B, sizes may say K, M,
G), or a table {start, stop, step} or {start, stop, factor}. With points
and a sweep, every point is crossed with the sweep; with points alone they
are the list; with neither, the experiment is one point.

[quick] is the experiment's quick variant (scc-bench run --quick, and
scc-report --quick for the report's experiments, experiments/report/): its
tables are merged into the experiment's sections, a value in it replacing
the experiment's (a list, [[quick.points]] too, replaces the whole list).
Without --quick it is left out.
"""
from __future__ import annotations

import copy
import itertools
import re
import shlex
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scc.bench import outputs
from scc.machine import coremap
from scc.paths import BUILD

BACKENDS = ("chip", "host")
MODES = ("timing", "functional")
SECTIONS = ("experiment", "machine", "kernel", "args", "sweep", "points", "quick")
EXPERIMENT_KEYS = ("name", "description", "app", "program", "output", "backend", "mode",
                   "cores", "rcce", "timeout", "cache", "other")
OTHER_KEYS = ("app", "cores", "args")
# Points with more than this many are almost surely a mistake in a range.
MAX_POINTS = 100_000


class ExperimentError(ValueError):
    """The experiment file is malformed; the message says where."""


@dataclass(frozen=True)
class Other:
    """Another app of a point, on cores of its own (a line of its core map)."""
    app: str                # resolved path
    cores: tuple[int, ...]
    args: tuple[str, ...]

    def label(self) -> str:
        """app.elf@cores and its arguments."""
        return " ".join([f"{Path(self.app).name}@{coremap.format_cores(list(self.cores))}",
                         *self.args])


@dataclass(frozen=True)
class Point:
    """One run of the app: everything that decides its result."""
    experiment: str
    index: int
    params: dict            # the swept and explicit parameters, as given
    app: str                # resolved path
    backend: str
    mode: str
    cores: tuple[int, ...]
    machine: dict
    kernel: dict
    args: tuple[str, ...]
    timeout: float
    cache: bool
    other: tuple[Other, ...] = ()   # other apps on other cores (chip)
    # the app's arguments by name, as the experiment gives them (before
    # they become words), and whether the RCCE words come first: what
    # tools/scc/bench/appopts.py checks against the app
    options: dict = field(default_factory=dict)
    rcce: bool = False
    output: str = "csv"     # what the program prints (tools/scc/bench/outputs.py)

    @property
    def clock(self) -> str:
        """What the app's times are: modeled SCC time, the emulator's
        functional clock, or the host's wall clock."""
        if self.backend == "host":
            return "host"
        return "modeled" if self.mode == "timing" else "emulated"

    def label(self) -> str:
        return " ".join(f"{k}={v}" for k, v in self.params.items()) or "(one point)"


@dataclass
class Experiment:
    name: str
    spec: dict
    source: str = ""        # the file's text, for the manifest
    path: str = ""
    points: list[Point] = field(default_factory=list)


_SUFFIX = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}


def parse_size(text: str | int) -> int:
    """A number, with an optional K, M or G (binary) suffix."""
    if isinstance(text, int) and not isinstance(text, bool):
        if text < 0:
            raise ExperimentError(f"negative size {text}")
        return text
    m = re.fullmatch(r"\s*(\d+)\s*([KMG]?)i?B?\s*", str(text), re.I)
    if not m:
        raise ExperimentError(f"bad size {text!r} (a number, optionally with K, M or G)")
    return int(m.group(1)) * _SUFFIX[m.group(2).upper()]


def expand_range(value: Any, where: str) -> list:
    """A sweep value as the list of its values."""
    if isinstance(value, list):
        if not value:
            raise ExperimentError(f"{where}: an empty list sweeps nothing")
        return value
    if isinstance(value, dict):
        unknown = set(value) - {"start", "stop", "step", "factor"}
        if unknown or "start" not in value or "stop" not in value or \
                ("step" in value) == ("factor" in value):
            raise ExperimentError(f"{where}: a range table has start, stop and one of "
                                  "step or factor")
        start, stop = parse_size(value["start"]), parse_size(value["stop"])
        if stop < start:
            raise ExperimentError(f"{where}: stop {stop} is below start {start}")
        out, x = [], start
        if "step" in value:
            step = parse_size(value["step"])
            if step <= 0:
                raise ExperimentError(f"{where}: step must be positive")
            if (stop - start) // step >= MAX_POINTS:
                raise ExperimentError(f"{where}: more than {MAX_POINTS} values")
            while x <= stop:
                out.append(x)
                x += step
        else:
            f = value["factor"]
            if not isinstance(f, (int, float)) or f <= 1 or start <= 0:
                raise ExperimentError(f"{where}: factor must be above 1, start above 0")
            while x <= stop:
                out.append(int(x))
                x = x * f
        return out
    if isinstance(value, str) and re.fullmatch(r"\s*\d+\s*[KMG]?\s*:\s*\d+\s*[KMG]?\s*", value, re.I):
        a, b = (parse_size(s) for s in value.split(":"))
        if a <= 0 or b < a:
            raise ExperimentError(f"{where}: range {value!r} must go up from above 0")
        out = []
        while a <= b:
            out.append(a)
            a *= 2
        return out
    return [value]


def _table(spec: dict, name: str) -> dict:
    t = spec.get(name, {})
    if not isinstance(t, dict):
        raise ExperimentError(f"[{name}] must be a table")
    return t


def _cores(value: Any, machine: dict) -> tuple[int, ...]:
    try:
        return tuple(coremap.parse_cores(value if isinstance(value, (str, int)) else
                                        list(value), coremap.machine_cores(machine)))
    except (coremap.SccRunError, TypeError, ValueError) as e:
        raise ExperimentError(f"cores: {e}") from None


def resolve_app(app: str, backend: str, base: Path | None = None) -> str:
    """The app's file: a path as given (relative to the experiment file),
    else the build's output of that name for the backend."""
    p = Path(app)
    if p.suffix == ".elf" or "/" in app:
        if not p.is_absolute():
            p = (base or Path.cwd()) / p
        return str(p)
    if backend == "host":
        return str(BUILD / "libscc" / "rcce" / "host" / app)
    return str(BUILD / "apps" / f"{app}.elf")


def resolve_program(program: str) -> str:
    """A program's file ([experiment] program): in the build directory
    unless absolute, so that a copy of the experiment file elsewhere
    (scc-report's DIR/experiments/) names the same file."""
    p = Path(program)
    return str(p if p.is_absolute() else BUILD / p)


def _arg_words(args: dict) -> list[str]:
    words: list[str] = []
    for k, v in args.items():
        if v is False or v is None:
            continue
        words.append(k if k.startswith("-") else f"--{k}")
        if v is not True:
            words.append(str(v))
    return words


def _work(args: dict, ncores: int) -> float:
    """How much bigger than a unit point this one is, for its time limit:
    the bytes it moves (sizes x iterations) and the cores it runs."""
    sizes = args.get("sizes", args.get("size"))
    total = 0
    if sizes is not None:
        for part in str(sizes).split(","):
            try:
                if ":" in part:
                    total += sum(expand_range(part, "sizes"))
                elif "-" in part:
                    a, b = part.split("-", 1)
                    total += parse_size(b)
                else:
                    total += parse_size(part)
            except ExperimentError:
                pass
    iters = 1
    for key in ("iters", "n", "warmup"):
        try:
            iters += int(args.get(key, 0))
        except (TypeError, ValueError):
            pass
    return max(1.0, total * iters / (4 << 20)) * max(1.0, ncores / 16)


def read(path: str | Path) -> tuple[dict, str]:
    """An experiment file's spec as written (its [quick] too) and its text."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise ExperimentError(f"{path}: {e.strerror}") from None
    try:
        return tomllib.loads(text), text
    except tomllib.TOMLDecodeError as e:
        raise ExperimentError(f"{path}: not valid TOML: {e}") from None


def load(path: str | Path, quick: bool = False) -> Experiment:
    """An experiment file, expanded (its quick variant with @quick)."""
    p = Path(path)
    spec, text = read(p)
    exp = expand(spec, base=p.resolve().parent, quick=quick)
    exp.source, exp.path = text, str(p)
    return exp


def merge(base: dict, over: dict) -> dict:
    """@base with @over's tables merged in (a value in @over replaces)."""
    out = copy.deepcopy(base)
    for k, v in over.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = merge(out[k], v)
        else:
            out[k] = copy.deepcopy(v)
    return out


def variant(spec: dict, quick: bool = False) -> dict:
    """The spec that runs: without [quick], or with it merged in."""
    q = spec.get("quick", {})
    if not isinstance(q, dict):
        raise ExperimentError("[quick] must be a table")
    bad = set(q) - set(SECTIONS) | ({"quick"} & set(q))
    if bad:
        raise ExperimentError(f"[quick]: unknown section(s) {', '.join(sorted(bad))} "
                              f"(known: {', '.join(s for s in SECTIONS if s != 'quick')})")
    out = {k: v for k, v in spec.items() if k != "quick"}
    return merge(out, q) if quick else copy.deepcopy(out)


def expand(spec: dict, base: Path | None = None, quick: bool = False) -> Experiment:
    """The experiment's points, in a stable order (the sweep's keys in the
    file's order, the last varying fastest); with @quick, its quick
    variant's."""
    unknown = set(spec) - set(SECTIONS)
    if unknown:
        raise ExperimentError(f"unknown section(s): {', '.join(sorted(unknown))} "
                              f"(known: {', '.join(SECTIONS)})")
    spec = variant(spec, quick)
    e = _table(spec, "experiment")
    if "arg_style" in e:
        raise ExperimentError("[experiment] arg_style is no longer read: an app argument "
                              "KEY = VALUE is always the words --KEY VALUE, which every "
                              "program in apps/ takes (apps/lib/bench.h); delete the line")
    bad = set(e) - set(EXPERIMENT_KEYS)
    if bad:
        raise ExperimentError(f"[experiment]: unknown key(s) {', '.join(sorted(bad))}")
    if not isinstance(e.get("name"), str) or not e.get("name"):
        raise ExperimentError("[experiment] needs name = \"...\"")
    if ("app" in e) == ("program" in e):
        raise ExperimentError("[experiment] needs app = \"...\" (an app of apps/) or "
                              "program = \"...\" (a file in build/), one of them")
    which = "app" if "app" in e else "program"
    if not isinstance(e[which], str) or not e[which]:
        raise ExperimentError(f"[experiment] needs {which} = \"...\"")
    if e.get("output", "csv") not in outputs.FORMATS:
        raise ExperimentError(f"[experiment] output {e.get('output')!r}: one of "
                              f"{', '.join(outputs.FORMATS)}")
    name = e["name"]
    if not re.fullmatch(r"[A-Za-z0-9_.-]+", name):
        raise ExperimentError(f"[experiment] name {name!r}: letters, digits, . _ - only")
    sweep = _dotted(_table(spec, "sweep"))
    points = spec.get("points", [])
    if not isinstance(points, list) or not all(isinstance(x, dict) for x in points):
        raise ExperimentError("[[points]] must be an array of tables")
    points = [_dotted(pt) for pt in points]
    keys = list(sweep)
    values = [expand_range(sweep[k], f"sweep.{k}") for k in keys]
    n = 1
    for v in values:
        n *= len(v)
    n *= max(1, len(points))
    if n > MAX_POINTS:
        raise ExperimentError(f"{n} points: more than {MAX_POINTS}")
    combos = [dict(zip(keys, c)) for c in itertools.product(*values)]
    params_list = [{**pt, **c} for pt in (points or [{}]) for c in combos]
    exp = Experiment(name=name, spec=copy.deepcopy(spec))
    for i, params in enumerate(params_list):
        exp.points.append(_point(e, spec, params, i, base))
    return exp


def _dotted(params: dict) -> dict:
    """Parameters with machine.KEY, kernel.KEY and args.KEY as one name
    each: TOML reads an unquoted dotted key (kernel.dram_view = "any" in
    a point) as a table, {"kernel": {"dram_view": "any"}}."""
    out = {}
    for k, v in params.items():
        if k in ("machine", "kernel", "args") and isinstance(v, dict):
            out.update({f"{k}.{sub}": x for sub, x in v.items()})
        else:
            out[k] = v
    return out


def _other_list(value: Any, where: str) -> list[dict]:
    """`other` as a list of entries (copies, to be changed per point)."""
    if isinstance(value, dict):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(o, dict) for o in value):
        raise ExperimentError(f"{where}: other is a list of tables "
                              "[{ cores = \"1-4\", app = \"copy_core\", args = \"...\" }]")
    return [dict(o) for o in value]


def _set_other(others: list[dict], key: str, value: Any) -> None:
    """Parameter other.KEY or other.N.KEY."""
    parts = key.split(".")
    if len(parts) == 2:
        if len(others) != 1:
            raise ExperimentError(f"parameter {key}: there are {len(others)} other apps, "
                                  f"not one: name one as other.N.{parts[1]} (N from 0)")
        n, field_ = 0, parts[1]
    elif len(parts) == 3 and parts[1].isdigit():
        n, field_ = int(parts[1]), parts[2]
        if n >= len(others):
            raise ExperimentError(f"parameter {key}: there is no other app {n} "
                                  f"(there are {len(others)})")
    else:
        raise ExperimentError(f"parameter {key}: want other.KEY or other.N.KEY")
    if field_ not in OTHER_KEYS:
        raise ExperimentError(f"parameter {key}: an other app has {', '.join(OTHER_KEYS)}")
    others[n][field_] = value


def _other_args(value: Any, where: str) -> tuple[str, ...]:
    if value is None or value == "":
        return ()
    if isinstance(value, str):
        try:
            return tuple(shlex.split(value))
        except ValueError as e:
            raise ExperimentError(f"{where}: args {value!r}: {e}") from None
    if isinstance(value, list) and all(isinstance(a, (str, int, float)) and
                                       not isinstance(a, bool) for a in value):
        return tuple(map(str, value))
    raise ExperimentError(f"{where}: args is a string of words or a list of them")


def _others(entries: list[dict], main: tuple[int, ...], machine: dict, backend: str,
            app: str, base: Path | None) -> tuple[Other, ...]:
    """The point's other apps, checked: known files, cores of their own."""
    if entries and backend != "chip":
        raise ExperimentError("other apps run on the chip (a core map), not with backend "
                              f"{backend!r}")
    out, taken = [], {c: "the app's cores" for c in main}
    names = {coremap.app_link_name(app): app}
    for i, o in enumerate(entries):
        where = f"other[{i}]"
        bad = set(o) - set(OTHER_KEYS)
        if bad:
            raise ExperimentError(f"{where}: unknown key(s) {', '.join(sorted(bad))} "
                                  f"(known: {', '.join(OTHER_KEYS)})")
        if not isinstance(o.get("app"), str) or not o.get("app"):
            raise ExperimentError(f"{where} needs app = \"...\"")
        if "cores" not in o:
            raise ExperimentError(f"{where} needs cores = \"...\"")
        path = resolve_app(o["app"], "chip", base)
        if not Path(path).is_file():
            raise ExperimentError(f"{where}: app {o['app']!r}: {path} does not exist "
                                  "(a name in build/apps/, built by `make`, or a path)")
        try:
            cores = _cores(o["cores"], machine)
        except ExperimentError as e:
            raise ExperimentError(f"{where}: {e}") from None
        for c in cores:
            if c in taken:
                raise ExperimentError(f"{where}: core {c} is also one of {taken[c]}: each "
                                      "core runs one app")
            taken[c] = f"other[{i}]'s cores"
        link = coremap.app_link_name(path)
        if names.setdefault(link, path) != path:
            raise ExperimentError(f"{where}: {path} and {names[link]} have the same file "
                                  "name (the core map names each app by it)")
        out.append(Other(app=path, cores=cores, args=_other_args(o.get("args"), where)))
    return tuple(out)


_OTHER_CORES = re.compile(r"\{other(?:\.(\d+))?\.cores\}")


def _fill(words: list[str], others: tuple[Other, ...]) -> list[str]:
    """{other.cores} and {other.N.cores} in the app's arguments."""
    def cores(m):
        n = int(m.group(1) or 0)
        if m.group(1) is None and len(others) > 1:
            raise ExperimentError(f"{m.group(0)}: there are {len(others)} other apps: "
                                  "say {other.N.cores}")
        if n >= len(others):
            raise ExperimentError(f"{m.group(0)}: the point has {len(others)} other app(s)")
        return ",".join(map(str, others[n].cores))
    return [_OTHER_CORES.sub(cores, w) for w in words]


def _point(e: dict, spec: dict, params: dict, index: int, base: Path | None) -> Point:
    machine = {k: str(v) for k, v in _table(spec, "machine").items()}
    kernel = {k: str(v) for k, v in _table(spec, "kernel").items()}
    args = dict(_table(spec, "args"))
    backend, mode, cores = e.get("backend", "chip"), e.get("mode", "timing"), e.get("cores", "all")
    others = _other_list(e.get("other", []), "[experiment]")
    for k, v in params.items():
        if k == "backend":
            backend = v
        elif k == "mode":
            mode = v
        elif k == "cores":
            cores = v
        elif k.startswith("machine."):
            machine[k[8:]] = str(v)
        elif k.startswith("kernel."):
            kernel[k[7:]] = str(v)
        elif k.startswith("args.") and len(k) > 5:
            args[k[5:]] = v
        elif k == "other":
            others = _other_list(v, f"point {index}")
    for k, v in params.items():     # after a whole list, its entries' keys
        if k.startswith("other."):
            _set_other(others, k, v)
        elif k not in ("backend", "mode", "cores", "other") and \
                not k.startswith(("machine.", "kernel.", "args.")):
            args[k] = v
    if backend not in BACKENDS:
        raise ExperimentError(f"backend {backend!r}: one of {', '.join(BACKENDS)}")
    if mode not in MODES:
        raise ExperimentError(f"mode {mode!r}: one of {', '.join(MODES)}")
    core_ids = _cores(cores, machine)
    app = resolve_app(e["app"], backend, base) if "app" in e else resolve_program(e["program"])
    other = _others(others, core_ids, machine, backend, app, base)
    words = _fill(_arg_words(args), other)
    if e.get("rcce", False):
        words = [str(len(core_ids)), "0.533", *map(str, core_ids), *words]
    timeout = e.get("timeout", 300)
    if not isinstance(timeout, (int, float)) or timeout <= 0:
        raise ExperimentError("timeout must be a positive number of seconds")
    clock_modeled = backend == "chip" and mode == "timing"
    ncores = len(core_ids) + sum(len(o.cores) for o in other)
    return Point(experiment=e["name"], index=index, params=params,
                 app=app, backend=backend, mode=mode,
                 cores=core_ids, machine=machine, kernel=kernel, args=tuple(words),
                 timeout=float(timeout) * _work(args, ncores),
                 cache=bool(e.get("cache", clock_modeled)), other=other,
                 options=dict(args), rcce=bool(e.get("rcce", False)),
                 output=e.get("output", "csv"))


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_toml_value(str(k))} = {_toml_value(x)}"
                                for k, x in v.items()) + " }"
    raise ExperimentError(f"cannot write {v!r} as TOML")


def to_toml(spec: dict, comment: str = "") -> str:
    """@spec as an experiment file (tomllib reads it back to the same dict)."""
    lines = [f"# {l}" for l in comment.splitlines()]
    for section in SECTIONS:
        body = spec.get(section)
        if not body:
            continue
        if section == "points":
            for pt in body:
                lines += ["", "[[points]]"]
                lines += [f"{_toml_value(str(k))} = {_toml_value(v)}" for k, v in pt.items()]
            continue
        lines += ["", f"[{section}]"]
        lines += [f"{_toml_value(str(k))} = {_toml_value(v)}" for k, v in body.items()]
    return "\n".join(lines).lstrip("\n") + "\n"
