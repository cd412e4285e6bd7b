"""Unit tests of tools/sccrun.py and tools/scc-run that need no QEMU.

A fake "QEMU" (a small script given through SCC_QEMU) stands in where a
process must run.
"""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time

import pytest

import sccrun
from sccrun import RunResult, SccRunError, build_command, run

pytestmark = pytest.mark.no_qemu


def _alive(pid: int) -> bool:
    """Whether pid exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.fixture
def files(tmp_path):
    """An existing kernel, boot ELF and module (content does not matter here)."""
    d = {}
    for name in ("kernel.elf", "boot.elf", "mod1.elf", "mod2.elf", "cores.map"):
        p = tmp_path / name
        p.write_bytes(b"\x7fELF")
        d[name] = str(p)
    return d


@pytest.fixture
def fake_qemu(tmp_path, monkeypatch, files):
    """Make SCC_QEMU a script with the given body; returns its path."""
    monkeypatch.setenv("SCC_BOOT", files["boot.elf"])

    def make(body: str) -> str:
        p = tmp_path / "fake-qemu"
        p.write_text("#!/bin/sh\n" + textwrap.dedent(body))
        p.chmod(0o755)
        monkeypatch.setenv("SCC_QEMU", str(p))
        return str(p)
    return make


# --- RunResult.core_lines --------------------------------------------------------

def test_core_lines_groups_by_core_in_order():
    r = RunResult(0, "[00] up\n[47] up\n[00] second line\n[5] five\n", "", False)
    assert r.core_lines() == {0: ["up", "second line"], 47: ["up"], 5: ["five"]}


def test_core_lines_ignores_other_lines_and_keeps_text():
    out = "SeaBIOS noise\n[03]   spaced  text \n[x] not a core\n [04] indented\n[07]\n[08] a [09] b\r\n"
    r = RunResult(0, out, "", False)
    assert r.core_lines() == {3: ["  spaced  text "], 7: [""], 8: ["a [09] b"]}


def test_core_lines_empty():
    assert RunResult(0, "", "", False).core_lines() == {}


# --- build_command ---------------------------------------------------------------

def test_command_kernel_only(monkeypatch):
    monkeypatch.setenv("SCC_QEMU", "/q/qemu")
    monkeypatch.setenv("SCC_BOOT", "/b/boot.elf")
    assert build_command("k.elf") == [
        "/q/qemu", "-M", "scc", "-bios", "/b/boot.elf", "-display", "none",
        "-nodefaults", "-serial", "stdio", "-monitor", "none", "-no-reboot",
        "-kernel", "k.elf"]


def test_command_serial_comes_after_nodefaults():
    cmd = build_command("k.elf")
    assert cmd.index("-nodefaults") < cmd.index("-serial")
    assert cmd[cmd.index("-serial") + 1] == "stdio"


def test_command_all_options():
    cmd = build_command("k.elf", append="role=root x=1", modules=["a.elf", "b.elf"],
                        machine={"private-mem": "32M", "mesh-x": 4},
                        extra_args=["-d", "guest_errors"], qemu="Q", bios="B")
    assert cmd[:5] == ["Q", "-M", "scc,private-mem=32M,mesh-x=4", "-bios", "B"]
    assert cmd[-8:] == ["-kernel", "k.elf", "-append", "role=root x=1",
                        "-initrd", "a.elf,b.elf", "-d", "guest_errors"]


def test_command_coremap_is_machine_option():
    a = build_command(None, coremap="cores.map", qemu="Q", bios="B")
    b = build_command(None, machine={"coremap": "cores.map"}, qemu="Q", bios="B")
    assert a == b
    assert a[2] == "scc,coremap=cores.map"
    assert "-kernel" not in a


def test_command_defaults_to_repo_build(monkeypatch, repo):
    monkeypatch.delenv("SCC_QEMU", raising=False)
    monkeypatch.delenv("SCC_BOOT", raising=False)
    cmd = build_command("k.elf")
    assert cmd[0] == str(repo / "build" / "qemu" / "qemu-system-i386")
    assert cmd[cmd.index("-bios") + 1] == str(repo / "build" / "boot" / "scc-boot.elf")


@pytest.mark.parametrize("kwargs, message", [
    ({}, "nothing to run"),
    ({"kernel": "k", "machine": {"private-mem": "1,2"}}, "must not contain ','"),
    ({"kernel": "k", "machine": {"bad name": "1"}}, "bad machine option name"),
    ({"kernel": "k", "modules": ["a,b.elf"]}, "must not contain ','"),
    ({"kernel": "k", "modules": "a.elf"}, "not a string"),
    ({"kernel": "k", "extra_args": "-s"}, "not a string"),
    ({"coremap": "m", "append": "x"}, "need a kernel"),
    ({"kernel": "k", "coremap": "a", "machine": {"coremap": "b"}}, "both"),
])
def test_command_rejects_bad_arguments(kwargs, message):
    with pytest.raises(SccRunError, match=message):
        build_command(**kwargs)


# --- run(): argument checks before anything starts -------------------------------

@pytest.mark.parametrize("timeout", [0, -1, float("nan"), float("inf"), "10", None, True])
def test_run_rejects_bad_timeout(fake_qemu, files, timeout):
    fake_qemu("exit 0\n")
    with pytest.raises(SccRunError, match="timeout"):
        run(files["kernel.elf"], timeout=timeout)


def test_run_rejects_missing_kernel(fake_qemu, tmp_path):
    fake_qemu("exit 0\n")
    with pytest.raises(SccRunError, match="kernel .*missing.elf not found"):
        run(str(tmp_path / "missing.elf"))


def test_run_rejects_missing_module_and_coremap(fake_qemu, files, tmp_path):
    fake_qemu("exit 0\n")
    with pytest.raises(SccRunError, match="module .* not found"):
        run(files["kernel.elf"], modules=[str(tmp_path / "nope.elf")])
    with pytest.raises(SccRunError, match="core map .* not found"):
        run(coremap=str(tmp_path / "nope.map"))


def test_run_missing_qemu_says_make(monkeypatch, files, tmp_path):
    monkeypatch.setattr(sccrun, "DEFAULT_QEMU", tmp_path / "no-such-qemu")
    monkeypatch.delenv("SCC_QEMU", raising=False)
    monkeypatch.setenv("SCC_BOOT", files["boot.elf"])
    with pytest.raises(SccRunError, match="run `make`"):
        run(files["kernel.elf"])


def test_run_missing_boot_elf(fake_qemu, files, monkeypatch, tmp_path):
    fake_qemu("exit 0\n")
    monkeypatch.setenv("SCC_BOOT", str(tmp_path / "none.elf"))
    with pytest.raises(SccRunError, match="boot ELF"):
        run(files["kernel.elf"])


# --- run() with a fake QEMU --------------------------------------------------------

def test_run_passes_through_output_status_and_args(fake_qemu, files, tmp_path):
    argfile = tmp_path / "args"
    fake_qemu(f"""\
        printf '%s\\n' "$@" > {argfile}
        echo "[00] up"
        echo "[01] up"
        echo "oops" >&2
        read line && echo "stdin was not empty" >&2
        exit 3
    """)
    r = run(files["kernel.elf"], machine={"private-mem": "32M"}, append="a b",
            modules=[files["mod1.elf"], files["mod2.elf"]], timeout=30)
    assert (r.returncode, r.timed_out) == (3, False)
    assert r.core_lines() == {0: ["up"], 1: ["up"]}
    assert r.stderr == "oops\n"  # stdin is /dev/null: `read` got EOF
    args = argfile.read_text().splitlines()
    assert args[:2] == ["-M", "scc,private-mem=32M"]
    assert args[args.index("-append") + 1] == "a b"
    assert args[args.index("-initrd") + 1] == f"{files['mod1.elf']},{files['mod2.elf']}"


def test_run_accepts_paths(fake_qemu, files):
    from pathlib import Path
    fake_qemu("exit 0\n")
    r = run(Path(files["kernel.elf"]), modules=[Path(files["mod1.elf"])], timeout=30)
    assert r.returncode == 0


def test_run_timeout_kills_whole_process_group(fake_qemu, files, tmp_path):
    pidfile = tmp_path / "pids"
    # A "QEMU" that never exits, with a child of its own that never exits either.
    fake_qemu(f"""\
        sleep 1000 &
        echo "$$ $!" > {pidfile}
        echo "[00] started"
        while :; do sleep 1; done
    """)
    start = time.monotonic()
    r = run(files["kernel.elf"], timeout=1.5)
    elapsed = time.monotonic() - start
    assert r.timed_out and r.returncode == -1
    assert r.core_lines() == {0: ["started"]}
    assert elapsed < 15
    pids = [int(p) for p in pidfile.read_text().split()]
    deadline = time.monotonic() + 5
    while any(_alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_alive(p) for p in pids), "a process of the run survived the timeout"


def test_cli_timeout_exit_124_and_message(fake_qemu, files, repo):
    fake_qemu("echo '[00] waiting'\nexec sleep 1000\n")
    p = subprocess.run([sys.executable, str(repo / "tools" / "scc-run"), "--timeout", "1",
                        files["kernel.elf"]], capture_output=True, text=True, timeout=60,
                       stdin=subprocess.DEVNULL)
    assert p.returncode == 124
    assert "[00] waiting" in p.stdout
    assert "scc-run: timed out after 1 s" in p.stderr


def test_cli_exit_status_and_options(fake_qemu, files, repo, tmp_path):
    argfile = tmp_path / "args"
    fake_qemu(f"printf '%s\\n' \"$@\" > {argfile}; echo '[02] hi'; exit 7\n")
    p = subprocess.run([sys.executable, str(repo / "tools" / "scc-run"),
                        "--machine", "private-mem=32M", "--append", "x=1",
                        "--module", files["mod1.elf"], "--coremap", files["cores.map"],
                        files["kernel.elf"]],
                       capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert p.returncode == 7, p.stderr
    assert p.stdout == "[02] hi\n"
    args = argfile.read_text().splitlines()
    assert args[1] == f"scc,private-mem=32M,coremap={files['cores.map']}"


@pytest.mark.parametrize("argv, message", [
    (["--timeout", "0", "k"], "positive"),
    (["--timeout", "soon", "k"], "not a number"),
    (["--machine", "novalue", "k"], "KEY=VALUE"),
    (["/no/such/kernel.elf"], "not found"),
])
def test_cli_rejects_bad_arguments(fake_qemu, repo, argv, message):
    fake_qemu("exit 0\n")
    p = subprocess.run([sys.executable, str(repo / "tools" / "scc-run"), *argv],
                       capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert p.returncode == 2
    assert message in p.stderr


def test_cli_is_executable(repo):
    assert os.access(repo / "tools" / "scc-run", os.X_OK)
