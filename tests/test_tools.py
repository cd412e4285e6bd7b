"""Unit tests of the machine runner (tools/scc/machine/sccrun.py, coremap.py),
tools/scc-run and the other commands, and of the tools package's layout,
that need no QEMU.

A fake "QEMU" (a small script given through SCC_QEMU) stands in where a
process must run.
"""
from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import textwrap
import time
import tomllib

import pytest

from lib import REPO
from scc.machine import sccrun
from scc.machine.coremap import SccRunError
from scc.machine.sccrun import RunResult, build_command, run

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
    monkeypatch.setenv("SCC_TCG", "multi")
    assert build_command("k.elf") == [
        "/q/qemu", "-M", "scc", "-bios", "/b/boot.elf", "-accel", "tcg,thread=multi",
        "-display", "none",
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


@pytest.mark.parametrize("argv, message", [
    (["--repeat", "0"], "--repeat must be 1 to 20"),
    (["--iters", "0"], "--iters must be at least 1"),
])
def test_bench_timing_rejects_bad_arguments(fake_qemu, repo, argv, message):
    fake_qemu("exit 0\n")
    p = subprocess.run([sys.executable, str(repo / "tools" / "scc-bench-timing"), *argv],
                       capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert p.returncode == 2, p.stderr
    assert message in p.stderr


def test_bench_timing_says_which_run_failed(fake_qemu, repo):
    """A run that fails ends the benchmark with its exit status, not a time."""
    fake_qemu("exit 3\n")
    p = subprocess.run([sys.executable, str(repo / "tools" / "scc-bench-timing"),
                        "--repeat", "1", "--timeout", "30"],
                       capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert p.returncode == 1, p.stdout + p.stderr
    assert "the run failed (exit 3" in p.stderr
    assert "timing / functional" not in p.stdout


def test_bench_timing_pairs_runs_of_the_same_turn():
    """The pair-by-pair ratio divides each timing run by the functional run of
    its own turn: a host that slows down halfway moves both alike."""
    from scc.machine.hosttime import paired
    # turn 2 ran on a host twice as slow: its pair still says 3x
    assert paired([3.0, 6.0, 3.3], [1.0, 2.0, 1.0]) == pytest.approx((3.0, 3.0, 3.3))
    # turn 2's functional run and turn 3's timing run were both slowed: the
    # ratio of the medians says 1.5x (3.3 / 2.2), the pairs' median 3.0x
    assert paired([3.0, 3.3, 6.6], [1.0, 2.2, 2.2]) == pytest.approx((3.0, 1.5, 3.0))
    with pytest.raises(ValueError):
        paired([1.0], [1.0, 2.0])
    with pytest.raises(ValueError):
        paired([], [])


# --- applications: core specs, kernel words, the core map run_app writes ----------

from scc.machine.coremap import (app_coremap, app_link_name, format_cores,  # noqa: E402
                                 kernel_arg, kernel_options, machine_cores, parse_cores)
from scc.machine.sccrun import run_app  # noqa: E402


@pytest.mark.parametrize("spec, want", [
    ("all", list(range(48))),
    ("0", [0]),
    ("47", [47]),
    ("0-3,5", [0, 1, 2, 3, 5]),
    (" 5 , 1-2 ", [1, 2, 5]),
    (7, [7]),
    ([11, 2], [2, 11]),
    (range(4), [0, 1, 2, 3]),
])
def test_parse_cores(spec, want):
    assert parse_cores(spec) == want


@pytest.mark.parametrize("spec, message", [
    ("", "empty"),
    ("48", "core 48 does not exist"),
    ("0-48", "core 48 does not exist"),
    ("5-3", "backwards"),
    ("a", "not N or N-M"),
    ("1,,2", "not N or N-M"),
    ("-1", "not N or N-M"),
    ([], "no cores"),
    ([1, "2"], "must be ints"),
    (True, "bad core spec"),
    (-1, "does not exist"),
    ("3,3,2-3", "core 3 is listed twice"),      # refused, as a core map refuses it
    ("0-3,2", "core 2 is listed twice"),
    ([11, 2, 2], "core 2 is listed twice"),
])
def test_parse_cores_rejects(spec, message):
    with pytest.raises(SccRunError, match=message):
        parse_cores(spec)


def test_parse_cores_small_machine():
    assert parse_cores("all", 8) == list(range(8))
    with pytest.raises(SccRunError, match="8 cores"):
        parse_cores("8", 8)


def test_machine_cores():
    assert machine_cores(None) == 48
    assert machine_cores({"mesh-x": "2", "mesh-y": "2"}) == 8
    assert machine_cores({"mesh-x": 3, "mesh-y": 2, "cores-per-tile": "1"}) == 6
    with pytest.raises(SccRunError, match="mesh"):
        machine_cores({"mesh-x": "six"})


@pytest.mark.parametrize("ids, want", [
    ([0], "0"), ([0, 1, 2, 5], "0-2,5"), (list(range(48)), "0-47"),
    ([5, 1, 2, 3, 9, 11, 10], "1-3,5,9-11"),
])
def test_format_cores(ids, want):
    assert format_cores(ids) == want
    assert parse_cores(want) == sorted(set(ids))


@pytest.mark.parametrize("arg, word", [
    ("x", "x"), ("1000", "1000"), ("a=b", "a=b"), ("--flag", "--flag"),
    ("two words", '"two words"'), ("", '""'), (" lead", '" lead"'),
    ("it's", '"it\'s"'), ("$HOME", "$HOME"), ("#", "#"),
])
def test_kernel_arg_quotes_what_the_kernel_would_split(arg, word):
    assert kernel_arg(arg) == word


@pytest.mark.parametrize("arg", ['say "hi"', "back\\slash", "tab\there", "new\nline", 3])
def test_kernel_arg_rejects_what_cannot_pass(arg):
    with pytest.raises(SccRunError):
        kernel_arg(arg)


def test_kernel_options_forms():
    assert kernel_options(None) == []
    assert kernel_options(["mbox=poll", "tick=100", "verbose"]) == ["mbox=poll", "tick=100", "verbose"]
    assert kernel_options({"mbox": "ipi", "tick": 0}) == ["mbox=ipi", "tick=0"]


@pytest.mark.parametrize("opts", ["mbox=poll", ["a b=1"], ["x=1 2"], ["k='v'"], ["module=x.elf"],
                                  ["hold"], ["--"], [""], [5]])
def test_kernel_options_rejects(opts):
    with pytest.raises(SccRunError):
        kernel_options(opts)


def _map_words(text):
    """The words of the core map's one non-comment line, split as the
    machine splits them (a POSIX shell's rules, # comments)."""
    import shlex
    lines = [l for l in text.splitlines() if l.strip() and not l.lstrip().startswith("#")]
    assert len(lines) == 1, text
    return shlex.split(lines[0], comments=True)


def _kernel_cmdline_split(cmdline):
    """How the kernel is expected to split its command line: words separated
    by spaces, double quotes group (Linux's rule)."""
    words, cur, quoted, inword = [], "", False, False
    for ch in cmdline:
        if ch == '"':
            quoted, inword = not quoted, True
        elif ch == " " and not quoted:
            if inword:
                words.append(cur)
            cur, inword = "", False
        else:
            cur, inword = cur + ch, True
    if inword:
        words.append(cur)
    return words


def test_app_coremap_line():
    text = app_coremap("hello.elf", cores="0-3,47", kernel_opts=["mbox=poll", "tick=100"],
                       args=["1000", "two words", ""])
    words = _map_words(text)
    assert words == ["0-3,47", "kernel.elf", "mbox=poll", "tick=100", "module=hello.elf", "--",
                     "1000", '"two words"', '""']
    # The machine drops module=, joins the rest with single spaces into the
    # kernel's command line; the kernel's split gives back the arguments.
    cmdline = " ".join(w for w in words[1:] if not w.startswith("module="))
    assert cmdline == 'kernel.elf mbox=poll tick=100 -- 1000 "two words" ""'
    split = _kernel_cmdline_split(cmdline)
    assert split[split.index("--") + 1:] == ["1000", "two words", ""]


def test_app_coremap_defaults_and_comment_chars():
    words = _map_words(app_coremap("a b.elf", args=["#not-a-comment", "x;y", "it's"]))
    assert words == ["0-47", "kernel.elf", "module=a b.elf", "--", "#not-a-comment", "x;y", '"it\'s"']


def test_app_coremap_rejects_bad_input():
    with pytest.raises(SccRunError, match="not a string"):
        app_coremap("a.elf", args="x")
    with pytest.raises(SccRunError, match="does not exist"):
        app_coremap("a.elf", cores="0-7", ncores=4)
    with pytest.raises(SccRunError, match="reserved"):
        app_coremap("a.elf", kernel_opts=["module=b.elf"])


def test_app_link_name():
    assert app_link_name("build/apps/hello.elf") == "hello.elf"
    assert app_link_name("/x/kernel.elf") == "app-kernel.elf"


def test_run_app_writes_map_and_cleans_up(fake_qemu, files, tmp_path):
    """run_app hands QEMU a core map in a temporary directory whose links
    name the kernel and the app; the directory is gone afterwards."""
    seen = tmp_path / "seen"
    fake_qemu(f"""\
        for a in "$@"; do case $a in scc,*coremap=*) m=${{a##*coremap=}};; esac; done
        d=$(dirname "$m")
        {{ echo "$d"; cat "$m"; readlink "$d/kernel.elf"; readlink "$d/mod1.elf"; }} > {seen}
        echo "[00] ran"
        exit 5
    """)
    r = run_app(files["mod1.elf"], kernel=files["kernel.elf"], cores="0,2-3",
                args=["x y", "z"], kernel_opts={"mbox": "hybrid"},
                machine={"private-mem": "32M"}, timeout=30)
    assert (r.returncode, r.timed_out) == (5, False)
    assert r.core_lines() == {0: ["ran"]}
    out = seen.read_text().splitlines()
    tmpdir = out[0]
    body = [l for l in out[1:-2] if not l.startswith("#")]
    assert body == ["""0,2-3 kernel.elf mbox=hybrid module=mod1.elf -- '"x y"' z"""]
    assert out[-2:] == [files["kernel.elf"], files["mod1.elf"]]
    assert not os.path.exists(tmpdir), "run_app left its temporary directory behind"


def test_run_app_checks_before_starting(fake_qemu, files, tmp_path):
    marker = tmp_path / "started"
    fake_qemu(f"touch {marker}\nexit 0\n")
    with pytest.raises(SccRunError, match="application .* not found"):
        run_app(str(tmp_path / "none.elf"), kernel=files["kernel.elf"])
    with pytest.raises(SccRunError, match="kernel .* not found"):
        run_app(files["mod1.elf"], kernel=str(tmp_path / "none.elf"))
    with pytest.raises(SccRunError, match="does not exist"):
        run_app(files["mod1.elf"], kernel=files["kernel.elf"], cores="0-9",
                machine={"mesh-x": "2", "mesh-y": "2"})
    with pytest.raises(SccRunError, match="coremap"):
        run_app(files["mod1.elf"], kernel=files["kernel.elf"], machine={"coremap": "m"})
    with pytest.raises(SccRunError, match="cannot be passed"):
        run_app(files["mod1.elf"], kernel=files["kernel.elf"], args=['"'])
    assert not marker.exists()


def test_run_records_line_times(fake_qemu, files):
    fake_qemu("echo '[00] early'; sleep 0.5; echo '[01] late'; echo '[00] again'\n")
    r = run(files["kernel.elf"], timeout=30)
    assert len(r.line_times) == 3
    firsts = r.first_line_times()
    assert set(firsts) == {0, 1}
    assert firsts[1] - firsts[0] >= 0.4
    assert r.first_line_times("again") == {0: r.line_times[2]}
    assert r.elapsed >= firsts[1]


def test_cli_app_print_command(files, repo):
    p = subprocess.run([sys.executable, str(repo / "tools" / "scc-run"), "--print-command",
                        "--app", files["mod1.elf"], "--cores", "1-2", "--kopt", "mbox=poll",
                        files["kernel.elf"], "--", "a b", "c"],
                       capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert p.returncode == 0, p.stderr
    body = [l for l in p.stdout.splitlines()[1:] if not l.startswith("#")]
    assert body == ["""1-2 kernel.elf mbox=poll module=mod1.elf -- '"a b"' c"""]


def test_cli_app_runs_with_args_and_time(fake_qemu, files, repo, tmp_path):
    seen = tmp_path / "seen"
    fake_qemu(f"""\
        for a in "$@"; do case $a in scc,*coremap=*) m=${{a##*coremap=}};; esac; done
        grep -v '^#' "$m" > {seen}
        echo "[00] hello"; echo "[03] hello"
        exit 0
    """)
    p = subprocess.run([sys.executable, str(repo / "tools" / "scc-run"), "--time",
                        "--app", files["mod1.elf"], "--cores", "0,3", files["kernel.elf"],
                        "--", "one", "two words"],
                       capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert p.returncode == 0, p.stderr
    assert p.stdout == "[00] hello\n[03] hello\n"
    assert seen.read_text() == """0,3 kernel.elf module=mod1.elf -- one '"two words"'\n"""
    assert "scc-run: time: 2 cores printed their first console line" in p.stderr
    assert "QEMU exited after" in p.stderr


def test_cli_time_names_silent_cores(fake_qemu, files, repo):
    fake_qemu("echo '[00] hi'\nexit 0\n")
    p = subprocess.run([sys.executable, str(repo / "tools" / "scc-run"), "--time",
                        "--time-mark", "hi", "--app", files["mod1.elf"], "--cores", "0-1",
                        files["kernel.elf"]],
                       capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert p.returncode == 0, p.stderr
    assert "1 cores printed their first line containing 'hi'" in p.stderr
    assert "1 started cores did not (first: core 01)" in p.stderr


@pytest.mark.parametrize("argv, message", [
    (["k", "--", "x"], "need --app"),
    (["--kopt", "a=b", "k"], "need --app"),
    (["--cores", "1", "k"], "need --app"),
    (["--app", "A", "--coremap", "m"], "does not go with"),
    (["--app", "A", "--append", "x"], "does not go with"),
    (["--time-mark", "x", "k"], "needs --time"),
])
def test_cli_app_rejects_bad_combinations(repo, argv, message):
    p = subprocess.run([sys.executable, str(repo / "tools" / "scc-run"), *argv],
                       capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert p.returncode == 2
    assert message in p.stderr


@pytest.mark.parametrize("extra, message", [
    (["--cores", "48"], "core 48 does not exist"),
    (["--kopt", "bad opt"], "bad kernel option"),
    (["--", 'q"'], "cannot be passed"),
])
def test_cli_app_rejects_bad_values(fake_qemu, files, repo, extra, message):
    fake_qemu("exit 0\n")
    argv = ["--app", files["mod1.elf"], files["kernel.elf"]]
    if extra[0] == "--":
        argv += extra
    else:
        argv = extra + argv
    p = subprocess.run([sys.executable, str(repo / "tools" / "scc-run"), *argv],
                       capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert p.returncode == 2, p.stderr
    assert message in p.stderr


def test_run_app_kernel_from_environment(fake_qemu, files, tmp_path, monkeypatch):
    seen = tmp_path / "seen"
    fake_qemu(f"""\
        for a in "$@"; do case $a in scc,*coremap=*) m=${{a##*coremap=}};; esac; done
        readlink "$(dirname "$m")/kernel.elf" > {seen}
    """)
    monkeypatch.setenv("SCC_KERNEL", files["kernel.elf"])
    assert run_app(files["mod1.elf"], timeout=30).returncode == 0
    assert seen.read_text().strip() == files["kernel.elf"]
    monkeypatch.setenv("SCC_KERNEL", str(tmp_path / "gone.elf"))
    with pytest.raises(SccRunError, match="kernel .*gone.elf not found"):
        run_app(files["mod1.elf"], timeout=30)


@pytest.mark.no_qemu
def test_bcast_demo_keeps_variants_of_one_algorithm_apart():
    from scc.cli.bcast_demo import table
    rows = [{"algorithm": "oc", "params": p, "bytes": "32", "median_us": m, "mb_per_s": "1",
             "verified": "yes"} for p, m in (("k=2,chunk=60", "10.0"), ("k=47,chunk=60", "20.0"))]
    lines = table(rows, [32], ["oc:k=2", "oc:k=47"]).splitlines()
    assert lines[2].split() == ["oc:k=2", "10.0", "us"]
    assert lines[3].split() == ["oc:k=47", "20.0", "us"]


@pytest.mark.no_qemu
def test_bcast_demo_shows_what_auto_ran_at_each_size():
    from scc.cli.bcast_demo import table
    rows = [{"algorithm": a, "params": p, "bytes": b, "median_us": m, "mb_per_s": "1",
             "verified": "yes"} for a, p, b, m in (
                 ("binomial", "", "32", "20.0"), ("binomial", "", "4096", "200.0"),
                 ("mesh", "k=7,chunk=60", "32", "15.0"), ("oc", "k=3,chunk=60", "4096", "90.0"))]
    lines = table(rows, [32, 4096], ["binomial", "auto"]).splitlines()
    assert lines[2].split() == ["binomial", "(RCCE_comm)", "20.0", "us", "200.0", "us"]
    assert lines[3].split() == ["auto", "(libscc's", "default)", "15.0", "us", "90.0", "us"]
    assert lines[-1] == "auto ran: mesh:k=7,chunk=60 (32 B), oc:k=3,chunk=60 (4096 B)"


# --- the package's layout: rooms, no import loop (tools/scc/__init__.py) ----------

PACKAGE = REPO / "tools" / "scc"
# Each room imports only the rooms before it (scc.paths: anyone).
ROOMS = ("machine", "bench", "report", "cli")


def package_modules(root) -> dict:
    """{dotted name: file} of every module of the package at @root."""
    out = {}
    for f in sorted(root.rglob("*.py")):
        parts = list(f.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = f
    return out


def _imports(name: str, path, modules: dict):
    """(line, target module, names taken from it, inside a function body) of
    each import of @name's that lands in the package; `from P import M`
    with M a module is an import of M."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    here = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []

    def visit(node, in_function):
        for child in ast.iter_child_nodes(node):
            deferred = in_function or isinstance(child, (ast.FunctionDef,
                                                         ast.AsyncFunctionDef, ast.Lambda))
            if isinstance(child, ast.Import):
                for a in child.names:
                    if a.name in modules:
                        found.append((child.lineno, a.name, [], in_function))
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    up = here.split(".")[:len(here.split(".")) - (child.level - 1)]
                    base = ".".join(up + ([base] if base else []))
                if base not in modules:
                    continue
                names = []
                for a in child.names:
                    if f"{base}.{a.name}" in modules:
                        found.append((child.lineno, f"{base}.{a.name}", [], in_function))
                    else:
                        names.append(a.name)
                if names:
                    found.append((child.lineno, base, names, in_function))
            visit(child, deferred)
    visit(tree, False)
    return tree, found


def _module_aliases(tree, modules: dict) -> dict:
    """{local name: module} of the package modules a module binds by name
    (import a.b as x, from a import b)."""
    out = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name in modules and a.asname:
                    out[a.asname] = a.name
        elif isinstance(node, ast.ImportFrom) and node.module:
            for a in node.names:
                if f"{node.module}.{a.name}" in modules:
                    out[a.asname or a.name] = f"{node.module}.{a.name}"
    return out


def layout_problems(root) -> list[str]:
    """What is wrong with the package at @root: an import loop among its
    modules' top-level imports, an import of a package module inside a
    function body (where a loop hides), a private name (_x) taken from
    another module, a room importing a room after it."""
    modules = package_modules(root)
    pkg = root.name
    graph: dict[str, set] = {m: set() for m in modules}
    problems = []
    for name, path in modules.items():
        tree, found = _imports(name, path, modules)
        where = f"{path.relative_to(root.parent)}"
        for line, target, names, in_function in found:
            if in_function:
                problems.append(f"{where}:{line}: imports {target} inside a function body "
                                "(the package's modules import each other at the top)")
                continue
            graph[name].add(target)
            # importing a.b.c runs a/__init__ and a/b/__init__ first
            parts = target.split(".")
            graph[name].update(".".join(parts[:i]) for i in range(1, len(parts))
                               if not name.startswith(".".join(parts[:i]) + ".")
                               and ".".join(parts[:i]) != name)
            private = [n for n in names if n.startswith("_") and not n.startswith("__")]
            if private:
                problems.append(f"{where}:{line}: takes the private name(s) "
                                f"{', '.join(private)} from {target}")
            mine, theirs = name.split("."), target.split(".")
            if len(mine) > 1 and len(theirs) > 1 and mine[1] in ROOMS and theirs[1] in ROOMS \
                    and ROOMS.index(theirs[1]) > ROOMS.index(mine[1]):
                problems.append(f"{where}:{line}: the room {mine[1]} imports {target}, "
                                f"of the room {theirs[1]} after it")
        aliases = _module_aliases(tree, modules)
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                    and node.value.id in aliases and node.attr.startswith("_") \
                    and not node.attr.startswith("__"):
                problems.append(f"{where}:{node.lineno}: uses the private name "
                                f"{aliases[node.value.id]}.{node.attr}")
    # a loop: depth-first search for a back edge
    state: dict[str, int] = {}
    stack: list[str] = []

    def dfs(m):
        state[m] = 1
        stack.append(m)
        for t in sorted(graph.get(m, ())):
            if state.get(t) == 1:
                loop = stack[stack.index(t):] + [t]
                problems.append("import loop: " + " -> ".join(loop))
            elif t not in state:
                dfs(t)
        stack.pop()
        state[m] = 2
    for m in sorted(graph):
        if m not in state:
            dfs(m)
    assert pkg in modules, f"{root} is not a package"
    return problems


def test_the_package_has_no_import_loop_nor_private_imports():
    assert layout_problems(PACKAGE) == []


def test_the_package_is_in_its_rooms():
    modules = package_modules(PACKAGE)
    for name in modules:
        parts = name.split(".")
        assert len(parts) == 1 or parts[1] in ROOMS or name == "scc.paths", \
            f"{name}: a module outside the rooms {', '.join(ROOMS)}"
    # one command, one module of scc.cli: each console script is one
    scripts = tomllib.loads((REPO / "tools" / "pyproject.toml").read_text())["project"]["scripts"]
    assert sorted(v.partition(":")[0] for v in scripts.values()) == \
        sorted(m for m in modules if m.startswith("scc.cli."))


def test_every_module_imports_alone():
    """Each module in a fresh interpreter, alone: what it needs it imports."""
    names = [m for m in package_modules(PACKAGE) if m != "scc"]
    procs = {m: subprocess.Popen([sys.executable, "-c", f"import {m}"], cwd=REPO / "tools",
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
             for m in names}
    failed = {}
    for m, p in procs.items():
        out, _ = p.communicate(timeout=120)
        if p.returncode:
            failed[m] = out.strip().splitlines()[-1:]
    assert failed == {}


def _write_package(root, files: dict) -> None:
    for rel, text in files.items():
        f = root / rel
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(textwrap.dedent(text))


def test_the_layout_check_finds_a_loop_a_late_import_and_a_private_name(tmp_path):
    root = tmp_path / "pkg"
    _write_package(root, {
        "__init__.py": "",
        "machine/__init__.py": "",
        "machine/a.py": "from pkg.machine import b\n",
        "machine/b.py": "import pkg.machine.c\n",
        "machine/c.py": "from pkg.machine.a import thing\nthing = 1\n",
        "bench/__init__.py": "",
        "bench/d.py": "def f():\n    from pkg.machine import a\n    return a\n",
        "bench/e.py": "from pkg.machine.c import _hidden\nfrom pkg.machine import c\n"
                      "x = c._other\n",
        "machine/f.py": "from pkg.bench import d\n",
    })
    problems = layout_problems(root)
    loops = [p.removeprefix("import loop: ").split(" -> ") for p in problems
             if p.startswith("import loop: ")]
    assert [set(loop) for loop in loops] == [{"pkg.machine.a", "pkg.machine.b",
                                              "pkg.machine.c"}], problems
    assert any("bench/d.py:2: imports pkg.machine.a inside a function body" in p
               for p in problems), problems
    assert any("bench/e.py:1: takes the private name(s) _hidden" in p for p in problems)
    assert any("bench/e.py:3: uses the private name pkg.machine.c._other" in p
               for p in problems), problems
    assert any("machine/f.py:1: the room machine imports pkg.bench.d" in p
               for p in problems), problems
    assert len(problems) == 5, problems


def test_the_dependencies_are_declared_and_pinned():
    """tools/pyproject.toml names the tools' dependencies (and the tests'
    in its test extra); requirements.txt pins every one of them for the
    build, with the rest of what build/venv holds."""
    project = tomllib.loads((REPO / "tools" / "pyproject.toml").read_text())["project"]
    pinned = {}
    for line in (REPO / "requirements.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, version = line.partition("==")
            assert version, f"requirements.txt: {line!r} is not pinned (NAME==VERSION)"
            pinned[re.sub(r"[-_.]+", "-", name).lower()] = version
    declared = project["dependencies"] + project["optional-dependencies"]["test"]
    assert {"dask", "pandas", "matplotlib", "pytest"} <= \
        {re.match(r"[A-Za-z0-9_.-]+", d).group().lower() for d in declared}
    for dep in declared:
        name = re.sub(r"[-_.]+", "-", re.match(r"[A-Za-z0-9_.-]+", dep).group()).lower()
        assert name in pinned, f"{dep}: declared in tools/pyproject.toml, not pinned"


@pytest.mark.parametrize("name", ["scc-run", "scc-bench", "scc-cc", "scc-report",
                                  "scc-bcast-demo", "scc-bench-tcg", "scc-bench-timing",
                                  "scc-fuzz-loader"])
def test_each_console_script_has_its_launcher(name):
    """tools/NAME runs build/venv/bin/NAME's command from a checkout."""
    p = subprocess.run([sys.executable, str(REPO / "tools" / name), "--help"],
                       capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert p.returncode == 0, p.stderr
    assert "usage" in p.stdout.lower() or name == "scc-cc" and "scc-cc" in p.stdout
