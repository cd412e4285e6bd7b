"""The per-core kernel (docs/kernel.md, include/scc/syscall.h) through
applications: tests/apps/*.c linked with picolibc and libscc/sys, run with
sccrun.run_app on the whole chip or on a few cores.

The apps print facts (counts, addresses, page-table entries, clock
readings, formatted values); the verdicts are computed here, against
expectations that come from the contract and from Python itself, not from
the kernel's own view of things.
"""
from __future__ import annotations

import math
import re
import struct

import pytest

from lib.abi import EXIT_BADAPP, EXIT_PAGE_FAULT, EXIT_PANIC, EXIT_STOPPED
from scc.machine.sccrun import run_app
from lib import PT_LOAD, app, artifact, explain, phdrs, set_phdr, test_app

TIMEOUT = 90  # seconds, per run
NCORES = 48
MODES = ["ipi", "poll", "hybrid"]

PTE_P, PTE_W, PTE_U, PTE_PCD, PTE_MPBT = 0x1, 0x2, 0x4, 0x10, 0x80
EFAULT = 14
ENOMEM = 12


def passed(r):
    """The run ended by itself with status 0; its console lines by core."""
    assert not r.timed_out and r.returncode == 0, explain(r)
    return r.core_lines()


def failed_cores(r):
    """Cores the machine lists as failed on stderr."""
    return sorted(int(c) for c in re.findall(r"scc: core (\d+) failed", r.stderr))


def parse_int(text):
    return int(text, 0)


# --- running apps ---------------------------------------------------------------

def test_hello_every_core():
    lines = passed(run_app(app("hello"), timeout=TIMEOUT))
    assert sorted(lines) == list(range(NCORES)), sorted(lines)
    for c in range(NCORES):
        assert lines[c] == [f"hello from core {c:02d} of {NCORES}"], (c, lines[c])


def test_default_core_map():
    """`make` leaves build/default.map: the kernel and hello on every core."""
    from scc.machine.sccrun import run
    lines = passed(run(coremap=str(artifact("default.map")), timeout=TIMEOUT))
    assert sorted(lines) == list(range(NCORES)), sorted(lines)
    for c in range(NCORES):
        assert lines[c] == [f"hello from core {c:02d} of {NCORES}"], (c, lines[c])


def test_hello_small_mesh_and_some_cores():
    """Only the cores of the spec run; the chip size comes from the machine."""
    machine = {"mesh-x": "2", "mesh-y": "2"}
    lines = passed(run_app(app("hello"), cores="1,5-6", machine=machine, timeout=TIMEOUT))
    assert sorted(lines) == [1, 5, 6]
    for c in (1, 5, 6):
        assert lines[c] == [f"hello from core {c:02d} of 8"]


def test_scc_run_time_reports_boot_to_app_start(repo):
    import subprocess
    import sys
    p = subprocess.run([sys.executable, str(repo / "tools" / "scc-run"), "--time",
                        "--time-mark", "hello from", "--timeout", str(TIMEOUT),
                        "--app", str(app("hello"))],
                       capture_output=True, text=True, timeout=TIMEOUT + 30,
                       stdin=subprocess.DEVNULL)
    assert p.returncode == 0, p.stderr[-3000:]
    m = re.search(r"scc-run: time: (\d+) cores printed their first line containing "
                  r"'hello from'; the first after ([\d.]+) s, the last \(core \d+\) after "
                  r"([\d.]+) s; QEMU exited after ([\d.]+) s", p.stderr)
    assert m, p.stderr[-3000:]
    n, first, last, end = int(m[1]), float(m[2]), float(m[3]), float(m[4])
    assert n == NCORES
    assert 0 < first <= last <= end < TIMEOUT


def test_args_plain():
    args = ["one", "x=y", "--flag", "1000"]
    lines = passed(run_app(test_app("hello_args"), cores="0,47", args=args, timeout=TIMEOUT))
    want = [f"argc {len(args) + 1}", "argv[0] [hello_args.elf]"]
    want += [f"argv[{i + 1}] [{a}]" for i, a in enumerate(args)]
    want += ["argv[argc] NULL", "envp[0] NULL", "args done"]
    for c in (0, 47):
        assert lines[c] == want, lines[c]


def test_args_quoted():
    """Arguments with spaces (and empty ones) reach the app intact: the
    runner double-quotes them on the kernel command line."""
    args = ["two words", "", "it's", " lead and trail "]
    lines = passed(run_app(test_app("hello_args"), cores="3", args=args, timeout=TIMEOUT))
    want = [f"argc {len(args) + 1}", "argv[0] [hello_args.elf]"]
    want += [f"argv[{i + 1}] [{a}]" for i, a in enumerate(args)]
    assert lines[3][:len(want)] == want, lines[3]


# --- faults ---------------------------------------------------------------------

# docs/kernel.md: "core 07: exception 14 (page fault), error 0x6, eip
# 0x40001234, cr2 0xdead0000, task hello.elf"
EXC_LINE = re.compile(r"core (\d+): exception (\d+) \(([^)]*)\), error 0x([0-9a-f]+), "
                      r"eip 0x([0-9a-f]+), cr2 0x([0-9a-f]+), task (\S+)")
PF_P, PF_W, PF_U = 1, 2, 4  # x86 page-fault error code bits


def exception_report(r, core):
    """(core, vector, name, error, eip, cr2, task) from the core's report."""
    for l in r.core_lines().get(core, []):
        m = EXC_LINE.search(l)
        if m:
            return (int(m[1]), int(m[2]), m[3], int(m[4], 16), int(m[5], 16), int(m[6], 16), m[7])
    raise AssertionError(f"core {core} printed no exception report\n" + explain(r))


def text_range(path):
    """[start, end) of the executable PT_LOAD segment of an ELF32 file."""
    for _, ph in phdrs(path.read_bytes()):
        if ph["p_type"] == PT_LOAD and ph["p_flags"] & 1:
            return ph["p_vaddr"], ph["p_vaddr"] + ph["p_memsz"]
    raise AssertionError("no text segment")


@pytest.mark.parametrize("victim", [5, 46])
def test_page_fault_report(victim):
    # on-failure=continue: the other cores run to their end (the default,
    # fail-fast, is tested in test_reliability.py).
    r = run_app(test_app("fault_read"), args=[f"core={victim}"], timeout=TIMEOUT,
                machine={"on-failure": "continue"})
    assert not r.timed_out and r.returncode == EXIT_PAGE_FAULT, explain(r)
    lines = r.core_lines()[victim]
    assert f"core {victim:02d} reads 0xdead0000" in lines, explain(r)
    assert not any("no fault" in l for l in lines), explain(r)
    core, vector, name, err, eip, cr2, task = exception_report(r, victim)
    assert (core, vector, cr2, task) == (victim, 14, 0xDEAD0000, "fault_read.elf"), lines
    assert "page fault" in name.lower(), lines
    # a user-mode read of a page that is not present
    assert err & (PF_P | PF_W | PF_U) == PF_U, hex(err)
    lo, hi = text_range(test_app("fault_read"))
    assert lo <= eip < hi, hex(eip)
    # Only the victim failed; every other core exited 0.
    assert failed_cores(r) == [victim], r.stderr


def test_user_write_to_kernel_page_refused():
    victim = 9
    r = run_app(test_app("fault_kwrite"), args=[f"core={victim}"], timeout=TIMEOUT,
                machine={"on-failure": "continue"})
    assert not r.timed_out and r.returncode == EXIT_PAGE_FAULT, explain(r)
    lines = r.core_lines()[victim]
    assert f"core {victim:02d} writes 0x00100000" in lines, explain(r)
    assert not any("no fault" in l for l in lines), explain(r)
    core, vector, name, err, eip, cr2, task = exception_report(r, victim)
    assert (core, vector, cr2, task) == (victim, 14, 0x00100000, "fault_kwrite.elf"), lines
    # a user-mode write to a present page: a protection violation
    assert err & (PF_P | PF_W | PF_U) == PF_P | PF_W | PF_U, hex(err)
    lo, hi = text_range(test_app("fault_kwrite"))
    assert lo <= eip < hi, hex(eip)
    assert failed_cores(r) == [victim], r.stderr


# --- virtual memory ---------------------------------------------------------------

VM_CORES = [0, 1, 22, 47]


@pytest.fixture(scope="module")
def vm_ptes():
    """{core: {name: (addr, pte or None, err or None)}} from vm_query."""
    r = run_app(test_app("vm_query"), cores=",".join(map(str, VM_CORES)), timeout=TIMEOUT)
    lines = passed(r)
    out = {}
    for c in VM_CORES:
        assert "mpb rw ok" in lines[c] and lines[c][-1] == "vm_query done", lines[c]
        d = {}
        for l in lines[c]:
            m = re.fullmatch(r"pte (\w+) (0x[0-9a-f]+) (?:(0x[0-9a-f]+)|err (-?\d+))", l)
            if m:
                d[m[1]] = (int(m[2], 16), int(m[3], 16) if m[3] else None,
                           int(m[4]) if m[4] else None)
        out[c] = d
    return out


def bits(pte):
    return {n for n, b in [("P", PTE_P), ("W", PTE_W), ("U", PTE_U), ("PCD", PTE_PCD),
                           ("MPBT", PTE_MPBT)] if pte & b}


def test_mpbt_mapping(vm_ptes):
    """MPB pages are MPBT (PTE bit 7) and user; heap, stack, data, text are not MPBT."""
    for c, d in vm_ptes.items():
        for name in ("mpb_own_tile", "mpb_own_user", "mpb_tile0", "mpb_last_tile"):
            addr, pte, err = d[name]
            assert err is None, (c, name, err)
            assert {"P", "U", "MPBT"} <= bits(pte), (c, name, hex(pte))
            # identity mapped (docs/kernel.md)
            assert pte & ~0xFFF == addr & ~0xFFF, (c, name, hex(addr), hex(pte))
        for name in ("heap", "stack", "data"):
            addr, pte, err = d[name]
            assert err is None, (c, name, err)
            assert {"P", "U", "W"} <= bits(pte) and "MPBT" not in bits(pte), (c, name, hex(pte))
        addr, pte, err = d["text"]
        assert err is None and {"P", "U"} <= bits(pte) and "MPBT" not in bits(pte), (c, hex(pte))


def test_vm_layout(vm_ptes):
    """The rest of docs/kernel.md's table, as the page tables say it."""
    for c, d in vm_ptes.items():
        addr, pte, err = d["shm"]
        assert err is None and {"P", "U", "W", "PCD"} <= bits(pte), (c, "shm", pte, err)
        assert "MPBT" not in bits(pte) and pte & ~0xFFF == addr & ~0xFFF
        addr, pte, err = d["gtsc"]
        assert err is None and {"P", "U"} <= bits(pte) and "W" not in bits(pte), (c, "gtsc", pte)
        addr, pte, err = d["atomic"]
        assert err is None and {"P", "U", "W"} <= bits(pte), (c, "atomic", pte)
        addr, pte, err = d["null"]
        assert err == -EFAULT or (pte is not None and not pte & PTE_P), (c, "null", pte, err)
        addr, pte, err = d["kernel"]
        assert err == -EFAULT or (pte is not None and not pte & PTE_U), (c, "kernel", pte, err)


def elf_end(path):
    """End of the highest PT_LOAD segment of an ELF32 file."""
    return max(ph["p_vaddr"] + ph["p_memsz"] for _, ph in phdrs(path.read_bytes())
               if ph["p_type"] == PT_LOAD)


def test_heap_grows_and_returns():
    r = run_app(test_app("heap"), cores="0,13", timeout=TIMEOUT)
    lines = passed(r)
    end = elf_end(test_app("heap"))
    for c in (0, 13):
        assert lines[c][-1] == "heap done", lines[c]
        # lines by their first word ("mmap huge ..." as mmap_huge)
        facts = {("mmap_huge" if l.startswith("mmap huge") else l.split()[0]): l
                 for l in lines[c]}
        brk0 = int(facts["brk0"].split()[1], 16)
        assert end <= brk0 <= (end + 0xFFF) & ~0xFFF, (hex(end), hex(brk0))
        _, old, new = facts["grow"].split()
        assert (int(old, 16), int(new, 16)) == (brk0, brk0 + 0x10000), facts["grow"]
        m = re.fullmatch(r"grown pte (0x[0-9a-f]+)", facts["grown"])
        assert m and {"P", "U", "W"} <= bits(int(m[1], 16)), facts["grown"]
        _, old, new = facts["shrink"].split()
        assert (int(old, 16), int(new, 16)) == (brk0 + 0x10000, brk0), facts["shrink"]
        m = re.fullmatch(r"shrunk (?:pte (0x[0-9a-f]+)|err (-\d+))", facts["shrunk"])
        assert m and (m[2] == f"-{EFAULT}" or not int(m[1], 16) & PTE_P), \
            f"the page given back is still mapped: {facts['shrunk']}"
        assert facts["huge"] == f"huge 0xffffffff {ENOMEM}", facts["huge"]
        rounds = [l for l in lines[c] if l.startswith("malloc round")]
        assert len(rounds) == 2
        brks = [int(l.split()[-1], 16) for l in rounds]
        assert brks[0] > brk0 and brks[1] == brks[0], f"freed memory was not reused: {rounds}"
        assert "big malloc 8388608 ok" in lines[c]
        m = re.fullmatch(r"mmap (0x[0-9a-f]+) 1048576 zero (\d)", facts["mmap"])
        assert m, facts["mmap"]
        addr = int(m[1], 16)
        assert 0x70000000 <= addr and addr + (1 << 20) <= 0x7FE00000 and addr % 4096 == 0, hex(addr)
        assert m[2] == "1", "mmap gave pages that are not zeroed"
        m = re.fullmatch(r"munmap (-?\d+) (?:pte (0x[0-9a-f]+)|err (-\d+))", facts["munmap"])
        assert m and m[1] == "0", facts["munmap"]
        assert m[3] == f"-{EFAULT}" or not int(m[2], 16) & PTE_P, facts["munmap"]
        assert facts["mmap_huge"] == "mmap huge 0x00000000", facts["mmap_huge"]


# --- picolibc -----------------------------------------------------------------------

def test_picolibc():
    r = run_app(test_app("libc"), cores="0,47", timeout=TIMEOUT)
    lines = passed(r)
    vi, vx, vf, vll = -42, 0xBEEF, 3.14159265358979, -1234567890123
    for c in (0, 47):
        got = lines[c]
        assert got[-1] == "libc done", got
        want = [
            "fmt d=%d x=%x X=%X o=%o u=%d s=%s c=%c" % (vi, vx, vx, vx, vi & 0xFFFFFFFF, "str", "Z"),
            "fmt f=%f .3f=%.3f e=%e g=%g" % (vf, vf, vf * 1e10, vf / 1000),
            "fmt lld=%d llu=%d llx=%x" % (vll, 2**64 - 1, vll & (2**64 - 1)),
            "fmt width=[%8d] left=[%-8d] zero=[%08.3f] pct=%%" % (vi, vi, vf),
            "stderr works %d" % vi,
            "snprintf %d [%s]" % (len("str-%d-%.2f" % (vi, vf)), "str-%d-%.2f" % (vi, vf)),
        ]
        for w in want:
            assert w in got, f"core {c}: missing {w!r} in {got}"
        math_line = next(l for l in got if l.startswith("math sqrt2="))
        vals = dict(kv.split("=") for kv in math_line.split()[1:])
        expect = {"sqrt2": math.sqrt(2), "sin1": math.sin(1), "exp1": math.exp(1),
                  "log10": math.log(10), "pow": math.pow(2, 0.5), "atan2": math.atan2(1, 2)}
        for k, v in expect.items():
            assert math.isclose(float(vals[k]), v, rel_tol=1e-15), (k, vals[k], v)
        # %.17g: picolibc prints the shortest digits that read back as the
        # same double (0.57522203923063, where glibc and Python print
        # 0.57522203923062998), so the values are compared, not the text.
        rounding = next(l for l in got if l.startswith("math floor="))
        rv = dict(kv.split("=") for kv in rounding.split()[1:])
        assert (rv["floor"], rv["ceil"], rv["fabs"]) == (
            "%.1f" % math.floor(-vf), "%.1f" % math.ceil(vf), "%.1f" % abs(-vf)), rounding
        assert float(rv["fmod"]) == math.fmod(10, vf), rounding
        f32 = next(l for l in got if l.startswith("math sqrtf="))
        fv = dict(kv.split("=") for kv in f32.split()[1:])
        # single precision: within 2 ulp (2**-23 relative each)
        assert math.isclose(float(fv["sqrtf"]), math.sqrt(2), rel_tol=2.5e-7), f32
        assert math.isclose(float(fv["sinf"]), math.sin(1), rel_tol=2.5e-7), f32
        assert "math sqrt(-1) isnan=1" in got
        s = "hello, world"
        assert (f"str len={len(s)} cmp=1 ncmp=1 chr={s.index('w')} str={s.index('world')} "
                f"dup=[{s}] upper=H") in got, got
        assert "conv strtol=-1234 rest=[xyz] strtoul=2147483647 strtod=%.9g atoi=99" % 6.02214076e23 in got
        assert "qsort " + " ".join(map(str, sorted([5, -3, 99, 0, 42, 7, -100, 13]))) in got
        assert "malloc total=%d calloc_zero=1 realloc=ok" % sum(i * 37 for i in range(1, 101)) in got
        # errno from the kernel's -EINVAL; stdin at EOF; the console a tty;
        # pid = core id + 1 (libscc/sys/syscalls.c)
        assert f"posix write5=-1 errno=22 read0=0 isatty1=1 fstat1=0 chr=1 pid={c + 1}" in got, got
        tl = next(l for l in got if l.startswith("time t="))
        m = re.fullmatch(r"time t=(\d+) clock_advanced=1", tl)
        assert m and int(m[1]) < TIMEOUT, tl  # seconds since the machine's reset


# --- timer ----------------------------------------------------------------------------

TICK_CORES = "0,1,23,47"


def tick_rates(kernel_tick, app_hz):
    """{core: measured Hz} from one tick_rate run."""
    r = run_app(test_app("tick_rate"), cores=TICK_CORES, kernel_opts=[f"tick={kernel_tick}"],
                args=[f"hz={app_hz}", "secs=1"], timeout=TIMEOUT)
    lines = passed(r)
    rates = {}
    for c in map(int, TICK_CORES.split(",")):
        m = re.fullmatch(r"ticks (\d+) gtsc (\d+) gtsc_hz (\d+)", lines[c][-1])
        assert m, lines[c]
        ticks, dg, ghz = map(int, m.groups())
        seconds = dg / ghz
        assert 0.99 <= seconds < 1.5, seconds
        rates[c] = ticks / seconds
    return rates


@pytest.mark.alone
@pytest.mark.parametrize("kernel_tick, app_hz, want_hz", [(100, 0, 100), (0, 250, 250)],
                         ids=["option-tick=100", "SYS_tick-250"])
def test_tick_rate(kernel_tick, app_hz, want_hz):
    """The tick count over 1 s of GTSC is within 5% of the rate.

    QEMU's APIC timer runs on the host's clock: a tick that comes while the
    previous one is still pending (the core's thread had no host CPU for a
    whole period, as when the host is busy with other work) is merged into
    it, so a loaded host loses ticks that the kernel never saw. Up to three
    runs are made; one run with every core within 5% passes. A wrong rate
    fails all three."""
    attempts = []
    for _ in range(3):
        rates = tick_rates(kernel_tick, app_hz)
        attempts.append({c: round(v, 1) for c, v in rates.items()})
        if all(abs(v - want_hz) <= 0.05 * want_hz for v in rates.values()):
            return
    pytest.fail(f"want {want_hz} Hz within 5%; measured (core: Hz) in 3 runs: {attempts}")


def test_tick_off_means_no_ticks():
    """tick=0 (the default) and no SYS_tick: the app sees no tick at all."""
    r = run_app(test_app("tick_rate"), cores="2", args=["hz=0"], timeout=TIMEOUT)
    assert not r.timed_out and r.returncode == 1, explain(r)
    assert any("no tick within 2 s" in l for l in r.core_lines()[2]), explain(r)


# --- inter-core interrupts ----------------------------------------------------------------

def test_ipi_every_pair_exactly_once():
    """48 x 47 pulses, one at a time, each acknowledged before the next."""
    r = run_app(test_app("ipi_all"), args=[f"cores={NCORES}", "tick=200"], timeout=180)
    lines = passed(r)
    assert sorted(lines) == list(range(NCORES))
    for c in range(NCORES):
        bad = [l for l in lines[c] if l.startswith("ipi target") or l.startswith("ipi extra")]
        assert not bad, f"core {c}: {bad}"
        assert lines[c][-1] == f"ipi received {NCORES - 1} sent {NCORES - 1}", (c, lines[c])


# --- mailbox ------------------------------------------------------------------------------

@pytest.mark.parametrize("mode", MODES)
def test_mailbox_48_senders_one_receiver(mode):
    """47 other cores and the receiver itself each send 1000 messages to
    core 0: every message arrives exactly once, in each sender's order."""
    n = 1000
    r = run_app(test_app("mbox_many"), kernel_opts=[f"mbox={mode}"],
                args=["recv=0", f"n={n}", f"cores={NCORES}", "self=1"], timeout=180)
    lines = passed(r)
    rl = lines[0]
    assert not [l for l in rl if l.startswith("mbox bad")], rl[:20]
    for s in range(NCORES):
        assert f"mbox from {s:02d} count {n} next {n}" in rl, (s, rl)
    assert (f"mbox total {NCORES * n} errors 0 extra 0 mode {mode} "
            f"received_kstat {NCORES * n}") in rl, rl[-3:]
    for s in range(1, NCORES):
        m = re.fullmatch(r"mbox sent (\d+) full_waits (\d+) kstat_sent (\d+)", lines[s][-1])
        assert m and int(m[1]) == n and int(m[3]) == n, (s, lines[s])


# The kernel's receive queue and ring (docs/kernel.md).
QUEUE, RING = 4096, 30


@pytest.mark.parametrize("mode", MODES)
def test_mailbox_full_ring_blocks_senders_and_loses_nothing(mode):
    n, cores = 5000, 4
    r = run_app(test_app("mbox_full"), cores=f"0-{cores - 1}", kernel_opts=[f"mbox={mode}"],
                args=["recv=0", f"n={n}", f"cores={cores}", "quiet_ms=1000"], timeout=180)
    lines = passed(r)
    stalled = next(l for l in lines[0] if l.startswith("mbox stalled at"))
    # In ipi mode the receiver's interrupt handler moves messages into the
    # kernel queue until it is full; in poll and hybrid mode (the receiver
    # is busy in user mode, never asleep) nothing drains the ring.
    want = QUEUE + RING if mode == "ipi" else RING
    assert stalled == f"mbox stalled at {want}", (mode, stalled)
    assert f"mbox drained {n * (cores - 1)} errors 0 extra 0" in lines[0], lines[0]
    for s in range(1, cores):
        m = re.fullmatch(r"mbox sent (\d+) full_waits (\d+)", lines[s][-1])
        assert m and int(m[1]) == n, lines[s]
        assert int(m[2]) > 0, f"core {s} never found the ring full: {lines[s]}"


def test_mbox_bench_smoke():
    r = run_app(app("mbox_bench"), kernel_opts=["mbox=ipi"],
                args=["n=50", "warmup=5"], timeout=TIMEOUT)
    lines = passed(r)
    assert sorted(lines) == [0], "only core 0 prints"
    rows = [l.split(",") for l in lines[0] if l.startswith("mbox,")]
    assert len(rows) == 4 * 4, lines[0]
    seen = set()
    med = {}
    for row in rows:
        assert len(row) == 8, row
        _, mode, peer, kind, unit = row[:5]
        median, lo, hi = map(int, row[5:])
        assert mode == "ipi" and kind in ("oneway", "rtt") and unit in ("tsc", "gtsc")
        assert 0 < lo <= median <= hi, row
        seen.add((int(peer), kind, unit))
        med[(int(peer), kind, unit)] = median
    assert seen == {(p, k, u) for p in (1, 2, 11, 47) for k in ("oneway", "rtt")
                    for u in ("tsc", "gtsc")}
    for p in (1, 2, 11, 47):
        assert med[(p, "rtt", "gtsc")] > med[(p, "oneway", "gtsc")], med


# --- panic ----------------------------------------------------------------------------------

@pytest.mark.parametrize("victim", [7, 0])
def test_panic_stops_every_core(victim):
    r = run_app(test_app("panic"), args=[f"core={victim}", f"cores={NCORES}"], timeout=TIMEOUT)
    assert not r.timed_out, explain(r)
    # The lowest failing core's status: the victim's panic if it is core 0.
    assert r.returncode == (EXIT_PANIC if victim == 0 else EXIT_STOPPED), explain(r)
    lines = r.core_lines()
    assert f"core {victim:02d}: panic: test panic from core {victim:02d}" in lines[victim], \
        explain(r)
    for c in range(NCORES):
        if c != victim:
            assert lines.get(c, [""])[-1] == f"core {c:02d}: stopped: core {victim:02d} panicked", \
                (c, lines.get(c))
    assert failed_cores(r) == list(range(NCORES)), r.stderr[-2000:]
    assert re.search(rf"scc: core {victim:02d} failed: .*\b{EXIT_PANIC}\b", r.stderr), r.stderr[-2000:]


# --- bad applications -------------------------------------------------------------------------

def patched_elf(src, tmp_path, name, patch):
    data = bytearray(src.read_bytes())
    patch(data)
    p = tmp_path / name
    p.write_bytes(bytes(data))
    return p


def move_segments(data, new_base):
    """Relink (crudely) an ELF32 at new_base: program headers and entry."""
    entry, = struct.unpack_from("<I", data, 24)
    delta = new_base - 0x40000000
    struct.pack_into("<I", data, 24, entry + delta)
    for off, ph in phdrs(data):
        if ph["p_type"] == PT_LOAD:
            set_phdr(data, off, p_vaddr=ph["p_vaddr"] + delta, p_paddr=ph["p_paddr"] + delta)


def bad_app_cases():
    return {
        "not-elf": lambda src, d: d.__setitem__(slice(0, len(d)), b"this is not an ELF file\n" * 64),
        "x86-64": lambda src, d: struct.pack_into("<H", d, 18, 62),
        "load-0x08048000": lambda src, d: move_segments(d, 0x08048000),
        "load-kernel-0x00100000": lambda src, d: move_segments(d, 0x00100000),
    }


@pytest.mark.parametrize("case", list(bad_app_cases()))
def test_bad_app_refused(tmp_path, case):
    src = app("hello")
    bad = patched_elf(src, tmp_path, f"bad-{case}.elf", lambda d: bad_app_cases()[case](src, d))
    r = run_app(bad, cores="0,5", timeout=TIMEOUT, machine={"on-failure": "continue"})
    assert not r.timed_out and r.returncode == EXIT_BADAPP, explain(r)
    assert "hello from" not in r.stdout, "the bad app ran"
    lines = r.core_lines()
    for c in (0, 5):
        text = "\n".join(lines.get(c, []))
        # A clear message: it names the app and says what is wrong.
        assert bad.name in text, explain(r)
        if case in ("not-elf", "x86-64"):
            assert re.search(r"(?i)\belf\b|i386|machine", text), explain(r)
        else:
            assert re.search(r"(?i)address|segment|outside|0x40000000", text), explain(r)
    assert failed_cores(r) == [0, 5], r.stderr


# --- SYS_peer_read --------------------------------------------------------------------

def test_peer_read_reads_the_other_cores_memory_and_refuses_what_it_may_not():
    """Cores 0 (MC0) and 31 (MC3) each fill MPBT pages with a pattern of
    their own id and read 5,000 bytes of the other's from offset 100
    (across a page boundary, odd offsets) into a plain and an MPBT
    destination: both are the other's pattern, checked byte by byte in the
    app (reading its own memory would not match). Each granted the other
    read of its buffers (kernel memory cannot be granted: -EPERM before
    any page is looked at; tests/test_grant.py has the grants' own cases).
    Then every call that must be refused is, and the destination is not
    written."""
    r = run_app(test_app("peer_read"), cores="0,31", args=["a=0", "b=31"], timeout=TIMEOUT)
    assert r.returncode == 0, explain(r)
    lines = r.core_lines("stdout")
    for core, other in ((0, 31), (31, 0)):
        assert lines[core] == [
            "read plain OK", "read mpbt OK",
            "self -22", "beyond -22", "idle -3", "toolarge -22", "src_tail -14",
            f"core {core:02d}: peer read refused: core {other:02d} granted core {core:02d} "
            "no read of 64 bytes at 0x00001000",
            "src_kernel -1", "dst_text -14", "dst_kernel -14",
            "untouched yes", "peer_read done"], lines[core]


# --- SYS_dram_map ---------------------------------------------------------------------

@pytest.mark.parametrize("view", ["own", "any"])
def test_dram_map_shows_a_controllers_page_read_only_and_refuses_what_holds_nothing(view):
    """Core 0 is slot 0 of MC0 (system page 0); core 31, on tile (3,2), is
    MC3's second core in id order (30, 31, ...): slot 1, page 41. Each
    core's 64 MiB are its slot's first four 16 MiB pages. A view of shared
    DRAM (MC0, page 0x1EC) shows the word the core stored there; the view
    is user and present but not writable, and gone once taken away. The
    neighbouring slot, another core's memory, is refused (with a console
    line) unless the kernel option dram_view=any allows it."""
    r = run_app(test_app("dram_view"), cores="0,31", timeout=TIMEOUT,
                kernel_opts=[] if view == "own" else ["dram_view=any"])
    assert r.returncode == 0, explain(r)
    lines = r.core_lines("stdout")
    for core, mc, page0 in ((0, 0, 0), (31, 3, 41)):
        out = [l for l in lines[core] if not l.startswith(f"core {core:02d}: ")]   # the kernel's
        other = 41 if page0 == 0 else page0 - 41
        assert out[-1] == "dram_view done", out
        assert out[0] == f"slot {mc} {page0} {64 << 20}", out
        assert out[1:8] == [
            f"map 4 0 4096 null", f"map {mc} 512 4096 null",
            f"map {mc} {page0} {(16 << 20) + 4096} null", f"map {mc} {page0 + 4} 4096 null",
            f"map {mc} 500 4096 null", f"map {mc} {page0} 8192 ok",
            f"map {mc} {other} 4096 {'ok' if view == 'any' else 'null'}"], out
        refused = f"core {core:02d}: DRAM view refused: MC{mc} page {other} is another core's"
        assert (refused in r.stdout) == (view == "own"), explain(r)
        wrote, seen = out[8].split()[1:]
        assert int(wrote, 16) == 0x5CC0FFEE ^ core and seen == wrote, out
        pte = int(out[9].split()[2], 16)
        assert pte & 0x5 == 0x5 and not pte & 0x2 and pte >> 24 == 0x2C, out
        assert out[10:12] == ["unmap null", "view pte err -14"], out


# --- sleep (SYS_sleep) ------------------------------------------------------------

@pytest.mark.parametrize("timing", [False, True], ids=["functional", "timing"])
def test_sleep_halts_for_the_time_asked(timing):
    """usleep(200 ms), nanosleep(50 ms) and sleep(1) on two cores at once:
    each takes at least the time asked on the GTSC and at most 5 ms more
    in timing mode, 20 ms more in functional mode, and the core is halted
    for at least 95 % of it in timing mode, half of it in functional mode,
    whose clock is the host's (it sleeps, it does not spin: a spinning
    sleep halts 0 %); with every core asleep the machine sees armed
    timers, not a stall. A bad time is EINVAL."""
    r = run_app(test_app("sleep"), cores="0,47", timeout=TIMEOUT,
                machine={"timing": "on"} if timing else None)
    lines = passed(r)
    for c in (0, 47):
        got = lines[c]
        assert got[-1] == "sleep done", got
        assert "sleep einval 1" in got and "sleep negative 1" in got, got
        seen = {}
        for line in got:
            m = re.fullmatch(r"sleep (\w+) asked=(\d+) took=(\d+) halted=(\d+)", line)
            if m:
                seen[m.group(1)] = tuple(map(int, m.groups()[1:]))
        assert set(seen) == {"usleep", "nanosleep", "sleep"}, got
        for name, (asked, took, halted) in seen.items():
            # functional mode's clock is the host's: a busy host delays
            # the wake-up (94.7 % halted and 5.46 ms late seen under the
            # full suite); timing mode is exact. 20 ms still catches a
            # wake-up left to QEMU's 100 ms kick.
            late = 5_000_000 if timing else 20_000_000
            assert asked <= took <= asked + late, (c, name, asked, took)
            assert halted >= (0.95 if timing else 0.5) * took, (c, name, took, halted)
