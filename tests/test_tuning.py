"""The measured defaults: `scc-bench tune` (tools/scc/bench/tuning.py) choosing
from a sweep's results, its compilation into select.c's C, and `auto`
following the checked-in libscc/src/coll/tuning.json on the host backend.
"""
from __future__ import annotations

import csv
import json
import os
import re
import subprocess
import sys

import pytest

from conftest import REPO
from scc.bench import tuning
from test_coll import host, rows_of, run_host
from test_libscc import ue_args

TUNING_JSON = REPO / "libscc" / "src" / "coll" / "tuning.json"
TUNING_PY = REPO / "tools" / "scc" / "bench" / "tuning.py"      # the build runs it as a script
COLUMNS = ["collective", "algorithm", "params", "cores", "bytes", "median_us", "verified",
           "status", "clock", "commit", "dirty", "point", "start_time"]


def results_dir(tmp_path, rows, manifest=None):
    """A results directory as `scc-bench run` leaves it, with these rows."""
    d = tmp_path / "results"
    d.mkdir()
    with open(d / "results.csv", "w", newline="") as f:
        w = csv.DictWriter(f, COLUMNS)
        w.writeheader()
        for i, r in enumerate(rows):
            w.writerow({"status": "ok", "verified": "yes", "clock": "modeled",
                        "commit": "c0ffee" * 6 + "abcd", "dirty": False, "point": i,
                        "start_time": "2026-11-29T08:00:00", "params": "", **r})
    (d / "manifest.json").write_text(json.dumps(manifest or {
        "experiment": "tuning", "file": str(REPO / "experiments" / "tuning.toml"),
        "environment": {"qemu_version": "q"}}))
    return d


def row(op, alg, n, b, us, params=""):
    return {"collective": op, "algorithm": alg, "params": params, "cores": n, "bytes": b,
            "median_us": us}


@pytest.mark.no_qemu
def test_tune_picks_the_least_median_and_merges_sizes(tmp_path):
    rows = [
        # 2 members: a wins up to 64 B, b above
        row("bcast", "a", 2, 8, 1.0), row("bcast", "b", 2, 8, 2.0, "k=3"),
        row("bcast", "a", 2, 64, 1.5), row("bcast", "b", 2, 64, 2.5, "k=3"),
        row("bcast", "a", 2, 1024, 9.0), row("bcast", "b", 2, 1024, 4.0, "k=3"),
        # 8 members: b everywhere
        row("bcast", "a", 8, 8, 3.0), row("bcast", "b", 8, 8, 2.0, "k=3"),
        row("bcast", "a", 8, 64, 3.0), row("bcast", "b", 8, 64, 2.9, "k=3"),
        row("bcast", "a", 8, 1024, 30.0), row("bcast", "b", 8, 1024, 8.0, "k=3"),
        # another collective, one algorithm
        row("allreduce", "c", 8, 8, 5.0),
    ]
    data = tuning.tune(results_dir(tmp_path, rows), "scc-bench tune X", REPO)
    strip = {op: [(r["members"], r["bytes"], r["algorithm"], r["params"]) for r in lst]
             for op, lst in data["rules"].items()}
    assert strip == {
        "bcast": [([1, 2], [0, 64], "a", ""), ([1, 2], [65, None], "b", "k=3"),
                  ([3, None], [0, None], "b", "k=3")],
        "allreduce": [([1, None], [0, None], "c", "")],
    }
    first = data["rules"]["bcast"][0]["measured"]
    assert first == [{"members": 2, "bytes": 8, "median_us": 1.0, "runner_up": "b:k=3",
                      "runner_up_us": 2.0},
                     {"members": 2, "bytes": 64, "median_us": 1.5, "runner_up": "b:k=3",
                      "runner_up_us": 2.5}]
    made = data["made_by"]
    assert made["command"] == "scc-bench tune X" and made["clock"] == "modeled"
    assert made["commit"] == "c0ffee" * 6 + "abcd" and made["dirty"] is False
    assert made["sweep"].startswith("scc-bench run experiments/tuning.toml")
    # and what it made compiles to rules select.c reads in the same order
    h = tuning.header(data, "t.json")
    assert '{ 1, 2, 0, 64, "a" },' in h and '{ 3, INT_MAX, 0, SIZE_MAX, "b:k=3" },' in h
    assert "[COLL_BCAST] = { tuned_bcast, 3 }," in h and "#define COLL_TUNED_MAX 3" in h


@pytest.mark.no_qemu
@pytest.mark.parametrize("change,want", [
    ({"status": "failed"}, "point(s) failed"),
    ({"verified": "no"}, "not verified"),
    ({"clock": "emulated"}, "modeled SCC time only"),
    ({"commit": "0" * 40}, "results of 2 builds"),
])
def test_tune_refuses_results_it_cannot_trust(tmp_path, change, want):
    rows = [row("bcast", "a", 2, 8, 1.0), {**row("bcast", "b", 2, 8, 2.0), **change}]
    with pytest.raises(tuning.TuningError, match=re.escape(want)):
        tuning.tune(results_dir(tmp_path, rows), "x", REPO)


@pytest.mark.no_qemu
def test_tune_without_results_says_what_to_run(tmp_path):
    r = subprocess.run([sys.executable, str(REPO / "tools" / "scc-bench"), "tune",
                        str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert r.returncode != 0 and "scc-bench run experiments/tuning.toml" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr


@pytest.mark.no_qemu
@pytest.mark.parametrize("text,want", [
    ("{", "not JSON"),
    ('{"format": 2, "rules": {}}', "not a tuning file"),
    ('{"format": 1, "rules": []}', "'rules' must map"),
    ('{"format": 1, "rules": {"bcast": [{"members": [1], "bytes": [0, null], '
     '"algorithm": "oc"}]}}', "members must be"),
    ('{"format": 1, "rules": {"bcast": [{"members": [1, 2], "bytes": [5, 3], '
     '"algorithm": "oc"}]}}', "bytes must be"),
    ('{"format": 1, "rules": {"bcast": [{"members": [1, 2], "bytes": [0, null], '
     '"algorithm": "oc\\"); x(\\""}]}}', "not name and key=N"),
    ('{"format": 1, "rules": {"bcast": [{"members": [1, 2], "bytes": [0, null], '
     '"algorithm": "oc", "params": "k=seven"}]}}', "not name and key=N"),
])
def test_header_refuses_a_malformed_tuning_file(tmp_path, text, want):
    src, out = tmp_path / "t.json", tmp_path / "t.h"
    src.write_text(text)
    r = subprocess.run([sys.executable, str(TUNING_PY), "header", str(src), str(out)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 1 and "tuning.py: error:" in r.stderr and want in r.stderr, r.stderr
    assert not out.exists()


@pytest.mark.no_qemu
def test_header_is_made_by_any_python3_without_the_venv(tmp_path):
    """The build runs the tuning module as a script with the system's
    python3 (libscc/build.mk): isolated (-I: no venv, no user packages,
    not even the package's own directory on the path), it makes the same
    C as the package's header()."""
    python3 = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else "python3"
    out = tmp_path / "coll_tuning.h"
    r = subprocess.run([python3, "-I", str(TUNING_PY), "header", str(TUNING_JSON), str(out)],
                       capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert out.read_text() == tuning.header(json.loads(TUNING_JSON.read_text()),
                                            str(TUNING_JSON))
    assert f"python3 {TUNING_PY.relative_to(REPO)} header" in \
        (REPO / "libscc" / "build.mk").read_text().replace("$(COLL_TUNING_PY)",
                                                           str(TUNING_PY.relative_to(REPO)))


def checked_in_rules():
    data = json.loads(TUNING_JSON.read_text())
    tuning.check(data, str(TUNING_JSON))
    return data["rules"]


def rule_for(rules, n, b):
    """The rule a call of n members and b bytes takes, found independently of
    select.c: the one whose two ranges hold."""
    hold = [r for r in rules
            if r["members"][0] <= n and (r["members"][1] is None or n <= r["members"][1])
            and r["bytes"][0] <= b and (r["bytes"][1] is None or b <= r["bytes"][1])]
    assert len(hold) == 1, (n, b, hold)
    return hold[0]


@pytest.mark.no_qemu
def test_checked_in_tuning_covers_every_call_once():
    """Every member count and size of a tuned collective falls in exactly one
    rule, so `auto` never depends on the order of the rules."""
    rules = checked_in_rules()
    assert set(rules) >= {"bcast", "reduce", "allreduce", "allgather", "alltoall",
                          "reduce_scatter"}, sorted(rules)
    for op, lst in rules.items():
        for n in range(1, 49):
            for b in (0, 1, 8, 9, 64, 65, 100, 4096, 5000, 1 << 20, (1 << 20) + 1, 1 << 30):
                rule_for(lst, n, b)


# (collective, members): the member counts the sweep measured that the host
# runs quickly; every size the sweep measured there is checked.
AUTO_CASES = [(op, n) for op in ("bcast", "reduce", "allreduce", "allgather", "alltoall",
                                 "reduce_scatter") for n in (2, 8)]


@pytest.mark.no_qemu
@pytest.mark.parametrize("op,n", AUTO_CASES)
def test_auto_follows_the_tuning_file(op, n):
    """coll_bench --alg auto reports the algorithm and parameters that ran;
    they must be the checked-in rule's for every measured size."""
    lst = checked_in_rules()[op]
    sizes = sorted({m["bytes"] for r in lst for m in r["measured"] if m["members"] == n})
    assert sizes, f"the tuning file measured no {op} on {n} members"
    args = ue_args(list(range(n))) + ["--op", op, "--alg", "auto", "--iters", "1",
                                      "--warmup", "0", "--rtype", "double",
                                      "--sizes", ",".join(map(str, sizes))]
    r, why = run_host(host("host", "coll_bench"), args)
    assert r.returncode == 0, why
    got = {int(x["bytes"]): (x["algorithm"], x["params"]) for x in rows_of(r.stdout)}
    assert set(got) == set(sizes), why
    for b in sizes:
        want = rule_for(lst, n, b)
        assert got[b] == (want["algorithm"], want["params"]), (op, n, b, want)
