"""The scc machine refuses snapshots and migration (hw/scc/scc.c): its DRAM,
MPBs, LUTs and locks are in no migration state, so a snapshot would
silently lose them. Each check starts QEMU paused (-S), asks through the
human monitor on stdin, and has a time limit."""
from __future__ import annotations

import subprocess

import pytest

from scc.machine import sccrun

TIMEOUT = 60
REASON = ("scc: the machine cannot be saved or migrated: its DRAM, MPBs, LUTs and locks "
          "are not part of any migration state")
SMALL = {"mesh-x": "2", "mesh-y": "2", "cores-per-tile": "1"}


def monitor_command(kernel, *extra):
    """A paused run whose monitor, not the console, is on stdio."""
    cmd = sccrun.build_command(str(kernel), machine=SMALL, extra_args=["-S", *extra])
    cmd[cmd.index("-monitor") + 1] = "stdio"
    cmd[cmd.index("-serial") + 1] = "null"
    return cmd


@pytest.fixture
def kernel(build):
    k = build / "tests" / "guest" / "ids.elf"
    assert k.is_file(), f"{k} missing: run make"
    return k


def test_savevm_and_migrate_are_refused(kernel, tmp_path):
    out = tmp_path / "migrated"
    p = subprocess.run(monitor_command(kernel), capture_output=True, text=True, timeout=TIMEOUT,
                       input=f"savevm snap1\nmigrate exec:cat>{out}\ninfo status\nquit\n")
    assert p.returncode == 0, p.stderr
    # One refusal for savevm, one for migrate, each with the reason.
    assert p.stdout.count(f"Error: {REASON}") == 2, p.stdout + p.stderr
    assert "VM status: paused" in p.stdout, p.stdout
    assert not out.exists() or out.stat().st_size == 0, "migration wrote a stream"


def test_only_migratable_refuses_the_machine(kernel):
    p = subprocess.run(monitor_command(kernel, "-only-migratable"), capture_output=True,
                       text=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL)
    assert p.returncode != 0
    assert f"disallowing migration blocker (--only-migratable) for: {REASON}" in p.stderr, p.stderr
