"""The apps' options: each benchmark's parser reads its words by one
table (apps/lib/bench.h, BENCH_OPTIONS), which its ELF also carries
(section .scc_options) for the tools (tools/scc/bench/appopts.py);
scc-bench and scc-report check every experiment against it before any
point runs.

Here: every app an experiment runs (experiments/*.toml, the report's
experiments) lists its options; the section is in no loadable segment;
every shipped experiment passes the check; and, running each app on the
chip (functional mode, 1-2 cores), every option its table lists is
accepted (one run with all of them, each with a value the app takes) and
an unlisted one is refused, naming it.
"""
from __future__ import annotations

import subprocess

import pytest

from conftest import BUILD, REPO
from scc.bench import appopts, sweep
from scc.bench import experiment as xp
from scc.report import make
from scc.report import rows as data

APPS = BUILD / "apps"

# Every option of every app's table, with a value it takes (True: a bare
# flag), and how to run it: its cores and other apps. The keys must be
# exactly the table's: an option added to an app needs a value here.
COLL = {"op": "bcast", "alg": "binomial", "sizes": "32", "root": 0, "iters": 1, "warmup": 0,
        "rtype": "double", "rop": "sum", "copy": "libscc", "proto": "rcce1", "buffers": "fresh",
        "mpbt": "none",
        "regions": True, "list": True}     # --list last: it lists and ends the run
RUNS = {
    "bcast_bench": {"cores": "0-1", "options": COLL},
    "allreduce_bench": {"cores": "0-1", "options": COLL},
    "coll_bench": {"cores": "0-1", "options": COLL},
    "calibrate": {"cores": "0-1", "options": {}},
    "pingpong": {"cores": "0-1", "options": {"sizes": "32", "budget": "64", "apis": "rcce",
                                             "copy": "libscc", "mpbt": "off",
                                             "proto": "rcce1", "buffers": "separate",
                                             "regions": True}},
    "ipi_latency": {"cores": "0-1", "options": {"n": 10, "drop": 10, "peers": "1",
                                                "regions": True}},
    "notify_pingpong": {"cores": "0-1", "options": {"scheme": "flag", "n": 2, "warmup": 0,
                                                    "peers": "1", "regions": True,
                                                    "list": True}},
    "mem_bench": {"cores": "0-1", "options": {"sizes": "none", "ops": "read", "mem": "plain",
                                              "reps": 1, "agg-reps": 1, "warmup": 0,
                                              "aggregate": "1", "place": "own",
                                              "agg-size": "4K", "regions": True}},
    "mpb_contention": {"cores": "0-1", "options": {"ops": "get", "counts": "1", "lines": 1,
                                                   "target": 0, "dst": "mpb", "sync": 0,
                                                   "iters": 1, "put-batch": 1, "warmup": 0,
                                                   "regions": True}},
    "copy_bench": {"cores": "0", "options": {"cores": "{other.cores}", "sizes": "4K",
                                             "iters": 1, "local": "plain", "remote": "auto",
                                             "regions": True},
                   "other": [{"cores": "1", "app": "copy_core", "args": ""}]},
    # the copy-core service runs beside copy_bench, its options the other
    # app's words
    "copy_core": {"cores": "1", "options": {"fault": 0, "hang": 0}},
}


def _experiment_apps() -> set[str]:
    """The apps the shipped experiment files and the report's experiments run."""
    names = set()
    specs = [xp.load(f).spec for f in sorted((REPO / "experiments").glob("*.toml"))]
    for quick in (False, True):
        specs += make.specs(data.headlines(), data.all_targets(), quick).values()
    for s in specs:
        names.add(s["experiment"]["app"])
        names.update(o["app"] for o in s["experiment"].get("other", []))
    return names


@pytest.mark.no_qemu
def test_every_app_experiments_run_lists_its_options():
    used = _experiment_apps()
    assert used <= set(RUNS), f"apps experiments run that this test does not: {used - set(RUNS)}"
    for name in sorted(RUNS):
        elf = APPS / f"{name}.elf"
        assert elf.is_file(), f"{elf} missing: run `make`"
        opts = appopts.read(elf)
        assert opts is not None, f"{name}: no {appopts.SECTION} section"
        assert set(opts.options) == set(RUNS[name]["options"]), name
        # in no loadable segment: the guest never sees it
        seg = subprocess.run(["readelf", "-lW", str(elf)], capture_output=True, text=True,
                             check=True).stdout
        assert appopts.SECTION not in seg.split("Section to Segment mapping:")[1], name


PARSER_PROG = r"""
#include <stdio.h>
#include "bench.h"
#define T_OPTIONS(X) X(T_SIZE, "agg-size", value) X(T_LIST, "list", flag)
BENCH_OPTIONS(t, none, regions, T_OPTIONS);
int main(int argc, char **argv)
{
    struct bench_args a;
    const char *v;
    int k;

    bench_args(&a, argc, argv, 1, &t_opts);
    while ((k = bench_next(&a, &v)) != BENCH_END) {
        if (k == BENCH_BAD) {
            printf("bad: %s\n", bench_why());
            return 2;
        }
        printf("%s %s\n", k == BENCH_POSITIONAL ? "word" : t_opt_rows[k].name, v);
    }
    printf("regions %d\n", bench_regions_on());
    return 0;
}
"""


@pytest.mark.no_qemu
def test_the_table_reads_back_and_the_parser_takes_every_form(tmp_path):
    """A program of the host's compiler on apps/lib (a 64-bit ELF; the
    chip's are 32): the section reads back as the table says, and the
    parser takes every form apps/lib/bench.h lists, the same way, and
    refuses what it must."""
    src = tmp_path / "t.c"
    src.write_text(PARSER_PROG)
    exe = tmp_path / "t"
    lib = REPO / "apps" / "lib"
    subprocess.run(["gcc", "-O2", "-Wall", "-Wextra", "-Werror", "-DSCC_HOST", "-I", str(lib),
                    "-o", str(exe), str(src), str(lib / "opts.c"), str(lib / "regions.c")],
                   check=True)
    assert appopts.read(exe) == appopts.AppOptions(
        "none", {"agg-size": "value", "list": "flag", "regions": "flag"})

    def run(*words):
        p = subprocess.run([str(exe), *words], capture_output=True, text=True, timeout=30)
        return p.returncode, p.stdout.splitlines()
    want = (0, ["agg-size 4K", "list 1", "regions 1"])
    for words in (["--agg-size", "4K", "--list", "--regions"],
                  ["--agg-size=4K", "list", "regions"],
                  ["agg-size=4K", "list=1", "regions=1"],
                  ["agg-size=4K", "--list=1", "--regions=1"]):
        assert run(*words) == want, words
    assert run("--list=0", "regions=0") == (0, ["list 0", "regions 0"])
    assert run("--regions", "--regions=0") == (0, ["regions 0"])
    assert run("4K", "x", "--agg-size", "--list") == (0, ["word 4K", "word x",
                                                          "agg-size --list", "regions 0"])
    for words, says in [(["--nosuch", "1"], "bad: unknown option '--nosuch'"),
                        (["nosuch=1"], "bad: 'nosuch=1': unknown option 'nosuch'"),
                        (["--agg-size"], "bad: --agg-size needs a value"),
                        (["--list=2"], "bad: '--list=2': list is a flag"),
                        (["regions=yes"], "bad: 'regions=yes': regions is on (1) or off (0)")]:
        rc, out = run(*words)
        assert rc == 2 and out and out[-1].startswith(says), (words, out)
    # the chip's apps carry the section too; a program without it is not checked
    assert appopts.read(APPS / "bcast_bench.elf").init == "rcce"
    assert appopts.read(APPS / "hello.elf") is None


@pytest.mark.no_qemu
def test_every_shipped_experiment_passes_the_check():
    exps = [xp.load(f) for f in sorted((REPO / "experiments").glob("*.toml"))]
    for quick in (False, True):
        exps += [xp.expand(s) for s in
                 make.specs(data.headlines(), data.all_targets(), quick).values()]
    appopts.check(exps)


def _point(name: str, options: dict) -> xp.Point:
    """A functional-mode chip point that runs @name with @options (the
    copy-core service beside copy_bench, as its other app)."""
    if name == "copy_core":
        words = " ".join(f"--{k} {v}" for k, v in options.items())
        e = {"name": "opts-copy_core", "app": "copy_bench", "mode": "functional",
             "cores": "0", "rcce": False, "timeout": 120,
             "other": [{"cores": "1", "app": "copy_core", "args": words}]}
        return xp.expand({"experiment": e, "args": RUNS["copy_bench"]["options"]}).points[0]
    run = RUNS[name]
    opts = appopts.read(APPS / f"{name}.elf")
    e = {"name": f"opts-{name}", "app": name, "mode": "functional", "cores": run["cores"],
         "rcce": opts.init == "rcce", "timeout": 120}
    if "other" in run:
        e["other"] = run["other"]
    return xp.expand({"experiment": e, "args": options}).points[0]


@pytest.mark.parametrize("name", sorted(RUNS))
def test_every_listed_option_is_accepted_and_an_unlisted_one_refused(name):
    good = RUNS[name]["options"]
    if good:        # (calibrate lists none)
        r = sweep.run_point(_point(name, good))
        # exit status 0 (--list lists instead of measuring: no rows)
        assert r["status"] == "ok" or r["why"] == "it printed no CSV rows", \
            (name, r["why"], r["tail"])
    if name == "calibrate":
        # the tools refuse it before it runs, too
        with pytest.raises(xp.ExperimentError, match="calibrate does not take the option "
                                                     "'nosuch'; it takes: coll"):
            appopts.check([xp.expand({"experiment": {"name": "c", "app": "calibrate",
                                                     "rcce": True},
                                      "args": {"nosuch": 1}})])
    r = sweep.run_point(_point(name, {"nosuch": 1}))
    assert r["status"] == "failed", (name, r["why"])
    said = r["why"] + r["tail"]
    assert "unknown" in said or "bad argument" in said, (name, said)
    assert "--nosuch" in said, (name, said)
