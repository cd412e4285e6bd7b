"""The memory and MPB benchmarks (apps/mem_bench.c, apps/mpb_contention.c),
the report's rows made from them (experiments/report/rows.toml rows 4, 11a and
11b-11e, on hand-made results tables), the memory controllers' service, and the benchmarks' region markers
(--regions, apps/lib/bench.h).

The expectations are made here: the columns from the apps' documented
header, the numbers from the rows' own raw columns (bytes / time), the
hop counts from the mesh's geometry (tile = core // 2 on a 6x4 mesh),
the region's call count from the arguments.
"""
from __future__ import annotations

import csv
import io
import subprocess
import sys

import pandas as pd
import pytest

from conftest import BUILD, REPO
from scc.report import measures
from scc.report import rows as data
from scc.report.tables import MeasureError
from scc.machine.sccrun import run_app

SCC_RUN = REPO / "tools" / "scc-run"
TIMEOUT = 300

MEM_COLUMNS = ["kind", "op", "mem", "cores", "controllers", "bytes", "reps", "moved_bytes",
               "clock", "us", "mb_per_s", "core_min_mb_per_s", "core_max_mb_per_s",
               "verified", "warmup", "place"]
MPB_COLUMNS = ["op", "target", "cores", "core", "hops", "lines", "bytes", "iters", "warmup",
               "mean_us", "min_us", "max_us", "alone_us", "slowdown", "clock", "verified"]


def ues(cores):
    return [str(len(cores)), "0.533", *map(str, cores)]


def app(name):
    p = BUILD / "apps" / f"{name}.elf"
    assert p.is_file(), f"{p} missing: run `make apps`"
    return p


def explain(r) -> str:
    return (f"exit {r.returncode}, timed out {getattr(r, 'timed_out', False)}\n"
            f"--- stdout (end)\n{r.stdout[-3000:]}\n--- stderr (end)\n{r.stderr[-3000:]}")


def table(text: str, name: str):
    """(the `# key: value` lines, the header, the rows) of a benchmark's CSV."""
    lines = [l for l in text.splitlines() if l]
    assert lines and lines[0].startswith(f"# {name}: "), text[:2000]
    n = 0
    while n < len(lines) and lines[n].startswith("#"):
        n += 1
    comments = dict(l[2:].partition(": ")[::2] for l in lines[:n])
    rows = list(csv.reader(io.StringIO("\n".join(lines[n:]))))
    header, body = rows[0], rows[1:]
    for r in body:
        assert len(r) == len(header), (header, r)
    return comments, header, [dict(zip(header, r)) for r in body]


def run_timing(name, cores, args, machine=None):
    # --place reads other cores' slots: the kernel must be allowed to show them
    kopts = ["dram_view=any"] if "--place" in args else []
    r = run_app(app(name), cores=cores, args=args, machine={"timing": "on", **(machine or {})},
                timeout=TIMEOUT, kernel_opts=kopts)
    assert r.returncode == 0 and not r.timed_out, explain(r)
    comments, header, rows = table(r.core_stdout(0), name)
    assert comments["mode"] == "timing" and comments["clock"] == "modeled", comments
    assert comments["command"].split()[0] == f"{name}.elf", comments
    return header, rows


def hops(a, b):
    ta, tb = a // 2, b // 2
    return abs(ta % 6 - tb % 6) + abs(ta // 6 - tb // 6)


# --- mem_bench ----------------------------------------------------------------------

def test_mem_bench_single_core_rows_follow_from_their_raw_columns():
    header, rows = run_timing("mem_bench", "0", ues([0]) + [
        "--sizes", "8K,512K", "--reps", "2", "--warmup", "1"])
    assert header == MEM_COLUMNS
    # every size, memory type and operation, in that order
    assert [(r["bytes"], r["mem"], r["op"]) for r in rows] == [
        (b, m, o) for b in ("8192", "524288") for m in ("plain", "mpbt")
        for o in ("read", "write")]
    for r in rows:
        assert r["kind"] == "single" and r["cores"] == "1" and r["reps"] == "2", r
        assert r["verified"] == "yes" and r["clock"] == "modeled" and r["warmup"] == "1", r
        moved = int(r["bytes"]) * 2
        assert int(r["moved_bytes"]) == moved, r
        assert float(r["mb_per_s"]) == pytest.approx(moved / float(r["us"]), rel=1e-3), r
        assert r["core_min_mb_per_s"] == r["core_max_mb_per_s"] == r["mb_per_s"], r
    bw = {(r["bytes"], r["mem"], r["op"]): float(r["mb_per_s"]) for r in rows}
    # the L1 is no slower than the DRAM: reads of 8 KiB (in the L1 after the
    # prefetch) against 512 KiB (twice the L2, every line from DRAM)
    assert bw["8192", "plain", "read"] > 2 * bw["524288", "plain", "read"], bw


def test_mem_bench_aggregate_is_all_bytes_over_first_start_to_last_end():
    header, rows = run_timing("mem_bench", "0-3", ues([0, 1, 2, 3]) + [
        "--sizes", "none", "--aggregate", "1,4", "--agg-size", "128K", "--agg-reps", "1",
        "--warmup", "0"])
    assert header == MEM_COLUMNS
    assert [(r["kind"], r["cores"]) for r in rows] == [("aggregate", "1"), ("aggregate", "4")]
    for r in rows:
        n = int(r["cores"])
        moved = n * 128 * 1024
        assert r["verified"] == "yes" and int(r["moved_bytes"]) == moved, r
        # cores 0-3 are on tiles (0,0) and (1,0): one memory controller's quadrant
        assert r["controllers"] == "1", r
        total = float(r["mb_per_s"])
        assert total == pytest.approx(moved / float(r["us"]), rel=1e-3), r
        # the span covers every core's own time: no core was slower than
        # the aggregate's share of one core
        cmin, cmax = float(r["core_min_mb_per_s"]), float(r["core_max_mb_per_s"])
        assert 0 < cmin <= cmax and total / n <= cmin * (1 + 1e-3), r


# --- the memory controllers ------------------------------------------------------------
#
# Cores 0, 4, 13 and 16 hold slots 0, 4, 7 and 10 of memory controller 0
# (its cores in id order: 0-5 and 12-17), one on each of its four ranks of
# 2 GiB = 128 system pages (a slot is 41 pages). With --place rank all four
# read one rank; with --place controller each reads another rank.

RANK_CORES = [0, 4, 13, 16]
SLOW_RANK = {"timing-rank-cycles": "104"}      # a rank at a quarter of its speed
# 32-byte lines, one per 104 cycles of the controllers' 800 MHz clock: MB/s
SLOW_RANK_MBS = 32 / (104 / 800e6) / 1e6


def aggregate_row(place, n, machine):
    header, rows = run_timing("mem_bench", ",".join(map(str, RANK_CORES)), ues(RANK_CORES) + [
        "--sizes", "none", "--aggregate", str(n), "--agg-size", "512K", "--agg-reps", "1",
        "--warmup", "0", "--place", place], machine)
    assert header == MEM_COLUMNS and len(rows) == 1, rows
    r = rows[0]
    assert r["verified"] == "yes" and r["place"] == place and r["controllers"] == "1", r
    return float(r["mb_per_s"]), float(r["us"])


def test_a_saturated_rank_serves_its_capacity_and_no_more():
    """Four cores reading one rank whose service is a line per 104 cycles
    get that rank's capacity together (the span from the first start to the
    last end counts the readers' uneven starts and ends: 85 % at least);
    without the controllers' queues they would get four times one core's.
    On four ranks, each reader alone on its own, nothing waits: the time is
    exactly the time without queues."""
    one, _ = aggregate_row("rank", 1, SLOW_RANK)
    assert one < SLOW_RANK_MBS, "one reader alone must not saturate the rank"
    four, _ = aggregate_row("rank", 4, SLOW_RANK)
    assert 0.85 * SLOW_RANK_MBS <= four <= SLOW_RANK_MBS * 1.001, (four, SLOW_RANK_MBS)
    free, _ = aggregate_row("rank", 4, {**SLOW_RANK, "timing-mc-window-ns": "0"})
    assert free > 3 * one * 0.9 and free > 1.3 * SLOW_RANK_MBS, (free, one)
    _, spread = aggregate_row("controller", 4, SLOW_RANK)
    _, spread_free = aggregate_row("controller", 4, {**SLOW_RANK, "timing-mc-window-ns": "0"})
    assert spread == spread_free


def test_48_cores_on_their_own_memory_wait_at_no_controller(tmp_path):
    """001: 48 cores reading their private memory at RCCE's rate show no
    measurable degradation; 002: a rank saturates at 9. Both hold because
    the default LUTs give a rank three or four cores and a controller
    twelve (caveat 3 of docs/papers/figures.toml). All 48 cores read 512
    KiB of their own DRAM at once (after one pass, beyond the L2): in the
    timed region no DRAM transaction waits at a rank or a controller, and
    every core's own bandwidth is the same as without the controllers'
    limit (the span from the first start to the last end may differ: the
    set-up before the barrier, 12 cores a controller filling their
    buffers, does wait)."""
    got = {}
    for window in ("1000", "0"):
        stats = tmp_path / f"w{window}.csv"
        p = scc_run("--timing", "--machine", f"timing-mc-window-ns={window}", "--timing-stats",
                    stats, "--stdout-of", 0, "--app", app("mem_bench"), "--", *ues(range(48)),
                    "--sizes", "none", "--aggregate", "48", "--agg-size", "512K", "--agg-reps",
                    "1", "--warmup", "1", "--regions")
        assert p.returncode == 0, p.stderr.decode(errors="replace")[-3000:]
        _, header, rows = table(p.stdout.decode(), "mem_bench")
        assert len(rows) == 1 and rows[0]["verified"] == "yes" and rows[0]["controllers"] == "4"
        got[window] = (rows[0]["core_min_mb_per_s"], rows[0]["core_max_mb_per_s"])
        r = region_rows(stats)
        waits = [r["region:aggregate", c, "mc_waits"] for c in range(48)]
        reads = [r["region:aggregate", c, "dram_line_reads"] for c in range(48)]
        assert waits == [0] * 48, waits
        assert min(reads) >= (512 << 10) // 32, reads     # every line from DRAM
    assert got["1000"] == got["0"], got


# --- mpb_contention -------------------------------------------------------------------

def test_mpb_contention_rows_per_core_and_over_cores():
    header, rows = run_timing("mpb_contention", "0-3", ues([0, 1, 2, 3]) + [
        "--ops", "get,put", "--counts", "1,4", "--iters", "3", "--warmup", "1"])
    assert header == MPB_COLUMNS
    assert [(r["op"], r["cores"], r["core"]) for r in rows] == [
        (op, n, c) for op in ("get", "put") for n, cs in (("1", ["0"]), ("4", ["0", "1", "2", "3"]))
        for c in cs + ["all"]]
    for r in rows:
        # every get read the target's lines, every put's line arrived
        assert r["verified"] == "yes" and r["clock"] == "modeled" and r["target"] == "0", r
        lines = 128 if r["op"] == "get" else 1
        assert int(r["lines"]) == lines and int(r["bytes"]) == 32 * lines, r
        assert r["iters"] == "3" and r["warmup"] == "1", r
        if r["core"] != "all":
            assert int(r["hops"]) == hops(int(r["core"]), 0), r
            assert float(r["min_us"]) <= float(r["mean_us"]) <= float(r["max_us"]), r
            assert float(r["slowdown"]) == pytest.approx(
                float(r["mean_us"]) / float(r["alone_us"]), abs=2e-3), r
    for op in ("get", "put"):
        one = [r for r in rows if r["op"] == op and r["cores"] == "1"]
        # alone and with one core taking part are the same thing (to a
        # cycle or so: the rounds before leave the caches a little different)
        assert float(one[0]["mean_us"]) == pytest.approx(float(one[0]["alone_us"]), rel=0.01)
        assert float(one[0]["slowdown"]) == pytest.approx(1.0, abs=0.01), one
        four = [r for r in rows if r["op"] == op and r["cores"] == "4"]
        per_core = [float(r["mean_us"]) for r in four[:4]]
        a = four[4]
        assert float(a["min_us"]) == pytest.approx(min(per_core), abs=1e-3), four
        assert float(a["max_us"]) == pytest.approx(max(per_core), abs=1e-3), four
        assert float(a["mean_us"]) == pytest.approx(sum(per_core) / 4, abs=2e-3), four
    # a 128-line get costs far more than a 1-line put
    get1 = float(rows[0]["mean_us"])
    put1 = float(next(r for r in rows if r["op"] == "put")["mean_us"])
    assert get1 > 20 * put1, (get1, put1)


def test_mpb_contention_put_batch_reports_the_time_of_one_put():
    """--put-batch K times K puts back to back and reports their time over
    K: per put, no more than a put timed on its own (which also pays part
    of the two clock reads), and far from K puts' time."""
    means = {}
    for k in ("1", "8"):
        _, rows = run_timing("mpb_contention", "0-1", ues([0, 1]) + [
            "--ops", "put", "--counts", "1", "--iters", "3", "--warmup", "1",
            "--put-batch", k])
        r = next(r for r in rows if r["core"] == "all")
        assert r["verified"] == "yes", r
        means[k] = float(r["mean_us"])
    assert 0.8 * means["1"] <= means["8"] <= means["1"], means


def test_mpb_contention_link_loads_the_probes_link():
    header, rows = run_timing("mpb_contention", "0-47", ues(range(48)) + [
        "--ops", "link", "--iters", "2", "--warmup", "0"])
    assert header == MPB_COLUMNS
    assert [r["op"] for r in rows] == ["link_idle", "link_loaded"]
    idle, loaded = rows
    for r in rows:
        # core 28 on tile (2,2) gets from core 30 on tile (3,2)
        assert (r["core"], r["target"], r["hops"], r["lines"]) == ("28", "30", "1", "128"), r
        # verified: the data came, and the 44 loaders ran as long as the probe
        assert r["verified"] == "yes", r
    assert (idle["cores"], loaded["cores"]) == ("0", "44")
    assert loaded["alone_us"] == idle["mean_us"]
    assert float(loaded["slowdown"]) == pytest.approx(
        float(loaded["mean_us"]) / float(idle["mean_us"]), abs=2e-3)


@pytest.mark.parametrize("name,cores,args,says", [
    ("mem_bench", "0-1", ["--reps", "0"], "--reps wants 1-1000"),
    ("mem_bench", "0-1", ["--sizes", "100"], "whole 32-byte lines"),
    ("mem_bench", "0-1", ["--aggregate", "3"], "--aggregate wants core counts"),
    ("mem_bench", "0-1", ["--bogus", "1"], "unknown option '--bogus'"),
    ("mem_bench", "0-1", ["--place", "moon"], "--place takes own, rank, controller"),
    ("mpb_contention", "0-1", ["--ops", "fetch"], "--ops takes get, put and link"),
    ("mpb_contention", "0-1", ["--ops", "link"], "link needs all 48 cores"),
    ("mpb_contention", "0-1", ["--counts", "5"], "--counts wants core counts"),
    ("mpb_contention", "0-1", ["--lines"], "--lines needs a value"),
    ("mpb_contention", "0-1", ["--put-batch", "0"], "--put-batch wants 1-1000"),
])
def test_a_bad_argument_is_status_2_with_the_reason(name, cores, args, says):
    c = [int(x) for x in cores.split("-")]
    r = run_app(app(name), cores=cores, args=ues(list(range(c[0], c[-1] + 1))) + args,
                timeout=120)
    assert r.returncode == 2, explain(r)
    err = r.core_stderr(0)
    assert says in err and "usage:" in err, err
    assert r.core_stdout(0) == "", r.core_stdout(0)


# --- region markers -------------------------------------------------------------------

def scc_run(*argv):
    return subprocess.run([sys.executable, str(SCC_RUN), *map(str, argv)], capture_output=True,
                          timeout=TIMEOUT)


def region_rows(stats):
    out = {}
    for scope, core, counter, value in csv.reader(io.StringIO(stats.read_text())):
        if scope.startswith("region:"):
            out[scope, int(core), counter] = int(value)
    return out


def core_counter(stats, core, counter):
    for scope, c, name, value in csv.reader(io.StringIO(stats.read_text())):
        if scope == "core" and c == str(core) and name == counter:
            return int(value)
    raise AssertionError(f"no core,{core},{counter} in {stats}")


IPI_ARGS = ["n=200", "drop=10", "peers=1"]


@pytest.mark.parametrize("bench,alg,most", [
    # a part is 1,024 words: a member writes around only what it receives
    ("bcast_bench", "cube", 256),
    # the copy of the input into the fresh output, 1,024 words, and little more
    ("allreduce_bench", "bucket", 1100)])
def test_collectives_clear_no_memory_per_call(tmp_path, bench, alg, most):
    """What a collective writes around the caches in a call, on 12 cores
    at 4 KiB (region counters, two timed calls): its temporaries are kept
    from call to call (libscc/src/scratch.c), not taken from picolibc's
    malloc, which clears every block; and picolibc copies and clears words
    (scripts/build-picolibc.sh), not bytes. Cube took a 4 KiB part buffer
    from malloc in every call (4,095 stores around a call at -Os), and the
    bucket allreduce's memmove of its input went a byte at a time (4,097)."""
    stats = tmp_path / "stats.csv"
    p = scc_run("--timing", "--timing-stats", stats, "--stdout-of", 0, "--app", app(bench),
                "--cores", "0-11", "--", *ues(range(12)), "--alg", alg, "--sizes", "4096",
                "--iters", "2", "--warmup", "1", "--regions")
    assert p.returncode == 0, p.stderr.decode(errors="replace")[-3000:]
    assert ",yes," in p.stdout.decode(), p.stdout.decode()[-2000:]
    r = region_rows(stats)
    op = "bcast" if bench == "bcast_bench" else "allreduce"
    assert [r[f"region:{op}", c, "calls"] for c in range(12)] == [2] * 12, r
    around = [r[f"region:{op}", c, "dram_writes_around"] for c in range(12)]
    assert max(around) <= 2 * most, around


def test_regions_count_the_timed_rounds_and_move_nothing_modeled(tmp_path):
    """ipi_latency with `regions` under scc-run --timing --timing-stats:
    region:ipi has core 0's 180 counted rounds (200 less 10 % warm-up)
    and nothing else; without it, no region at all, and the CSV is the
    same but for the command line: the markers sit outside what core 0
    times, and without the option they are a test and a branch
    (apps/lib/bench.h's BENCH_MARK_*, which add nothing between the clock
    reads). Exactly the same for what one core times (send, trap, rtt);
    within one cycle for what compares two cores' TSCs (arrive, remote):
    the markers' system calls move core 0's timeline by a fraction of a
    cycle, and two TSC reads each cut to whole cycles may then differ by
    one more or less."""
    stats = tmp_path / "on.csv"
    p = scc_run("--timing", "--timing-stats", stats, "--stdout-of", 0, "--app",
                app("ipi_latency"), "--cores", "0-1", "--", *IPI_ARGS, "regions")
    assert p.returncode == 0, p.stderr.decode(errors="replace")[-3000:]
    rows = region_rows(stats)
    assert rows["region:ipi", 0, "calls"] == 180, rows
    assert {(s, c) for s, c, _ in rows} == {("region:ipi", 0)}, rows
    cycles, instr = rows["region:ipi", 0, "cycles"], rows["region:ipi", 0, "instructions"]
    assert 0 < instr < cycles < core_counter(stats, 0, "cycles"), rows
    # every counted round interrupts the peer once and is interrupted once
    assert rows["region:ipi", 0, "interrupts"] == 2 * 180, rows
    # the rounds are core 0's rtt rows' rounds: each region is at least its round trip
    _, _, table_rows = table(p.stdout.decode(), "ipi_latency")
    rtt = next(r for r in table_rows if r["peer"] == "1" and r["kind"] == "rtt")
    assert cycles >= 180 * int(rtt["min"]), (cycles, rtt)

    flagged = p.stdout.decode()

    stats = tmp_path / "off.csv"
    p = scc_run("--timing", "--timing-stats", stats, "--stdout-of", 0, "--app",
                app("ipi_latency"), "--cores", "0-1", "--", *IPI_ARGS)
    assert p.returncode == 0, p.stderr.decode(errors="replace")[-3000:]
    assert region_rows(stats) == {}

    def without_command(text):
        return [l for l in text.splitlines() if not l.startswith("# command: ")]
    assert "# command: ipi_latency.elf n=200 drop=10 peers=1 regions" in flagged
    on, off = without_command(flagged), without_command(p.stdout.decode())
    assert len(on) == len(off)
    for a, b in zip(on, off):
        fa, fb = a.split(","), b.split(",")
        if len(fa) == 14 and fa[4] in ("arrive", "remote") and fa[:7] == fb[:7]:
            assert all(abs(int(x) - int(y)) <= 1 for x, y in zip(fa[7:11], fb[7:11])), (a, b)
            assert fa[11:] == fb[11:], (a, b)
        else:
            assert a == b


MEM_ARGS = ues([0]) + ["--sizes", "4K,128K", "--mem", "plain", "--reps", "2", "--warmup", "1"]


def test_mem_bench_regions_hold_the_timed_passes(tmp_path):
    """mem_bench --regions under scc-run --timing --timing-stats: one
    region an (operation, memory) pair, one call a size, holding the
    timed passes only: buffers of the L1 and the L2, prefetched, so no
    line from DRAM but a few of the system calls' own; without --regions,
    no region."""
    stats = tmp_path / "on.csv"
    p = scc_run("--timing", "--timing-stats", stats, "--stdout-of", 0, "--app",
                app("mem_bench"), "--cores", "0", "--", *MEM_ARGS, "--regions")
    assert p.returncode == 0, p.stderr.decode(errors="replace")[-3000:]
    rows = region_rows(stats)
    assert {(s, c) for s, c, _ in rows} == {("region:read_plain", 0), ("region:write_plain", 0)}
    for op in ("read", "write"):
        assert rows[f"region:{op}_plain", 0, "calls"] == 2, rows
        # 4224 lines a pass
        assert rows[f"region:{op}_plain", 0, "dram_line_reads"] < 16, rows
    assert core_counter(stats, 0, "dram_line_reads") > 4224
    # the reads' region: (4K + 128K) / 4 words x 2 passes, 5 instructions
    # for two words
    insns = (4096 + 131072) // 4 * 2 * 5 // 2
    assert insns <= rows["region:read_plain", 0, "instructions"] < insns + 2000, rows
    _, _, on = table(p.stdout.decode(), "mem_bench")
    assert [r["verified"] for r in on] == ["yes"] * 4

    stats = tmp_path / "off.csv"
    p = scc_run("--timing", "--timing-stats", stats, "--stdout-of", 0, "--app",
                app("mem_bench"), "--cores", "0", "--", *MEM_ARGS)
    assert p.returncode == 0, p.stderr.decode(errors="replace")[-3000:]
    assert region_rows(stats) == {}


# --- the report's rows 4 and 11 ------------------------------------------------------

def _by_id(i):
    return next(h for h in data.headlines() if h.id == i)


def _band(name):
    return data.bands()[name][0]


def _df(rows):
    """A results table as scc-bench makes it (status per point), with a
    failed point's row that the measures must leave out."""
    return pd.DataFrame([{**r, "status": "ok"} for r in rows] +
                        [{"status": "failed", "why": "time limit"}])


def _mpb_rows(get24, put24, get48, put48, link):
    rows = []
    for op, n, (slow, fast, slowest) in (("get", 24, get24), ("put", 24, put24),
                                         ("get", 48, get48), ("put", 48, put48)):
        rows.append({"op": op, "target": 0, "cores": n, "core": 3, "hops": 1, "mean_us": 1e3,
                     "min_us": 1e3, "max_us": 1e3, "alone_us": 1e3, "slowdown": 9.0})
        rows.append({"op": op, "target": 0, "cores": n, "core": "all", "hops": None,
                     "mean_us": fast, "min_us": fast, "max_us": slowest, "alone_us": fast,
                     "slowdown": slow})
    rows.append({"op": "link_idle", "target": 30, "cores": 0, "core": 28, "hops": 1,
                 "mean_us": 37.0, "min_us": 37.0, "max_us": 37.0, "alone_us": 37.0,
                 "slowdown": 1.0})
    rows.append({"op": "link_loaded", "target": 30, "cores": 44, "core": 28, "hops": 1,
                 "mean_us": 37.0 * link, "min_us": 37.0, "max_us": 37.0, "alone_us": 37.0,
                 "slowdown": link})
    return {"mpb-001-contention": _df(rows)}


@pytest.mark.no_qemu
def test_row_4_is_the_worst_of_001s_four_contention_findings():
    h = _by_id("4")
    assert h.published == 1.0 and h.band == _band("about") and h.measure is not None
    assert set(h.experiments) == {"mpb-001-contention"}
    assert data.experiment("mpb-001-contention")["experiment"]["app"] == "mpb_contention"
    # slowdowns at 24: 1.02 (get), 1.10 (put) -> 1.10; spreads at 48: get
    # 50/40 = 1.25 of 2 -> 0.625, put 4.4/1.0 of 4 -> 1.1; link 1.001
    dfs = _mpb_rows((1.02, 36.0, 40.0), (1.10, 0.8, 0.9), (1.3, 40.0, 50.0),
                    (1.0, 1.0, 4.4), 1.001)
    assert h.measure(dfs) == pytest.approx(0.625)
    # the farthest from 1 either way: 1.7 at 24 cores beats 1 / 0.625 = 1.6
    dfs = _mpb_rows((1.7, 36.0, 40.0), (1.10, 0.8, 0.9), (1.3, 40.0, 50.0),
                    (1.0, 1.0, 4.4), 1.001)
    assert h.measure(dfs) == pytest.approx(1.7)
    with pytest.raises(MeasureError, match="48 cores"):
        h.measure({"mpb-001-contention": _df([r for r in _mpb_rows(
            (1.0, 1, 1), (1.0, 1, 1), (1.0, 1, 1), (1.0, 1, 1), 1.0)[
            "mpb-001-contention"].to_dict("records") if r.get("cores") != 48])})


def _mem_rows(values, kind="single"):
    return [{"kind": kind, "op": op, "mem": mem, "cores": 1, "controllers": 1, "bytes": b,
             "reps": 2, "moved_bytes": 2 * b, "clock": "modeled", "us": 2 * b / v,
             "mb_per_s": v, "verified": "yes"} for (op, mem, b), v in values.items()]


@pytest.mark.no_qemu
def test_row_11a_is_the_worst_of_002s_eight_single_core_figures():
    h = _by_id("11a")
    assert h.published == 1.0 and h.band == _band("table")
    assert data.experiment("mem-002-single")["experiment"]["app"] == "mem_bench"
    ours = {("read", "plain", 4096): 360.0, ("write", "plain", 4096): 420.0,     # 0.9, 1.05
            ("read", "plain", 131072): 285.0, ("write", "plain", 131072): 116.0,
            ("read", "mpbt", 131072): 200.0,                                     # not 002's
            ("write", "mpbt", 131072): 143.0,                                    # 1.1
            ("read", "plain", 1048576): 107.0, ("write", "plain", 1048576): 26.4,  # 1.2
            ("write", "mpbt", 1048576): 125.0,
            # a second L2 size: the level's highest counts (285 above)
            ("read", "plain", 65536): 250.0}
    dfs = {"mem-002-single": _df(_mem_rows(ours))}
    assert measures.mem_single(dfs, "mem-002-single")["read", "plain", "L2"] == 285.0
    assert h.measure(dfs) == pytest.approx(1.2)
    ours["write", "mpbt", 1048576] = 62.5                                        # 0.5
    assert h.measure({"mem-002-single": _df(_mem_rows(ours))}) == pytest.approx(0.5)
    del ours["write", "mpbt", 1048576]
    with pytest.raises(MeasureError, match="write', 'mpbt', 'DRAM"):
        h.measure({"mem-002-single": _df(_mem_rows(ours))})


@pytest.mark.no_qemu
def test_row_11b_is_48_cores_at_once_in_gb_per_s():
    h = _by_id("11b")
    assert h.published == 5.9 and h.unit == "GB/s" and h.band == _band("aggregate")
    spec = data.experiment("mem-002-aggregate")
    assert spec["experiment"]["app"] == "mem_bench" and spec["experiment"]["cores"] == "0-47"
    rows = [{"kind": "aggregate", "op": "read", "mem": "plain", "cores": n, "bytes": 1 << 20,
             "mb_per_s": 95.0 * n} for n in (1, 19, 48)]
    assert h.measure({"mem-002-aggregate": _df(rows)}) == pytest.approx(4.56)
    with pytest.raises(MeasureError, match="cores"):
        h.measure({"mem-002-aggregate": _df(rows[:2])})


@pytest.mark.no_qemu
@pytest.mark.parametrize("row,name,place,published", [
    ("11c", "mem-002-rank", "rank", 1.0), ("11d", "mem-002-controller", "controller", 1.8),
    ("11e", "mem-002-two", "two", 3.4)])
def test_rows_11c_to_11e_are_the_most_the_placed_readers_got(row, name, place, published):
    h = _by_id(row)
    assert h.published == published and h.unit == "GB/s" and h.band == _band("aggregate")
    spec = data.experiment(name)
    assert spec["experiment"]["app"] == "mem_bench" and spec["experiment"]["cores"] == "0-47"
    assert spec["args"]["place"] == place
    rows = [{"kind": "aggregate", "op": "read", "mem": "plain", "cores": n, "bytes": 1 << 20,
             "mb_per_s": mbs, "place": place} for n, mbs in ((9, 780.0), (19, 940.0), (40, 930.0))]
    assert h.measure({name: _df(rows)}) == pytest.approx(0.94)
    with pytest.raises(MeasureError, match="no rows"):
        h.measure({name: _df(rows)[0:0]})


def test_pingpong_regions_are_its_apis_timed_round_trips(tmp_path):
    """pingpong --regions: one region an api on both UEs, one call a size
    (the timed round trips after the checked one); the round trips in the
    region account for the time the CSV reports (at 533 MHz); without
    --regions, no region, and the same rows within 2 %: the markers are
    outside the timed part, but their system calls leave other lines in
    the caches (dirty ones, since the caches write back: 1.4 % at 1 KiB),
    and the option's word moves the stack."""
    args = ues([0, 1]) + ["sizes=1K,4K", "budget=16K", "apis=rcce,ircce"]
    stats = tmp_path / "on.csv"
    p = scc_run("--timing", "--timing-stats", stats, "--stdout-of", 0, "--app",
                app("pingpong"), "--cores", "0,1", "--", *args, "--regions")
    assert p.returncode == 0, p.stderr.decode(errors="replace")[-3000:]
    rows = region_rows(stats)
    assert {(s, c) for s, c, _ in rows} == {(f"region:{a}", c) for a in ("rcce", "ircce")
                                          for c in (0, 1)}, rows
    flagged = [l for l in p.stdout.decode().splitlines() if l[:1] not in ("#", "a")]
    for api in ("rcce", "ircce"):
        assert rows[f"region:{api}", 0, "calls"] == 2, rows
        mine = [l.split(",") for l in flagged if l.startswith(api + ",")]
        timed_us = sum(float(r[4]) * int(r[3]) for r in mine)     # usec_per_roundtrip x iterations
        region_us = rows[f"region:{api}", 0, "cycles"] / 533.0
        assert timed_us <= region_us < timed_us * 1.05 + 5, (api, timed_us, region_us)
    p = scc_run("--timing", "--stdout-of", 0, "--app", app("pingpong"), "--cores", "0,1",
                "--", *args)
    assert p.returncode == 0, p.stderr.decode(errors="replace")[-3000:]
    plain = [l for l in p.stdout.decode().splitlines() if l[:1] not in ("#", "a")]
    assert len(plain) == len(flagged) == 4
    for a, b in zip(plain, flagged):
        a, b = a.split(","), b.split(",")
        assert a[:4] == b[:4] and abs(float(a[4]) / float(b[4]) - 1) < 0.02, (a, b)


def pingpong_rcce(stats, args):
    """pingpong's rcce rows (fields), every one verified, and the region
    counters of a run with --timing-stats to @stats."""
    p = scc_run("--timing", "--timing-stats", stats, "--stdout-of", 0, "--app",
                app("pingpong"), "--cores", "0,1", "--", *args)
    assert p.returncode == 0, p.stderr.decode(errors="replace")[-3000:]
    rows = [l.split(",") for l in p.stdout.decode().splitlines() if l.startswith("rcce,")]
    assert rows and all(r[8] == "yes" for r in rows), rows
    return rows, region_rows(stats)


def test_pingpong_copy_styles(tmp_path):
    """pingpong copy=rcce1 copies into private memory as RCCE 1.x did:
    every received word is a store, and once the message is larger than
    the L2 (1 MiB) the lines are not cached, so each store goes around the
    caches on its own; copy=libscc (the default) reads each line first,
    and its stores hit the L1. Counted at the receiver (core 1) in the
    timed round trips (--regions); a bad style is a usage error."""
    args = ues([0, 1]) + ["sizes=1M", "budget=2M", "apis=rcce", "--regions"]
    around = {}
    for style in ("libscc", "rcce1"):
        _, r = pingpong_rcce(tmp_path / f"{style}.csv", [*args, f"copy={style}"])
        around[style] = r["region:rcce", 1, "dram_writes_around"]
    # one timed round trip: 1 MiB received in 4-byte stores
    assert around["rcce1"] >= (1 << 20) // 4 > 100 * around["libscc"], around
    p = scc_run("--timing", "--app", app("pingpong"), "--cores", "0,1", "--", *args,
                "copy=fast")
    assert p.returncode != 0
    assert b"pingpong: bad copy: want libscc or rcce1" in p.stdout + p.stderr, p.stdout[-2000:]


def test_pingpong_rcce1_protocol(tmp_path):
    """pingpong --proto rcce1 runs RCCE 1.x's protocol (RCCE_COPY_PROTO1,
    libscc/src/chan.c): a 4096-B message is one chunk (RCCE 1.x's chunk is
    8 KB less its flags; libscc's region of 3,840 B cuts it in two), each
    chunk's flag is cleared where it was seen (a line written to one's own
    MPB, then the WCB flushed: two line writes, as RCCE_flag_write did),
    and a message that does not end on a line boundary sends its tail as
    one more chunk with its own handshake (004 line 176). Counted at each
    core in the timed round trips: MPB line writes per message sent and
    received. The data arrive right at sizes around every boundary."""
    base = ues([0, 1]) + ["--budget", "8K", "--apis", "rcce", "--copy", "rcce1", "--regions"]
    writes = {}
    for proto in ("libscc", "rcce1"):
        for n in (4096, 4100):
            _, r = pingpong_rcce(tmp_path / f"{proto}{n}.csv",
                                 [*base, "--sizes", f"{n},{n}", "--proto", proto])
            # 2 sizes x 2 round trips: each core sends 4 messages and receives 4
            writes[proto, n] = [r["region:rcce", c, "mpb_line_writes"] / 4 for c in (0, 1)]
    # a chunk's handshake: the seq line and the taken line, each followed
    # by a flush of the writer's WCB (4 line writes); RCCE 1.x's also
    # clears its two flags (2 more: a clear's flush combines with the
    # next write)
    libscc, rcce1 = 4, 6
    # 4096 B: 128 payload lines; libscc's 3,840-B region cuts it in 2 chunks
    assert writes["libscc", 4096] == [128 + 2 * libscc] * 2, writes
    assert writes["rcce1", 4096] == [128 + 1 * rcce1] * 2, writes
    # 4 bytes more: one more payload line; in RCCE 1.x's protocol also a
    # chunk of its own
    assert writes["libscc", 4100] == [129 + 2 * libscc] * 2, writes
    assert writes["rcce1", 4100] == [129 + 2 * rcce1] * 2, writes
    sizes = "1,31,32,33,3839,3841,4100,5311,5312,5313,5344,10623,10625,70000"
    for extra in (["--copy", "rcce1"], ["--copy", "libscc", "--buffers", "separate"]):
        p = scc_run("--timing", "--stdout-of", 0, "--app", app("pingpong"), "--cores", "0,1",
                    "--", *ues([0, 1]), "--sizes", sizes, "--budget", "64", "--proto", "rcce1",
                    *extra)
        assert p.returncode == 0, p.stderr.decode(errors="replace")[-3000:]
        rows = [l.split(",") for l in p.stdout.decode().splitlines() if l[:1] not in ("#", "a")]
        assert len(rows) == 3 * 14 and all(r[8] == "yes" for r in rows), (extra, rows)


def test_pingpong_separate_buffers(tmp_path):
    """pingpong --buffers separate receives into a buffer of its own that
    nothing reads before the timed round trips (the copy paper's send and
    receive buffers), so with RCCE 1.x's word copies every received word
    is a store around the caches, even at 4 KiB; --buffers same (the
    default) receives into the buffer it sends from, which its sends keep
    cached, so none is. Counted at the receiver in the timed round trips;
    a bad value is a usage error."""
    args = ues([0, 1]) + ["--sizes", "4K,8K", "--budget", "16K", "--apis", "rcce",
                          "--copy", "rcce1", "--regions"]
    around = {}
    for b in ("same", "separate"):
        _, r = pingpong_rcce(tmp_path / f"{b}.csv", [*args, "--buffers", b])
        around[b] = r["region:rcce", 1, "dram_writes_around"]
    # 4 round trips of 4 KiB and 2 of 8 KiB, received in 4-byte stores
    assert around["separate"] >= 8 * 1024 > 50 * around["same"], around
    p = scc_run("--timing", "--app", app("pingpong"), "--cores", "0,1", "--", *args,
                "--buffers", "two")
    assert p.returncode != 0
    assert b"pingpong: bad buffers: want same or separate" in p.stdout + p.stderr


def test_pingpong_mpbt_buffer(tmp_path):
    """pingpong mpbt=on marks the message buffer's pages MPBT: received
    words combine in the write-combine buffer into line writes to DRAM
    (the copy paper's MPBT-flagged buffers), where with mpbt=off each
    store beyond the L2 goes around the caches on its own; the data still
    arrive right. A bad value is a usage error, and on the host (no MPBT
    pages) mpbt=on is refused."""
    args = ues([0, 1]) + ["sizes=512K,1M", "budget=2M", "apis=rcce", "copy=rcce1",
                          "--regions"]
    got, regions = {}, {}
    for mpbt in ("off", "on"):
        rows, r = pingpong_rcce(tmp_path / f"{mpbt}.csv", [*args, f"mpbt={mpbt}"])
        assert len(rows) == 2, rows
        got[mpbt] = (r["region:rcce", 1, "dram_writes_around"], r["region:rcce", 1, "wcb_flushes"],
                     float(rows[1][5]))
        regions[mpbt] = r
    # core 1 receives 4 MiB in the timed round trips (2 x 1 MiB, 4 x 512 KiB),
    # in 4-byte stores: plain, at least the 1 MiB ones go around the caches
    # (of the 512 KiB ones, the lines its sends left in the L2 do not);
    # MPBT, every line is one WCB line write. Its sends' MPB lines are the
    # same either way.
    assert got["off"][0] >= (2 << 20) // 4 and got["on"][0] < 1000, got
    assert got["on"][1] - got["off"][1] >= (4 << 20) // 32, got
    assert got["on"][2] > 2 * got["off"][2], got                 # MB/s at 1 MiB
    # libscc's gets read a plain destination line first (test above), not
    # an MPBT one: its stores combine anyway, and its reads bypass the L2.
    # So with mpbt=on libscc's copy is RCCE 1.x's: the same DRAM traffic at
    # the receiver. Not the same time: RCCE 1.x's sends go in lockstep, one
    # whole-buffer chunk at a time (libscc/src/chan.c), where libscc's
    # pipeline two half-buffer chunks, the put of one beside the get of
    # the other.
    rows, r = pingpong_rcce(tmp_path / "libscc.csv", [*[a for a in args if a != "copy=rcce1"],
                                                     "copy=libscc", "mpbt=on"])
    for k in ("dram_line_reads", "dram_line_writes"):
        assert r["region:rcce", 1, k] == regions["on"]["region:rcce", 1, k], k
    # No message store goes around the caches either way; the few that do
    # are the program's own (its stack, RCCE's state: 6 and 10 of them
    # here), as many as the two copies' frames leave lines out of the L2,
    # which moves with the code's layout.
    assert r["region:rcce", 1, "dram_writes_around"] < 64, r["region:rcce", 1,
                                                            "dram_writes_around"]
    assert float(rows[1][5]) > 1.5 * got["on"][2], (rows, got)
    p = scc_run("--timing", "--app", app("pingpong"), "--cores", "0,1", "--", *args,
                "mpbt=yes")
    assert p.returncode != 0
    assert b"pingpong: bad mpbt: want off or on" in p.stdout + p.stderr, p.stdout[-2000:]
    host = BUILD / "libscc" / "rcce" / "host" / "pingpong"
    h = subprocess.run([str(host), *ues([0, 1]), "sizes=4K", "mpbt=on"], capture_output=True,
                       timeout=60)
    assert h.returncode == 2
    assert b"pingpong: bad mpbt: on needs the chip" in h.stdout + h.stderr, h.stderr[-2000:]
