"""Notification experiments (docs/notify.md): the kernel's mailbox modes,
the user-level schemes of apps/notify/, and the three benchmark apps.

The apps check every record against the one its (source, sequence number)
determine; these tests check the rest from outside: that every scheme
delivers every record exactly once under 47-to-1 load, that the CSV rows
are there with the hop distances the mesh geometry gives, that polling
schemes never report free time and sleeping ones do, that the causal
order of the IPI timestamps holds, and that bad arguments get a clear
error. No test asserts a speed.
"""
from __future__ import annotations

import csv
import io

import pytest

from lib.abi import EXIT_BADOPTION
from conftest import BUILD
from scc.machine.sccrun import run_app

PINGPONG = BUILD / "apps" / "notify_pingpong.elf"
MANY = BUILD / "apps" / "many_to_one.elf"
IPI = BUILD / "apps" / "ipi_latency.elf"
SCHEMES = ["flag", "flags", "ring", "rcce", "snet", "mbox-ipi", "mbox-poll", "mbox-timer",
           "mbox-hybrid"]
POLLING = {"flag", "flags", "ring", "rcce", "snet", "mbox-poll"}
SLEEPING = {"mbox-ipi", "mbox-timer"}
TIMING = {"timing": "on"}


def rcce_args(cores):
    return [str(len(cores)), "0.533", *map(str, cores)]


def hops(a, b, mesh_x=6, per_tile=2):
    """Manhattan distance between the tiles of cores a and b."""
    ta, tb = a // per_tile, b // per_tile
    return abs(ta % mesh_x - tb % mesh_x) + abs(ta // mesh_x - tb // mesh_x)


def rows(r, first, core=0):
    """The CSV rows (dicts) that core printed whose first field is first,
    under the header line the app printed first."""
    lines = r.core_lines().get(core, [])
    header = next(l for l in lines if l.split(",")[1:2] == ["scheme"])
    body = [l for l in lines if l.startswith(first + ",") and l != header]
    return list(csv.DictReader(io.StringIO("\n".join([header, *body]))))


def test_many_to_one_every_scheme_delivers_every_record_exactly_once():
    """47 senders, 10 records each, every scheme: the receiver counts each
    (sender, seq) once, in order, with the right content, or exits 1."""
    r = run_app(MANY, cores="all", args=[*rcce_args(range(48)), "--records", "10",
                                         "--scheme", "all"], machine=TIMING, timeout=300)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    got = rows(r, "many_to_one")
    assert [g["scheme"] for g in got] == SCHEMES
    for g in got:
        assert (g["senders"], g["records"], g["verified"], g["clock"]) == \
            ("47", "470", "yes", "modeled"), g
        assert 0 < float(g["jain"]) <= 1.0
        assert int(g["cycles"]) > 0


@pytest.fixture(scope="module")
def pingpong():
    """notify_pingpong on cores 0-4, every scheme, in the timing mode."""
    cores = range(5)
    r = run_app(PINGPONG, cores=",".join(map(str, cores)),
                args=[*rcce_args(cores), "--n", "20", "--warmup", "2"],
                machine=TIMING, timeout=300)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    return rows(r, "notify")


def test_pingpong_rows_per_scheme_and_peer_with_mesh_hops(pingpong):
    per_peer = [g for g in pingpong if g["peer"] != "all"]
    assert [(g["scheme"], int(g["peer"])) for g in per_peer] == \
        [(s, p) for s in SCHEMES for p in range(1, 5)]
    for g in per_peer:
        assert int(g["hops"]) == hops(0, int(g["peer"])), g
        assert g["clock"] == "modeled" and g["n"] == "20"
        assert 0 < int(g["min"]) <= int(g["median"]) <= int(g["max"]), g
    by_hops = {(g["scheme"], int(g["hops"])) for g in pingpong if g["peer"] == "all"}
    assert by_hops == {(s, h) for s in SCHEMES for h in {hops(0, p) for p in range(1, 5)}}


def test_polling_schemes_are_never_free_and_sleeping_ones_are(pingpong):
    """The peer's idle share: zero where it spins, above zero where it
    sleeps until an interrupt (S-Net's Free column)."""
    for g in pingpong:
        if g["scheme"] in POLLING:
            assert g["free_cycles"] == "0" and g["free_pct"] == "0", g
        if g["scheme"] in SLEEPING:
            assert int(g["free_pct"]) > 0 and int(g["free_cycles"]) > 0, g


def test_rcce_framed_sends_the_size_first():
    """rcce:framed=1 moves each record as two synchronous RCCE messages (its
    size, then the record): every record still checks, and a round trip
    costs more than with one message, but less than twice as much."""
    cores = range(3)
    r = run_app(PINGPONG, cores="0-2",
                args=[*rcce_args(cores), "--n", "20", "--warmup", "2",
                      "--scheme", "rcce", "--scheme", "rcce:framed=1"],
                machine=TIMING, timeout=120)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    got = {(g["params"], g["peer"]): int(g["median"]) for g in rows(r, "notify")}
    for peer in ("1", "2"):
        one, two = got[("", peer)], got[("framed=1", peer)]
        assert one < two < 2 * one, (peer, one, two)


def test_pingpong_mailbox_schemes_in_functional_mode():
    """Outside the timing mode RCCE's barrier sleeps in the kernel mailbox:
    the notifications it takes meanwhile must reach the scheme (libscc sets
    them aside), or the round trips would hang."""
    cores = range(4)
    r = run_app(PINGPONG, cores="0-3", args=[*rcce_args(cores), "--n", "20", "--warmup", "2",
                                             "--scheme", "mbox-ipi", "--scheme", "mbox-hybrid"],
                timeout=120)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    got = [g for g in rows(r, "notify") if g["peer"] != "all"]
    assert [(g["scheme"], g["clock"]) for g in got] == \
        [(s, "emulated") for s in ("mbox-ipi", "mbox-hybrid") for _ in range(1, 4)]


def test_ipi_latency_by_hops_is_causal():
    """For each peer: the interrupt reaches the peer's kernel before its user
    code runs (arrive < remote, trap = remote - arrive up to rounding of the
    medians) and core 0 hears back after that (remote < rtt)."""
    peers = [1, 2, 11, 47]
    r = run_app(IPI, cores=",".join(map(str, [0, *peers])),
                args=["n=30", "peers=" + ",".join(map(str, peers))],
                machine=TIMING, timeout=120)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    got = rows(r, "ipi")
    per = {}
    for g in got:
        per.setdefault(g["peer"], {})[g["kind"]] = g
    assert set(per) == {*map(str, peers), "all"}
    for p in peers:
        k = per[str(p)]
        assert {g["hops"] for g in k.values()} == {str(hops(0, p))}
        assert {g["n"] for g in k.values()} == {"27"}       # 30 minus 10 % warm-up
        assert 0 < int(k["arrive"]["min"]) and int(k["arrive"]["min"]) < int(k["remote"]["min"])
        assert int(k["remote"]["max"]) < int(k["rtt"]["max"])
        assert int(k["send"]["min"]) > 0 and int(k["trap"]["min"]) > 0


@pytest.mark.parametrize("app,args,message", [
    (PINGPONG, ["--scheme", "nosuch"], "unknown scheme 'nosuch'"),
    (PINGPONG, ["--scheme", "flag:k=1"], "unknown parameter 'k'"),
    (PINGPONG, ["--scheme", "mbox-timer:hz=0"], "hz must be a number in 1..1000000"),
    (PINGPONG, ["--scheme", "rcce:framed=2"], "framed must be a number in 0..1"),
    (PINGPONG, ["--peers", "7"], "--peers wants UEs 1..2"),
    (PINGPONG, ["--n", "0"], "--n needs a number >= 1"),
    (MANY, ["--receiver", "9"], "--receiver wants a UE 0..2"),
    (MANY, ["--bogus"], "unknown option '--bogus'"),
])
def test_bad_arguments_get_a_clear_error(app, args, message):
    r = run_app(app, cores="0-2", args=[*rcce_args(range(3)), *args], timeout=60)
    assert r.returncode != 0
    assert message in r.stdout, r.stdout[-2000:]
    assert "unknown scheme" not in message or "mbox-hybrid" in r.stdout   # the list follows


@pytest.mark.parametrize("args,message", [
    (["n=0"], "leaves no rounds to report"),
    (["peers=0"], "peer 0 is not a core other than 0"),
    (["peers=2"], "peer 2 is not running"),
    (["drop=100"], "leaves no rounds to report"),
    (["x=1"], "bad argument 'x=1'"),
])
def test_ipi_latency_bad_arguments(args, message):
    r = run_app(IPI, cores="0-1", args=args, timeout=60)
    assert r.returncode != 0
    assert message in r.stdout, r.stdout[-2000:]


def test_timer_mode_needs_a_tick():
    """mbox=timer without tick=HZ would leave receivers asleep for ever: the
    kernel refuses it at boot; with a tick it runs."""
    r = run_app(PINGPONG, cores="0-1", args=[*rcce_args(range(2)), "--list"],
                kernel_opts=["mbox=timer"], timeout=60)
    assert not r.timed_out and r.returncode == EXIT_BADOPTION, r.stdout[-2000:]
    assert "'mbox=timer' needs tick=HZ" in r.stdout
    r = run_app(PINGPONG, cores="0-1", args=[*rcce_args(range(2)), "--list"],
                kernel_opts=["mbox=timer", "tick=1000"], timeout=60)
    assert r.returncode == 0 and "mbox-timer" in r.stdout, r.stdout[-2000:]
