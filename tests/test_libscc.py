"""libscc: RCCE, iRCCE and RCCEnb, through the programs in tests/libscc/.

Each program is an RCCE program that checks itself; UE 0 prints
"PASS name" when every UE agrees. The same sources run

* on the host, one thread per UE, in three builds: plain, ThreadSanitizer
  and AddressSanitizer+UBSan (build/libscc/rcce/{host,tsan,asan}/tests/);
  a sanitizer build must also report nothing;
* on the emulated chip, one core per UE (build/tests/libscc/*.elf), through
  sccrun.run_app with a time limit.

Programs take rccerun's arguments: <nues> <clock GHz> <core id>... then
their own. apps/pingpong.c is checked the same two ways for its CSV.
"""
from __future__ import annotations

import csv
import io
import os
import re
import subprocess

import pytest

from lib.abi import EXIT_STALLED
from scc.machine.coremap import rcce_words as ue_args       # rccerun's words for RCCE_init
from scc.machine.sccrun import run_app
from lib import REPO, app, explain, host_app, host_test, libscc_test

ALL = list(range(48))
PAIRS = [0, 1, 2, 47]           # a tile mate, the neighbour tile, the far corner
FIVE = [0, 1, 2, 11, 47]        # and the next row

# (program, cores, program arguments)
CASES = [
    ("basic", PAIRS, ["hello", "42"]),
    ("sendrecv", PAIRS, []),
    ("ircce", ALL, []),
    ("flags", ALL, []),
    ("comm", ALL, []),
    ("comm", [0, 3, 17, 30, 47], []),
    ("reduce", ALL, []),
    ("reduce", FIVE, []),
    ("malloc", ALL, []),
    ("errors", PAIRS, []),
    ("shm", ALL, []),
    ("gory", FIVE, []),
    ("nb", ALL, []),
    ("nb", FIVE, []),
    ("threadprivate", ALL, []),
    ("power", PAIRS, []),
    # algorithms the selection table would not pick here: forced by the words
    ("coll_override", PAIRS, ["--coll", "bcast=scatter_allgather", "scatter_allgather",
                              "--coll", "allreduce=bucket", "bucket"]),
]
IDS = [f"{name}-{len(cores)}ues" for name, cores, _ in CASES]

VARIANTS = ["host", "tsan", "asan"]
SANITIZER_ENV = {
    "TSAN_OPTIONS": "halt_on_error=1 exitcode=66 second_deadlock_stack=1",
    "ASAN_OPTIONS": "detect_leaks=1 halt_on_error=1 exitcode=67",
    "UBSAN_OPTIONS": "halt_on_error=1 print_stacktrace=1 exitcode=68",
}
SANITIZER_MARKS = ("ThreadSanitizer", "AddressSanitizer", "LeakSanitizer",
                   "runtime error:")
HOST_TIMEOUT = 120
CHIP_TIMEOUT = 300


def run_host(binary, args, timeout=HOST_TIMEOUT):
    env = dict(os.environ, **SANITIZER_ENV)
    return subprocess.run([str(binary), *args], capture_output=True, text=True,
                          timeout=timeout, env=env, errors="replace")


@pytest.mark.no_qemu
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("name,cores,args", CASES, ids=IDS)
def test_host(variant, name, cores, args):
    r = run_host(host_test(variant, name), ue_args(cores) + args)
    why = explain(r, tail=6000)
    for mark in SANITIZER_MARKS:
        assert mark not in r.stderr, f"{variant}: the sanitizer reported something\n{why}"
    assert r.returncode == 0, why
    assert f"PASS {name} ({len(cores)} UEs)" in r.stdout, why


@pytest.mark.no_qemu
@pytest.mark.parametrize("env,args", [
    ("bcast=binomial; allreduce=hybrid", ["binomial", "hybrid"]),
    ("bcast=binomial;allreduce=bucket", ["chain", "--coll", "bcast=chain", "bucket"]),
], ids=["environment", "words-after-environment"])
def test_host_coll_override_environment(env, args):
    """SCC_COLL chooses the algorithms of an unmodified RCCE program, and a
    --coll word overrides it for its collective (the program checks what
    scc_coll_used reports against its last two words)."""
    r = subprocess.run([str(host_test("host", "coll_override")), *ue_args(PAIRS), *args],
                       capture_output=True, text=True, timeout=HOST_TIMEOUT, errors="replace",
                       env=dict(os.environ, SCC_COLL=env))
    assert r.returncode == 0 and f"PASS coll_override ({len(PAIRS)} UEs)" in r.stdout, \
        explain(r, tail=6000)


@pytest.mark.no_qemu
@pytest.mark.parametrize("env,args,want", [
    ("", ["--coll", "bcast=nosuch", "a", "b"],
     r"RCCE_init: --coll 'bcast=nosuch': bcast: unknown algorithm 'nosuch' \(known: auto, "),
    ("", ["--coll", "bcast=binomial:k=3", "a", "b"],
     r"--coll 'bcast=binomial:k=3': bcast binomial: unknown parameter 'k'"),
    ("", ["a", "b", "--coll"], r"RCCE_init: --coll: needs COLLECTIVE=ALGORITHM after it"),
    ("", ["--coll", "bcast", "a", "b"], r"--coll 'bcast': not COLLECTIVE=ALGORITHM"),
    ("nosuch=x", ["a", "b"], r"RCCE_init: SCC_COLL 'nosuch=x': unknown collective 'nosuch'"),
    ("x" * 300, ["a", "b"], r"SCC_COLL '.*': too long"),
])
def test_host_coll_override_errors(env, args, want):
    """A bad choice stops RCCE_init with the reason, on every UE."""
    r = subprocess.run([str(host_test("host", "coll_override")), *ue_args([0, 1]), *args],
                       capture_output=True, text=True, timeout=60, errors="replace",
                       env=dict(os.environ, SCC_COLL=env))
    why = explain(r, tail=6000)
    assert r.returncode != 0 and "FAIL: RCCE_init" in r.stdout, why
    assert len(re.findall(want, r.stderr)) == 2, why


@pytest.mark.no_qemu
def test_host_tsan_sees_races(tmp_path):
    """The TSan build's silence means something: the same compiler and
    flags do report a plain race. The probe must not miss by chance (one
    `x++` a thread went unseen in 3 of 60 runs: the second access can come
    after TSan has let the first one's thread go): both threads meet first
    through relaxed atomics, which order nothing for TSan, then each makes
    thousands of plain accesses at the same time; and of up to five runs
    one must report."""
    src = tmp_path / "race.c"
    src.write_text("#include <pthread.h>\nint x, here;\n"
                   "static void meet(void) { __atomic_add_fetch(&here, 1, __ATOMIC_RELAXED);\n"
                   "  while (__atomic_load_n(&here, __ATOMIC_RELAXED) < 2) ; }\n"
                   "static void bump(void) { for (int i = 0; i < 20000; i++)\n"
                   "  *(volatile int *)&x += 1; }\n"
                   "static void *f(void *a) { meet(); bump(); return a; }\n"
                   "int main(void) { pthread_t t; pthread_create(&t, 0, f, 0);\n"
                   "  meet(); bump(); pthread_join(t, 0); return 0; }\n")
    exe = tmp_path / "race"
    subprocess.run(["gcc", "-g", "-O1", "-fsanitize=thread", "-pthread", "-o", str(exe),
                    str(src)], check=True, capture_output=True)
    seen = []
    for _ in range(5):
        r = run_host(exe, [], timeout=60)
        seen.append("WARNING: ThreadSanitizer: data race" in r.stderr)
        if seen[-1]:
            break
    assert any(seen), r.stderr


@pytest.mark.no_qemu
@pytest.mark.parametrize("args,why", [
    ([], "no arguments"),
    (["3", "0.533", "0", "1"], "too few core ids"),
    (["2", "0.533", "0", "0"], "a core twice"),
    (["2", "0.533", "0", "48"], "no such core"),
    (["0", "0.533"], "no UEs"),
])
def test_host_bad_ue_list(args, why):
    r = run_host(host_test("host", "basic"), args, timeout=30)
    assert r.returncode == 2 and "usage:" in r.stderr, f"{why}: " + explain(r, tail=6000)


@pytest.mark.no_qemu
def test_host_stall_is_stopped_and_reported():
    """A host run in which every UE waits for good ends with the chip's
    stall status and says where each UE waits, instead of hanging."""
    env = dict(os.environ, **SANITIZER_ENV, SCC_HOST_STALL_S="0.5")
    r = subprocess.run([str(host_test("host", "stall")), *ue_args([0, 1, 5])],
                       capture_output=True, text=True, timeout=60, env=env, errors="replace")
    why = explain(r, tail=6000)
    assert r.returncode == EXIT_STALLED, why
    assert "no UE can make progress" in r.stderr, why
    lines = [l.strip() for l in r.stderr.splitlines() if l.strip().startswith("core ")]
    assert [l.split()[1] for l in lines] == ["00", "01", "05"], why
    assert "(wrong)" not in r.stdout, why
    # each in words: the program's own call site (function, file, line)
    # first, then the library call it waits in; no raw address
    src = (REPO / "tests" / "libscc" / "stall.c").read_text().splitlines()
    at = {what: f"stall.c:{i + 1}" for i, l in enumerate(src)
          for what in ("RCCE_wait_until", "RCCE_barrier") if f"{what}(" in l}
    for line, what in zip(lines, ["RCCE_wait_until", "RCCE_barrier", "RCCE_barrier"]):
        assert re.search(rf"waits in RCCE_APP at \S*{at[what]}, waiting in {what} "
                         rf"\(\S*libscc/src/\S+\.c:\d+\)$", line), (line, why)


def test_chip_stall_is_stopped_and_reported():
    """The same program on the chip: the machine ends it as a stall."""
    r = run_app(libscc_test("stall"), cores="0,1,5", args=ue_args([0, 1, 5]), timeout=120)
    why = explain(r, tail=6000)
    assert not r.timed_out and r.returncode == EXIT_STALLED, why
    assert "no core can make progress" in r.stderr, why


def test_chip_power_domain_clock_reaches_its_ues_in_time():
    """Timing mode: RCCE_iset_power by the domain's master halves the clock
    of the domain's tiles while the other UEs of the domain time a loop.
    Every UE asked for its domain, so each listens for interrupts and the
    change reaches it in time (a UE that does not listen would run ahead,
    take the change late, and the machine would say so): the loop takes
    about twice the GTSC time of the same core cycles at 533 MHz."""
    cores = [0, 1, 2, 3, 12]        # domain 0 is tiles (0,0), (1,0), (0,1), (1,1)
    r = run_app(libscc_test("power"), cores=cores, args=ue_args(cores),
                machine={"timing": "on"}, timeout=CHIP_TIMEOUT)
    why = explain(r, tail=6000)
    assert not r.timed_out and r.returncode == 0, why
    assert "late" not in r.stderr, why
    loops = [l.split() for l in r.stdout.splitlines() if "power: ue" in l]
    assert len(loops) == len(cores) - 1, why
    for w in loops:
        cycles, gtsc = int(w[6]), int(w[8])
        at_full_speed = cycles * 125e6 / 533.333333e6
        assert 1.8 * at_full_speed < gtsc < 2.1 * at_full_speed, (w, why)


@pytest.mark.parametrize("name,cores,args", CASES, ids=IDS)
def test_chip(name, cores, args):
    r = run_app(libscc_test(name), cores=cores, args=ue_args(cores) + args,
                timeout=CHIP_TIMEOUT)
    why = explain(r, tail=6000)
    assert not r.timed_out, why
    assert r.returncode == 0, why
    assert f"PASS {name} ({len(cores)} UEs)" in r.core_lines().get(0, []), why


# --- apps/pingpong.c ----------------------------------------------------------------

PP_APIS = {"rcce", "putget", "ircce"}
PP_PEERS = {1, 2, 11, 47}
PP_SIZES = [32 << i for i in range(16)]     # 32 B .. 1 MiB


def check_pingpong_csv(text):
    body = "\n".join(l for l in text.splitlines() if not l.startswith("#"))
    rows = list(csv.DictReader(io.StringIO(body)))
    assert rows, "no CSV rows"
    assert list(rows[0])[:6] == ["api", "peer", "bytes", "iterations",
                                 "usec_per_roundtrip", "MB_per_s"]
    seen = {(r["api"], int(r["peer"]), int(r["bytes"])) for r in rows}
    want = {(a, p, n) for a in PP_APIS for p in PP_PEERS for n in PP_SIZES}
    assert seen == want, f"missing {sorted(want - seen)[:5]}, extra {sorted(seen - want)[:5]}"
    for r in rows:
        assert int(r["iterations"]) >= 2
        assert float(r["usec_per_roundtrip"]) > 0 and float(r["MB_per_s"]) > 0
    return rows


@pytest.mark.no_qemu
@pytest.mark.parametrize("variant", ["host", "tsan"])
def test_pingpong_host(variant):
    r = run_host(host_app(variant, "pingpong"), ue_args(FIVE) + ["1048576", "1048576"])
    why = explain(r, tail=6000)
    assert r.returncode == 0, why
    for mark in SANITIZER_MARKS:
        assert mark not in r.stderr, why
    check_pingpong_csv(r.stdout)


@pytest.mark.no_qemu
@pytest.mark.parametrize("variant", ["host", "tsan"])
def test_pingpong_host_rcce1_protocol(variant):
    """RCCE 1.x's protocol (--proto rcce1: its chunk, flag clears, and the
    bytes after the last whole line as a chunk of their own) with a send
    and a receive buffer moves every size right, around each boundary of
    its cut (5,312-B chunks for 2 UEs), without a race."""
    sizes = "1,31,32,33,3840,3841,4100,5311,5312,5313,5344,10623,10625,70000"
    for copy in ("rcce1", "libscc"):
        r = run_host(host_app(variant, "pingpong"),
                     ue_args([0, 1]) + ["--sizes", sizes, "--budget", "64", "--copy", copy,
                                        "--proto", "rcce1", "--buffers", "separate"])
        why = explain(r, tail=6000)
        assert r.returncode == 0, why
        for mark in SANITIZER_MARKS:
            assert mark not in r.stderr, why
        rows = [l.split(",") for l in r.stdout.splitlines() if l[:1] not in ("#", "a")]
        assert len(rows) == 3 * 14 and all(w[8] == "yes" for w in rows), why


def test_pingpong_chip():
    r = run_app(app("pingpong"), cores=FIVE,
                args=ue_args(FIVE) + ["1048576", "1048576"], timeout=CHIP_TIMEOUT)
    why = explain(r)
    assert not r.timed_out and r.returncode == 0, why
    check_pingpong_csv(r.core_stdout(0))
