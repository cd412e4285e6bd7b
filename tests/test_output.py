"""What programs write reaches the user whole and apart, and the
benchmarks' CSV says what made it.

The console (qemu/overlay/docs/system/i386/scc.rst, "The console"):
every core's stdout and stderr stay apart ("[NN] text", "[NN!] text"),
no line is cut (a long one comes in "+"-marked pieces that the runner
joins), and every byte comes back. RunResult.core_stdout/core_stderr and
scc-run's --stdout-of and --output-dir give a core's streams as written.

The benchmarks (apps/lib/bench.h): their CSV starts with `#` lines (the
command line, the build's commit, the machine's mode and clocks), then
one header row that keeps every column the apps had, then rows.

Expectations are made here from the arguments (the text tests/apps/
streams.c writes for them, the command line the app was given), not
from what a run printed.
"""
from __future__ import annotations

import csv
import io
import os
import re
import shlex
import shutil
import subprocess
import sys

import pytest

from conftest import BUILD, REPO
from scc.machine.sccrun import RunResult, run, run_app

SCC_RUN = REPO / "tools" / "scc-run"
STREAMS = BUILD / "tests" / "apps" / "streams.elf"
TIMEOUT = 120


def explain(r) -> str:
    return (f"exit {r.returncode}, timed out {getattr(r, 'timed_out', False)}\n"
            f"--- stdout (end)\n{r.stdout[-3000:]}\n--- stderr (end)\n{r.stderr[-3000:]}")


def built(path):
    assert path.is_file(), f"{path} missing: run `make`"
    return path


# What tests/apps/streams.c writes, made here from the same arguments.

def long_line(n: int) -> str:
    return "".join(str(i % 10) for i in range(n))


MIX_OUT = "out 1\nout 2 begins, out 2 ends\nout 3\n"
MIX_ERR = "err 1\nerr 2 begins, err 2 ends\n"
BYTES = b"a\\b \\x41 \x00 \x1b \r \x7f \xc3\xa9 end\n"


# --- the runner's reading of the console (no QEMU) -------------------------------

@pytest.mark.no_qemu
def test_runner_joins_pieces_keeps_streams_apart_and_undoes_escapes():
    console = ("[00+] abc\n"
               "[01] another core\n"
               "[00!] an error\n"
               "[00+] def\n"
               "[00] ghi\n"
               "[00] a\\\\b \\x00\\xc3\\xa9\n"
               "[00!+] err\n"
               "[00!] or\n"
               "qemu-system-i386: not a core's line\n")
    r = RunResult(0, console, "", False)
    assert r.core_stdout(0) == "abcdefghi\na\\b \x00\u00e9\n"
    assert r.core_stream(0, "stdout") == b"abcdefghi\na\\b \x00\xc3\xa9\n"
    assert r.core_stderr(0) == "an error\nerror\n"
    assert r.core_stdout(1) == "another core\n" and r.core_stderr(1) == ""
    assert r.core_stdout(2) == ""
    assert r.core_lines("stdout") == {0: ["abcdefghi", "a\\\\b \\x00\\xc3\\xa9"],
                                      1: ["another core"]}
    # by default, both streams, as the console interleaves them
    assert r.core_lines()[0] == ["an error", "abcdefghi", "a\\\\b \\x00\\xc3\\xa9", "error"]
    assert r.cores_written() == [0, 1]


# --- the machine and the runner together -----------------------------------------

def test_a_long_line_arrives_whole():
    """A 5000-byte line: the machine holds 256 characters of a line, so it
    comes in pieces, and the runner gives it back whole."""
    r = run_app(built(STREAMS), cores="0", args=["long=5000"], timeout=TIMEOUT)
    assert r.returncode == 0, explain(r)
    want = long_line(5000)
    assert r.core_stdout(0) == want + "\n", explain(r)
    assert r.core_lines()[0] == [want], explain(r)
    # it did come in pieces, none longer than the machine's line
    raw = [l for l in r.stdout.splitlines() if l.startswith("[00")]
    assert len(raw) > 1 and all(len(l) <= len("[00+] ") + 256 for l in raw), raw[:3]


def test_stdout_and_stderr_of_a_core_are_kept_apart():
    """Each stream's line is started, then the other writes a whole line,
    then the first is finished: neither is glued to the other."""
    r = run_app(built(STREAMS), cores="0-1", args=["mix"], timeout=TIMEOUT)
    assert r.returncode == 0, explain(r)
    for core in (0, 1):
        assert r.core_stdout(core) == MIX_OUT, explain(r)
        assert r.core_stderr(core) == MIX_ERR, explain(r)


def test_every_byte_comes_back():
    """A backslash, text that looks like an escape, control bytes and
    UTF-8: the console escapes them, the runner undoes it."""
    r = run_app(built(STREAMS), cores="0", args=["bytes"], timeout=TIMEOUT)
    assert r.returncode == 0, explain(r)
    assert r.core_stream(0, "stdout") == BYTES, explain(r)
    assert r.core_stdout(0) == BYTES.decode(), explain(r)


def test_fail_fast_delivers_what_the_failing_core_wrote():
    """The first core to fail ends the run: its stderr, even a line it did
    not finish, reaches the user, kept apart from its stdout."""
    r = run_app(built(STREAMS), cores="0-2", args=["partial"], timeout=TIMEOUT)
    assert r.returncode == 3, explain(r)
    m = re.search(r"scc: core (\d+) failed", r.stderr)
    assert m, explain(r)
    core = int(m.group(1))
    assert r.core_stdout(core) == "done\n", explain(r)
    # an unfinished line is printed as a line when the run ends
    assert r.core_stderr(core) == "unfinished\n", explain(r)


def scc_run(*argv, timeout=TIMEOUT):
    return subprocess.run([sys.executable, str(SCC_RUN), *map(str, argv)], capture_output=True,
                          timeout=timeout)


def test_stdout_of_gives_exactly_the_apps_stdout():
    """--stdout-of 1: core 1's stdout as written, bytes and all, and
    nothing else on stdout; the rest of the console goes to stderr."""
    p = scc_run("--stdout-of", 1, "--app", built(STREAMS), "--cores", "0-1", "--",
                "long=700", "mix", "bytes")
    assert p.returncode == 0, p.stderr.decode(errors="replace")[-3000:]
    want = (long_line(700) + "\n" + MIX_OUT).encode() + BYTES
    assert p.stdout == want, p.stdout[-500:]
    err = p.stderr.decode(errors="replace")
    assert "[00] out 1" in err and "[01!] err 1" in err, err[-3000:]
    assert "[01] " not in err, err[-3000:]


def test_stdout_of_refuses_a_core_that_does_not_run_the_app():
    p = scc_run("--stdout-of", 5, "--app", built(STREAMS), "--cores", "0-1")
    assert p.returncode == 2 and b"--stdout-of 5" in p.stderr and not p.stdout, p


def test_output_dir_holds_every_cores_streams(tmp_path):
    out = tmp_path / "out"
    p = scc_run("--output-dir", out, "--app", built(STREAMS), "--cores", "0-1", "--",
                "long=300", "mix")
    assert p.returncode == 0, p.stderr.decode(errors="replace")[-3000:]
    assert sorted(os.listdir(out)) == ["core-00.stderr", "core-00.stdout",
                                       "core-01.stderr", "core-01.stdout"]
    for core in (0, 1):
        assert (out / f"core-{core:02d}.stdout").read_text() == long_line(300) + "\n" + MIX_OUT
        assert (out / f"core-{core:02d}.stderr").read_text() == MIX_ERR
    # and the console was streamed as usual
    assert b"[00!] err 1" in p.stdout


def test_output_options_are_in_the_help():
    p = scc_run("--help")
    assert p.returncode == 0
    assert b"--stdout-of N" in p.stdout and b"--output-dir DIR" in p.stdout, p.stdout


# --- the benchmarks' CSV ---------------------------------------------------------

HOST = BUILD / "libscc" / "rcce" / "host"
COLL_COLUMNS = ["collective", "algorithm", "params", "clock", "cores", "root", "bytes", "iters",
                "min_us", "median_us", "max_us", "mb_per_s", "verified"]
# Every benchmark's columns before the CSV got its `#` lines: kept, in place.
OLD_COLUMNS = {
    "bcast_bench": COLL_COLUMNS, "allreduce_bench": COLL_COLUMNS, "coll_bench": COLL_COLUMNS,
    "pingpong": ["api", "peer", "bytes", "iterations", "usec_per_roundtrip", "MB_per_s"],
    "ipi_latency": ["bench", "scheme", "peer", "hops", "kind", "unit", "n", "median", "mean",
                    "min", "max", "clock"],
    "notify_pingpong": ["notify", "scheme", "params", "peer", "hops", "n", "median", "mean",
                        "min", "max", "free_cycles", "free_pct", "clock"],
    "many_to_one": ["many_to_one", "scheme", "params", "receiver", "senders", "records",
                    "cycles", "records_per_s", "mb_per_s", "busy_pct", "jain", "verified",
                    "clock"],
    "copy_bench": ["kind", "method", "copy_cores", "clock", "bytes", "iters", "min_us",
                   "median_us", "mb_per_s", "verified"],
}
# calibrate had two tables; its one table has the columns of both.
CALIBRATE_COLUMNS = {"param", "modeled_us", "published_us", "op", "hops", "lines"}


def ues(cores):
    return [str(len(cores)), "0.533", *map(str, cores)]


def parse_csv(text: str):
    """({key: value} of the `#` lines, the header, the rows) of a CSV
    output; every `#` line comes before the header, every row has the
    header's width."""
    lines = [l for l in text.splitlines() if l]
    n = 0
    while n < len(lines) and lines[n].startswith("#"):
        n += 1
    assert n < len(lines), f"no header row:\n{text[:3000]}"
    assert not any(l.startswith("#") for l in lines[n:]), f"a # line after the header:\n{text}"
    comments = {}
    for line in lines[:n]:
        key, sep, value = line[2:].partition(": ")
        assert line.startswith("# ") and sep, f"not '# key: value': {line!r}"
        comments.setdefault(key, value)
    table = list(csv.reader(io.StringIO("\n".join(lines[n:]))))
    header, body = table[0], table[1:]
    assert body, f"no rows:\n{text[:3000]}"
    for row in body:
        assert len(row) == len(header), (header, row)
    return comments, header, [dict(zip(header, row)) for row in body]


def build_commit() -> str:
    """The commit the build says it was made from (apps/commit.sh's header)."""
    m = re.search(r'SCC_BUILD_COMMIT "([^"]*)"', (BUILD / "gen" / "scc_build.h").read_text())
    assert m, "build/gen/scc_build.h has no SCC_BUILD_COMMIT"
    return m.group(1)


def check_preamble(text, name, command, mode, clock, chip=True):
    """The `#` lines, the header and the rows of benchmark `name`."""
    comments, header, rows = parse_csv(text)
    first = text.splitlines()[0]
    assert first.startswith(f"# {name}: "), first
    assert comments["command"] == shlex.join(command), comments["command"]
    commit = comments["commit"]
    assert commit == build_commit(), commit
    if commit != "unknown":
        m = re.fullmatch(r"([0-9a-f]{12})(-dirty)?", commit)
        assert m, commit
        # a commit of this repository
        subprocess.run(["git", "-C", str(REPO), "cat-file", "-e", f"{m.group(1)}^{{commit}}"],
                       check=True, timeout=30)
    assert comments["mode"] == mode and comments["clock"] == clock, comments
    if chip:
        # the machine's defaults (scc.rst: core-hz, gtsc-hz, the 6x4 mesh)
        assert comments["core_hz"] == "533000000" and comments["gtsc_hz"] == "125000000"
        assert comments["mesh"] == "6x4 tiles, 2 cores a tile", comments
        assert ("stale_mpbt" in comments) == (mode == "timing"), comments
    else:
        assert "core_hz" not in comments and "gtsc_hz" not in comments, comments
    if name == "calibrate":
        assert CALIBRATE_COLUMNS <= set(header), header
    else:
        old = OLD_COLUMNS[name]
        assert header[:len(old)] == old, header
    if "clock" in header:
        assert {r["clock"] for r in rows} == {clock}, rows
    return header, rows


# name -> (cores, the app's arguments): brief runs
CHIP_RUNS = {
    "bcast_bench": ("0-1", ues([0, 1]) + ["--sizes", "32:64", "--iters", "2", "--warmup", "1",
                                         "--alg", "binomial"]),
    "allreduce_bench": ("0-1", ues([0, 1]) + ["--sizes", "64", "--iters", "1", "--warmup", "0"]),
    "coll_bench": ("0-1", ues([0, 1]) + ["--op", "alltoall", "--sizes", "32", "--iters", "1",
                                        "--warmup", "0"]),
    "pingpong": ("0-1", ues([0, 1]) + ["64", "4K", "rcce"]),
    "calibrate": ("0-47", ues(range(48))),
    "ipi_latency": ("0-1", ["n=20", "drop=10", "peers=1"]),
    "notify_pingpong": ("0-1", ues([0, 1]) + ["--n", "5", "--warmup", "1", "--scheme", "flag"]),
    "many_to_one": ("0-2", ues([0, 1, 2]) + ["--records", "3", "--scheme", "flag"]),
}


@pytest.mark.parametrize("name", sorted(CHIP_RUNS))
def test_benchmark_csv_on_the_chip(name):
    cores, args = CHIP_RUNS[name]
    app = built(BUILD / "apps" / f"{name}.elf")
    r = run_app(app, cores=cores, args=args, timeout=TIMEOUT)
    assert r.returncode == 0 and not r.timed_out, explain(r)
    header, rows = check_preamble(r.core_stdout(0), name, [f"{name}.elf", *args],
                                  "functional", "emulated")
    if name == "bcast_bench":
        # 32:64 is the powers of two from 32 to 64; the columns added
        assert [int(x["bytes"]) for x in rows] == [32, 64], rows
        for x in rows:
            assert x["verified"] == "yes" and x["warmup"] == "1" and x["iters"] == "2", x
            t = [float(x[k]) for k in ("t_min_us", "t_avg_us", "t_max_us")]
            assert 0 < t[0] <= t[1] <= t[2], x
    if name == "pingpong":
        assert [int(x["bytes"]) for x in rows] == [32, 64], rows
        for x in rows:
            assert x["verified"] == "yes" and x["warmup"] == "1", x
            assert float(x["latency_us"]) == pytest.approx(
                float(x["usec_per_roundtrip"]) / 2, abs=0.01), x


def test_copy_bench_csv(tmp_path):
    app = built(BUILD / "apps" / "copy_bench.elf")
    args = ["cores=1", "sizes=4K:8K", "iters=1", "local=plain", "remote=auto"]
    cmap = tmp_path / "copy.map"
    cmap.write_text(f"0 {built(BUILD / 'kernel' / 'kernel.elf')} module={app} -- "
                    f"{' '.join(args)}\n"
                    f"1 {built(BUILD / 'kernel' / 'kernel.elf')} "
                    f"module={built(BUILD / 'apps' / 'copy_core.elf')}\n")
    r = run(coremap=cmap, timeout=TIMEOUT)
    assert r.returncode == 0 and not r.timed_out, explain(r)
    header, rows = check_preamble(r.core_stdout(0), "copy_bench", [str(app), *args],
                                  "functional", "emulated")
    # 4K:8K doubles: 4K and 8K, each locally and on one copy core
    assert [(x["kind"], x["bytes"]) for x in rows] == [
        ("local", "4096"), ("cores", "4096"), ("local", "8192"), ("cores", "8192")], rows


def test_benchmark_csv_in_the_timing_mode():
    """mode and clock say timing and modeled, and so do the rows."""
    args = ["n=20", "drop=10", "peers=1"]
    r = run_app(built(BUILD / "apps" / "ipi_latency.elf"), cores="0-1", args=args,
                machine={"timing": "on"}, timeout=TIMEOUT)
    assert r.returncode == 0 and not r.timed_out, explain(r)
    check_preamble(r.core_stdout(0), "ipi_latency", ["ipi_latency.elf", *args], "timing",
                   "modeled")


HOST_RUNS = {
    "bcast_bench": ues([0, 1, 2]) + ["--sizes", "1:1K,3000", "--iters", "2", "--warmup", "1",
                                     "--alg", "binomial"],
    "allreduce_bench": ues([0, 1]) + ["--sizes", "64", "--iters", "1", "--warmup", "0"],
    "coll_bench": ues([0, 1]) + ["--op", "alltoall", "--sizes", "32", "--iters", "1",
                                 "--warmup", "0"],
    "pingpong": ues([0, 1]) + ["64", "4K", "rcce"],
    "calibrate": ues(range(48)),
}


@pytest.mark.no_qemu
@pytest.mark.parametrize("name", sorted(HOST_RUNS))
def test_benchmark_csv_on_the_host(name):
    """The host backend writes the same format; its clock is the host's."""
    exe = built(HOST / name)
    args = HOST_RUNS[name]
    p = subprocess.run([str(exe), *args], capture_output=True, text=True, timeout=TIMEOUT,
                       stdin=subprocess.DEVNULL)
    assert p.returncode == 0, p.stderr[-3000:]
    header, rows = check_preamble(p.stdout, name, [str(exe), *args], "host", "host",
                                  chip=False)
    if name == "bcast_bench":
        assert [int(x["bytes"]) for x in rows] == [1 << i for i in range(11)] + [3000], rows
        # the human summary is on stderr
        assert " B  median " in p.stderr and " B  median " not in p.stdout, p.stdout


# --- the build's commit -----------------------------------------------------------

def commit_sh(tree, out):
    subprocess.run(["sh", str(tree / "apps" / "commit.sh"), str(out)], check=True, timeout=60)
    return re.search(r'SCC_BUILD_COMMIT "([^"]*)"', out.read_text()).group(1)


def git(tree, *args):
    return subprocess.run(["git", "-C", str(tree), *args], check=True, timeout=60,
                          capture_output=True, text=True).stdout.strip()


@pytest.mark.no_qemu
def test_commit_header_names_the_commit_and_a_dirty_tree(tmp_path):
    tree = tmp_path / "src"
    (tree / "apps").mkdir(parents=True)
    shutil.copy(REPO / "apps" / "commit.sh", tree / "apps" / "commit.sh")
    (tree / "file.c").write_text("int x;\n")
    git(tree, "init", "-q")
    git(tree, "add", ".")
    git(tree, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "one")
    out = tmp_path / "gen" / "scc_build.h"
    head = git(tree, "rev-parse", "HEAD")
    assert commit_sh(tree, out) == head[:12]
    mtime = out.stat().st_mtime_ns
    assert commit_sh(tree, out) == head[:12] and out.stat().st_mtime_ns == mtime, \
        "rewritten though nothing changed: every app would be rebuilt"
    (tree / "untracked.c").write_text("")           # not part of the build's commit
    assert commit_sh(tree, out) == head[:12]
    (tree / "file.c").write_text("int y;\n")
    assert commit_sh(tree, out) == head[:12] + "-dirty"


@pytest.mark.no_qemu
def test_commit_header_without_git_says_unknown(tmp_path):
    """From a tarball: no .git, or a tarball unpacked inside another
    repository's work tree, whose commit is not this tree's."""
    outer = tmp_path / "outer"
    tree = outer / "unpacked"
    (tree / "apps").mkdir(parents=True)
    shutil.copy(REPO / "apps" / "commit.sh", tree / "apps" / "commit.sh")
    out = tmp_path / "scc_build.h"
    assert commit_sh(tree, out) == "unknown"
    git(outer, "init", "-q")
    git(outer, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty",
        "-m", "outer")
    assert commit_sh(tree, out) == "unknown"
