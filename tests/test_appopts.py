"""The apps' options: each benchmark's parser compares its words with
those of one table (apps/opts.h), which its ELF also carries (section
.scc_options) for the tools (tools/scc/bench/appopts.py); scc-bench and
scc-report check every experiment against it before any point runs.

Here: every app an experiment runs (experiments/*.toml, the report's
experiments) lists its options; the section is in no loadable segment;
every shipped experiment passes the check; and, running each app on the
chip (functional mode, 1-2 cores), every option its table lists is
accepted (one run with all of them, each with a value the app takes) and
an unlisted one is refused, naming it (calibrate, which takes none and
reads no word, by the tools).
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
        "rtype": "double", "rop": "sum", "copy": "libscc", "buffers": "fresh", "mpbt": "none",
        "regions": True, "list": True}     # --list last: it lists and ends the run
RUNS = {
    "bcast_bench": {"cores": "0-1", "options": COLL},
    "allreduce_bench": {"cores": "0-1", "options": COLL},
    "coll_bench": {"cores": "0-1", "options": COLL},
    "calibrate": {"cores": "0-1", "options": {}},
    "pingpong": {"cores": "0-1", "options": {"sizes": "32", "budget": "64", "apis": "rcce",
                                             "copy": "libscc", "mpbt": "off",
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


@pytest.mark.no_qemu
def test_the_table_reads_back_and_leaves_the_program_as_it_was(tmp_path):
    """A program of the host's compiler (a 64-bit ELF; the chip's are 32):
    the section reads back as the table says, the parser's words are the
    table's, and the arrays are not in the program (GCC folded them into
    the comparisons, as it does in every app: apps/opts.h)."""
    src = tmp_path / "t.c"
    src.write_text('#include <stdio.h>\n#include "opts.h"\n'
                   '#define T_OPTIONS(X) X(T_SIZE, "agg-size", value) X(T_LIST, "list", flag)\n'
                   'OPTS_TABLE(t, keyeq, none, regions, T_OPTIONS);\n'
                   'int main(int argc, char **argv) {\n'
                   '  for (int i = 1; i < argc; i++) {\n'
                   '    if (OPTS_HAS(t, T_SIZE, argv[i])) printf("size %s\\n", '
                   'OPTS_AFTER(t, T_SIZE, argv[i]));\n'
                   '    else if (OPTS_IS(t, T_LIST, argv[i])) printf("list\\n");\n'
                   '    else return 2;\n  }\n  return 0;\n}\n')
    exe = tmp_path / "t"
    subprocess.run(["gcc", "-O2", "-Wall", "-Wextra", "-Werror", "-I", str(REPO / "apps"),
                    "-o", str(exe), str(src)], check=True)
    assert appopts.read(exe) == appopts.AppOptions(
        "key=value", "none", {"agg-size": "value", "list": "flag", "regions": "flag"})
    p = subprocess.run([str(exe), "agg-size=4K", "list"], capture_output=True, text=True)
    assert (p.returncode, p.stdout) == (0, "size 4K\nlist\n")
    assert subprocess.run([str(exe), "agg-size"]).returncode == 2
    syms = subprocess.run(["nm", str(exe)], capture_output=True, text=True).stdout
    assert "t_opt_word" not in syms and "t_opt_name" not in syms, syms
    # the chip's apps: 32-bit, the arrays folded away there too
    assert appopts.read(APPS / "bcast_bench.elf").style == "--key value"
    syms = subprocess.run(["nm", str(APPS / "bcast_bench.elf")], capture_output=True,
                          text=True).stdout
    assert "cb_opt_word" not in syms
    assert appopts.read(APPS / "hello.elf") is None      # lists nothing: not checked


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
        words = " ".join(f"{k}={v}" for k, v in options.items())
        e = {"name": "opts-copy_core", "app": "copy_bench", "mode": "functional",
             "cores": "0", "rcce": False, "arg_style": "key=value", "timeout": 120,
             "other": [{"cores": "1", "app": "copy_core", "args": words}]}
        return xp.expand({"experiment": e, "args": RUNS["copy_bench"]["options"]}).points[0]
    run = RUNS[name]
    opts = appopts.read(APPS / f"{name}.elf")
    e = {"name": f"opts-{name}", "app": name, "mode": "functional", "cores": run["cores"],
         "rcce": opts.init == "rcce", "arg_style": opts.style, "timeout": 120}
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
    style = appopts.read(APPS / f"{name}.elf").style
    if name == "calibrate":
        # it reads no word after the RCCE words, so refuses none (its
        # code is as it was: apps/opts.h); the tools refuse any
        with pytest.raises(xp.ExperimentError, match="calibrate does not take the option "
                                                     "'nosuch'; it takes: coll"):
            appopts.check([xp.expand({"experiment": {"name": "c", "app": "calibrate",
                                                     "rcce": True},
                                      "args": {"nosuch": 1}})])
        return
    r = sweep.run_point(_point(name, {"nosuch": 1}))
    assert r["status"] == "failed", (name, r["why"])
    said = r["why"] + r["tail"]
    assert "unknown" in said or "bad argument" in said, (name, said)
    if name != "copy_bench":    # its usage says "unknown argument", not which (as before)
        assert ("--nosuch" if style == "--key value" else "nosuch=1") in said, (name, said)
