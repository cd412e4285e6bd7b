"""Grants: another core's kernel reads (SYS_peer_read) or copies
(SYS_copy_serve) a core's user memory only as far as its owner granted
it (SYS_grant, SYS_revoke; docs/copy.md, "Grants"; docs/kernel.md).

tests/apps/grant.c runs on an owner and a reader: the owner sets up each
step's grants and the reader reads; the verdicts (statuses, bytes, the
refusal's console line) are computed here. The copy core's side is in
tests/test_copy.py (the refusals); the fuzzer's in the last test.
"""
from __future__ import annotations

import re

import pytest

from scc.machine.sccrun import run_app
from lib import explain, test_app

TIMEOUT = 120  # seconds, per run
EPERM, EFAULT, EINVAL, ENOMEM = 1, 14, 22, 12
GRANT_MAX = 127
OWNER, READER, OTHER = 0, 31, 5

# step -> (status, data), the reads of each step as tests/apps/grant.c makes
# them: offset and length in the owner's buffer
READS = {
    "none": (-EPERM, "UNTOUCHED", 100, 5000),           # no grant
    "read": (0, "OK", 100, 5000),                       # read, to this core
    "other": (-EPERM, "UNTOUCHED", 100, 5000),          # read, to another core
    "any": (0, "OK", 100, 5000),                        # read, to any core
    "cores": (0, "OK", 100, 5000),                      # to a set with this core
    "rw": (0, "OK", 100, 5000),                         # read-write admits reads
    "revoked": (-EPERM, "UNTOUCHED", 100, 5000),        # granted, then revoked
    "beyond_end": (-EPERM, "UNTOUCHED", 4000, 200),     # grant [64, 4096)
    "beyond_start": (-EPERM, "UNTOUCHED", 0, 128),
    "beyond_inside": (0, "OK", 64, 4096 - 64),
    "split_across": (-EPERM, "UNTOUCHED", 4000, 200),   # two grants, one per page
    "split_first": (0, "OK", 100, 3000),
}

API = {
    "len0": -EINVAL, "prot0": -EINVAL, "prot_write_only": -EINVAL, "prot7": -EINVAL,
    "core_beyond": -EINVAL, "core_negative": -EINVAL, "mask_empty": -EINVAL,
    "mask_beyond": -EINVAL, "kernel": -EFAULT, "mpb": -EFAULT, "wraps": -EFAULT,
    "user_to_shared": -EFAULT, "shm": 1, "revoke_shm": 0, "revoke_again": -EINVAL,
    "revoke_zero": -EINVAL, "revoke_negative": -EINVAL, "revoke_bogus": -EINVAL,
    "held": GRANT_MAX, "full": -ENOMEM, "revoked_all": 0, "again": 1, "stale": -EINVAL,
    "revoke_again_ok": 0,
}

REFUSAL = re.compile(r"core (\d+): peer read refused: core (\d+) granted core (\d+) no read "
                     r"of (\d+) bytes at 0x([0-9a-f]{8})$")


def grant_run(timing):
    r = run_app(test_app("grant"), cores=f"{OWNER},{READER}",
                args=[f"owner={OWNER}", f"reader={READER}", f"other={OTHER}"],
                machine={"timing": "on"} if timing else None, timeout=TIMEOUT)
    assert not r.timed_out and r.returncode == 0, explain(r)
    return r


def reads(lines):
    got = {}
    for line in lines:
        m = re.fullmatch(r"(\w+) status=(-?\d+) data=(\w+)", line)
        if m:
            got[m[1]] = (int(m[2]), m[3])
    return got


@pytest.fixture(scope="module")
def functional():
    return grant_run(False)


def test_peer_read_admits_exactly_what_the_owner_granted(functional):
    """Without a grant -EPERM and the destination untouched; with a read
    grant to this core (or to any, or to a set holding it, or read-write)
    the owner's bytes; a grant to another core, a revoked grant, a read
    past either end of the grant, and a read across two grants are
    refused."""
    got = reads(functional.core_lines()[READER])
    want = {k: v[:2] for k, v in READS.items()}
    assert {k: got.get(k) for k in want} == want, explain(functional)
    assert functional.core_lines()[READER][-1] == "grant done", explain(functional)


def test_a_refusal_names_both_cores_the_address_and_the_length(functional):
    """Each refused read puts a line on the reader's console (its kernel's)
    naming the reader, the owner, the length and the address, just before
    the app's own line for the read."""
    lines = functional.core_lines()
    m = re.search(r"owner buf 0x([0-9a-f]+) big", " ".join(lines[OWNER]))
    assert m, lines[OWNER]
    buf = int(m[1], 16)
    refusals = [(i, REFUSAL.fullmatch(l)) for i, l in enumerate(lines[READER])]
    # the 1 MiB read of step "during" may be refused too (host timing)
    refusals = [(i, m) for i, m in refusals if m and m[4] != str(1 << 20)]
    refused = [k for k, v in READS.items() if v[0] == -EPERM]
    assert len(refusals) == len(refused), lines[READER]
    for (i, m), step in zip(refusals, refused):
        _, _, off, n = READS[step]
        assert lines[READER][i + 1].startswith(f"{step} status={-EPERM}"), (step, lines[READER])
        assert (int(m[1]), int(m[2]), int(m[3]), int(m[4]), int(m[5], 16)) == \
            (READER, OWNER, READER, n, buf + off), (step, m[0])


def test_the_owners_bad_grants_and_revokes_are_refused(functional):
    """The owner's calls: a bad length, protection or core set is -EINVAL,
    a range outside its user memory -EFAULT, an id it does not hold (never
    given, revoked, from an earlier generation of the slot) -EINVAL; the
    table holds SCC_GRANT_MAX grants, then -ENOMEM, and has room again
    once they are revoked."""
    got = {}
    for line in functional.core_lines()[OWNER]:
        m = re.fullmatch(r"api (\w+) (-?\d+)", line)
        if m:
            got[m[1]] = int(m[2])
    assert got == API, got


def test_revoke_during_a_read_fails_it_whole():
    """Timing mode (deterministic): the owner revokes its grant of 1 MiB
    1 ms (modeled) into the reader's read of it. The read is refused as a
    whole, its destination zeroed (what it got may be what the owner wrote
    after the revoke), and the console says the grant went while it ran.
    In functional mode (host timing) the revoke may come before the read
    or after it: a read that passed is all the owner's bytes, one refused
    is untouched or zeros, never a mix."""
    r = grant_run(True)
    assert reads(r.core_lines()[READER])["during"] == (-EPERM, "ZERO"), explain(r)
    assert any(re.fullmatch(rf"core {READER}: peer read refused: core 0?{OWNER} revoked its "
                            rf"grant to core {READER} of 1048576 bytes at 0x[0-9a-f]{{8}} "
                            r"while it ran", l) for l in r.core_lines()[READER]), explain(r)


def test_revoke_during_a_read_functional(functional):
    got = reads(functional.core_lines()[READER])["during"]
    assert got in ((0, "OK"), (-EPERM, "ZERO"), (-EPERM, "UNTOUCHED")), got


@pytest.mark.parametrize("timing", [False, True], ids=["functional", "timing"])
def test_random_grants_and_peer_reads_are_refused_cleanly(timing):
    """The system-call fuzzer on four cores drawing only the calls that
    make or use grants (grant, revoke, peer read, copy serve): random
    ranges, protections and core masks. Every call returns, no core
    faults or panics, and both sides of the check were taken: some peer
    reads passed a neighbour's grant, some were refused for want of one."""
    r = run_app(test_app("syscall_fuzz"), cores="0-3", args=["n=2000", "only=grant", "cores=4"],
                machine={"timing": "on"} if timing else None, timeout=300)
    assert not r.timed_out and r.returncode == 0, explain(r)
    lines = r.core_lines(stream="stdout")
    admitted = refused = 0
    for c in range(4):
        assert "fuzz done 2000" in lines.get(c, []), explain(r)
        m = [re.fullmatch(r"fuzz peer reads (\d+) admitted (\d+) no grant (\d+) other", l)
             for l in lines[c]]
        m = [x for x in m if x]
        assert m, lines[c]
        admitted += int(m[0][1])
        refused += int(m[0][2])
    assert admitted > 0 and refused > 0, (admitted, refused)
