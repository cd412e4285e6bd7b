"""The report's rows (experiments/report/rows.toml, read by
tools/scc/report/rows.py) without running anything: every row is either
measured or says why it cannot be; every row's measure is a function of
tools/scc/report/measures.py that takes the row's arguments; the bands
follow the stated rule; every experiment file of the report parses with
the sweep tool's parser, full and --quick, and names an app of apps/;
every measure computes, from a small hand-made results table, the number
worked out by hand here; the example experiment files load; and, given a
dump of the rows before they were data, the rows equal it."""
from __future__ import annotations

import inspect
import json
import math
import os
import re
import tomllib

import pandas as pd
import pytest

from scc.bench import experiment as xp
from scc.report import make, measures, netpipe
from scc.report import rows as data
from scc.report.tables import MeasureError

from lib import REPO

pytestmark = pytest.mark.no_qemu

HEADLINES = data.headlines()
DATA = REPO / "experiments" / "report"


def _by_id(i):
    return next(h for h in HEADLINES if h.id == i)


# --- the rows ------------------------------------------------------------------------

def test_every_headline_of_section_6_has_a_row_and_ids_are_unique():
    ids = [h.id for h in HEADLINES]
    assert len(ids) == len(set(ids))
    numbers = {int(re.match(r"\d+", i).group()) for i in ids}
    assert numbers == set(range(1, 16))
    assert len(ids) <= 45      # section 6 and the fidelity targets (docs/timing.md)


def test_every_row_is_measured_or_says_why_not():
    for h in HEADLINES:
        assert h.result and h.paper and h.config and h.unit, h.id
        assert re.search(r"\b00[0-4]\b[^.]*?\bL\d+", h.paper), f"{h.id}: no line reference"
        if h.not_reproducible:
            assert h.published is None and h.band is None and h.measure is None, h.id
            assert len(h.not_reproducible) > 40, h.id
        else:
            assert h.experiments, h.id
            assert callable(h.measure), h.id
            assert isinstance(h.published, float) and h.published > 0, h.id
            assert h.why_band, h.id
        if h.plot:
            assert h.plot["experiment"] in h.experiments, h.id
            assert "modeled" in h.plot.get("ylabel", ""), h.id


def test_every_rows_measure_exists_and_takes_its_arguments():
    """A row names its measure: a public function of measures.py, named
    after what it measures, that takes the results and the row's [row.with]
    (and reads only the row's experiments)."""
    own = {n for n, f in inspect.getmembers(measures, inspect.isfunction)
           if f.__module__ == measures.__name__ and not n.startswith("_")}
    for h in HEADLINES:
        if h.not_reproducible:
            continue
        assert h.measure_name in own, h.id
        fn = getattr(measures, h.measure_name)
        inspect.signature(fn).bind({}, **h.measure_args)      # TypeError if not
        named = [h.measure_args["experiment"]] if "experiment" in h.measure_args else \
            list(h.measure_args.get("pairs", {}))
        assert named and set(named) <= set(h.experiments), h.id
    with pytest.raises(data.RowError, match="measure 'no_such' is not a function"):
        data._measure(measures, "no_such", {}, "here", {})
    with pytest.raises(data.RowError, match="unexpected keyword argument 'colour'"):
        data._measure(measures, "latency_at", {"alg": "a", "bytes": 1, "colour": 1}, "here",
                      {}, ["x"])


def test_bands_contain_one_and_follow_the_rule():
    bands = data.bands()
    assert set(bands) == {"table", "about", "flat", "table1", "aggregate", "table_above_one"}
    for h in HEADLINES:
        if h.band is None:
            continue
        lo, hi = h.band
        assert lo < 1.0 < hi, h.id
        assert lo >= 0.5 and hi <= 2.0, h.id
        assert (h.band, h.why_band) in bands.values(), h.id
    # table_above_one is the table band narrowed, never widened
    (lo, hi), (tlo, thi) = bands["table_above_one"][0], bands["table"][0]
    assert tlo <= lo and hi <= thi


def test_12l_band_admits_only_the_papers_side_of_1():
    """002's claim is that two copy cores beat the local copy (1.11x): a
    ratio ours / published below 1 / 1.11 would be ours under 1x, the
    claim's opposite, so the band's lower edge is at 1x in absolute
    terms; its upper edge stays the table band's."""
    h = _by_id("12l")
    lo, hi = h.band
    assert h.published * lo >= 1.0
    assert hi == data.bands()["table"][0][1]
    assert "1 / 1.11" in h.why_band
    # a made-up ours of 0.95x (two copy cores slower) is outside now; 1.11x inside
    for ours, inside in ((0.95, False), (1.11, True), (1.0, False)):
        assert (lo <= ours / h.published <= hi) == inside, ours


# --- roles: calibration apart from prediction (issue 45) -------------------------------

CALIBRATING = {"2a", "2b", "3a", "3b", "4", "10", "11a", "11c", "11d", "15b"}


def test_every_row_has_a_role_and_calibrating_rows_name_their_parameters():
    from test_docs import machine_timing_properties
    props = machine_timing_properties() | {"core-hz"}
    for h in HEADLINES:
        assert h.role in data.ROLES, h.id
        if h.role == "calibrates":
            assert h.parameters and len(h.role_why) > 60, h.id
            assert set(h.parameters) <= props, (h.id, set(h.parameters) - props)
        else:
            assert not h.parameters, h.id
        if h.role == "not reproducible":
            assert h.role_why or h.not_reproducible, h.id
    # the rows the review found (issue 45), and no other without a reason in the data
    assert {h.id for h in HEADLINES if h.role == "calibrates"} == CALIBRATING
    assert _by_id("3b").parameters == ("timing-cpi-milli",)
    assert set(_by_id("11a").parameters) == {"timing-l2-cycles", "timing-mem-ws-cycles",
                                             "timing-mem-w-cycles"}
    assert _by_id("11d").parameters == ("timing-mc-cycles",)
    assert _by_id("4").parameters == ("timing-mpb-service-ps",)


def test_rows_the_quick_run_cannot_judge_say_why_and_run_less_when_quick():
    marked = {h.id for h in HEADLINES if h.quick_why}
    assert marked == {"6b", "12f"}
    for h in HEADLINES:
        if h.quick_why:
            assert any(data.experiment(e, True) != data.experiment(e, False)
                       for e in h.experiments), h.id


def _row_toml(**more) -> dict:
    r = {"id": "9z", "result": "r", "paper": "001 L969", "unit": "us", "config": "c",
         "published": 1.0, "band": "b", "experiments": ["x"], "measure": "latency_at",
         "with": {"alg": "a", "bytes": 32}}
    r.update(more)
    return {k: v for k, v in r.items() if v is not None}


@pytest.mark.parametrize("more, error", [
    ({}, "role None is none of"),
    ({"role": "fits"}, "role 'fits' is none of"),
    ({"role": "calibrates", "role_why": "set from it"}, "names the parameters set from it"),
    ({"role": "calibrates", "parameters": ["timing-mpb-cycles"]}, "says how it set them"),
    ({"role": "calibrates", "parameters": ["mpb cycles"], "role_why": "w"},
     "not a parameter of the machine"),
    ({"role": "predicts", "parameters": ["timing-mpb-cycles"]}, "only by a calibrating row"),
    ({"role": "not reproducible"}, "says why"),
    ({"role": "predicts", "not_reproducible": "needs Linux", "published": None},
     "needs role"),
])
def test_a_row_with_a_bad_role_is_refused(more, error):
    bands = {"b": ((0.9, 1.1), "why")}
    with pytest.raises(data.RowError, match=error):
        data._headline(_row_toml(**more), bands, {}, "here")
    ok = data._headline(_row_toml(role="calibrates", parameters=["timing-mpb-cycles"],
                                  role_why="set from it"), bands, {}, "here")
    assert ok.role == "calibrates" and ok.parameters == ("timing-mpb-cycles",)
    ok = data._headline(_row_toml(role="not reproducible", not_reproducible="needs Linux",
                                  published=None), bands, {}, "here")
    assert ok.role == "not reproducible" and ok.measure is None


# --- plots: the papers' values beside ours ---------------------------------------------

def _values_of(spec: dict, key: str) -> set[str]:
    """Every value the experiment gives the app argument @key (its args,
    sweep and points)."""
    vals = set()
    for table in (spec.get("args", {}), spec.get("sweep", {}), *spec.get("points", [])):
        v = table.get(key)
        vals |= {str(x) for x in (v if isinstance(v, list) else [v] if v is not None else [])}
    return vals


@pytest.mark.parametrize("quick", [False, True])
def test_every_rows_plot_shows_the_papers_values(quick):
    """Every row has a plot with at least one published series, labelled
    with the paper and "(published"; a series drawn on one of ours (scale)
    names a value the experiment runs, and every hue value it runs has
    words in the legend."""
    words = data.legend_words()
    for h in HEADLINES:
        assert h.plot and h.plot.get("published"), f"{h.id}: no published values in its plot"
        spec = data.experiment(h.plot["experiment"], quick)
        hue = h.plot.get("hue")
        hues = [hue] if isinstance(hue, str) else list(hue or [])
        for pub in h.plot["published"]:
            assert re.match(r"00[0-4]\b.*\(published", pub["label"]), (h.id, pub["label"])
            if "scale" in pub:
                assert pub["of"] in _values_of(spec, hues[0]), (h.id, pub["of"])
            if "points" in pub:
                assert all(len(p) == 2 and isinstance(p[1], (int, float)) for p in pub["points"]), h.id
        for c in hues:
            for v in _values_of(spec, c):
                assert v in words.get(c, {}), f"{h.id}: {c} = {v} has no words in [legend.{c}]"


def test_every_rows_plot_draws_from_a_table_of_its_columns(tmp_path):
    """The report draws each row's plot as make._plot does, here from a
    made-up table of the plot's columns (at the x the paper's values have),
    with every published series; none is refused (the report would leave
    the plot out)."""
    from types import SimpleNamespace as NS
    words = data.legend_words()
    for h in HEADLINES:
        spec = h.plot
        hue = spec.get("hue")
        hues = [hue] if isinstance(hue, str) else list(hue or [])
        xs = [p[0] for pub in spec["published"] for p in pub.get("points", [])] + \
            [f[0] for pub in spec["published"] if isinstance(pub.get("scale"), list)
             for f in pub["scale"]]
        xs = list(dict.fromkeys(xs)) or [1, 2]
        first = sorted({pub["of"] for pub in spec["published"] if "of" in pub}) or ["a"]
        rows = [{spec["x"]: x, spec["y"]: 1.0 + i, "clock": "modeled", "status": "ok",
                 **{c: (v if j == 0 else "x") for j, c in enumerate(hues)}}
                for v in first for i, x in enumerate(xs)]
        f = make._plot(NS(id=h.id, result=h.result, plot=spec),
                       {spec["experiment"]: pd.DataFrame(rows)}, tmp_path)
        assert f is not None and f.is_file(), h.id
    assert words


def test_the_memory_controller_rows_show_the_papers_saturation_points():
    for i in ("11b", "11c", "11d", "11e"):
        pts = {tuple(p) for pub in _by_id(i).plot["published"] for p in pub["points"]}
        assert {(9, 1000.0), (19, 1800.0), (40, 3400.0), (48, 5900.0)} <= pts, i


def test_a_plot_names_its_series_in_words_and_draws_the_papers(tmp_path):
    """The ping-pong rows' plot (12a): a line per api, copy and buffer kind,
    each in words, marked as ours; 002 Fig. 3's four curves beside them
    under their own labels; a paper's ratio drawn on one of our series."""
    from scc.bench import plots
    rows = [{"api": api, "copy": copy, "mpbt": "off", "bytes": b, "MB_per_s": v,
             "clock": "modeled", "status": "ok"}
            for api, copy in (("rcce", "rcce1"), ("ircce", "libscc"))
            for b, v in ((4096, 50.0), (131072, 40.0), (1048576, 16.0))]
    spec = _by_id("12a").plot
    info = plots.plot_xy(pd.DataFrame(rows), tmp_path / "12a.png", x=spec["x"], y=spec["y"],
                         hue=spec["hue"], logx=True, words=data.legend_words(),
                         published=spec["published"])
    assert info["labels"] == {
        "rcce/rcce1/off": "ours: RCCE API, RCCE 1.x word copy, lockstep, MPBT off",
        "ircce/libscc/off": "ours: iRCCE API, libscc copy loop (each line read first), MPBT off"}
    assert info["published"]["002 Fig. 3 (published): RCCE, normal buffers"] == [
        (4096, 60.0), (131072, 20.0), (1048576, 5.0)]
    assert len(info["published"]) == 4
    assert (tmp_path / "12a.png").stat().st_size > 0
    # calibrate's parameters (3a), its points' rows (no param) no category of their own
    cal = pd.DataFrame([{"param": "o_mpb", "modeled_us": 0.128, "clock": "modeled"},
                        {"param": "", "modeled_us": 4.0, "clock": "modeled"},
                        {"param": None, "modeled_us": 4.0, "clock": "modeled"}])
    info = plots.plot_xy(cal, tmp_path / "3a.png", x="param", y="modeled_us",
                         published=_by_id("3a").plot["published"])
    assert info["series"] == {"all": [("o_mpb", 0.128)]}
    assert info["labels"] == {"all": "ours (modeled)"}
    # a ratio drawn on ours: 14a's DOPL at 0.8 of our Cube, a level without a size
    info = plots.plot_xy(
        pd.DataFrame([{"alg": a, "bytes": b, "min_us": t, "clock": "modeled"}
                      for a, t in (("cube:blocking=1", 100.0), ("dopl", 90.0))
                      for b in (1001, 4001)]),
        tmp_path / "14a.png", x="bytes", y="min_us", hue="alg", words=data.legend_words(),
        published=[{"label": "000 (published): DOPL 0.8 of Cube", "of": "cube:blocking=1",
                    "scale": [[1001, 0.8], [4001, 0.8]]},
                   {"label": "000 (published): a level", "y": 7.0}])
    assert info["published"] == {"000 (published): DOPL 0.8 of Cube": [(1001, 80.0),
                                                                      (4001, 80.0)],
                                 "000 (published): a level": [(None, 7.0)]}
    assert info["labels"]["dopl"] == "ours: DOPL (iRCCE, pipelined)"
    with pytest.raises(ValueError, match="no series 'simple' of ours"):
        plots.plot_xy(pd.DataFrame(rows), tmp_path / "x.png", x="bytes", y="MB_per_s",
                      hue="api", published=[{"label": "l", "of": "simple", "scale": 2}])


def report_experiment_files():
    return sorted(f for f in DATA.glob("*.toml") if f.name not in ("rows.toml", "targets.toml"))


@pytest.mark.parametrize("quick", [False, True])
def test_every_experiment_file_parses_and_names_an_app_of_apps(quick):
    """Each experiments/report/NAME.toml is an experiment file of the sweep
    tool's language, its [quick] its quick variant: it loads as scc-bench
    run (--quick) loads it, named after its file, and every file is read by
    a row or a target."""
    files = report_experiment_files()
    read = {n for h in HEADLINES for n in h.experiments} | \
        {n for t in data.all_targets() for n in t.experiments} | set(netpipe.EXPERIMENTS)
    assert {f.stem for f in files} == read
    for f in files:
        exp = xp.load(f, quick=quick)
        assert exp.name == f.stem
        spec = exp.spec
        assert spec["experiment"]["mode"] == "timing", f.name
        if "program" in spec["experiment"]:     # NetPIPE's (the next test)
            continue
        app = spec["experiment"]["app"]
        assert (REPO / "apps" / f"{app}.c").is_file(), f"{f.name}: no apps/{app}.c"
        assert 1 <= len(exp.points) <= 20, f.name
        for p in exp.points:
            assert p.app.endswith(f"build/apps/{app}.elf")


@pytest.mark.parametrize("quick", [False, True])
def test_the_rows_experiments_are_their_files(quick):
    specs = make.specs(HEADLINES, [], quick)
    assert list(specs) == list(dict.fromkeys(n for h in HEADLINES for n in h.experiments))
    for name, spec in specs.items():
        assert spec == xp.variant(xp.read(DATA / f"{name}.toml")[0], quick)
        assert "quick" not in spec and spec["experiment"]["name"] == name


def test_quick_variants_only_touch_what_they_may():
    for f in report_experiment_files():
        spec = tomllib.loads(f.read_text())
        assert set(spec.get("quick", {})) <= {"args", "sweep", "points", "experiment",
                                              "machine"}, f.name


def _dump(heads, tgts) -> dict:
    """The rows, targets and experiments as scc-report uses them, as JSON."""
    return json.loads(json.dumps({
        "headlines": [{"id": h.id, "result": h.result, "paper": h.paper,
                       "published": h.published, "unit": h.unit,
                       "band": list(h.band) if h.band else None, "why_band": h.why_band,
                       "experiments": list(h.experiments), "config": h.config,
                       "not_reproducible": h.not_reproducible, "plot": h.plot,
                       "outside_why": h.outside_why} for h in heads],
        "targets": [{"id": t.id, "result": t.result, "goal": t.goal, "ops": list(t.ops),
                     "unit": t.unit, "config": t.config, "names": list(t.experiments)}
                    for t in tgts],
        "specs_full": make.specs(heads, tgts, False),
        "specs_quick": make.specs(heads, tgts, True)}))


@pytest.mark.skipif(not os.environ.get("SCC_ROWS_BEFORE"),
                    reason="SCC_ROWS_BEFORE names no dump of the rows before they were data")
def test_the_rows_equal_a_dump_of_them_before():
    """The rows as the Python of 66a8327 held them (HEADLINES, TARGETS),
    dumped as JSON to $SCC_ROWS_BEFORE (the same keys; `experiments` and
    `quick` as dicts then, `names` the targets' experiments), equal the
    rows read from data: the same ids in the same order, the same texts,
    published values, bands, experiments and plots; the same experiment
    specs, full and quick, in the same order."""
    before = json.loads(open(os.environ["SCC_ROWS_BEFORE"]).read())
    now = _dump(HEADLINES, data.all_targets())
    assert [h["id"] for h in before["headlines"]] == [h["id"] for h in now["headlines"]]
    for b, n in zip(before["headlines"], now["headlines"]):
        b = dict(b, experiments=list(b["experiments"]))
        assert {k: b[k] for k in n} == n, n["id"]
    assert [{k: t[k] for k in n} for t, n in zip(before["targets"], now["targets"])] == \
        now["targets"]
    for v in ("specs_full", "specs_quick"):
        assert json.dumps(before[v]) == json.dumps(now[v]), v     # the order too


# --- hand-made results tables ----------------------------------------------------------

def _df(rows, **common):
    """A results table as scc-bench makes it: the app's columns, the swept
    parameters, status; plus a failed point's row (status failed, the
    parameters only) that every measure must ignore."""
    rows = [{**common, **r, "status": "ok"} for r in rows]
    failed = {k: v for k, v in rows[0].items() if k in ("alg", "op", "param_scheme")}
    rows.append({**failed, "status": "failed", "why": "time limit"})
    return pd.DataFrame(rows)


def _bcast(name, alg_times, col="median_us", extra=None):
    rows = []
    for alg, times in alg_times.items():
        for b, t in times.items():
            r = {"collective": "bcast", "algorithm": alg.split(":")[0], "bytes": b,
                 col: t, "alg": alg, "clock": "modeled"}
            r.update(extra(alg, b, t) if extra else {})
            rows.append(r)
    return {name: _df(rows)}


def test_broadcast_latency_measures():
    dfs = _bcast("bcast-001-latency", {
        "binomial": {32: 20.0, 3072: 500.0, 6144: 900.0},
        "oc:k=7": {32: 16.0, 3072: 150.0, 6144: 280.0},
        "oc:k=2": {32: 18.0, 3072: 200.0, 6144: 400.0}})
    assert _by_id("1a").measure(dfs) == pytest.approx(16.0)
    assert _by_id("1b").measure(dfs) == pytest.approx(20.0)
    # (200-150)/200 = 25 %, (400-280)/400 = 30 %: mean 27.5 %
    assert _by_id("5").measure(dfs) == pytest.approx(27.5)


def test_broadcast_throughput_measures():
    dfs = _bcast("bcast-001-throughput", {
        "oc:k=7": {65536: 30.0, 262144: 33.0, 1048576: 32.0},
        "scatter_allgather": {65536: 15.0, 262144: 11.0, 1048576: 12.0}}, col="mb_per_s")
    assert _by_id("2a").measure(dfs) == pytest.approx(33.0)           # the peak
    # 2b at 1 MiB, in 001's steady state of the L2 (not the 64 KiB peak)
    assert _by_id("2b").measure(dfs) == pytest.approx(32.0 / 12.0)


TABLE1 = {"L_hop": 0.005, "o_mpb": 0.126, "o_mem_w": 0.461, "o_mem_r": 0.208,
          "o_put_mpb": 0.069, "o_get_mpb": 0.33, "o_put_mem": 0.19, "o_get_mem": 0.095}


def _calibrate(name, values):
    rows = [{"param": p, "modeled_us": v, "published_us": TABLE1.get(p, 1.0)}
            for p, v in values.items()]
    return {name: _df(rows)}


def test_calibrate_measures():
    dfs = _calibrate("calibrate", {
        "L_hop": 0.0051, "o_mpb": 0.1386, "o_mem_w": 0.461, "o_mem_r": 0.1872,   # 1.02 1.1 1 0.9
        "o_put_mpb": 0.138, "o_get_mpb": 0.33, "o_put_mem": 0.19, "o_get_mem": 0.057})  # 2 1 1 .6
    assert _by_id("3a").measure(dfs) == pytest.approx(0.9)      # |ln 0.9| > |ln 1.1|
    assert _by_id("3b").measure(dfs) == pytest.approx(0.33)    # o_get^mpb, the others aside
    dfs = _calibrate("calibrate-800", {"L_hop": 0.0025, "o_mpb": 0.07})
    assert _by_id("10").measure(dfs) == pytest.approx(60.0)     # 0.075 us x 800


def test_write_miss_stall_is_the_store_rate_of_dram_writes():
    """15b: 533 MHz cycles per store of mem_bench's plain DRAM writes, the
    fastest size beyond the L2 (a size in the L2 must not count)."""
    rows = [{"kind": "single", "op": "write", "mem": "plain", "bytes": b,
             "mb_per_s": v} for b, v in ((2 << 20, 21.32), (128 << 10, 116.0))]
    dfs = {"mem-002-single": _df(rows)}
    assert _by_id("15b").measure(dfs) == pytest.approx(4 * 533 / 21.32)


def test_copy_cores_row_is_two_copy_cores_over_the_local_mpbt_copy_at_8k():
    """12l: the split over two copy cores at 8 KB against core 0's own MPBT
    copy at 8 KB; one copy core, other sizes and other local methods do
    not count."""
    rows = [{"kind": "local", "method": "mpbt", "copy_cores": 0, "bytes": 8192, "mb_per_s": 50.0},
            {"kind": "local", "method": "plain", "copy_cores": 0, "bytes": 8192, "mb_per_s": 17.0},
            {"kind": "cores", "method": "auto", "copy_cores": 1, "bytes": 8192, "mb_per_s": 40.0},
            {"kind": "cores", "method": "auto", "copy_cores": 2, "bytes": 8192, "mb_per_s": 60.0},
            {"kind": "cores", "method": "auto", "copy_cores": 2, "bytes": 65536,
             "mb_per_s": 99.0}]
    h = _by_id("12l")
    assert h.published == pytest.approx(78.7 / 70.9)
    assert data.experiment("copy-cores")["experiment"]["other"][0]["app"] == "copy_core"
    assert h.measure({"copy-cores": _df(rows)}) == pytest.approx(60.0 / 50.0)


def _coll(op, sizes_times):
    rows = [{"collective": op, "bytes": b, "median_us": t, "alg": alg, "op": op,
             "clock": "modeled"} for alg, times in sizes_times.items() for b, t in times.items()]
    return _df(rows)


def _coll_dfs():
    return {
        "coll-004-allgather": _coll("allgather", {
            "bucket": {16: 300.0, 96: 400.0},
            "bucket_relaxed:relaxed=1,nb=0": {16: 150.0, 96: 100.0},
            "bucket_relaxed": {16: 100.0, 96: 200.0}}),
        "coll-004-alltoall": _coll("alltoall", {
            "blocking:order=1": {16: 500.0, 96: 600.0}, "pairwise_relaxed": {16: 100.0, 96: 200.0},
            "blocking": {16: 5000.0, 96: 6000.0}}),
        "coll-004-reduce_scatter": _coll("reduce_scatter", {
            "bucket": {16: 120.0, 96: 240.0}, "bucket_relaxed": {16: 100.0, 96: 200.0}}),
        "coll-004-bcast": _coll("bcast", {
            "scatter_allgather": {800: 300.0, 4600: 600.0},
            "scatter_allgather_relaxed": {800: 200.0, 4600: 400.0}}),
        "coll-004-reduce": _coll("reduce", {
            "bucket": {800: 400.0, 4600: 800.0}, "bucket_relaxed": {800: 200.0, 4600: 400.0}}),
        "coll-004-allreduce": _coll("allreduce", {
            "bucket": {800: 500.0, 4600: 1200.0},
            "bucket_relaxed:relaxed=1,nb=0,balanced=0": {800: 400.0, 4600: 1000.0},
            "bucket_relaxed:relaxed=1,nb=1,balanced=0": {800: 200.0, 4600: 800.0},
            "bucket_relaxed": {800: 190.0, 4600: 400.0},
            "inmpb": {800: 100.0, 4600: 300.0}}),
    }


def test_collective_measures():
    dfs = _coll_dfs()
    # speed-ups, geometric means over the two sizes: allgather sqrt(3 x 2),
    # alltoall sqrt(5 x 3) (against blocking:order=1: the lower-rank-first
    # order's 50x is not the baseline), reduce_scatter 1.2, bcast 1.5,
    # reduce 2, allreduce sqrt(5 x 4)
    assert _by_id("6a").measure(dfs) == pytest.approx(1.2)
    assert _by_id("6b").measure(dfs) == pytest.approx(math.sqrt(20.0))
    assert _by_id("7a").measure(dfs) == pytest.approx(math.sqrt(2.0 * 4.0))
    assert _by_id("7b").measure(dfs) == pytest.approx(math.sqrt(2.0 * 1.25))
    assert _by_id("7c").measure(dfs) == pytest.approx(2.0)     # 4600 B only: 800 / 400


def test_collective_measures_with_one_size_as_quick_runs_them():
    dfs = {n: df[(df["bytes"].isin([96, 4600])) | (df["status"] != "ok")]
           for n, df in _coll_dfs().items()}
    assert _by_id("6a").measure(dfs) == pytest.approx(1.2)
    assert _by_id("6b").measure(dfs) == pytest.approx(4.0)     # allreduce 1200 / 300
    assert _by_id("7c").measure(dfs) == pytest.approx(2.0)


def _ipi_dfs():
    rows = []
    for hops, rtt, trap in ((0, 2000.0, 300.0), (1, 2100.0, 330.0), (2, 2200.0, 360.0)):
        for kind, v in (("rtt", rtt), ("trap", trap), ("send", 700.0)):
            rows.append({"bench": "ipi", "scheme": "ipi", "peer": "all", "hops": hops,
                         "kind": kind, "unit": "cycles", "n": 900, "median": v, "mean": v})
            rows.append({"bench": "ipi", "scheme": "ipi", "peer": str(hops + 1), "hops": hops,
                         "kind": kind, "unit": "cycles", "n": 900, "median": 9999.0,
                         "mean": 9999.0})
    return {"ipi-latency": _df(rows)}


def test_ipi_measures():
    assert _by_id("8").measure(_ipi_dfs()) == pytest.approx(2200.0 / 2000.0)
    assert _by_id("15a").measure(_ipi_dfs()) == pytest.approx(330.0)


@pytest.mark.parametrize("quick", [False, True])
def test_the_interrupt_rows_interrupt_every_core_as_s_net_did(quick):
    """Row 8 is S-Net's Table I, which core 0 measured 'for every core'
    and averaged per distance (002 L5380-5383, L5406-5408): ipi_latency's
    default, every peer; one peer per distance is another measurement."""
    args = data.experiment("ipi-latency", quick).get("args", {})
    assert "peers" not in args, args


def test_notify_measures():
    rows = []
    for swept, scheme, params, m0, m8 in (("flag", "flag", "", 4000.0, 4700.0),
                                          ("rcce:framed=1", "rcce", "framed=1", 7000.0, 8000.0),
                                          ("mbox-ipi", "mbox-ipi", "", 16000.0, 18000.0)):
        for peer, hops, m in (("1", 0, m0), ("47", 8, m8), ("all", 0, m0), ("all", 8, m8)):
            rows.append({"notify": "notify", "scheme": scheme, "params": params, "peer": peer,
                         "hops": hops, "n": 1000, "median": m, "mean": m,
                         "param_scheme": swept})
    dfs = {"notify-pingpong": _df(rows)}
    assert _by_id("9a").measure(dfs) == pytest.approx(4.0)
    assert _by_id("9b").measure(dfs) == pytest.approx(4.0)


def test_pingpong_and_copy_measures():
    # 12a: RCCE with RCCE 1.x's copies; 12b: iRCCE with libscc's (the
    # other combinations, higher here, must not count)
    rows = [{"api": api, "copy": copy, "mpbt": mpbt, "peer": 1, "bytes": b, "iterations": 10,
             "usec_per_roundtrip": 1.0, "MB_per_s": v * scale * (3 if mpbt == "on" else 1)}
            for mpbt in ("off", "on")
            for copy, scale in (("libscc", 1.0), ("rcce1", 0.5))
            for api, vals in (("rcce", (50.0, 150.0, 140.0)), ("putget", (70.0, 200.0, 60.0)),
                              ("ircce", (60.0, 155.0, 80.0)))
            for b, v in zip((4096, 131072, 1048576), vals)]
    rows += [{"api": "ircce", "copy": "rcce1", "mpbt": "off", "peer": 1, "bytes": 4096,
              "iterations": 10, "usec_per_roundtrip": 1.0, "MB_per_s": 999.0},
             {"api": "rcce", "copy": "libscc", "mpbt": "off", "peer": 1, "bytes": 32,
              "iterations": 10, "usec_per_roundtrip": 1.0, "MB_per_s": 999.0}]
    dfs = {"pingpong": _df(rows)}
    assert _by_id("12a").measure(dfs) == pytest.approx(75.0)
    assert _by_id("12b").measure(dfs) == pytest.approx(155.0)
    assert _by_id("12g").measure(dfs) == pytest.approx(75.0)     # rcce, rcce1, 128 KiB
    assert _by_id("12h").measure(dfs) == pytest.approx(70.0)     # rcce, rcce1, 1 MiB
    assert _by_id("12i").measure(dfs) == pytest.approx(80.0)     # ircce, libscc, 1 MiB
    assert _by_id("12j").measure(dfs) == pytest.approx(210.0)    # rcce, rcce1, 1 MiB, mpbt
    assert _by_id("12k").measure(dfs) == pytest.approx(240.0)    # ircce, libscc, 1 MiB, mpbt
    rows = [{"kind": "local", "method": m, "copy_cores": 0, "bytes": b, "iters": 3,
             "min_us": 1.0, "median_us": 1.0, "mb_per_s": v}
            for m, vals in (("plain", (38.0, 40.5)), ("mpbt", (33.0, 40.0)),
                            ("mpbt_dst", (30.0, 31.0)), ("lut", (45.0, 44.0)))
            for b, v in zip((4096, 1048576), vals)]
    dfs = {"copy-local": _df(rows)}
    assert _by_id("12c").measure(dfs) == pytest.approx(40.5)
    assert _by_id("12d").measure(dfs) == pytest.approx(40.0)
    assert _by_id("12e").measure(dfs) == pytest.approx(31.0)
    assert _by_id("12f").measure(dfs) == pytest.approx(45.0)


def test_rcce_broadcast_measure():
    """Row 13 times P0 (the root) only, as 002 did (L11029-11031): the
    root's own call times (root_us), not the latency until the last member
    returns (median_us, here another ratio)."""
    dfs = _bcast("bcast-002-rcce", {
        "simple": {8192: 9000.0, 262144: 260000.0},
        "twotree": {8192: 4600.0, 262144: 130000.0},
        "twotree_overlap": {8192: 2000.0, 262144: 13000.0}}, col="root_us",
        extra=lambda alg, b, t: {"median_us": t + 13000.0})
    assert _by_id("13").measure(dfs) == pytest.approx(0.05)


def test_thesis_measures_use_the_minimum():
    # the points' algorithm specs (Cube on blocking rounds: cube:blocking=1)
    times = {"simple": {1001: 4000.0, 4001: 4000.0},
             "cube:blocking=1": {1001: 500.0, 4001: 800.0, 50000: 5000.0, 190000: 20000.0,
                                 1000000: 50000.0},
             "cube": {1001: 1.0, 4001: 1.0, 50000: 1.0, 190000: 1.0, 1000000: 1.0},
             "dopl": {1001: 1000.0, 4001: 800.0, 50000: 1000.0, 190000: 2500.0,
                      1000000: 5000.0}}
    dfs = _bcast("bcast-000-thesis", times, col="min_us",
                 extra=lambda alg, b, t: {"median_us": 7 * t + 1})
    assert _by_id("14a").measure(dfs) == pytest.approx(math.sqrt(2.0 * 1.0))
    # (8 x 5 x 4 x 5) ** (1/4): simple over cube 8, 5; simple over dopl 4, 5
    assert _by_id("14b").measure(dfs) == pytest.approx(800.0 ** 0.25)
    assert _by_id("14c").measure(dfs) == pytest.approx(math.sqrt(5.0 * 8.0))
    assert _by_id("14d").measure(dfs) == pytest.approx(10.0)


def test_a_measure_without_its_rows_says_what_is_missing():
    dfs = _bcast("bcast-001-latency", {"binomial": {32: 20.0}})
    with pytest.raises(MeasureError, match="oc:k=7"):
        _by_id("1a").measure(dfs)
    with pytest.raises(MeasureError, match="no results"):
        _by_id("2a").measure(dfs)


# --- NetPIPE beside the ping-pong rows (not a row) ------------------------------------

# The options NetPIPE 3.7.2's netpipe.c handles when built with -DMPI (True:
# it takes a value): read from its source when it was fetched (make
# netpipe), else these, read from it once.
NETPIPE_MPI_OPTIONS = {"A": False, "O": True, "p": True, "B": False, "I": False, "o": True,
                       "s": False, "l": True, "u": True, "2": False, "h": True, "i": False,
                       "z": False, "a": False, "S": False, "P": True, "n": True, "X": False}


def _netpipe_mpi_options(text: str) -> dict[str, bool]:
    """{letter: takes a value} of netpipe.c's getopt string, for the
    letters whose case is compiled with -DMPI (inside no #if but its
    own ! defined(TCGMSG) and defined(MPI))."""
    takes = re.search(r'getopt\(argc, argv, "([^"]+)"\)', text).group(1)
    stack, out = [], {}
    for line in text.splitlines():
        d = line.strip()
        if d.startswith("#if"):
            stack.append(d)
        elif d.startswith("#el"):
            stack[-1] = "#else"
        elif d.startswith("#endif"):
            stack.pop()
        for c in re.findall(r"case '(.)'", line):
            if c in takes and all(re.fullmatch(r"#if\s*!\s*defined\s*\(?TCGMSG\)?|"
                                               r"#if\s*defined\s*\(MPI\)", x) for x in stack):
                out[c] = takes[takes.index(c) + 1:takes.index(c) + 2] == ":"
    return out


@pytest.mark.parametrize("quick", [False, True])
def test_the_netpipe_experiment_names_options_netpipe_takes(quick):
    """experiments/report/netpipe.toml loads as scc-bench loads it: one
    point, NetPIPE's MPI build (build/netpipe/NPmpi.elf) on cores 0 and 1 in
    the timing mode, its output read as NetPIPE's, its arguments options of
    NetPIPE's MPI build, each with its value, the output file the one
    libscc's runtime opens, up to 64 KiB full and quick."""
    src = REPO / "build" / "src" / "netpipe" / "src" / "netpipe.c"
    takes = _netpipe_mpi_options(src.read_text(errors="replace")) if src.is_file() \
        else NETPIPE_MPI_OPTIONS
    assert takes == NETPIPE_MPI_OPTIONS
    exp = xp.load(DATA / "netpipe.toml", quick=quick)
    (p,) = exp.points
    assert p.app == str(REPO / "build" / "netpipe" / "NPmpi.elf")
    assert (p.cores, p.mode, p.backend, p.output, p.rcce, p.clock) == \
        ((0, 1), "timing", "chip", "netpipe", False, "modeled")
    words = list(p.args)
    opts = dict(zip(words[::2], words[1::2]))
    assert len(words) == 2 * len(opts)
    for w in opts:
        assert re.fullmatch(r"-.", w) and takes.get(w[1]) is True, w
    assert opts["-o"] == "/dev/stdout" and opts["-u"] == "65536"
    if quick:
        assert opts["-n"] == "20" and opts["-p"] == "0" and p.timeout <= 300
    else:
        assert "-n" not in opts and "-p" not in opts      # NetPIPE's own repeats and sizes


def _pp_rows():
    """The ping-pong experiment's rows as its results hold them: api, copy,
    mpbt, bytes, latency_us (one way), MB_per_s; the points the section
    leaves out (MPBT on, RCCE 1.x's copies, put/get) far off."""
    rows = []
    for api in ("rcce", "ircce", "putget"):
        for copy_ in ("libscc", "rcce1"):
            for mpbt in ("off", "on"):
                for b, us in ((32, 5.0), (4096, 50.0), (65536, 500.0)):
                    slow = 1 if (api, copy_, mpbt) in (("rcce", "libscc", "off"),
                                                       ("ircce", "libscc", "off")) else 9
                    us = us * slow * (1.0 if api == "rcce" else 1.25)
                    rows.append({"api": api, "copy": copy_, "mpbt": mpbt, "bytes": b,
                                 "latency_us": us, "MB_per_s": b / us, "status": "ok",
                                 "clock": "modeled"})
    return pd.DataFrame(rows)


def test_the_netpipe_section_table_and_plot(tmp_path):
    """MPI from NetPIPE's rows, RCCE and iRCCE from the ping-pong's (libscc's
    copies, MPBT off): one-way time at each curve's smallest size, MB/s at
    4 KiB and 64 KiB (worked out here: 4096 B in 40 us is 102.4 MB/s, in
    62.5 us 65.5), "-" where a curve lacks the size; a plot of the three,
    in words."""
    np_ = pd.DataFrame([{"bytes": b, "us": us, "MB_per_s": b / us, "status": "ok"}
                        for b, us in ((1, 2.5), (4096, 40.0))])
    lines = netpipe.table(netpipe.curves({"netpipe": np_, "pingpong": _pp_rows()}))
    assert [(l["words"], l["smallest"], l["us"]) for l in lines] == [
        ("MPI (NetPIPE 3.7.2)", 1, 2.5), ("RCCE", 32, 5.0), ("iRCCE", 32, 6.25)]
    assert [l["mb_per_s"] for l in lines] == [{4096: 102.4, 65536: None},
                                              {4096: 81.92, 65536: 131.072},
                                              {4096: 65.536, 65536: 104.8576}]
    md = "\n".join(netpipe.markdown({"netpipe": np_, "pingpong": _pp_rows()}, tmp_path,
                                    {"netpipe": "x/netpipe.toml"}, quick=False))
    assert "| MPI (NetPIPE 3.7.2) | 2.50 us (1 B) | 102 | - |" in md
    assert "| iRCCE | 6.25 us (32 B) | 65.5 | 105 |" in md
    assert "modeled SCC time" in md and "neither score" in md
    assert "scc-bench run x/netpipe.toml --out build/bench/netpipe" in md
    assert (tmp_path / "plots" / "netpipe.png").stat().st_size > 0
    assert (tmp_path / "plots" / "netpipe.svg").is_file()


def test_the_netpipe_section_without_netpipe_says_why(tmp_path, monkeypatch):
    """NPmpi.elf not built (NetPIPE's source could not be fetched): the
    report's preparation keeps every other experiment and says why, and the
    section says MPI was not measured, with the ping-pong's curves."""
    d = tmp_path / "data"
    d.mkdir()
    (d / "pingpong.toml").write_text((DATA / "pingpong.toml").read_text())
    spec = tomllib.loads((DATA / "netpipe.toml").read_text())
    spec["experiment"]["program"] = "netpipe/NPnone.elf"
    (d / "netpipe.toml").write_text(xp.to_toml(spec))
    monkeypatch.setattr(data, "DATA", d)
    assert netpipe.wanted(None) and netpipe.wanted(["netpipe"]) and not netpipe.wanted(["12a"])
    jobs, files, skipped = make.prepare([], [], tmp_path / "r", True, section=True)
    assert [e.name for e, _ in jobs] == ["pingpong"] and set(files) == {"netpipe", "pingpong"}
    assert "NPnone.elf is not built: `make netpipe` builds it" in skipped["netpipe"]
    md = "\n".join(netpipe.markdown({"pingpong": _pp_rows()}, tmp_path / "r", files, True,
                                    skipped["netpipe"]))
    assert "**MPI (NetPIPE 3.7.2): not measured.** program " in md and "make netpipe" in md
    assert "| RCCE | 5.00 us (32 B) |" in md and "| MPI" not in md
    (tmp_path / "empty").mkdir()
    monkeypatch.setattr(data, "DATA", tmp_path / "empty")
    assert not netpipe.wanted(None)


# --- the example experiment files ----------------------------------------------------

@pytest.mark.parametrize("name", ["broadcast", "allreduce", "notification", "copy"])
def test_example_experiment_files_load(name):
    exp = xp.load(REPO / "experiments" / f"{name}.toml")
    assert exp.name == name
    app = exp.spec["experiment"]["app"]
    assert (REPO / "apps" / f"{app}.c").is_file()
    assert exp.spec["experiment"]["mode"] == "timing"
    assert 1 <= len(exp.points) <= 10
