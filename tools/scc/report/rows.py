"""The report's rows and targets, read from data: experiments/report/
(README.md there). rows.toml holds the papers' rows, targets.toml libscc's
targets, NAME.toml each experiment they run, in the experiment language
scc-bench reads (tools/scc/bench/experiment.py), its [quick] table the
quick variant. A row names its measure (measures.py, targets.py) and the
measure's arguments; nothing else of a row is Python.
"""
from __future__ import annotations

import functools
import inspect
import re
import string
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from scc.bench import experiment as xp
from scc.paths import REPO
from scc.report import measures, targets

DATA = REPO / "experiments" / "report"

ROW_KEYS = {"id", "result", "paper", "published", "published_ratio", "unit", "band",
            "experiments", "measure", "with", "config", "not_reproducible", "plot",
            "outside_why", "role", "parameters", "role_why", "quick_why"}
# What a row is for (issue 45, section 1): a row a model parameter was set
# from cannot be outside its band, so it is counted apart from the rows
# that test the model.
ROLES = ("calibrates", "predicts", "not reproducible")
PARAMETER = re.compile(r"(timing-[a-z0-9-]+|core-hz)")
TARGET_KEYS = {"id", "result", "goal", "ops", "unit", "measure", "with", "config"}
ORIGIN_KEYS = {"experiment", "mpbt_experiment", "rcce_comm", "papers", "ours"}


class RowError(ValueError):
    """The report's data is malformed; the message says where."""


@dataclass(frozen=True)
class Headline:
    """One row of the papers' results (rows.toml)."""
    id: str                 # "1".."15", "1a", "12b", ...
    result: str             # short name
    paper: str              # what the paper says, with its line reference
    published: float | None  # the published number (None if not reproducible here)
    unit: str
    band: tuple[float, float] | None    # accepted ratio ours / published
    why_band: str
    experiments: tuple[str, ...]    # experiments/report/NAME.toml
    measure: Callable | None        # {name: results DataFrame} -> our number
    config: str             # the configuration in words
    not_reproducible: str = ""
    plot: dict | None = None
    # why the model cannot get inside the band, if it is outside
    outside_why: str = ""
    measure_name: str = ""
    measure_args: dict = field(default_factory=dict)
    role: str = "predicts"          # one of ROLES
    # the machine's parameters (timing-*, core-hz) set from the row's number
    parameters: tuple[str, ...] = ()
    role_why: str = ""              # why the row calibrates (or is not reproducible)
    # why the quick variant cannot give the full run's verdict (then it gives none)
    quick_why: str = ""


@dataclass(frozen=True)
class Target:
    """One of libscc's targets beyond the papers (targets.toml)."""
    id: str
    result: str
    goal: str               # the target in words
    ops: tuple              # the collectives it covers
    unit: str               # of ours / papers' / RCCE_comm's numbers
    measure: Callable       # {experiment name: results} -> [line dicts]
    config: str
    experiments: tuple[str, ...] = ()
    measure_name: str = ""
    measure_args: dict = field(default_factory=dict)
    origin: dict = field(default_factory=dict)


def _read(path: Path) -> dict:
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except OSError as e:
        raise RowError(f"{path}: {e.strerror}") from None
    except tomllib.TOMLDecodeError as e:
        raise RowError(f"{path}: not valid TOML: {e}") from None


def _text(value, texts: dict, where: str):
    """A text as the report shows it: one paragraph (line breaks and runs
    of spaces one space), ${name} the phrase [text] names; other values
    (a plot's columns, its flags) as they are, a table's texts each."""
    if isinstance(value, dict):
        return {k: _text(v, texts, where) for k, v in value.items()}
    if not isinstance(value, str):
        return value
    try:
        value = string.Template(value).substitute(texts)
    except (KeyError, ValueError) as e:
        raise RowError(f"{where}: no phrase {e} in [text]") from None
    return " ".join(value.split())


def _measure(module, name: str, args: dict, where: str, given: dict,
             experiments: list[str] = ()) -> Callable:
    """The function @name of @module with @args (and @given) bound;
    RowError unless it is a measure of the module that takes them. A
    measure that reads one experiment gets the row's only one unless @args
    names it."""
    fn = getattr(module, name, None)
    if not name or name.startswith("_") or not inspect.isfunction(fn) \
            or fn.__module__ != module.__name__:
        raise RowError(f"{where}: measure {name!r} is not a function of {module.__name__}")
    if len(experiments) == 1 and "experiment" in inspect.signature(fn).parameters:
        args.setdefault("experiment", experiments[0])
    try:
        inspect.signature(fn).bind("dfs", **given, **args)
    except TypeError as e:
        raise RowError(f"{where}: measure {name}: {e}") from None
    return functools.partial(fn, **given, **args)


def _headline(r: dict, bands: dict, texts: dict, where: str) -> Headline:
    bad = set(r) - ROW_KEYS
    if bad:
        raise RowError(f"{where}: unknown key(s) {', '.join(sorted(bad))}")
    for k in ("id", "result", "paper", "unit", "config"):
        if not isinstance(r.get(k), str) or not r[k].strip():
            raise RowError(f"{where}: needs {k} = \"...\"")
    where = f"{where} (row {r['id']})"
    exps = r.get("experiments", [])
    if not isinstance(exps, list) or not all(isinstance(e, str) for e in exps):
        raise RowError(f"{where}: experiments is a list of names (experiments/report/NAME.toml)")
    role, params, role_why = _role(r, texts, where)
    published, band, why, measure = None, None, "", None
    args = dict(r.get("with", {}))
    if not r.get("not_reproducible"):
        if "published_ratio" in r:
            a, b = r["published_ratio"]
            published = float(a) / float(b)
        elif isinstance(r.get("published"), (int, float)):
            published = float(r["published"])
        else:
            raise RowError(f"{where}: needs published = N or published_ratio = [A, B]")
        if r.get("band") not in bands:
            raise RowError(f"{where}: band {r.get('band')!r} is none of {', '.join(bands)}")
        band, why = bands[r["band"]]
        measure = _measure(measures, r.get("measure", ""), args, where, {}, exps)
    return Headline(
        id=r["id"], result=_text(r["result"], texts, where), paper=_text(r["paper"], texts, where),
        published=published, unit=r["unit"], band=band, why_band=why, experiments=tuple(exps),
        measure=measure, config=_text(r["config"], texts, where),
        not_reproducible=_text(r.get("not_reproducible", ""), texts, where),
        plot=_text(r["plot"], texts, where) if "plot" in r else None,
        outside_why=_text(r.get("outside_why", ""), texts, where),
        measure_name=r.get("measure", ""), measure_args=args,
        role=role, parameters=params, role_why=role_why,
        quick_why=_text(r.get("quick_why", ""), texts, where))


def _role(r: dict, texts: dict, where: str) -> tuple[str, tuple[str, ...], str]:
    """(role, parameters, why) of a row; RowError for a role that is none
    of ROLES, a calibrating row that names no parameter or gives no reason,
    a row not reproducible without its reason, parameters on a row that
    sets none."""
    role = r.get("role")
    if role not in ROLES:
        raise RowError(f"{where}: role {role!r} is none of {', '.join(ROLES)}")
    params = r.get("parameters", [])
    if not isinstance(params, list) or not all(isinstance(p, str) for p in params):
        raise RowError(f"{where}: parameters is a list of the machine's parameter names")
    bad = [p for p in params if not PARAMETER.fullmatch(p)]
    if bad:
        raise RowError(f"{where}: {', '.join(bad)}: not a parameter of the machine "
                       "(timing-NAME or core-hz)")
    why = _text(r.get("role_why", ""), texts, where)
    if role == "calibrates":
        if not params:
            raise RowError(f"{where}: a calibrating row names the parameters set from it "
                           "(parameters = [...])")
        if not why:
            raise RowError(f"{where}: a calibrating row says how it set them (role_why)")
    elif params:
        raise RowError(f"{where}: parameters are named only by a calibrating row "
                       f"(this one {role})")
    if role == "not reproducible" and not (why or r.get("not_reproducible")):
        raise RowError(f"{where}: a row not reproducible says why (role_why or "
                       "not_reproducible)")
    if r.get("not_reproducible") and role != "not reproducible":
        raise RowError(f"{where}: not_reproducible needs role = \"not reproducible\"")
    return role, tuple(params), why


@functools.lru_cache(maxsize=None)
def _rows(path: Path) -> tuple[tuple[Headline, ...], dict]:
    data = _read(path)
    texts = {k: " ".join(v.split()) for k, v in data.get("text", {}).items()}
    bands = {}
    for name, b in data.get("band", {}).items():
        lo, hi = b["ratio"]
        bands[name] = ((float(lo), float(hi)), _text(b["why"], texts, f"{path}: band.{name}"))
    rows = tuple(_headline(r, bands, texts, f"{path}: row {i}")
                 for i, r in enumerate(data.get("row", [])))
    ids = [h.id for h in rows]
    dup = sorted({i for i in ids if ids.count(i) > 1})
    if dup:
        raise RowError(f"{path}: row ids {', '.join(dup)} are not unique")
    words = data.get("legend", {})
    if not all(isinstance(w, dict) and all(isinstance(v, str) for v in w.values())
               for w in words.values()):
        raise RowError(f"{path}: [legend.COLUMN] tables hold value = \"words\"")
    for h in rows:
        for i, pub in enumerate((h.plot or {}).get("published", [])):
            label = pub.get("label", "") if isinstance(pub, dict) else ""
            if not re.search(r"\b00[0-4]\b.*\(published", label) or \
                    not {"points", "y", "scale"} & set(pub):
                raise RowError(f"{path}: row {h.id}: plot.published {i}: needs a label naming "
                               "the paper and '(published' and points, y or scale")
    return rows, bands, words


def headlines() -> list[Headline]:
    """The papers' rows, in the file's order (experiments/report/rows.toml)."""
    return list(_rows(DATA / "rows.toml")[0])


def legend_words() -> dict[str, dict[str, str]]:
    """{column: {value: words}}: what a plot's legend calls each value of a
    hue column (rows.toml's [legend.COLUMN])."""
    return dict(_rows(DATA / "rows.toml")[2])


def bands() -> dict[str, tuple[tuple[float, float], str]]:
    """{name: ((low, high), why)}: the bands of ratios ours / published the
    rows take theirs from (rows.toml's [band.NAME])."""
    return dict(_rows(DATA / "rows.toml")[1])


def _target(t: dict, origin: dict, where: str) -> Target:
    bad = set(t) - TARGET_KEYS
    if bad:
        raise RowError(f"{where}: unknown key(s) {', '.join(sorted(bad))}")
    where = f"{where} (target {t.get('id')})"
    ops = tuple(t.get("ops", ()))
    missing = [op for op in ops if op not in origin]
    if not ops or missing:
        raise RowError(f"{where}: ops {', '.join(missing) or '(none)'} without an [origin.OP]")
    mine = {op: origin[op] for op in ops}
    exps = tuple(e for op in ops for e in (mine[op]["experiment"],
                                            *([mine[op]["mpbt_experiment"]]
                                              if "mpbt_experiment" in mine[op] else [])))
    args = dict(t.get("with", {}))
    try:
        goal = " ".join(t["goal"].split()).format(**args)
    except (KeyError, ValueError, IndexError) as e:
        raise RowError(f"{where}: goal: {e!r} (its {{names}} are [target.with]'s)") from None
    return Target(id=t["id"], result=t["result"], goal=goal, ops=ops, unit=t["unit"],
                  measure=_measure(targets, t.get("measure", ""), args, where,
                                   {"origin": mine}),
                  config=" ".join(t["config"].split()), experiments=exps,
                  measure_name=t.get("measure", ""), measure_args=args, origin=mine)


@functools.lru_cache(maxsize=None)
def _targets(path: Path) -> tuple[Target, ...]:
    data = _read(path)
    origin = data.get("origin", {})
    for op, o in origin.items():
        bad = set(o) - ORIGIN_KEYS
        if bad or "experiment" not in o:
            raise RowError(f"{path}: origin.{op}: keys {', '.join(sorted(ORIGIN_KEYS))} "
                           "(experiment needed)")
    return tuple(_target(t, origin, f"{path}: target {i}")
                 for i, t in enumerate(data.get("target", [])))


def all_targets() -> list[Target]:
    """libscc's targets, in the file's order (experiments/report/targets.toml)."""
    return list(_targets(DATA / "targets.toml"))


def experiment_file(name: str) -> Path:
    return DATA / f"{name}.toml"


def experiment(name: str, quick: bool = False) -> dict:
    """The experiment @name as it runs (experiments/report/NAME.toml; its
    quick variant with @quick)."""
    spec, _ = xp.read(experiment_file(name))
    got = spec.get("experiment", {}).get("name")
    if got != name:
        raise RowError(f"{experiment_file(name)}: [experiment] name is {got!r}, not {name!r}")
    return xp.variant(spec, quick)
