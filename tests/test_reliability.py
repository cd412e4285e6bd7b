"""Reliability: bad input is refused clearly, never a crash; applications
cannot reach reserved addresses; and every run ends by itself and says why
(fail-fast, stall detection, the per-core report).

Each test names the item of the reliability issue it covers. Expectations
come from the contract (exit statuses, the report's wording for each core
state) and from the apps' own source (which function a core waits in), not
from what the machine happened to print.
"""
from __future__ import annotations

import os
import re
import signal
import struct
import subprocess
import sys
import time

import pytest

from scc.machine import loaderfuzz
from lib import BUILD, REPO
from lib.abi import EXIT_BADAPP, EXIT_BADOPTION, EXIT_PAGE_FAULT, EXIT_STALLED
from scc.machine import sccrun
from scc.machine.sccrun import run, run_app
from lib import explain, first_load, guest, phdrs, set_phdr
from lib import test_app as app

TIMEOUT = 60
ESRCH = 3
SMALL = {"mesh-x": "2", "mesh-y": "2", "cores-per-tile": "1"}






def report(r):
    """{core: state line} from the machine's core report on stderr."""
    out = {}
    for m in re.finditer(r"scc:   core (\d\d): (.*)$", r.stderr, re.M):
        out[int(m.group(1))] = m.group(2)
    for m in re.finditer(r"scc:   cores (\d\d)-(\d\d): (.*)$", r.stderr, re.M):
        for c in range(int(m.group(1)), int(m.group(2)) + 1):
            out[c] = m.group(3)
    return out


def symbols(elf):
    """{name: (start, end)} of the function symbols of an ELF32 file."""
    data = elf.read_bytes()
    shoff, = struct.unpack_from("<I", data, 32)
    shentsize, shnum = struct.unpack_from("<HH", data, 46)
    secs = [struct.unpack_from("<10I", data, shoff + i * shentsize) for i in range(shnum)]
    out = {}
    for sec in secs:
        if sec[1] != 2:             # SHT_SYMTAB
            continue
        strtab = secs[sec[6]]
        for off in range(sec[4], sec[4] + sec[5], 16):
            name, value, size, info = struct.unpack_from("<IIIB", data, off)
            if info & 0xF == 2:     # STT_FUNC
                s = data[strtab[4] + name:data.index(b"\0", strtab[4] + name)].decode()
                out[s] = (value, value + size)
    return out


def check_where(state, elf, func):
    """state names an address inside func of elf, with func's name."""
    m = re.search(rf"0x([0-9a-f]{{8}}) \((\w+)\+0x([0-9a-f]+) in {re.escape(elf.name)}\)", state)
    assert m, state
    addr, name, off = int(m.group(1), 16), m.group(2), int(m.group(3), 16)
    lo, hi = symbols(elf)[func]
    assert name == func and lo <= addr < hi and addr - lo == off, (state, hex(lo), hex(hi))


# --- crashes and security ---------------------------------------------------------------

def elf_with_empty_segment(src, dst):
    """src with its first PT_LOAD's p_memsz set to 0 (p_filesz stays)."""
    data = bytearray(src.read_bytes())
    off, ph = first_load(data)
    assert ph["p_filesz"] > 0
    set_phdr(data, off, p_memsz=0)
    dst.write_bytes(bytes(data))
    return [o for o, _ in phdrs(data)].index(off)


@pytest.mark.parametrize("path", ["kernel", "coremap", "stub"])
def test_loader_refuses_memsz_zero_segment(tmp_path, path):
    """Item: a PT_LOAD with p_memsz 0 and p_filesz > 0 crashed QEMU (SIGSEGV)."""
    src = BUILD / "boot" / "scc-boot.elf" if path == "stub" else guest("ids")
    bad = tmp_path / "empty-seg.elf"
    seg = elf_with_empty_segment(src, bad)
    if path == "kernel":
        r = run(bad, machine=SMALL, timeout=TIMEOUT)
    elif path == "coremap":
        (tmp_path / "m.map").write_text(f"0-3 {bad}\n")
        r = run(coremap=tmp_path / "m.map", machine=SMALL, timeout=TIMEOUT)
    else:
        r = run(guest("ids"), machine=SMALL, timeout=TIMEOUT, bios=bad)
    assert r.returncode == 1 and not r.timed_out, explain(r)
    assert re.search(rf"{re.escape(bad.name)}'?: segment {seg} has more bytes in the file",
                     r.stderr), explain(r)


def test_loader_fuzz_quick(tmp_path):
    """Item: the loader fuzz, short (tools/scc-fuzz-loader runs the long one).
    QEMU refuses with a message naming the file, or runs; it never crashes."""
    stats = loaderfuzz.fuzz(guest("ids"), BUILD / "boot" / "scc-boot.elf", cases=25, seed=7,
                            workdir=tmp_path, timeout=10)
    assert len(stats.outcomes) == 75
    assert not stats.crashes(), stats.crashes()
    # The mutations reach both outcomes on every path.
    for path in loaderfuzz.PATHS:
        assert stats.count("refused", path) > 0 and stats.count("ran", path) > 0, path


@pytest.mark.parametrize("offset", [1, 0x20])
def test_stub_code_running_off_4g_does_not_crash(tmp_path, offset):
    """Found by the loader fuzz: a stub whose reset-vector bytes are ELF
    header bytes runs an instruction across 0xFFFFFFFF, which aborted QEMU
    in its translator (translator_ld, then gen_update_eip_cur). The CPU
    raises #GP instead; the garbage code then runs until the time limit."""
    stub = tmp_path / f"stub-{offset}.elf"
    data = bytearray((BUILD / "boot" / "scc-boot.elf").read_bytes())
    off, ph = phdrs(data)[1]
    assert ph["p_vaddr"] == 0xFFFFF0        # the reset vector
    set_phdr(data, off, p_offset=offset)
    stub.write_bytes(bytes(data))
    r = run(guest("ids"), machine=SMALL, timeout=5, bios=stub)
    assert (r.timed_out or r.returncode >= 0) and "Assertion" not in r.stderr, explain(r)


@pytest.mark.no_qemu
def test_loader_fuzz_detects_a_crash(tmp_path):
    """The fuzz's verdict itself: a QEMU that dies by a signal is a crash."""
    fake = tmp_path / "qemu"
    fake.write_text("#!/bin/sh\nkill -SEGV $$\n")
    fake.chmod(0o755)
    os.environ["SCC_QEMU"] = str(fake)
    try:
        stats = loaderfuzz.fuzz(BUILD / "tests" / "guest" / "ids.elf",
                                BUILD / "boot" / "scc-boot.elf", cases=2, seed=1,
                                workdir=tmp_path, paths=("kernel",), timeout=10)
    finally:
        del os.environ["SCC_QEMU"]
    assert [o.kind for o in stats.outcomes] == ["crash", "crash"]


def app_with_segment_at(src, dst, vaddr, memsz=None):
    """src with its first PT_LOAD moved to vaddr (and memsz, if given)."""
    data = bytearray(src.read_bytes())
    off, ph = first_load(data)
    set_phdr(data, off, p_vaddr=vaddr, p_paddr=vaddr)
    if memsz is not None:
        set_phdr(data, off, p_memsz=memsz, p_filesz=min(memsz, ph["p_filesz"]))
    dst.write_bytes(bytes(data))


# Below, across the ends of, and inside every range an app must not load
# into (docs/kernel.md): low memory and the kernel, the mmap area and the
# stack, shared DRAM, MPBs, CRBs, the system interface, the LAPIC, and a
# segment whose end wraps around 4 GiB.
SEGMENTS = {
    "kernel-0x00100000": (0x00100000, None),
    "below-user-0x3ffff000": (0x3FFFF000, None),
    "across-heap-limit": (0x6FFFF000, 0x2000),
    "mmap-0x70000000": (0x70000000, None),
    "stack-0x7ff00000": (0x7FF00000, None),
    "shared-0x80000000": (0x80000000, None),
    "mpb-0xc0000000": (0xC0000000, None),
    "crb-0xe0000000": (0xE0000000, None),
    "sif-0xf9001000": (0xF9001000, None),
    "lapic-0xfee00000": (0xFEE00000, None),
    "wraps-0xfffff000": (0xFFFFF000, 0x2000),
}


@pytest.mark.parametrize("case", list(SEGMENTS))
def test_app_segment_outside_user_range_refused(tmp_path, case):
    """Item: the app loader's bounds check wrapped around, so segments at
    0xFEE00000 and 0xF9001000 loaded, giving user code the LAPIC and SIF."""
    vaddr, memsz = SEGMENTS[case]
    bad = tmp_path / f"seg-{case}.elf"
    app_with_segment_at(BUILD / "apps" / "hello.elf", bad, vaddr, memsz)
    r = run_app(bad, cores="0", timeout=TIMEOUT)
    assert not r.timed_out and r.returncode == EXIT_BADAPP, explain(r)
    assert "hello from" not in r.stdout, "the app ran"
    assert f"app {bad.name}: segment outside 0x40000000-0x6fffffff" in \
        "\n".join(r.core_lines()[0]), explain(r)


def test_smp_below_core_count_refused():
    """Item: -smp 4 aborted QEMU in tcg_register_thread."""
    r = run(guest("ids"), timeout=TIMEOUT, extra_args=["-smp", "4"])
    assert r.returncode == 1 and not r.timed_out, explain(r)
    assert "-smp 4 does not match the chip: this mesh has 48 cores" in r.stderr, explain(r)
    assert "assert" not in r.stderr.lower()
    ok = run(guest("ids"), timeout=TIMEOUT, extra_args=["-smp", "48"])
    assert ok.returncode == 0, explain(ok)


# --- runs that end, and say why ------------------------------------------------------------

def misbehave(act, wait, cores=4, machine=None, timeout=TIMEOUT):
    return run_app(app("misbehave"), cores=f"0-{cores - 1}", timeout=timeout,
                   args=["who=1", f"act={act}", f"wait={wait}", f"cores={cores}"],
                   machine=machine)


def test_fail_fast_on_exit_status():
    """Item: a core exits non-zero while the others wait: the run stops at
    once and every core is reported with its state and where it was."""
    r = misbehave("exit=3", "halt")
    assert not r.timed_out and r.returncode == 3, explain(r)
    assert "stopping the run: core 01 failed with status 3" in r.stderr, explain(r)
    states = report(r)
    assert sorted(states) == list(range(48)), explain(r)
    assert states[1] == "exited, status 3"
    for c in (0, 2, 3):
        assert states[c].startswith("halted, waiting for an interrupt at eip 0x"), states[c]
        app_part = states[c].split("; application at ")[1]
        check_where(app_part, app("misbehave"), "scc_halt")
    assert all(states[c] == "held in reset, never started" for c in range(4, 48))


def test_fail_fast_on_fault():
    """Item: a core faults: reported with core id, vector and address, the
    symbol of the faulting code; the others are stopped where they run."""
    r = misbehave("fault", "spin")
    assert not r.timed_out and r.returncode == EXIT_PAGE_FAULT, explain(r)
    states = report(r)
    m = re.fullmatch(r"faulted: exception 14 \(page fault\) at eip (.*), address 0x00000000; "
                     r"exit status 142", states[1])
    assert m, states[1]
    check_where(m.group(1), app("misbehave"), "main")
    for c in (0, 2, 3):
        assert states[c].startswith("running at eip"), states[c]
        check_where(states[c], app("misbehave"), "wait_spin")


def test_keep_going_lets_others_finish():
    """Item: on-failure=continue keeps the other cores running."""
    r = misbehave("exit=4", "done", cores=3, machine={"on-failure": "continue"})
    assert not r.timed_out and r.returncode == 4, explain(r)
    lines = r.core_lines()
    assert all("survived" in lines[c] for c in (0, 2)), explain(r)
    assert "stopping the run" not in r.stderr


def test_bad_on_failure_value_refused():
    r = run(guest("ids"), machine={"on-failure": "maybe"}, timeout=TIMEOUT)
    assert r.returncode == 1 and "on-failure must be 'stop' or 'continue'" in r.stderr, explain(r)


NO_PROGRESS = "no core can make progress"


def test_stall_after_a_clean_exit():
    """Item: a core exits 0 while the others wait for it forever."""
    r = misbehave("exit=0", "halt")
    assert not r.timed_out and r.returncode == EXIT_STALLED, explain(r)
    assert NO_PROGRESS in r.stderr, explain(r)
    states = report(r)
    assert states[1] == "exited, status 0"
    assert all(states[c].startswith("halted, waiting for an interrupt") for c in (0, 2, 3))


@pytest.mark.parametrize("act,held", [("holdself", [1]), ("holdall", [0, 1, 2, 3])])
def test_stall_when_cores_are_held_in_reset(act, held):
    """Item: a core that resets itself, or holds all of them."""
    r = misbehave(act, "halt")
    assert not r.timed_out and r.returncode == EXIT_STALLED, explain(r)
    assert NO_PROGRESS in r.stderr, explain(r)
    states = report(r)
    for c in range(4):
        if c in held:
            assert states[c] == "held in reset (by GCBCFG) after it had started", states[c]
        else:
            assert states[c].startswith("halted, waiting for an interrupt"), states[c]


@pytest.mark.parametrize("status,want", [(5, 5), (0, EXIT_STALLED)])
def test_rcce_barrier_without_a_ue_ends(status, want):
    """Item: a UE exits while the others wait in RCCE_barrier: non-zero
    stops the run (fail-fast), zero leaves a stall that is detected."""
    cores = [0, 1, 2, 3]
    r = run_app(BUILD / "tests" / "libscc" / "early_exit.elf", cores="0-3", timeout=TIMEOUT,
                args=["4", "0.533", *map(str, cores), str(status)])
    assert not r.timed_out and r.returncode == want, explain(r)
    assert not any("FAIL" in l for ls in r.core_lines().values() for l in ls), explain(r)
    states = report(r)
    assert states[1] == f"exited, status {status}"
    # A stall needs every waiter asleep; fail-fast may catch one still polling.
    waiting = ("halted, waiting for an interrupt",) + (("running at",) if status else ())
    assert all(states[c].startswith(waiting) for c in (0, 2, 3)), states


def test_time_limit_reports_core_states():
    """Item: a run that only the time limit ends still says where each core was."""
    r = misbehave("exit=0", "spin", cores=3, timeout=5)
    assert r.timed_out, explain(r)
    assert "stopped by a signal" in r.stderr, explain(r)
    states = report(r)
    for c in (0, 2):
        check_where(states[c], app("misbehave"), "wait_spin")


def test_coremap_holding_every_core_refused(tmp_path):
    """Item: a map in which no core is started is refused up front."""
    cmap = tmp_path / "hold.map"
    cmap.write_text(f"0-3 {guest('ids')} hold\n4-47 {guest('ids')} hold\n")
    r = run(coremap=cmap, timeout=TIMEOUT)
    assert r.returncode == 1 and "holds every core in reset" in r.stderr, explain(r)


def mbox_dead(cores, *args, kopts=()):
    return run_app(app("mbox_dead"), cores=cores, args=list(args), kernel_opts=list(kopts),
                   timeout=TIMEOUT)


def test_mbox_send_to_never_started_core_fails():
    """Item: send to a core that was never started returns an error."""
    r = mbox_dead("0", "to=5")
    assert not r.timed_out and r.returncode == 0, explain(r)
    assert r.core_lines()[0] == [f"send error -{ESRCH} after 0"], explain(r)


@pytest.mark.parametrize("mode", ["ipi", "poll", "hybrid"])
def test_mbox_send_to_exited_core_fails(mode):
    """Item: send to a core that has exited returns an error, also when the
    sender was waiting for room in the exited core's full ring."""
    r = mbox_dead("0,1", "to=1", "recv=exit", kopts=[f"mbox={mode}"])
    assert not r.timed_out and r.returncode == 0, explain(r)
    m = re.fullmatch(rf"send error -{ESRCH} after (\d+)", r.core_lines()[0][-1])
    # The ring (30) and the kernel queue (4096) are all it can have taken.
    assert m and int(m.group(1)) <= 4096 + 30, explain(r)


@pytest.mark.parametrize("mode", ["ipi", "poll", "hybrid"])
def test_mbox_sends_nobody_receives_end_as_stall(mode):
    """Item: more sends than the kernel can buffer while nobody receives:
    the sender sleeps, and the run ends as a stall naming where: the
    kernel's sleep (idle, or mbox_send where it is inlined) under the
    application's scc_mbox_send."""
    r = mbox_dead("0,1", "to=1", "recv=halt", kopts=[f"mbox={mode}"])
    assert not r.timed_out and r.returncode == EXIT_STALLED, explain(r)
    states = report(r)
    assert re.search(r"\((idle|mbox_send)\+0x[0-9a-f]+ in kernel\.elf\); application at .*"
                     r"\(scc_mbox_send\+", states[0]), states[0]


@pytest.mark.parametrize("timing", [False, True], ids=["functional", "timing"])
@pytest.mark.parametrize("mode", ["ipi", "poll", "hybrid"])
def test_mbox_scribbled_ring_delivers_nothing_false(mode, timing):
    """Item: user code scribbling over a mailbox ring: the kernel drops and
    counts corrupt slots and delivers only what senders sent. A run drops
    thousands of lines; with the 16-bit check the slots had, the timing
    mode's run of mode ipi (deterministic) delivered one of them, a
    one-in-65,536 collision; the check is 26 bits now."""
    r = run_app(app("mbox_scribble"), cores="0-4", args=["senders=3"], kernel_opts=[f"mbox={mode}"],
                timeout=120, machine={"timing": "on"} if timing else None)
    assert not r.timed_out and r.returncode == 0, explain(r)
    lines = r.core_lines()
    m = [re.fullmatch(r"valid (\d+) invalid (\d+) dropped (\d+)", l) for l in lines[0]]
    m = [x for x in m if x]
    assert m, explain(r)
    valid, invalid, dropped = map(int, m[-1].groups())
    assert invalid == 0, explain(r)
    assert valid > 0 and dropped > 0, explain(r)
    assert f"core 00: mailbox: {dropped} corrupt slot(s) dropped" in lines[0], explain(r)


# --- smaller things ----------------------------------------------------------------------

def test_console_keeps_every_byte():
    """Item: a NUL dropped the rest of the line; non-printable bytes are
    now shown escaped."""
    r = run(guest("sifio"), machine=SMALL, timeout=TIMEOUT)
    assert r.returncode == 0, explain(r)
    want = "".join(c if 0x20 <= ord(c) < 0x7F else f"\\x{ord(c):02x}"
                   for c in "A\0B\033[31mC\177D\377E\rF")
    assert r.core_lines()[0][0] == want, explain(r)


def test_narrow_register_accesses_logged(tmp_path):
    """Item: 8/16-bit and unaligned accesses to CRB and SIF registers read 0
    and are ignored, each with a guest-error log entry."""
    log = tmp_path / "guest-errors.log"
    r = run(guest("sifio"), machine=SMALL, timeout=TIMEOUT,
            extra_args=["-d", "guest_errors", "-D", str(log)])
    assert r.returncode == 0, explain(r)
    lines = r.core_lines()[0]
    for w in ("r8 ncores 0", "r16 ncores 0", "r32+1 ncores 0", "r8 tileid 0", "r32 ncores 4"):
        assert w in lines, (w, lines)
    text = log.read_text()
    want = [r"1-byte read of system interface offset 0x100c",
            r"2-byte read of system interface offset 0x100c",
            r"1-byte read of system interface offset 0x100d",   # unaligned, split by TCG
            r"1-byte read of tile 0 CRB offset 0x100",
            r"1-byte write to tile 0 CRB offset 0x10: .*\(ignored\)",
            r"2-byte write to system interface offset 0x1004: .*\(ignored\)"]
    for w in want:
        assert re.search(w, text), (w, text)


@pytest.mark.alone      # its pgrep would see another test's misbehave
def test_scc_run_reader_goes_away():
    """Item: `scc-run ... | head -1` printed a traceback and waited for its
    time limit; now it stops QEMU and exits quietly."""
    t0 = time.monotonic()
    p = subprocess.run(f"{sys.executable} {REPO / 'tools' / 'scc-run'} --timeout 300 "
                       f"--app {app('misbehave')} --cores 0-2 -- who=1 act=exit=0 wait=spin "
                       f"cores=3 | head -1", shell=True, capture_output=True, text=True,
                       timeout=240)
    took = time.monotonic() - t0
    assert p.stdout.count("\n") == 1 and "ready" in p.stdout, p
    assert "Traceback" not in p.stderr and "BrokenPipe" not in p.stderr, p.stderr
    assert took < 120, f"waited {took:.0f} s: for the time limit?"
    out = subprocess.run(["pgrep", "-f", str(app("misbehave"))], capture_output=True, text=True)
    assert not out.stdout.strip(), "a QEMU was left running"


@pytest.mark.parametrize("what", ["kernel", "app", "coremap"])
def test_directory_given_as_file(tmp_path, what):
    """Item: a directory given as kernel, application or core map was
    reported as 'not found'."""
    d = tmp_path / "adir"
    d.mkdir()
    args = {"kernel": [str(d)], "app": ["--app", str(d)], "coremap": ["--coremap", str(d)]}[what]
    p = subprocess.run([sys.executable, str(REPO / "tools" / "scc-run"), *args],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and f"{d} is a directory, not a file" in p.stderr, p.stderr


def test_qemu_says_directory(tmp_path):
    d = tmp_path / "adir"
    d.mkdir()
    cmd = sccrun.build_command(str(d), machine=SMALL)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert p.returncode == 1 and f"kernel '{d}' is a directory, not a file" in p.stderr, p.stderr


def test_coremap_core_twice_in_one_line(tmp_path):
    """Item: `0,0,1` was accepted silently."""
    cmap = tmp_path / "twice.map"
    cmap.write_text(f"0,0,1 {guest('ids')}\n")
    r = run(coremap=cmap, timeout=TIMEOUT)
    assert r.returncode == 1 and not r.timed_out, explain(r)
    assert f"{cmap}:1: core 0 is listed twice in '0,0,1'" in r.stderr, explain(r)


@pytest.mark.parametrize("opts,bad,why", [
    (["mbox=bogus"], "mbox=bogus", "unknown mailbox mode"),
    (["tick=100", "mbox=bogus"], "mbox=bogus", "unknown mailbox mode"),
    (["frobnicate=1"], "frobnicate=1", "unknown option"),
    (["tick=abc"], "tick=abc", "not a number"),
    (["tick=10x"], "tick=10x", "not a number"),
    (["tick=1000000"], "tick=1000000", "rate too high"),
])
def test_bad_kernel_option_refused(opts, bad, why):
    """Item: unknown or malformed kernel options are refused loudly, also
    as the first option (which the kernel used to skip as its own path)."""
    r = run_app(app("kinfo"), cores="0", kernel_opts=opts, timeout=TIMEOUT)
    assert not r.timed_out and r.returncode == EXIT_BADOPTION, explain(r)
    text = "\n".join(r.core_lines()[0])
    assert f"kernel option '{bad}': {why}" in text, explain(r)
    assert "mbox " not in text, "the app ran"


@pytest.mark.parametrize("opts,mode", [(["mbox=poll"], "poll"), (["mbox=hybrid", "tick=10"],
                                                                  "hybrid"), ([], "ipi")])
def test_first_kernel_option_is_kept(opts, mode):
    """Item: the first option was taken for the kernel's path and lost."""
    r = run_app(app("kinfo"), cores="0", kernel_opts=opts, timeout=TIMEOUT)
    assert r.returncode == 0, explain(r)
    assert r.core_lines()[0] == [f"mbox {mode}"], explain(r)


@pytest.mark.no_qemu
def test_deps_installs_no_unused_packages():
    """Item: deps.sh installed grub-pc-bin, xorriso and mtools, which
    nothing uses."""
    text = (REPO / "scripts" / "deps.sh").read_text()
    pkgs = re.search(r"PACKAGES=\((.*?)\n\)", text, re.S).group(1)
    words = {w for line in pkgs.splitlines() for w in line.split("#")[0].split()}
    assert not words & {"grub-pc-bin", "grub-common", "xorriso", "mtools"}, words


def test_fail_fast_keeps_what_a_stopped_core_wrote_mid_line():
    """Item (lost usage errors): the cores fail-fast stops lose nothing they
    wrote, not even a line they had not finished."""
    r = misbehave("exit=3", "partial")
    assert not r.timed_out and r.returncode == 3, explain(r)
    for c in (0, 2, 3):
        assert f"[{c:02d}] unfinished\n" in r.stdout, explain(r)


# The bar is 5000 calls a core in timing mode (3 min 40 s of host
# time here); the suite makes fewer, SCC_FUZZ_CALLS=5000 makes that many.
FUZZ_CALLS = int(os.environ.get("SCC_FUZZ_CALLS", "1500"))


@pytest.mark.slow
def test_random_system_calls_on_every_core_end():
    """Item (timing-mode hang): random system calls with random arguments
    on all 48 cores in timing mode, kernel copies among them (SYS_copy_lut,
    SYS_copy_serve, whose string copies once hung the timing mode) and
    grants (SYS_grant, SYS_revoke, and peer reads that pass or meet them;
    tests/test_grant.py draws those alone): every call returns, every core
    finishes, nothing panics or faults."""
    r = run_app(app("syscall_fuzz"), cores="0-47", args=[f"n={FUZZ_CALLS}"], timeout=900,
                machine={"timing": "on"})
    assert not r.timed_out and r.returncode == 0, explain(r)
    done = {c: f"fuzz done {FUZZ_CALLS}" in r.core_lines(stream="stdout").get(c, [])
            for c in range(48)}
    assert all(done.values()), (sorted(c for c, ok in done.items() if not ok), explain(r))
