"""Copy methods and the copy-core service (docs/copy.md).

Each run is an MPMD core map: core 0 runs tests/apps/copy_check.elf (the
client, which copies a pattern and reports what it found), the copy cores
run apps/copy_core.elf. The verdicts are computed here: every byte of
every copy right, the bytes around it untouched, every bad request
refused with the right error and nothing written, the LUT windows back as
they were, a faulting copy core reported and its requester told.
"""
from __future__ import annotations

import os
import re

import pytest

from lib.abi import EXIT_PAGE_FAULT, EXIT_UNRESPONSIVE
from scc.machine.sccrun import run
from lib import explain

TIMEOUT = 120  # seconds, per run
EPERM, EINVAL, EFAULT, ESRCH, ETIMEDOUT = 1, 22, 14, 3, 110
SIZES = [1, 1, 3, 33, 4095, 4097, 65541, 1048579, 16777216]


@pytest.fixture(scope="module")
def images(repo):
    paths = {
        "kernel.elf": repo / "build" / "kernel" / "kernel.elf",
        "copy_check.elf": repo / "build" / "tests" / "apps" / "copy_check.elf",
        "copy_core.elf": repo / "build" / "apps" / "copy_core.elf",
        "copy_bench.elf": repo / "build" / "apps" / "copy_bench.elf",
    }
    for p in paths.values():
        assert p.is_file(), f"{p} missing: build it first (make)"
    return paths


def run_map(images, tmp_path, client_args, copy_cores="1", copy_args="",
            client_cores="0", machine=None, client="copy_check.elf"):
    """Core 0 (or client_cores) runs the client, copy_cores the service."""
    for name, p in images.items():
        link = tmp_path / name
        if not link.exists():
            os.symlink(p, link)
    cmap = tmp_path / "copy.map"
    cmap.write_text(
        f"{client_cores} kernel.elf module={client} -- {client_args}\n"
        f"{copy_cores} kernel.elf module=copy_core.elf -- {copy_args}\n")
    return run(coremap=str(cmap), machine=machine, timeout=TIMEOUT)




def check_windows(r, cores):
    """Every core's LUT windows (pages 0x29-0x2B) at the end are as at the
    start, read back from the LUT by each core itself."""
    lines = r.core_lines()
    start = [l for l in lines[0] if l.startswith("client lut start")]
    end = [l for l in lines[0] if l.startswith("client lut end")]
    assert start and end and start[0].split()[3:] == end[0].split()[3:], explain(r)
    for c in cores:
        serving = [l for l in lines[c] if "serving, lut" in l]
        stop = [l for l in lines[c] if ": stop:" in l]
        assert serving and stop, explain(r)
        assert serving[0].split("lut")[1] == stop[0].split("lut")[1], (c, serving, stop)


def check_exact(r, methods, sizes=SIZES):
    assert not r.timed_out and r.returncode == 0, explain(r)
    got = {}
    for line in r.core_lines()[0]:
        m = re.fullmatch(r"exact (\S+) (\d+) (\d+) (\d+) status=(-?\d+) bad=(-?\d+) guard=(\w+)",
                         line)
        if m:
            got.setdefault(m[1], []).append((int(m[2]), int(m[5]), int(m[6]), m[7]))
    for method in methods:
        cases = got.get(method, [])
        assert [c[0] for c in cases] == sizes, (method, cases)
        for size, status, bad, guard in cases:
            assert (status, bad, guard) == (0, -1, "OK"), (method, size, status, bad, guard)


LOCAL = ["local:plain", "local:mpbt_src", "local:mpbt_dst", "local:mpbt", "local:lut"]
CORE = ["core:plain", "core:mpbt_src", "core:mpbt_dst", "core:mpbt", "core:lut", "core:auto"]


def test_local_methods_byte_exact(images, tmp_path):
    r = run_map(images, tmp_path, "exact " + " ".join(LOCAL))
    check_exact(r, LOCAL)
    check_windows(r, [1])


def test_copy_core_methods_byte_exact(images, tmp_path):
    r = run_map(images, tmp_path, "exact " + " ".join(CORE + ["core:shm"]))
    check_exact(r, CORE)
    # Shared DRAM as the source: the sizes that fit in it.
    check_exact(r, ["core:shm"])
    check_windows(r, [1])


def test_split_and_async_byte_exact(images, tmp_path):
    methods = ["split:auto", "split:lut", "split:plain", "async"]
    r = run_map(images, tmp_path, "exact " + " ".join(methods) + " cores=1,2,47",
                copy_cores="1,2,47")
    check_exact(r, methods)
    check_windows(r, [1, 2, 47])
    served = {c: int(re.search(r"(\d+) served", " ".join(r.core_lines()[c]))[1])
              for c in (1, 2, 47)}
    assert all(n > 0 for n in served.values()), served


# Every request names what it asks for in grants to the copy core (as the
# client does), unless it is about grants; kernel memory and the MPBs
# cannot be granted, so they are refused for want of one (-EPERM).
REFUSALS = {
    "overlap": -EINVAL, "same": -EINVAL, "too_big": -EINVAL,
    "src_unmapped": -EFAULT, "src_kernel": -EPERM, "src_mpb": -EPERM,
    "src_wraps": -EFAULT, "dst_partly_unmapped": -EFAULT, "bad_method": -EINVAL,
    "bad_target": -EINVAL, "dst_readonly": -EFAULT, "short_request": -EINVAL,
    "unknown_tag": -EINVAL, "no_grant": -EPERM, "src_not_granted": -EPERM,
    "dst_granted_read_only": -EPERM, "granted_another_core": -EPERM,
    "dst_grant_short": -EPERM,
}
# the copy core's console line for "dst_granted_read_only"
READ_ONLY_REFUSAL = re.compile(r"core 01: copy refused: core 00 granted core 01 no read-write "
                               r"of 64 bytes at 0x[0-9a-f]{8}")


def test_bad_requests_refused_and_service_goes_on(images, tmp_path):
    r = run_map(images, tmp_path, "refuse")
    assert not r.timed_out and r.returncode == 0, explain(r)
    lines = r.core_lines()
    got = {}
    for line in lines[0]:
        m = re.fullmatch(r"refuse (\S+) status=(-?\d+) untouched=(\d)", line)
        if m:
            got[m[1]] = (int(m[2]), int(m[3]))
    assert got == {k: (v, 1) for k, v in REFUSALS.items()}, got
    assert "after_refusals status=0 equal=1" in lines[0], explain(r)
    assert f"handles ok=0 bad={-EFAULT} equal=1" in lines[0], lines[0]
    assert f"marks on=1 off=1 kernel={-EFAULT} zero={-EINVAL} shm={-EFAULT}" in lines[0], lines[0]
    assert any("2 served, 17 refused, 2 malformed" in l for l in lines[1]), lines[1]
    assert any(READ_ONLY_REFUSAL.fullmatch(l) for l in lines[1]), lines[1]
    check_windows(r, [1])


def test_completion_goes_to_the_target(images, tmp_path):
    r = run_map(images, tmp_path, "third cores=1 target=2", client_cores="0,2")
    assert not r.timed_out and r.returncode == 0, explain(r)
    lines = r.core_lines()
    assert lines[2] == [
        "third target cookie=77 status=0 requester=0 copier=1 size=4096",
        f"third target cookie=78 status={-EFAULT} requester=0 copier=1 size=64"], lines[2]
    assert f"third requester cookie=78 status={-EFAULT} equal=1" in lines[0], lines[0]
    check_windows(r, [1])


def test_faulting_copy_core_reported_and_requester_told(images, tmp_path):
    r = run_map(images, tmp_path, "fault", copy_args="fault=2",
                machine={"on-failure": "continue"})
    assert not r.timed_out and r.returncode == EXIT_PAGE_FAULT, explain(r)
    lines = r.core_lines()
    assert any(re.fullmatch(r"core 01: exception 14 \(page fault\), error 0x6, eip 0x[0-9a-f]+, "
                            r"cr2 0x00000010, task copy_core.elf", l) for l in lines[1]), lines[1]
    assert "core 01: faulted: exception 14 (page fault)" in r.stderr, explain(r)
    assert f"fault first=0 second={-ESRCH}" in lines[0], explain(r)


# Where the copy core was: its loop in the service (main), seen from the
# kernel if the requester's PING had just interrupted it (a kernel address
# the machine finds no symbol for is given bare: "eip 0x001038c7;
# application at ...", as a functional run's host timing once caught it).
UNRESPONSIVE = (r"scc:   core 01: unresponsive: core 00 gave up waiting for it; it was "
                r"running at eip 0x[0-9a-f]{8}( \([^)]+\))?(; application at "
                r"0x[0-9a-f]{8} \(main\+0x[0-9a-f]+ in copy_core\.elf\))?; "
                rf"exit status {EXIT_UNRESPONSIVE}$")
# The deadline: 20 ms of modeled time (deterministic), or 2 s of the
# emulated clock, which is the host's: the first copy, which is answered,
# must not run into it on a busy host.
TIMEOUT_US = {False: 2000000, True: 20000}


@pytest.mark.parametrize("timing", [False, True], ids=["functional", "timing"])
def test_hung_copy_core_reported_and_requester_told(images, tmp_path, timing):
    """A copy core that loops instead of answering: its requester's wait
    gives up at the deadline with -ETIMEDOUT, and the machine ends the copy
    core and reports it, with where it looped, long before the run's time
    limit."""
    machine = {"on-failure": "continue"}
    if timing:
        machine["timing"] = "on"
    r = run_map(images, tmp_path, f"hang timeout={TIMEOUT_US[timing]}", copy_args="hang=2",
                machine=machine)
    assert not r.timed_out and r.returncode == EXIT_UNRESPONSIVE, explain(r)
    assert f"hang first=0 second={-ETIMEDOUT}" in r.core_lines()[0], explain(r)
    assert re.search(r"core 01 failed: unresponsive: core 00 gave up waiting for it "
                     r"\(it was running at eip 0x[0-9a-f]{8}[ ;]", r.stderr), explain(r)
    where = re.search(UNRESPONSIVE, r.stderr, re.M)
    assert where, explain(r)
    assert "copy_core.elf" in where[0], where[0]


def test_hung_copy_core_stops_the_run(images, tmp_path):
    """on-failure=stop (the default): the hung copy core ends the run at its
    requester's deadline, as a fault would."""
    r = run_map(images, tmp_path, f"hang timeout={TIMEOUT_US[False]}", copy_args="hang=2")
    assert not r.timed_out and r.returncode == EXIT_UNRESPONSIVE, explain(r)
    assert re.search(UNRESPONSIVE, r.stderr, re.M), explain(r)
    assert f"scc: stopping the run: core 01 failed with status {EXIT_UNRESPONSIVE}" \
        in r.stderr, explain(r)


@pytest.mark.parametrize("timing", [False, True], ids=["functional", "timing"])
def test_bench_rows_and_clock(images, tmp_path, timing):
    """copy_bench: one row per method, size and copy-core count, each
    verified, labelled with the clock its times come from."""
    r = run_map(images, tmp_path, "sizes=4K,64K iters=2 cores=1,2 local=plain,mpbt,lut",
                copy_cores="1,2", client="copy_bench.elf",
                machine={"timing": "on"} if timing else None)
    assert not r.timed_out and r.returncode == 0, explain(r)
    rows = [l.split(",") for l in r.core_lines()[0] if not l.startswith(("#", "kind,"))]
    clock = "modeled" if timing else "emulated"
    want = [(k, m, n, b) for b in ("4096", "65536")
            for k, m, n in [("local", "plain", "0"), ("local", "mpbt", "0"),
                            ("local", "lut", "0"), ("cores", "auto", "1"),
                            ("cores", "auto", "2"), ("cores", "lut", "1"),
                            ("cores", "lut", "2")]]
    assert [(x[0], x[1], x[2], x[4]) for x in rows] == want, rows
    for x in rows:
        assert x[3] == clock and x[9] == "1" and float(x[7]) > 0, x
    stops = [l for c in (1, 2) for l in r.core_lines()[c] if ": stop:" in l]
    assert len(stops) == 2, explain(r)


@pytest.mark.parametrize("mode", ["hybrid", "poll", "timer tick=1000"])
def test_other_mailbox_modes(images, tmp_path, mode):
    """The service and its waiting requesters in every notification mode:
    copies complete, and a faulting copy core is still noticed."""
    opts = f"mbox={mode}"
    for name, p in images.items():
        os.symlink(p, tmp_path / name)
    cmap = tmp_path / "modes.map"
    cmap.write_text(
        f"0 kernel.elf {opts} module=copy_check.elf -- exact core:auto split:auto async "
        f"cores=1,2 max=70000\n"
        f"1,2 kernel.elf {opts} module=copy_core.elf\n")
    r = run(coremap=str(cmap), timeout=TIMEOUT)
    sizes = [s for s in SIZES if s <= 70000]
    check_exact(r, ["core:auto", "split:auto", "async"], sizes)
    check_windows(r, [1, 2])
    cmap.write_text(
        f"0 kernel.elf {opts} module=copy_check.elf -- fault cores=1\n"
        f"1 kernel.elf {opts} module=copy_core.elf -- fault=2\n")
    r = run(coremap=str(cmap), machine={"on-failure": "continue"}, timeout=TIMEOUT)
    assert not r.timed_out and r.returncode == EXIT_PAGE_FAULT, explain(r)
    assert f"fault first=0 second={-ESRCH}" in r.core_lines()[0], explain(r)
