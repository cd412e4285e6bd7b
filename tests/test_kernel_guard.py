"""The kernel guards itself and its neighbours against user code that
writes where it should not (items 3, 4 and 9 of the reliability issue):

3. one word user code wrote into a core's mailbox ring stops no mail: the
   receiver rewrites its line from its own copy, and says so;
4. a GLCFG pin user code left high makes the kernel's pulse wait a bounded
   time and say so, not spin until the run's time limit;
9. under the default crb=isolated user code has no CRB page, so it cannot
   write any LUT; it takes T&S registers, sends IPIs and sets tile clocks
   through system calls, and a program that remaps LUTs on purpose asks
   for the page (scc_crb_raw, or crb=raw for every program).

Each test says which broken behaviour it caught: the kernel before these
changes fails it as described.
"""
from __future__ import annotations

import re

import pytest

from lib.abi import ABI, EXIT_BADOPTION, EXIT_PAGE_FAULT, EXIT_STOPPED
from scc.machine.sccrun import run_app
from lib import explain, libscc_test
from lib import test_app as app

TIMEOUT = 60
EPERM, EINVAL = 1, 22


# --- item 3: one word must not block a mailbox ------------------------------------------

HEAL = re.compile(r"received (\d+) of (\d+) invalid (\d+) repaired (\d+) dropped (\d+)")


def heal(word, value, kopts=(), senders=2, n=400):
    r = run_app(app("mbox_heal"), cores=f"0-{senders + 1}", kernel_opts=list(kopts),
                args=[f"word={word}", f"value={value:#x}", f"senders={senders}", f"n={n}"],
                timeout=120)
    assert not r.timed_out and r.returncode == 0, explain(r)
    lines = r.core_lines()
    m = [HEAL.fullmatch(l) for l in lines[0]]
    m = [x for x in m if x]
    assert m, explain(r)
    got, total, invalid, repaired, dropped = map(int, m[-1].groups())
    assert (got, invalid) == (total, 0), explain(r)
    return lines[0], repaired, dropped


@pytest.mark.parametrize("value,mode", [
    (0xFFFFFF00, "ipi"),            # the word: senders saw a full ring
    (0x00000100, "poll"),
])
def test_overwritten_head_is_rewritten(value, mode):
    """Item 3: before, every sender slept in mbox_send for good, with not
    one message delivered and no word from the kernel (ipi: a stall,
    status 247; poll: the receiver polled until the time limit); now the
    receiver rewrites its head from its own copy, counts it and says so."""
    lines, repaired, _ = heal("head", value, kopts=[f"mbox={mode}"])
    assert repaired >= 1, lines
    assert any(re.fullmatch(rf"core 00: mailbox head was 0x{value:x}, not 0x[0-9a-f]+: "
                            r"rewritten", l) for l in lines), lines
    assert f"core 00: mailbox: {repaired} overwritten ring word(s) rewritten" in lines, lines


@pytest.mark.parametrize("word,value,mode", [
    ("mode", 1, "ipi"),             # read as "poll": senders stopped interrupting
    ("sleeping", 0, "hybrid"),      # a sleeper read as awake: nobody woke it
])
def test_overwritten_mode_or_sleeping_word_loses_no_wakeup(word, value, mode):
    """Item 3: before, the receiver slept for good and so did its senders
    (a stall). Now only the exact words the receiver writes let senders
    leave it alone: anything else makes them interrupt it."""
    heal(word, value, kopts=[f"mbox={mode}"])


def test_unexpected_interrupt_makes_the_receiver_look():
    """Item 3: a word that makes senders interrupt a polling receiver is
    rewritten at its next interrupt, and said so."""
    lines, repaired, _ = heal("mode", 0, kopts=["mbox=poll"])
    assert repaired >= 1, lines
    assert any(re.fullmatch(r"core 00: mailbox mode was 0x0, not 0x4d0de001: rewritten", l)
               for l in lines), lines


def test_forged_closed_word_is_opened_again():
    """Item 3: the receiver's "closed" mark, written by user code while it
    runs: before, every send failed with -ESRCH (the senders exited 1); now
    a sender that still sees it after a second opens the ring again."""
    r = run_app(app("mbox_heal"), cores="0-3", args=["word=closed", "value=0xc105ed"],
                timeout=120)
    assert not r.timed_out and r.returncode == 0, explain(r)
    lines = r.core_lines()
    assert any(HEAL.fullmatch(l) and HEAL.fullmatch(l)[1] == HEAL.fullmatch(l)[2]
               for l in lines[0]), explain(r)
    said = [l for c in (1, 2) for l in lines.get(c, [])
            if l == f"core {c:02d}: mailbox of core 00 said closed for 1 s while it ran: "
                    "opened again"]
    assert len(said) >= 1, explain(r)


def test_overwritten_tail_resets_the_ring():
    """Item 3: a tail far from the head was recovered only when the
    receiver happened to look; the receiver slept, so every sender slept
    too (a stall). A sender that finds the ring full now interrupts it."""
    lines, _, dropped = heal("tail", 0xFFFFFF00)
    assert dropped >= 1, lines
    assert any(re.fullmatch(r"core 00: mailbox tail 4294967040 head \d+: ring reset", l)
               for l in lines), lines


def test_overwritten_waiters_word_loses_no_waiter():
    """Item 3: user code cleared the waiters word while a sender waited
    for room: the receiver woke nobody, and that sender slept for good (a
    stall). The word is now kept twice and read as the union."""
    # More than the kernel's queue (4096) and the ring (30) hold: one waits.
    heal("waiters", 0, senders=2, n=2100)


# --- item 4: a pin left high ends the kernel's wait ---------------------------------------

PIN = "core 00: GLCFG {} pin of core 01 high for 1 s (user code wrote it?): pulsed anyway"


def stuck(via):
    return run_app(app("glcfg_stuck"), cores="0,1", args=[f"via={via}"], timeout=30)


@pytest.mark.parametrize("via", ["mbox", "ipi"])
def test_intr_pin_left_high_is_pulsed_after_a_bound(via):
    """Item 4: before, core 0's kernel spun in pulse() until the run's time
    limit, waiting for a pin that user code had left high; now it waits a
    second, says so, and makes the edge core 1 needs."""
    r = stuck(via)
    assert not r.timed_out and r.returncode == 0, explain(r)
    lines = r.core_lines()
    assert PIN.format("INTR") in lines[0] and lines[0][-1] == "sent", explain(r)
    want = "got tag 5" if via == "mbox" else "interrupted 2 times"
    assert lines[1][-1] == want, explain(r)


def test_nmi_pin_left_high_still_stops_the_others_on_panic():
    """Item 4: before, a panicking kernel spun for ever pulsing an NMI pin
    user code had left high, so the run ended only at its time limit and
    core 1 never stopped; now core 1 is stopped, as a panic must."""
    r = stuck("panic")
    assert not r.timed_out and r.returncode != 0, explain(r)
    lines = r.core_lines()
    assert PIN.format("NMI") in lines[0], explain(r)
    assert "core 01: stopped: core 00 panicked" in lines[1], explain(r)
    assert r.returncode in (ABI["SCC_EXIT_PANIC"], EXIT_STOPPED), explain(r)


# --- item 9: user code cannot rewrite a memory map ---------------------------------------

EXC = re.compile(r"core (\d\d): exception (\d+) \(([^)]+)\), error 0x([0-9a-f]+), "
                 r"eip 0x([0-9a-f]+), cr2 0x([0-9a-f]+), task (\S+)")
PF_W = 0x2
ABI_CRB = {"isolated": 0, "raw": 1, "strict": 2}       # SCC_CRB_* (include/scc/syscall.h)


def guard(what, core=0, kopts=()):
    return run_app(app("crb_guard"), cores=str(core), kernel_opts=list(kopts),
                   args=[f"what={what}", f"core={core}"], timeout=TIMEOUT)


@pytest.mark.parametrize("core", [0, 1])
def test_lut_write_faults_by_default_with_a_report(core):
    """Item 9: before, user code on core 0 rewrote its own LUT0 entry and
    core 1 its neighbour's (the app printed the entry it wrote and exited
    0); now the first touch of the CRB page is a page fault, reported with
    the core, the vector and the address, and why."""
    r = guard("lut", core)
    assert not r.timed_out and r.returncode == EXIT_PAGE_FAULT, explain(r)
    lines = r.core_lines()[core]
    assert not any(l.startswith("lut0") for l in lines), lines
    m = next(filter(None, map(EXC.fullmatch, lines)), None)
    assert m, lines
    addr = 0xE0000000 + ABI["CRB_LUT0"] + ABI["CRB_LUT_STRIDE"] * 0x84
    assert (int(m[1]), int(m[2]), int(m[6], 16), m[7]) == (core, 14, addr, "crb_guard.elf"), lines
    assert f"core {core:02d}: {addr:#010x} is in a CRB, and crb=isolated gives user code " \
           "none: the T&S registers, IPIs and tile clocks have system calls (libscc uses " \
           "them), scc_crb_raw() or crb=raw map the first page" in lines, lines


def test_glcfg_write_faults_by_default():
    """Item 9: the same page holds the interrupt pins: a direct write faults
    (before, it went through)."""
    r = guard("glcfg")
    assert not r.timed_out and r.returncode == EXIT_PAGE_FAULT, explain(r)
    m = next(filter(None, map(EXC.fullmatch, r.core_lines()[0])), None)
    assert m and int(m[6], 16) == 0xE0000000 + ABI["CRB_GLCFG1"], explain(r)
    assert int(m[4], 16) & PF_W, explain(r)


def test_crb_system_calls():
    """Item 9: the T&S registers and tile clocks through system calls,
    with their checks (before: -ENOSYS), and no CRB page for user code."""
    r = guard("calls")
    assert not r.timed_out and r.returncode == 0, explain(r)
    lines = r.core_lines()[0]
    assert lines[:2] == [f"crb mode {ABI_CRB['isolated']} mapped 0", "crb pte err -14"], lines
    assert lines[-1] == "calls ok", lines


@pytest.mark.parametrize("core", [0, 1])
def test_raw_access_on_request(core):
    """Item 9: a program that remaps LUTs on purpose asks for the page
    (scc_crb_raw), and then has the registers as before."""
    r = guard("raw", core)
    assert not r.timed_out and r.returncode == 0, explain(r)
    lines = r.core_lines()[core]
    assert "scc_crb_raw 0" in lines and lines[-1] == "raw ok", lines


def test_crb_raw_option_maps_the_page_for_every_program():
    """Item 9: crb=raw keeps the old behaviour (user, uncached, writable)."""
    r = guard("lut", kopts=["crb=raw"])
    assert not r.timed_out and r.returncode == 0, explain(r)
    lines = r.core_lines()[0]
    assert lines[0] == f"crb mode {ABI_CRB['raw']} mapped 1", lines
    pte = int(lines[1].split()[-1], 16)
    assert pte & 0x1F == 0x1F, hex(pte)        # P W U PWT PCD
    assert any(l.startswith("lut0 tile 0 entry 0x84: ") for l in lines), lines


def test_crb_strict_refuses_raw_access():
    """Item 9: crb=strict: no program gets the page."""
    r = guard("raw", kopts=["crb=strict"])
    assert not r.timed_out and r.returncode == 3, explain(r)
    assert f"scc_crb_raw -{EPERM}" in r.core_lines()[0], explain(r)


def test_unknown_crb_mode_refused():
    r = guard("calls", kopts=["crb=open"])
    assert not r.timed_out and r.returncode == EXIT_BADOPTION, explain(r)
    assert any("kernel option 'crb=open': unknown CRB mode" in l
               for l in r.core_lines()[0]), explain(r)


@pytest.mark.parametrize("mode", ["isolated", "raw"])
@pytest.mark.parametrize("prog", ["flags", "power"])
def test_rcce_locks_and_power_in_both_modes(prog, mode):
    """Item 9: RCCE's locks (tests/libscc/flags.c) and power API
    (power.c: tile clocks) work with and without the CRB page."""
    r = run_app(libscc_test(prog), cores="0-3", kernel_opts=[f"crb={mode}"],
                args=["4", "0.533", "0", "1", "2", "3"], timeout=120)
    assert not r.timed_out and r.returncode == 0, explain(r)
    assert f"PASS {prog} (4 UEs)" in r.stdout, explain(r)
