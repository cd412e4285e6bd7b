"""Experiment files: what to run, and the points a sweep expands to.

An experiment is a TOML file (read with the standard library's tomllib) or
the same structure as a dict:

    [experiment]
    name = "bcast"              # names the results
    app = "bcast_bench"         # build/apps/NAME.elf (chip) or the host build
                                # (build/libscc/rcce/host/NAME), or a path
    backend = "chip"            # chip | host
    mode = "timing"             # timing (modeled SCC time) | functional
    cores = "0-47"              # the cores the app runs on
    rcce = true                 # RCCE's words (N 0.533 core ids) before the args
    arg_style = "--key value"   # or "key=value"
    timeout = 300               # seconds for one point of unit work (scaled)
    cache = true                # default: true for modeled (chip, timing) points

    [machine]                   # machine options (-machine scc,KEY=VALUE)
    [kernel]                    # kernel options (KEY=VALUE on its command line)
    [args]                      # fixed app arguments; true = a bare flag
    [sweep]                     # the cross product of these lists
    [[points]]                  # explicit points, each a table of parameters

A parameter (in args, sweep or a point) is an app argument, or `cores`,
`mode`, `backend`, or `machine.KEY` / `kernel.KEY`. A sweep value is a list,
a scalar, or a range: "A:B" (powers of two from A to B, sizes may say K, M,
G), or a table {start, stop, step} or {start, stop, factor}. With points
and a sweep, every point is crossed with the sweep; with points alone they
are the list; with neither, the experiment is one point.
"""
from __future__ import annotations

import copy
import itertools
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scc import sccrun

BACKENDS = ("chip", "host")
MODES = ("timing", "functional")
ARG_STYLES = ("--key value", "key=value")
SECTIONS = ("experiment", "machine", "kernel", "args", "sweep", "points")
EXPERIMENT_KEYS = ("name", "description", "app", "backend", "mode", "cores", "rcce",
                   "arg_style", "timeout", "cache")
# Points with more than this many are almost surely a mistake in a range.
MAX_POINTS = 100_000


class ExperimentError(ValueError):
    """The experiment file is malformed; the message says where."""


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
        return tuple(sccrun.parse_cores(value if isinstance(value, (str, int)) else
                                        list(value), sccrun.machine_cores(machine)))
    except (sccrun.SccRunError, TypeError, ValueError) as e:
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
        return str(sccrun.REPO / "build" / "libscc" / "rcce" / "host" / app)
    return str(sccrun.REPO / "build" / "apps" / f"{app}.elf")


def _arg_words(args: dict, style: str) -> list[str]:
    words: list[str] = []
    for k, v in args.items():
        if v is False or v is None:
            continue
        if style == "key=value":
            words.append(k if v is True else f"{k}={v}")
        else:
            words.append(f"--{k}")
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


def load(path: str | Path) -> Experiment:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise ExperimentError(f"{path}: {e.strerror}") from None
    try:
        spec = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ExperimentError(f"{path}: not valid TOML: {e}") from None
    exp = expand(spec, base=p.resolve().parent)
    exp.source, exp.path = text, str(p)
    return exp


def expand(spec: dict, base: Path | None = None) -> Experiment:
    """The experiment's points, in a stable order (the sweep's keys in the
    file's order, the last varying fastest)."""
    unknown = set(spec) - set(SECTIONS)
    if unknown:
        raise ExperimentError(f"unknown section(s): {', '.join(sorted(unknown))} "
                              f"(known: {', '.join(SECTIONS)})")
    e = _table(spec, "experiment")
    bad = set(e) - set(EXPERIMENT_KEYS)
    if bad:
        raise ExperimentError(f"[experiment]: unknown key(s) {', '.join(sorted(bad))}")
    for key in ("name", "app"):
        if not isinstance(e.get(key), str) or not e.get(key):
            raise ExperimentError(f"[experiment] needs {key} = \"...\"")
    name = e["name"]
    if not re.fullmatch(r"[A-Za-z0-9_.-]+", name):
        raise ExperimentError(f"[experiment] name {name!r}: letters, digits, . _ - only")
    style = e.get("arg_style", "--key value")
    if style not in ARG_STYLES:
        raise ExperimentError(f"arg_style must be one of {ARG_STYLES}")
    sweep = _table(spec, "sweep")
    points = spec.get("points", [])
    if not isinstance(points, list) or not all(isinstance(x, dict) for x in points):
        raise ExperimentError("[[points]] must be an array of tables")
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
        exp.points.append(_point(e, spec, params, i, style, base))
    return exp


def _point(e: dict, spec: dict, params: dict, index: int, style: str,
           base: Path | None) -> Point:
    machine = {k: str(v) for k, v in _table(spec, "machine").items()}
    kernel = {k: str(v) for k, v in _table(spec, "kernel").items()}
    args = dict(_table(spec, "args"))
    backend, mode, cores = e.get("backend", "chip"), e.get("mode", "timing"), e.get("cores", "all")
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
        else:
            args[k] = v
    if backend not in BACKENDS:
        raise ExperimentError(f"backend {backend!r}: one of {', '.join(BACKENDS)}")
    if mode not in MODES:
        raise ExperimentError(f"mode {mode!r}: one of {', '.join(MODES)}")
    core_ids = _cores(cores, machine)
    words = _arg_words(args, style)
    if e.get("rcce", False):
        words = [str(len(core_ids)), "0.533", *map(str, core_ids), *words]
    timeout = e.get("timeout", 300)
    if not isinstance(timeout, (int, float)) or timeout <= 0:
        raise ExperimentError("timeout must be a positive number of seconds")
    clock_modeled = backend == "chip" and mode == "timing"
    return Point(experiment=e["name"], index=index, params=params,
                 app=resolve_app(e["app"], backend, base), backend=backend, mode=mode,
                 cores=core_ids, machine=machine, kernel=kernel, args=tuple(words),
                 timeout=float(timeout) * _work(args, len(core_ids)),
                 cache=bool(e.get("cache", clock_modeled)))


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
