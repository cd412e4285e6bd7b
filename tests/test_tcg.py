"""The functional mode's TCG threading (sccrun.choose_tcg, scc-run --tcg):
the choice is checked, explained by its rule, reaches QEMU's command line,
and both modes run the chip. No timing is asserted: tools/scc-bench-tcg
measures, and the reference page has its table."""
from __future__ import annotations

import subprocess
import sys

import pytest

from scc.machine import coremap, sccrun
from scc.machine.coremap import SccRunError
from scc.machine.sccrun import build_command, choose_tcg

HELLO_TIMEOUT = 120


def accel(cmd):
    return cmd[cmd.index("-accel") + 1]


@pytest.fixture
def no_env(monkeypatch):
    monkeypatch.delenv("SCC_TCG", raising=False)
    monkeypatch.delenv("SCC_PARALLEL_RUNS", raising=False)


@pytest.mark.no_qemu
@pytest.mark.parametrize("started, cpus, runs, want", [
    (5, 2, 1, "multi"),     # a 2-CPU host to itself: a thread per core pays
    (8, 2, 1, "multi"),     # 4 cores a CPU: the most for multi
    (9, 2, 1, "single"),
    (48, 2, 1, "single"),   # 24 cores a CPU: the threads only take turns
    (48, 12, 1, "multi"),
    (48, 24, 2, "multi"),
    (1, 8, 1, "single"),    # one core: nothing to run in parallel
    (5, 1, 1, "single"),    # one CPU
    (5, 2, 2, "single"),    # two runs share two CPUs: one each
    (5, 4, 2, "multi"),
    (5, 5, 3, "single"),    # 5 // 3 = 1 CPU a run
])
def test_auto_rule(no_env, started, cpus, runs, want):
    assert choose_tcg("auto", started, cpus=cpus, runs=runs) == want
    assert choose_tcg(None, started, cpus=cpus, runs=runs) == want   # default: auto


@pytest.mark.no_qemu
@pytest.mark.parametrize("mode", ["single", "multi"])
def test_explicit_mode_wins(no_env, monkeypatch, mode):
    assert choose_tcg(mode, 48, cpus=1, runs=9) == mode
    monkeypatch.setenv("SCC_TCG", mode)
    assert choose_tcg(None, 1, cpus=64, runs=1) == mode
    assert accel(build_command("k.elf")) == f"tcg,thread={mode}"


@pytest.mark.no_qemu
def test_auto_reads_parallel_runs(no_env, monkeypatch):
    cpus = sccrun.host_cpus()
    monkeypatch.setenv("SCC_PARALLEL_RUNS", str(cpus))    # one CPU a run
    assert accel(build_command("k.elf")) == "tcg,thread=single"
    monkeypatch.setenv("SCC_PARALLEL_RUNS", "1")
    want = "multi" if cpus >= 2 else "single"
    assert accel(build_command("k.elf", started=2)) == f"tcg,thread={want}"
    assert accel(build_command("k.elf", started=1)) == "tcg,thread=single"


@pytest.mark.no_qemu
def test_auto_counts_the_core_maps_started_cores(no_env, monkeypatch, tmp_path):
    monkeypatch.setattr(sccrun, "host_cpus", lambda: 64)
    one = tmp_path / "one.map"
    one.write_text("# a comment line\n3 k.elf x=1\n0-2,4-47 k.elf hold\n")
    many = tmp_path / "many.map"
    many.write_text("0-1 k.elf\n")
    assert coremap.coremap_started(one, 48) == 1
    assert coremap.coremap_started(many, 48) == 2
    assert coremap.coremap_started(tmp_path / "missing.map", 48) == 48
    assert coremap.coremap_cores(one, 48) == list(range(48))
    bad = tmp_path / "bad.map"
    bad.write_text("0 k.elf\n1 'k.elf\n")         # an open quote: the machine will say
    assert coremap.coremap_started(bad, 48) == 48 and coremap.coremap_cores(bad, 48) == []
    assert list(coremap.coremap_lines("\n# c\n0 k.elf m=1 # c\n1 'x\n")) == [
        (3, ["0", "k.elf", "m=1"]), (4, None)]
    assert accel(build_command(None, coremap=str(one))) == "tcg,thread=single"
    assert accel(build_command(None, coremap=str(many))) == "tcg,thread=multi"


@pytest.mark.no_qemu
@pytest.mark.parametrize("env, value, message", [
    ("SCC_TCG", "threads", "SCC_TCG='threads': expected one of single, multi, auto"),
    ("SCC_PARALLEL_RUNS", "0", "SCC_PARALLEL_RUNS='0': expected a whole number >= 1"),
    ("SCC_PARALLEL_RUNS", "two", "SCC_PARALLEL_RUNS='two'"),
])
def test_bad_environment_is_refused(no_env, monkeypatch, env, value, message):
    monkeypatch.setenv(env, value)
    with pytest.raises(SccRunError, match=message.replace("(", r"\(")):
        build_command("k.elf")


@pytest.mark.no_qemu
def test_timing_mode_takes_single(no_env, monkeypatch):
    """The timing mode (timing=on) runs the cores on one thread."""
    monkeypatch.setattr(sccrun, "host_cpus", lambda: 64)
    assert accel(build_command("k.elf", started=4)) == "tcg,thread=multi"
    assert accel(build_command("k.elf", started=4, machine={"timing": "on"})) == \
        "tcg,thread=single"
    with pytest.raises(SccRunError, match="timing=on runs the cores on one thread"):
        build_command("k.elf", machine={"timing": "on"}, tcg="multi")


@pytest.mark.no_qemu
def test_bad_argument_is_refused(no_env):
    with pytest.raises(SccRunError, match="tcg='Multi': expected one of single, multi, auto"):
        build_command("k.elf", tcg="Multi")


def scc_run(repo, *argv, env=None, timeout=60):
    return subprocess.run([sys.executable, str(repo / "tools" / "scc-run"), *argv],
                          capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL, env=env)


@pytest.mark.no_qemu
def test_cli_rejects_a_bad_mode(repo):
    p = scc_run(repo, "--tcg", "fast", "--app", "hello.elf")
    assert p.returncode == 2
    assert "--tcg: invalid choice: 'fast' (choose from 'single', 'multi', 'auto')" in p.stderr


@pytest.mark.no_qemu
def test_cli_rejects_a_bad_environment(repo, build):
    env = dict(__import__("os").environ, SCC_TCG="fast")
    p = scc_run(repo, "--app", str(build / "apps" / "hello.elf"), env=env)
    assert p.returncode == 2
    assert "scc-run: error: SCC_TCG='fast': expected one of single, multi, auto" in p.stderr


@pytest.mark.parametrize("mode", ["single", "multi"])
def test_each_mode_runs_hello(repo, build, mode):
    app = str(build / "apps" / "hello.elf")
    p = scc_run(repo, "--tcg", mode, "--app", app, "--print-command")
    assert p.returncode == 0, p.stderr
    assert f"-accel tcg,thread={mode}" in p.stdout
    p = scc_run(repo, "--tcg", mode, "--timeout", str(HELLO_TIMEOUT), "--app", app,
                timeout=HELLO_TIMEOUT + 30)
    assert p.returncode == 0, p.stderr[-3000:]
    r = sccrun.RunResult(p.returncode, p.stdout, p.stderr, False)
    assert sorted(r.core_lines()) == list(range(48)), p.stdout[-2000:]
