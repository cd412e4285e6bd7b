"""scc-bench: experiment files, the sweep on Dask, the result cache,
provenance, failures, plots (tools/scc/cli/bench.py, and tools/scc/bench/:
experiment.py, sweep.py, results.py, provenance.py, plots.py).

Expectations are independent of the code under test: point lists written
out by hand, the commit read from git here, modeled rows compared between
two runs that share nothing but their inputs.
"""
from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import subprocess

import pandas as pd
import pytest

from conftest import BUILD, REPO
from scc.bench import experiment as xp
from scc.bench import plots, provenance
from scc.bench.progress import Progress, clock
from scc.cli import bench

BCAST = BUILD / "apps" / "bcast_bench.elf"


def spec(**over):
    s = {"experiment": {"name": "t", "app": "bcast_bench", "cores": "0-3", "rcce": True,
                        "timeout": 120},
         "args": {"sizes": "32", "iters": 1, "warmup": 0}}
    for k, v in over.items():
        s.setdefault(k, {}).update(v)
    return s


# --- expansion (no QEMU) ----------------------------------------------------------

@pytest.mark.no_qemu
def test_quick_is_the_variant_merged_in_and_left_out_without_it(tmp_path):
    """[quick]: its tables merge into the sections, a value (a list too)
    replacing the file's; without --quick it is left out; a section it
    does not know is refused."""
    s = spec(sweep={"alg": ["binomial", "oc:k=7"]},
             quick={"args": {"sizes": "64"}, "sweep": {"alg": ["binomial"]}})
    full, quick = xp.expand(s), xp.expand(s, quick=True)
    assert [p.params for p in full.points] == [{"alg": "binomial"}, {"alg": "oc:k=7"}]
    assert "quick" not in full.spec and full.spec["args"]["sizes"] == "32"
    assert [p.params for p in quick.points] == [{"alg": "binomial"}]
    assert quick.spec["args"] == {"sizes": "64", "iters": 1, "warmup": 0}
    f = tmp_path / "q.toml"
    f.write_text(xp.to_toml(s))
    assert xp.load(f, quick=True).spec == quick.spec
    with pytest.raises(xp.ExperimentError, match=r"\[quick\]: unknown section\(s\) sizes"):
        xp.expand(spec(quick={"sizes": "64"}))


@pytest.mark.no_qemu
def test_sweep_is_the_cross_product_in_file_order():
    e = xp.expand(spec(sweep={"alg": ["a", "b"], "cores": ["0-1", "0-3"]}))
    assert [p.params for p in e.points] == [
        {"alg": "a", "cores": "0-1"}, {"alg": "a", "cores": "0-3"},
        {"alg": "b", "cores": "0-1"}, {"alg": "b", "cores": "0-3"}]
    p = e.points[1]
    assert p.cores == (0, 1, 2, 3)
    assert p.args == ("4", "0.533", "0", "1", "2", "3", "--sizes", "32", "--iters", "1",
                      "--warmup", "0", "--alg", "a")
    assert p.clock == "modeled" and p.cache


@pytest.mark.no_qemu
def test_explicit_points_are_crossed_with_the_sweep():
    s = spec(sweep={"root": [0, 1]})
    s["points"] = [{"alg": "x"}, {"alg": "y", "machine.core-hz": "800000000"}]
    e = xp.expand(s)
    assert [p.params for p in e.points] == [
        {"alg": "x", "root": 0}, {"alg": "x", "root": 1},
        {"alg": "y", "machine.core-hz": "800000000", "root": 0},
        {"alg": "y", "machine.core-hz": "800000000", "root": 1}]
    assert e.points[2].machine == {"core-hz": "800000000"}
    assert e.points[0].machine == {}


@pytest.mark.no_qemu
@pytest.mark.parametrize("value,want", [
    ("32:4K", [32, 64, 128, 256, 512, 1024, 2048, 4096]),
    ("1:1", [1]),
    ({"start": 100, "stop": 400, "step": 100}, [100, 200, 300, 400]),
    ({"start": 1, "stop": 1000, "factor": 10}, [1, 10, 100, 1000]),
    ([3, 1, 2], [3, 1, 2]),
    ("oc:k=7", ["oc:k=7"]),
    (5, [5]),
])
def test_ranges(value, want):
    assert xp.expand_range(value, "x") == want


@pytest.mark.no_qemu
@pytest.mark.parametrize("bad,why", [
    ({"bogus": {}}, "unknown section"),
    ({"sweep": {"alg": []}}, "empty list"),
    ({"sweep": {"sizes": "4K:32"}}, "must go up"),
    ({"sweep": {"n": {"start": 1, "stop": 5}}}, "one of step or factor"),
    ({"experiment": {"mode": "fast"}}, "mode 'fast'"),
    ({"experiment": {"cores": "0-99999999999"}}, "cores"),
    ({"experiment": {"name": "a b"}}, "letters, digits"),
    ({"sweep": {"n": {"start": 0, "stop": 10 ** 9, "step": 1}}}, "more than"),
    ({"experiment": {"output": "xml"}}, "output 'xml': one of csv, netpipe"),
    ({"experiment": {"program": "netpipe/NPmpi.elf"}}, "one of them"),
])
def test_bad_experiments_are_refused_with_a_reason(bad, why):
    s = spec()
    for k, v in bad.items():
        s.setdefault(k, {}).update(v)
    with pytest.raises(xp.ExperimentError, match=why):
        xp.expand(s)


@pytest.mark.no_qemu
def test_experiment_files_shipped_expand(tmp_path):
    files = sorted((REPO / "experiments").glob("*.toml"))
    assert any(f.name == "smoke.toml" for f in files)
    for f in files:
        e = xp.load(f)
        assert e.points, f


# --- the cache key (no QEMU) ---------------------------------------------------------

HASHES = {"app": "a", "qemu": "q", "kernel": "k", "boot": "b"}


def _changes(key_fn):
    """Which of a point's inputs change @key_fn's key when changed alone."""
    p = xp.expand(spec()).points[0]
    base = key_fn(p, HASHES)
    changed = set()
    for name in HASHES:
        if key_fn(p, {**HASHES, name: "other"}) != base:
            changed.add(name)
    for field, value in [("args", p.args + ("--root", "1")), ("machine", {"core-hz": "1"}),
                         ("kernel", {"mbox": "poll"}), ("cores", (0, 1)),
                         ("mode", "functional"), ("output", "netpipe")]:
        if key_fn(dataclasses.replace(p, **{field: value}), HASHES) != base:
            changed.add(field)
    return changed


ALL_INPUTS = set(HASHES) | {"args", "machine", "kernel", "cores", "mode", "output"}


@pytest.mark.no_qemu
def test_cache_key_covers_every_input():
    assert _changes(provenance.cache_key) == ALL_INPUTS
    # and the check catches a key that forgets one (here: the app's content)
    def forgetful(p, h):
        return provenance.cache_key(p, {k: v for k, v in h.items() if k != "app"})
    assert _changes(forgetful) == ALL_INPUTS - {"app"}


# --- runs on the chip ------------------------------------------------------------------

@pytest.fixture
def cache(tmp_path, monkeypatch):
    d = tmp_path / "cache"
    monkeypatch.setenv("SCC_BENCH_CACHE", str(d))
    return d


def write(tmp_path, s, name="e.toml"):
    lines = []
    for section, body in s.items():
        if section == "points":
            for pt in body:
                lines.append("[[points]]")
                lines += [f"{k!r} = {v!r}".replace("'", '"') for k, v in pt.items()]
            continue
        lines.append(f"[{section}]")
        for k, v in body.items():
            v = str(v).lower() if isinstance(v, bool) else repr(v).replace("'", '"')
            lines.append(f'"{k}" = {v}')
    f = tmp_path / name
    f.write_text("\n".join(lines) + "\n")
    return f


def test_cache_reruns_only_changed_inputs(tmp_path, cache, capsys):
    app = tmp_path / "bcast_bench.elf"
    shutil.copy(BCAST, app)
    f = write(tmp_path, spec(experiment={"app": str(app)}, sweep={"alg": ["binomial", "oc:k=2"]}))
    out = tmp_path / "out"
    assert bench.main(["run", str(f), "--workers", "1", "--out", str(out)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "points: 2 run, 0 cached, 0 failed"
    first = pd.read_csv(out / "results.csv")
    assert bench.main(["run", str(f), "--workers", "1", "--out", str(out)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "points: 0 run, 2 cached, 0 failed"
    again = pd.read_csv(out / "results.csv")
    assert list(again["median_us"]) == list(first["median_us"])
    assert list(again["cached"]) == [True, True]
    with open(app, "ab") as fh:          # the app's content changes (a byte past its end)
        fh.write(b"\0")
    assert bench.main(["run", str(f), "--workers", "1", "--out", str(out)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "points: 2 run, 0 cached, 0 failed"


def test_rows_carry_provenance(tmp_path, cache, capsys):
    f = write(tmp_path, spec(machine={"timing-hop-cycles": 4}))
    out = tmp_path / "out"
    assert bench.main(["run", str(f), "--workers", "1", "--out", str(out)]) == 0
    df = pd.read_csv(out / "results.csv", keep_default_na=False)
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True,
                          text=True).stdout.strip()
    r = df.iloc[0]
    assert r["commit"] == head
    assert r["clock"] == "modeled" and r["status"] == "ok" and r["mode"] == "timing"
    assert r["machine"] == '{"timing-hop-cycles": "4"}'
    assert r["app_args"].split()[:2] == ["4", "0.533"] and "--sizes 32" in r["app_args"]
    assert r["core_list"] == "0-3" and r["cores"] == 4 and r["host"] and r["start_time"].startswith("20")
    assert str(r["dirty"]) in ("True", "False")
    assert r["qemu_version"] == (BUILD / "qemu-version.txt").read_text().splitlines()[0]
    import json
    m = json.loads((out / "manifest.json").read_text())
    assert m["source"] == f.read_text() and m["environment"]["commit"] == head


def test_failed_and_timed_out_points_do_not_stop_the_sweep(tmp_path, cache, capsys):
    s = spec(experiment={"timeout": 60})
    s["points"] = [{"iters": 0}, {"iters": 1}]
    f = write(tmp_path, s)
    out = tmp_path / "out"
    assert bench.main(["run", str(f), "--workers", "2", "--out", str(out)]) == 1
    assert capsys.readouterr().out.splitlines()[-1] == "points: 2 run, 0 cached, 1 failed"
    df = pd.read_csv(out / "results.csv", keep_default_na=False)
    bad = df[df["iters"] == 0]
    assert list(bad["status"]) == ["failed"]
    assert "exit status 2" in bad.iloc[0]["why"] or "status 2" in bad.iloc[0]["why"]
    assert "--iters" in (out / "failed" / "0.log").read_text()
    assert set(df[df["iters"] == 1]["status"]) == {"ok"}
    # a point whose time limit is too short for it: recorded, not waited for
    s = spec(experiment={"timeout": 0.05, "mode": "timing"}, args={"sizes": "1M", "iters": 20})
    f = write(tmp_path, s, "slow.toml")
    assert bench.main(["run", str(f), "--workers", "1", "--out", str(tmp_path / "o2")]) == 1
    df = pd.read_csv(tmp_path / "o2" / "results.csv", keep_default_na=False)
    assert list(df["status"]) == ["timeout"] and df.iloc[0]["why"] == "time limit"


def test_one_and_two_workers_give_identical_modeled_rows(tmp_path, cache):
    s = spec(experiment={"cache": False}, sweep={"alg": ["binomial", "oc:k=7"],
                                                 "cores": ["0-3", "0-11"]})
    f = write(tmp_path, s)
    frames = []
    for n in (1, 2):
        out = tmp_path / f"w{n}"
        assert bench.main(["run", str(f), "--workers", str(n), "--out", str(out)]) == 0
        df = pd.read_csv(out / "results.csv", keep_default_na=False)
        assert not df["cached"].any()
        frames.append(df.drop(columns=["wall_s", "host", "start_time", "cached"]))
    pd.testing.assert_frame_equal(frames[0], frames[1])


def test_show_lists_results_and_failures(tmp_path, cache, capsys):
    s = spec()
    s["points"] = [{"iters": 0}, {"iters": 1}]
    f = write(tmp_path, s)
    bench.main(["run", str(f), "--workers", "1", "--out", str(tmp_path / "o")])
    capsys.readouterr()
    assert bench.main(["show", str(tmp_path / "o")]) == 0
    text = capsys.readouterr().out
    assert "2 point(s): 1 ok, 1 failed; clock: modeled" in text
    assert "point 0 failed" in text


# --- plots (no QEMU) -------------------------------------------------------------------

@pytest.mark.no_qemu
def test_plots_draw_the_table(tmp_path):
    df = pd.DataFrame({"algorithm": ["a", "a", "b", "b"], "bytes": [32, 4096, 32, 4096],
                       "median_us": [10.0, 100.0, 5.0, 20.0], "mb_per_s": [3.2, 40.96, 6.4, 204.8],
                       "clock": ["modeled"] * 4, "status": ["ok"] * 4})
    info = plots.plot(df, "latency", tmp_path / "lat.png")
    assert (tmp_path / "lat.png").stat().st_size > 1000 and (tmp_path / "lat.svg").is_file()
    assert info["ylabel"] == "latency (µs, modeled SCC time)"
    assert info["xlabel"] == "message size (bytes)"
    assert info["series"] == {"a": [(32.0, 10.0), (4096.0, 100.0)],
                              "b": [(32.0, 5.0), (4096.0, 20.0)]}
    sp = plots.plot(df, "speedup", tmp_path / "sp.png", baseline="a")
    assert sp["series"] == {"b": [(32.0, 2.0), (4096.0, 5.0)]}
    assert "speed-up over a" in sp["ylabel"]
    svg = (tmp_path / "sp.svg").read_text()
    assert "speed-up over a" in svg or "speed" in svg
    with pytest.raises(ValueError, match="no algorithm 'z'"):
        plots.plot(df, "speedup", tmp_path / "x.png", baseline="z")


@pytest.mark.no_qemu
def test_plot_xy_draws_a_line_per_combination_of_hue_columns(tmp_path):
    """pingpong's rows (12a, 12b): one line per api and copy style, never
    the median of two styles at a size."""
    df = pd.DataFrame({"api": ["rcce"] * 4, "copy": ["libscc", "libscc", "rcce1", "rcce1"],
                       "bytes": [32, 4096, 32, 4096], "MB_per_s": [10.0, 100.0, 20.0, 50.0],
                       "clock": ["modeled"] * 4, "status": ["ok"] * 4})
    info = plots.plot_xy(df, tmp_path / "pp.png", x="bytes", y="MB_per_s",
                         hue=["api", "copy"])
    assert info["series"] == {"rcce/libscc": [(32, 10.0), (4096, 100.0)],
                              "rcce/rcce1": [(32, 20.0), (4096, 50.0)]}
    one = plots.plot_xy(df, tmp_path / "one.png", x="bytes", y="MB_per_s", hue="copy")
    assert set(one["series"]) == {"libscc", "rcce1"}


def _results_dir(tmp_path):
    """A results directory as `run` leaves it (the table only): two
    algorithms, three sizes, one failed row."""
    d = tmp_path / "res"
    d.mkdir()
    pd.DataFrame({"alg": ["a", "a", "a", "b", "b", "b", "b"],
                  "bytes": [32, 1024, 4096, 32, 1024, 4096, 4096],
                  "median_us": [10.0, 30.0, 100.0, 5.0, 9.0, 20.0, 1.0],
                  "clock": ["modeled"] * 7, "status": ["ok"] * 6 + ["failed"],
                  "point": [0, 0, 0, 1, 1, 1, 2]}).to_csv(d / "results.csv", index=False)
    return d


@pytest.mark.no_qemu
def test_plot_query_plots_only_the_rows_it_selects(tmp_path, monkeypatch, capsys):
    d = _results_dir(tmp_path)
    drawn = []
    real = plots.plot

    def spy(df, *a, **kw):
        info = real(df, *a, **kw)
        drawn.append((df.copy(), info))
        return info
    monkeypatch.setattr(plots, "plot", spy)
    query = "bytes >= 1024 and alg != 'a'"
    assert bench.main(["plot", str(d), "--kind", "latency", "--query", query,
                       "--out", str(tmp_path / "q.png")]) == 0
    (rows, info), = drawn
    table = pd.read_csv(d / "results.csv", keep_default_na=False)
    want = table[(table["bytes"] >= 1024) & (table["alg"] != "a")]
    pd.testing.assert_frame_equal(rows, want)
    # what was drawn: b's two ok rows, nothing of a, the failed row left out
    assert info["series"] == {"b": [(1024.0, 9.0), (4096.0, 20.0)]}
    assert (tmp_path / "q.png").stat().st_size > 1000 and (tmp_path / "q.svg").is_file()
    assert "1 series" in capsys.readouterr().out
    # without --query: every ok row
    assert bench.main(["plot", str(d), "--kind", "latency", "--out",
                       str(tmp_path / "all.png")]) == 0
    assert drawn[-1][1]["series"] == {"a": [(32.0, 10.0), (1024.0, 30.0), (4096.0, 100.0)],
                                      "b": [(32.0, 5.0), (1024.0, 9.0), (4096.0, 20.0)]}


@pytest.mark.no_qemu
@pytest.mark.parametrize("query,says", [
    ("bytes >", "invalid syntax"),
    ("nosuch == 1", "'nosuch' is not defined"),
    ("bytes + 1", "is not a condition on each row"),
    ("bytes > 1000000", "selects none of the 7 rows"),
    ("", "--query is empty"),
])
def test_plot_bad_query_is_a_usage_error(tmp_path, capsys, query, says):
    d = _results_dir(tmp_path)
    assert bench.main(["plot", str(d), "--kind", "latency", "--query", query]) == 2
    err = capsys.readouterr().err
    assert err.startswith("scc-bench: error: --query") and says in err, err
    assert "Traceback" not in err and not (d / "latency.png").exists()


@pytest.mark.no_qemu
def test_plot_bad_query_from_the_command_line(tmp_path):
    d = _results_dir(tmp_path)
    p = subprocess.run([str(BUILD / "venv" / "bin" / "scc-bench"), "plot", str(d), "--kind",
                        "latency", "--query", "alg == "], capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 2, p.stderr
    assert p.stderr.startswith("scc-bench: error: --query 'alg == '") and \
        "Traceback" not in p.stderr, p.stderr


def _sweep_dir(tmp_path, roots=(0,)):
    """A results directory as `run` leaves it for experiments/smoke.toml's
    kind of sweep: bcast_bench over alg (binomial, oc:k=7) x cores (0-3,
    0-7), each point printing two sizes (and, with several @roots, a root
    parameter swept too). The app's own columns, then the parameters
    (`cores` is param_cores: the app has a cores column, the count), then
    the provenance. The 8-core times are twice the 4-core ones, so a
    median over both is no row's time."""
    rows = []
    point = 0
    for alg in ("binomial", "oc:k=7"):
        name, _, params = alg.partition(":")
        for cores, n in (("0-3", 4), ("0-7", 8)):
            for root in roots:
                for size in (32, 4096):
                    us = (10.0 if name == "binomial" else 4.0) * (1 + size // 1024) * n / 4 \
                        + root
                    rows.append({
                        "collective": "bcast", "algorithm": name, "params": params,
                        "clock": "modeled", "cores": n, "root": 0, "bytes": size,
                        "iters": 2, "min_us": us, "median_us": us, "max_us": us,
                        "mb_per_s": size / us, "verified": "yes", "warmup": 1,
                        "alg": alg, "param_cores": cores,
                        **({"param_root": root} if len(roots) > 1 else {}),
                        "experiment": "smoke", "point": point, "status": "ok", "why": "",
                        "cached": False, "wall_s": 1.0, "cache_key": f"k{point}",
                        "commit": "0123456789ab", "dirty": False, "qemu_version": "10.0",
                        "backend": "chip", "mode": "timing", "machine": "{}",
                        "kernel_options": "", "app": "bcast_bench.elf",
                        "app_args": f"{n} 0.533 ... --alg {alg}", "core_list": cores,
                        "host": "h", "start_time": "2026-01-01T00:00:00+00:00"})
                point += 1
    d = tmp_path / "sweep"
    d.mkdir()
    pd.DataFrame(rows).to_csv(d / "results.csv", index=False)
    return d


def _spy_plots(monkeypatch):
    drawn = []
    real = plots.plot

    def spy(df, *a, **kw):
        info = real(df, *a, **kw)
        drawn.append(info)
        return info
    monkeypatch.setattr(plots, "plot", spy)
    return drawn


@pytest.mark.no_qemu
def test_plot_never_takes_a_median_over_a_swept_parameter(tmp_path, monkeypatch, capsys):
    """Issue 43, item 3: a latency plot of 2 algorithms x 2 core counts x
    2 sizes draws the 4 lines of (algorithm, cores), not 2 lines of the
    median of the 4- and 8-core runs; the legend says oc:k=7, not oc; the
    title says what the rows had in common."""
    d = _sweep_dir(tmp_path)
    table = pd.read_csv(d / "results.csv", keep_default_na=False)
    drawn = _spy_plots(monkeypatch)
    out = tmp_path / "lat.png"
    assert bench.main(["plot", str(d), "--kind", "latency", "--out", str(out)]) == 0
    said = capsys.readouterr()
    assert "4 series" in said.out and "2 facets" in said.out, said
    info, = drawn
    want = {f"cores={c}": {a: [(float(r.bytes), float(r.median_us)) for r in
                               table[(table.alg == a) & (table.param_cores == c)].itertuples()]
                           for a in ("binomial", "oc:k=7")}
            for c in ("0-3", "0-7")}
    assert info["facets"] == want
    # every point drawn is one row's time: nothing was merged
    drawn_ys = {y for f in info["facets"].values() for s in f.values() for _, y in s}
    assert drawn_ys <= set(table.median_us)
    svg = out.with_suffix(".svg").read_text()
    assert "oc:k=7" in svg and "cores=0-7" in svg
    assert "mode=timing" in info["title"] and "collective=bcast" in info["title"]

    # --hue param_cores: the algorithms, still varying, get a facet each
    assert bench.main(["plot", str(d), "--kind", "latency", "--hue", "param_cores",
                       "--out", str(tmp_path / "hue.png")]) == 0
    assert "4 series" in capsys.readouterr().out
    assert drawn[-1]["facets"] == {
        f"alg={a}": {c: want[f"cores={c}"][a] for c in ("0-3", "0-7")}
        for a in ("binomial", "oc:k=7")}

    # one value of each chosen by --query: one line, nothing else varies
    assert bench.main(["plot", str(d), "--kind", "latency", "--out", str(tmp_path / "q.png"),
                       "--query", "param_cores == '0-7' and alg == 'oc:k=7'"]) == 0
    assert "1 series" in capsys.readouterr().out
    assert drawn[-1]["series"] == {"oc:k=7": want["cores=0-7"]["oc:k=7"]}
    assert "facets" not in capsys.readouterr().out


@pytest.mark.no_qemu
def test_plot_refuses_what_it_cannot_draw_without_merging(tmp_path, capsys):
    """A third swept parameter with many values: too many facets; the plot
    is refused (exit status 2) and the parameters it would merge named."""
    d = _sweep_dir(tmp_path, roots=range(20))
    assert bench.main(["plot", str(d), "--kind", "latency", "--hue", "alg",
                       "--facet", "param_cores"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("scc-bench: error:") and "param_root (20 values)" in err, err
    assert not (d / "latency.png").exists()
    # picking one root is enough
    assert bench.main(["plot", str(d), "--kind", "latency", "--query", "param_root == 3"]) == 0
    assert "4 series, 2 facets" in capsys.readouterr().out


# --- pingpong's parameters by name -----------------------------------------------------

def test_pingpong_sweeps_its_parameters_by_name(tmp_path, cache, capsys):
    """experiments/pingpong.toml sweeps apps/pingpong.c's --apis (and the
    cores); every point's rows are the path and the peer it named."""
    f = REPO / "experiments" / "pingpong.toml"
    out = tmp_path / "pp"
    assert bench.main(["run", str(f), "--workers", "2", "--out", str(out)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "points: 6 run, 0 cached, 0 failed"
    df = pd.read_csv(out / "results.csv", keep_default_na=False)
    assert list(df.drop_duplicates("point")["apis"]) == ["rcce", "rcce", "putget", "putget",
                                                         "ircce", "ircce"]
    for _, g in df.groupby("point"):
        r = g.iloc[0]
        assert set(g["api"]) == {r["apis"]}, g
        assert set(g["peer"]) == {int(r["cores"].split(",")[1])}, g
        assert sorted(g["bytes"]) == [32, 1024, 32768], g
        assert set(g["verified"]) == {"yes"} and set(g["clock"]) == {"modeled"}
        assert r["app_args"] == f"2 0.533 {r['cores'].replace(',', ' ')} --sizes 32,1K,32K " \
                                f"--budget 256K --apis {r['apis']}"
        assert list(g["iterations"]) == [1000, 256, 8]       # 256K / size, at most 1000
    # the far corner is further than the tile mate on every path from 1 KiB
    # on; at one line the distance (8 hops each way, about 0.1 us) is no
    # more than the period of the receiver's poll loop (an MPB read, o_mpb
    # = 0.126 us, 001 Table 1), so the arrival may land just after a poll
    # for either peer: there the far corner is at most one poll ahead
    ok = df.set_index(["api", "bytes", "peer"])["latency_us"]
    for api in ("rcce", "putget", "ircce"):
        for n in (1024, 32768):
            assert ok[api, n, 47] > ok[api, n, 1], (api, n)
        assert ok[api, 32, 47] > ok[api, 32, 1] - 0.126, api


def test_pingpong_refuses_a_bad_named_parameter(tmp_path, cache, capsys):
    s = {"experiment": {"name": "pp-bad", "app": "pingpong", "cores": "0,1", "rcce": True,
                        "timeout": 60},
         "args": {"sizes": "32", "budget": "1K"},
         "points": [{"apis": "rcce,nope"}, {"budget": "0"}]}
    out = tmp_path / "o"
    assert bench.main(["run", str(write(tmp_path, s)), "--workers", "1", "--out",
                       str(out)]) == 1
    assert capsys.readouterr().out.splitlines()[-1] == "points: 2 run, 0 cached, 2 failed"
    df = pd.read_csv(out / "results.csv", keep_default_na=False)
    assert list(df["status"]) == ["failed"] * 2
    assert all("status 2" in w for w in df["why"]), list(df["why"])
    logs = [(out / "failed" / f"{i}.log").read_text() for i in range(2)]
    assert "pingpong: bad APIS: not a comma list" in logs[0]
    assert "pingpong: bad BUDGET" in logs[1]
    # why: the app's first error line, whole
    assert df["why"][0].endswith(": pingpong: bad APIS: not a comma list of rcce, putget "
                                 "and ircce"), df["why"][0]
    # a key pingpong does not take: refused before any point runs
    s["points"].append({"frobs": 3})
    out = tmp_path / "o2"
    assert bench.main(["run", str(write(tmp_path, s)), "--workers", "1", "--out",
                       str(out)]) == 2
    err = capsys.readouterr().err
    assert "point 2: pingpong does not take the option 'frobs'" in err, err
    assert not out.exists()


@pytest.mark.no_qemu
def test_pingpong_named_and_positional_arguments_agree():
    """The host build (the same source): positional, named (every form of
    apps/lib/bench.h) and mixed arguments run the same rows; a bad one is a
    usage error (status 2)."""
    exe = BUILD / "libscc" / "rcce" / "host" / "pingpong"
    assert exe.is_file(), f"{exe} missing: run `make`"
    ues = ["2", "0.533", "0", "1"]

    def rows(*args):
        p = subprocess.run([str(exe), *ues, *args], capture_output=True, text=True, timeout=60)
        return p.returncode, [tuple(l.split(",")[:4]) for l in p.stdout.splitlines()
                              if l and not l.startswith(("#", "api,"))], p.stderr
    want = rows("64", "4K", "rcce,ircce")
    assert want[0] == 0 and len(want[1]) == 4, want
    for args in (["sizes=64", "budget=4K", "apis=rcce,ircce"],
                 ["apis=rcce,ircce", "budget=4K", "sizes=64"],
                 ["--sizes", "64", "--budget", "4K", "--apis", "rcce,ircce"],
                 ["--apis=rcce,ircce", "--budget", "4K", "64"],
                 ["64", "apis=rcce,ircce", "4K"]):
        assert rows(*args)[:2] == want[:2], args
    for args, says in [(["64", "4K", "rcce", "x"], "a fourth positional one"),
                       (["size=64"], "unknown option 'size'"),
                       (["--size", "64"], "unknown option '--size'"),
                       (["--sizes"], "--sizes needs a value"),
                       (["64", "sizes=128"], "SIZES: given twice"),
                       (["apis=rcce,"], "ends in a comma"),
                       (["apis=mpi"], "not a comma list")]:
        rc, got, err = rows(*args)
        assert rc == 2 and not got and says in err and "usage: pingpong" in err, (args, err)


# --- other apps on other cores (copy cores) ----------------------------------------------

def copy_spec(**over):
    """copy_bench on core 0, copy_core.elf on the other cores."""
    s = {"experiment": {"name": "cc", "app": "copy_bench", "cores": "0", "rcce": False,
                        "timeout": 120,
                        "other": [{"cores": "1-2", "app": "copy_core"}]},
         "args": {"sizes": "16K", "iters": 1, "local": "", "remote": "auto",
                  "cores": "{other.cores}"}}
    for k, v in over.items():
        s.setdefault(k, {}).update(v)
    return s


@pytest.mark.no_qemu
def test_other_apps_expand_per_point():
    e = xp.expand(copy_spec(sweep={"other.cores": ["1", "5,7", "10-12"]}))
    core_app = str(BUILD / "apps" / "copy_core.elf")
    assert [(p.cores, p.other) for p in e.points] == [
        ((0,), (xp.Other(app=core_app, cores=(1,), args=()),)),
        ((0,), (xp.Other(app=core_app, cores=(5, 7), args=()),)),
        ((0,), (xp.Other(app=core_app, cores=(10, 11, 12), args=()),))]
    # {other.cores} in an argument: that point's other cores
    assert [p.args[-2:] for p in e.points] == [("--cores", "1"), ("--cores", "5,7"),
                                               ("--cores", "10,11,12")]
    # a whole list per point, other.N.KEY, args.KEY (an app argument named
    # like a reserved parameter), an other app's args as words
    s = copy_spec(experiment={"other": []})
    s["points"] = [{"other": [{"cores": "1", "app": "copy_core", "args": "fault=3"},
                              {"cores": "2-3", "app": "copy_core"}],
                    "other.1.cores": "4", "args.cores": "{other.0.cores},{other.1.cores}"},
                   {"args.cores": "9"}]
    a, b = xp.expand(s).points
    assert a.other == (xp.Other(app=core_app, cores=(1,), args=("fault=3",)),
                       xp.Other(app=core_app, cores=(4,), args=()))
    assert a.args[-2:] == ("--cores", "1,4") and a.cores == (0,)
    assert b.other == () and b.args[-2:] == ("--cores", "9")
    assert a.other[0].label() == "copy_core.elf@1 fault=3"
    # the core map a point runs: a line per app, the kernel options on each
    from scc.bench import sweep
    s = copy_spec(kernel={"mbox": "ipi"})
    text, files = sweep.core_map(xp.expand(s).points[0])
    assert [l for l in text.splitlines() if not l.startswith("#")] == [
        # an empty value is the kernel's "" (coremap.kernel_arg), quoted for the line
        "0 kernel.elf mbox=ipi module=copy_bench.elf -- --sizes 16K --iters 1 --local '\"\"' "
        "--remote auto --cores 1,2",
        "1-2 kernel.elf mbox=ipi module=copy_core.elf --"]
    assert files == {"kernel.elf": sccrun_default_kernel(), "copy_bench.elf":
                     str(BUILD / "apps" / "copy_bench.elf"), "copy_core.elf": core_app}


def sccrun_default_kernel():
    from scc.machine import sccrun
    return sccrun.default_kernel()


@pytest.mark.no_qemu
@pytest.mark.parametrize("other,why", [
    ([{"cores": "1", "app": "copy_cor"}], r"other\[0\]: app 'copy_cor': .*copy_cor.elf does not "
                                          "exist"),
    ([{"cores": "0-1", "app": "copy_core"}], r"other\[0\]: core 0 is also one of the app's cores"),
    ([{"cores": "1-2", "app": "copy_core"}, {"cores": "2", "app": "copy_core"}],
     r"other\[1\]: core 2 is also one of other\[0\]'s cores"),
    ([{"cores": "1", "app": "copy_core", "kernel": "x"}], r"other\[0\]: unknown key\(s\) kernel"),
    ([{"app": "copy_core"}], r"other\[0\] needs cores"),
    ([{"cores": "1"}], r"other\[0\] needs app"),
    ([{"cores": "48", "app": "copy_core"}], r"other\[0\]: cores"),
    ("copy_core", "a list of tables"),
    ([{"cores": "1", "app": "copy_core", "args": {"a": 1}}], "args is a string"),
    ([{"cores": "1", "app": str(REPO / "copy_bench.elf")}], "does not exist"),
])
def test_bad_other_apps_are_refused(other, why):
    with pytest.raises(xp.ExperimentError, match=why):
        xp.expand(copy_spec(experiment={"other": other}))


@pytest.mark.no_qemu
@pytest.mark.parametrize("over,why", [
    ({"experiment": {"backend": "host"}}, "other apps run on the chip"),
    ({"sweep": {"other.cores": ["1", "0"]}}, "core 0 is also one of the app's cores"),
    ({"sweep": {"other.7.cores": ["1"]}}, "no other app 7"),
    ({"sweep": {"other.kernel": ["x"]}}, "an other app has app, cores, args"),
    ({"experiment": {"other": []}}, r"\{other.cores\}: the point has 0 other app"),
    ({"experiment": {"other": [{"cores": "1", "app": "copy_core"},
                               {"cores": "2", "app": "copy_core"}]}},
     r"say \{other.N.cores\}"),
])
def test_bad_other_parameters_are_refused(over, why):
    with pytest.raises(xp.ExperimentError, match=why):
        xp.expand(copy_spec(**over))


@pytest.mark.no_qemu
def test_a_bad_other_app_stops_the_run_before_it_starts(tmp_path, capsys):
    f = tmp_path / "bad.toml"
    f.write_text(xp.to_toml(copy_spec(experiment={"other": [{"cores": "0,5", "app": "copy_core"}]})))
    out = tmp_path / "out"
    assert bench.main(["run", str(f), "--workers", "1", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err == "scc-bench: error: other[0]: core 0 is also one of the app's cores: each " \
                  "core runs one app\n", err
    assert not out.exists()


@pytest.mark.no_qemu
def test_cache_key_covers_the_other_apps():
    p = xp.expand(copy_spec()).points[0]
    hashes = {**HASHES, "other0": "c"}
    base = provenance.cache_key(p, hashes)
    assert provenance.cache_key(p, {**hashes, "other0": "d"}) != base
    o = p.other[0]
    for other in [(dataclasses.replace(o, cores=(1, 3)),), (dataclasses.replace(o, args=("x",)),),
                  ()]:
        assert provenance.cache_key(dataclasses.replace(p, other=other), hashes) != base
    assert set(provenance.inputs(p)) == {"app", "other0", "qemu", "kernel", "boot"}
    # a point without other apps keeps the key it had before they existed
    q = xp.expand(spec()).points[0]
    doc = {"inputs": HASHES, "backend": q.backend, "mode": q.mode, "cores": list(q.cores),
           "machine": {}, "kernel": {}, "args": list(q.args)}
    import hashlib
    import json
    assert provenance.cache_key(q, HASHES) == \
        hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()


def test_copy_cores_from_an_experiment(tmp_path, cache, capsys):
    """copy_bench with copy_core.elf on other cores, their number swept:
    each point's rows split the copy across its own copy cores."""
    s = copy_spec(sweep={"other.cores": ["1", "5-6"]})
    f = tmp_path / "cc.toml"
    f.write_text(xp.to_toml(s))
    out = tmp_path / "out"
    assert bench.main(["run", str(f), "--workers", "2", "--out", str(out)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "points: 2 run, 0 cached, 0 failed"
    df = pd.read_csv(out / "results.csv", keep_default_na=False)
    assert list(zip(df["point"], df["kind"], df["method"], df["copy_cores"], df["bytes"])) == [
        (0, "cores", "auto", 1, 16384), (1, "cores", "auto", 1, 16384),
        (1, "cores", "auto", 2, 16384)]
    assert set(df["verified"]) == {1} and set(df["clock"]) == {"modeled"}
    assert list(df["other_apps"]) == ["copy_core.elf@1", "copy_core.elf@5-6",
                                      "copy_core.elf@5-6"]
    assert list(df["other.cores"]) == ["1", "5-6", "5-6"]
    assert df.iloc[1]["app_args"].endswith("--cores 5,6") and str(df.iloc[0]["core_list"]) == "0"
    import json
    m = json.loads((out / "manifest.json").read_text())
    assert "5-6 kernel.elf module=copy_core.elf --" in m["points"][1]["coremap"]
    assert m["points"][1]["other"] == [{"app": str(BUILD / "apps" / "copy_core.elf"),
                                        "cores": [5, 6], "args": []}]
    # one copy core is slower than two on the same copy
    assert df.iloc[0]["median_us"] > df.iloc[2]["median_us"]
    # the rerun is cached: the key covers the other apps
    assert bench.main(["run", str(f), "--workers", "1", "--out", str(out)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "points: 0 run, 2 cached, 0 failed"


@pytest.mark.no_qemu
def test_an_unquoted_dotted_key_is_the_parameter_it_names():
    """TOML reads kernel.dram_view = "any", unquoted in a point, as a table
    {"kernel": {"dram_view": "any"}}: the same parameter as the quoted
    "kernel.dram_view" (it was an app argument --kernel before)."""
    s = spec(sweep={"kernel": {"mbox": ["ipi", "poll"]}})
    s["points"] = [{"kernel": {"dram_view": "any"}, "machine": {"core-hz": 800000000},
                    "args": {"cores": 3}}]
    a, b = xp.expand(s).points
    assert a.kernel == {"dram_view": "any", "mbox": "ipi"} and b.kernel["mbox"] == "poll"
    assert a.machine == {"core-hz": "800000000"}
    assert "--kernel" not in a.args and a.args[-2:] == ("--cores", "3")
    assert a.params == {"kernel.dram_view": "any", "machine.core-hz": 800000000,
                        "args.cores": 3, "kernel.mbox": "ipi"}
    m = xp.load(REPO / "experiments" / "memory.toml")
    assert [p.kernel for p in m.points] == [{}, {}] + [{"dram_view": "any"}] * 4
    assert not any("--kernel" in p.args for p in m.points)


# --- what the apps take, checked before anything runs; why; progress; legend -------------

@pytest.mark.no_qemu
def test_a_misspelled_app_is_refused_before_any_point_runs(tmp_path, cache, capsys):
    """An app that is not built: exit status 2 before any point runs, the
    message naming it, the nearest app built, and the apps built."""
    f = write(tmp_path, spec(experiment={"app": "bcast_bnech"}))
    out = tmp_path / "out"
    assert bench.main(["run", str(f), "--workers", "1", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "app 'bcast_bnech'" in err and "(did you mean 'bcast_bench'?)" in err, err
    assert "pingpong" in err.split("the chip apps built: ")[1], err
    assert not out.exists()


@pytest.mark.no_qemu
@pytest.mark.parametrize("over,says", [
    ({"sweep": {"algo": ["binomial", "oc:k=7"]}},
     "points 0-1: bcast_bench does not take the option 'algo' (did you mean 'alg'?)"),
    ({"args": {"iter": 1}},
     "point 0: bcast_bench does not take the option 'iter' (did you mean 'iters'?)"),
    ({"args": {"list": 1}}, "bcast_bench's option 'list' takes no value"),
    ({"experiment": {"arg_style": "key=value"}}, "arg_style is no longer read"),
    ({"experiment": {"rcce": False}}, "bcast_bench is an RCCE program: it needs rcce = true"),
])
def test_an_option_the_app_does_not_take_is_refused_before_any_point_runs(tmp_path, cache,
                                                                          capsys, over, says):
    f = write(tmp_path, spec(**over))
    out = tmp_path / "out"
    assert bench.main(["run", str(f), "--workers", "1", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert says in err, err
    assert not out.exists()


@pytest.mark.no_qemu
def test_an_other_apps_unknown_option_is_refused(tmp_path, cache, capsys):
    s = copy_spec(experiment={"other": [{"cores": "1", "app": "copy_core", "args": "faults=2"}]})
    f = tmp_path / "cc.toml"
    f.write_text(xp.to_toml(s))
    assert bench.main(["run", str(f), "--workers", "1", "--out", str(tmp_path / "o")]) == 2
    assert "copy_core does not take the option 'faults' (did you mean 'fault'?)" in \
        capsys.readouterr().err
    assert not (tmp_path / "o").exists()


@pytest.mark.no_qemu
def test_the_report_refuses_an_option_before_any_point_runs(tmp_path, monkeypatch, capsys):
    from scc.cli import report
    from scc.report import make
    bad = {"bad": {"experiment": {"name": "bad", "app": "pingpong", "cores": "0,1",
                                  "rcce": True},
                   "args": {"size": "32"}}}
    monkeypatch.setattr(make, "specs", lambda *a, **k: bad)
    assert report.main(["--out", str(tmp_path), "--only", "T1", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "pingpong does not take the option 'size' (did you mean 'sizes'?)" in err, err
    assert not list((tmp_path / "results").iterdir())


@pytest.mark.no_qemu
def test_why_is_the_failed_cores_first_error_line():
    from scc.bench import sweep
    from scc.machine import sccrun
    r = sccrun.RunResult(
        returncode=2, timed_out=False,
        stdout="[00!] bcast binomial 32 B median 1.0 us verified\n"
               "[01!] error: bad --rop 'sums', want one of sum, max, min, prod\n"
               "[00!] error: bad --rop 'sums', want one of sum, max, min, prod\n"
               "[00!] usage: PROG NUES GHZ CORE... [--op OP]\n",
        stderr="qemu-system-i386: scc: core 01 failed: exit status 2\n")
    assert sweep.why_failed(r) == ("core 01 failed: exit status 2: error: bad --rop 'sums', want "
                             "one of sum, max, min, prod")
    r.stdout = "[00] nothing on stderr\n"
    assert sweep.why_failed(r) == "core 01 failed: exit status 2"


def test_a_failed_host_point_says_the_apps_first_error_line(tmp_path, cache, capsys):
    exe = BUILD / "libscc" / "rcce" / "host" / "bcast_bench"
    assert exe.is_file(), f"{exe} missing: run `make`"
    s = spec(experiment={"backend": "host"}, args={"iters": 0})
    out = tmp_path / "out"
    assert bench.main(["run", str(write(tmp_path, s)), "--workers", "1", "--out",
                       str(out)]) == 1
    df = pd.read_csv(out / "results.csv", keep_default_na=False)
    assert df["why"][0] == "exit status 2: error: --iters must be at least 1", df["why"][0]


@pytest.mark.no_qemu
def test_progress_lines_say_done_of_total_failed_elapsed_and_left(capsys):
    p = Progress(4, "t", "lines", interval=1000)
    p.update(done=1, failed=1, running=2)
    p.line()
    p.close()
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == "t: 0/4 points done, 0 failed, 0 running, 0:00 elapsed, time left not " \
                       "known yet"
    assert re.fullmatch(r"t: 1/4 points done, 1 failed, 2 running, 0:00 elapsed, about 0:00 "
                        r"left", lines[1]), lines[1]
    assert lines[2] == "t: 1/4 points done, 1 failed, 0 running, 0:00 elapsed, finished"
    assert clock(3725) == "1:02:05" and clock(65) == "1:05"


@pytest.fixture(scope="module")
def cli_run(tmp_path_factory):
    """`scc-bench run` of two functional-mode points, its stderr a pipe
    (not a terminal), a progress line every 0.2 s."""
    d = tmp_path_factory.mktemp("cli")
    f = write(d, spec(experiment={"mode": "functional", "cores": "0-1"},
                      sweep={"alg": ["binomial", "oc:k=2"]}))
    env = dict(os.environ, SCC_PROGRESS_INTERVAL="0.2", SCC_BENCH_CACHE=str(d / "cache"))
    p = subprocess.run([str(BUILD / "venv" / "bin" / "scc-bench"), "run", str(f),
                        "--workers", "1", "--out", str(d / "out")],
                       capture_output=True, text=True, env=env, timeout=600)
    return d / "out", p


def test_run_off_a_terminal_prints_a_progress_line_every_interval(cli_run):
    out, p = cli_run
    assert p.returncode == 0, p.stderr
    lines = re.findall(r"^t: (\d+)/(\d+) points done, (\d+) failed, (\d+) running, "
                       r"(\d+:\d\d) elapsed, (.*)$", p.stderr, re.M)
    # when it starts, at least once between (the interval), when it ends
    assert len(lines) >= 3, p.stderr
    assert lines[0][:2] == ("0", "2") and lines[-1][:3] == ("2", "2", "0"), lines
    assert lines[-1][-1] == "finished"


def test_the_manifest_keeps_each_apps_legend(cli_run):
    out, p = cli_run
    m = json.loads((out / "manifest.json").read_text())
    legend = m["legend"]["bcast_bench"]
    assert any(l.startswith("# times: us of RCCE_wtime") for l in legend), legend
    assert any(l.startswith("# min_us, median_us, max_us:") and "t_avg_us" in l
               for l in legend), legend
    assert "# mode: functional" in legend and "# clock: emulated" in legend, legend
    # each line once (two points printed them), no point's own command line
    assert len(legend) == len(set(legend))
    assert not any(l.startswith("# command:") for l in legend)


# --- a program of another output: NetPIPE ------------------------------------------------

# NetPIPE 3.7.2's stdout as a chip run gives it (core 0's, -o /dev/stdout):
# its banner, the host names, then a line per size; one line of its
# progress on stderr mixed in, as a console can.
NETPIPE_OUT = """\
Sending output to /dev/stdout
0: scc-core00
Now starting the main loop
       1 2.724784   0.00000280
  0:       1 bytes     20 times -->      2.72 Mbps in       2.80 usec
    1000 762.939453   0.00001000
   65536 988.142292   0.00050600
"""


@pytest.mark.no_qemu
def test_netpipe_output_becomes_rows():
    """Its lines "bytes Mbit/s seconds" as rows, in order, the rest left
    out; us and MB/s (10^6 bytes a second, one way) worked out here by
    hand: 1 B in 2.8 us is 0.357 MB/s, 1000 B in 10 us 100 MB/s, 64 KiB in
    506 us 129.5 MB/s."""
    from scc.bench import outputs
    rows, legend = outputs.parse("netpipe", NETPIPE_OUT)
    assert [r["bytes"] for r in rows] == [1, 1000, 65536]
    assert [r["mbit_per_s"] for r in rows] == [2.724784, 762.939453, 988.142292]
    assert [r["seconds"] for r in rows] == [2.8e-6, 1e-5, 5.06e-4]
    assert [r["us"] for r in rows] == pytest.approx([2.8, 10.0, 506.0])
    assert [r["MB_per_s"] for r in rows] == pytest.approx([0.357143, 100.0, 129.5178],
                                                          rel=1e-5)
    assert all(l.startswith("#") for l in legend) and "modeled SCC time" in " ".join(legend)
    assert outputs.parse("netpipe", "Sending output to /dev/stdout\n") == ([], legend)
    with pytest.raises(ValueError, match="a time of 0.0 s"):
        outputs.netpipe_rows("       8 0.000000   0.00000000\n")


def netpipe_spec(program="netpipe/NPmpi.elf"):
    return {"experiment": {"name": "np", "program": program, "output": "netpipe",
                           "cores": "0,1", "timeout": 60},
            "args": {"-o": "/dev/stdout", "-u": 8, "-n": 2}}


@pytest.mark.no_qemu
def test_a_program_in_the_build_with_getopt_words():
    """program names a file in build/ (the same from any directory the
    experiment file is written to); an argument whose name begins with
    "-" is that word; the output format is the point's."""
    for base in (REPO, REPO / "build" / "report" / "experiments"):
        (p,) = xp.expand(netpipe_spec(), base=base).points
        assert p.app == str(BUILD / "netpipe" / "NPmpi.elf")
        assert p.args == ("-o", "/dev/stdout", "-u", "8", "-n", "2")
        assert p.output == "netpipe" and p.clock == "modeled" and not p.rcce
    assert xp.expand(spec()).points[0].output == "csv"


@pytest.mark.no_qemu
def test_a_missing_program_is_refused_saying_how_to_build_it(tmp_path, cache, capsys):
    f = tmp_path / "np.toml"
    f.write_text(xp.to_toml(netpipe_spec("netpipe/NPnone.elf")))
    out = tmp_path / "out"
    assert bench.main(["run", str(f), "--workers", "1", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"program {BUILD}/netpipe/NPnone.elf is not built: `make netpipe` builds it" in err, err
    assert not out.exists()
