"""Bad input to the runner and to the apps: a clear error, before the run
starts or from the core that found it; never a crash, a hang or a silent
wrong answer (the reliability issue's items 2, 5, 6, 7, 8 and 10).

Expectations come from the contract and from arithmetic done here (the
bytes a size stands for, the length of a kernel command line), with the
kernel's limit read from its header, not from what a run happened to print.
"""
from __future__ import annotations

import os
import re
import resource
import subprocess
import sys
import time

import pytest

from lib import abi
from conftest import BUILD, REPO
from scc.machine.sccrun import run, run_app
from lib import explain

SCC_RUN = REPO / "tools" / "scc-run"
KERNEL = BUILD / "kernel" / "kernel.elf"
TIMEOUT = 120
ALL48 = list(range(48))


def built(path):
    assert path.is_file(), f"{path} missing: run `make`"
    return path


def apps(name):
    return built(BUILD / "apps" / f"{name}.elf")


def host_app(name):
    return built(BUILD / "libscc" / "rcce" / "host" / name)


def ue_args(cores):
    """rccerun's words for RCCE_init: the UE count, a clock, the core ids."""
    return [str(len(cores)), "0.533", *map(str, cores)]


def scc_run(*argv, timeout=TIMEOUT, memory=None):
    """tools/scc-run's result; memory= caps its address space in bytes (a
    runner that builds a huge list then fails fast instead of swapping)."""
    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    return subprocess.run([sys.executable, str(SCC_RUN), *map(str, argv)], capture_output=True,
                          text=True, timeout=timeout, stdin=subprocess.DEVNULL,
                          preexec_fn=cap if memory else None)




def failed_core(r):
    """The first core that failed (the machine says so as it exits)."""
    m = re.search(r"^qemu-system-i386: scc: core (\d+) failed", r.stderr, re.M)
    assert m, explain(r)
    return int(m.group(1))


# --- item 2: a core range is checked before it is built ---------------------------

@pytest.mark.no_qemu
@pytest.mark.parametrize("spec", ["0-99999999999", "0-999999999", "3,1-4294967296"])
def test_a_huge_core_range_is_refused_before_it_is_built(spec):
    """The runner built the whole range first: a MemoryError traceback, or
    24 GB before the kernel killed it. 512 MiB of address space is plenty
    for the runner and far too little for the range."""
    r = scc_run("--app", apps("hello"), "--cores", spec, memory=512 << 20, timeout=60)
    assert r.returncode == 2, explain(r)
    assert "core 48 does not exist" in r.stderr and "Traceback" not in r.stderr, explain(r)


def test_a_huge_core_range_in_a_core_map_is_refused(tmp_path):
    cmap = tmp_path / "huge.map"
    cmap.write_text(f"0-99999999999 {built(KERNEL)}\n")
    r = scc_run("--coremap", cmap, timeout=60)
    assert r.returncode not in (0, 124) and "Traceback" not in r.stderr, explain(r)
    assert f"{cmap}:1" in r.stderr and "0-99999999999" in r.stderr, explain(r)


# --- item 5: sizes that do not fit are refused ------------------------------------

def csv_rows(lines):
    """The benchmark's CSV rows (after its header) in console lines."""
    return [l for l in lines if re.match(r"\w+,[^,]*,\"", l)]


@pytest.mark.parametrize("sizes, bad", [
    ("4096M", "4096M"),                 # 2^32: was 0 bytes, "verified"
    ("4097M", "4097M"),                 # was 1 MiB
    ("32,2048M", "2048M"),              # 2^31: negative in a 32-bit long
    ("32,99999999999999999999", "99999999999999999999"),
])
def test_bcast_bench_refuses_a_size_that_does_not_fit(sizes, bad):
    r = run_app(apps("bcast_bench"), cores="0-1", timeout=TIMEOUT,
                args=ue_args([0, 1]) + ["--sizes", sizes, "--iters", "1", "--warmup", "0"])
    assert r.returncode == 2 and not r.timed_out, explain(r)
    lines = r.core_lines()
    said = [l for c in lines for l in lines[c] if "error" in l]
    assert any(bad in l and "--sizes" in l for l in said), explain(r)
    assert not csv_rows(lines.get(0, [])), explain(r)


def test_bcast_bench_steps_a_range_to_its_end_without_wrapping():
    """1024M-2047M doubles once past 2^31 - 1: each size is stepped, not
    wrapped (the old loop went negative and ran garbage sizes); both are
    too large for the benchmark's arena and are skipped, saying so."""
    r = run_app(apps("bcast_bench"), cores="0-1", timeout=TIMEOUT,
                args=ue_args([0, 1]) + ["--sizes", "1024M-2047M", "--iters", "1",
                                        "--warmup", "0", "--alg", "binomial"])
    assert r.returncode == 0 and not r.timed_out, explain(r)
    lines = r.core_lines()[0]
    skipped = [int(m.group(1)) for l in lines
               for m in [re.search(r"(\d+) bytes need more than", l)] if m]
    assert skipped == [1024 << 20, 2047 << 20], explain(r)
    assert not csv_rows(lines), explain(r)


@pytest.mark.no_qemu
@pytest.mark.parametrize("sizes", ["4096M", "2048M", "99999999999999999999M", "1-9999999999K"])
def test_bcast_bench_on_the_host_refuses_what_the_chip_refuses(sizes):
    """The host's long has 64 bits: it took 4096M and overflowed later."""
    r = subprocess.run([host_app("bcast_bench"), *ue_args([0, 1]), "--sizes", sizes],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "bad --sizes" in r.stderr, explain(r)
    assert f"larger than {2**31 - 1} bytes" in r.stderr and not r.stdout, explain(r)


def test_copy_bench_refuses_a_size_that_does_not_fit(tmp_path):
    """4097M was 1 MiB on the chip and was copied as such."""
    cmap = tmp_path / "copy.map"
    cmap.write_text(f"0 {built(KERNEL)} module={apps('copy_bench')} -- cores=1,2 sizes=64K,4097M\n"
                    f"1-2 {built(KERNEL)} module={apps('copy_core')}\n")
    r = run(coremap=cmap, timeout=TIMEOUT)
    assert r.returncode == 2 and not r.timed_out, explain(r)
    said = "\n".join(r.core_lines().get(0, []))
    assert f"'4097M' is larger than {64 << 20} bytes" in said, explain(r)
    assert "kind,method" not in said, explain(r)


@pytest.mark.parametrize("maxbytes", ["4G", "2048M", "4294967296"])
def test_pingpong_refuses_a_size_it_cannot_hold(maxbytes):
    """pingpong read 4G as 4 (ran nothing, exit 0) and 2048M as 2048."""
    r = run_app(apps("pingpong"), cores="0-1", timeout=TIMEOUT,
                args=ue_args([0, 1]) + [maxbytes, "64K", "rcce"])
    assert r.returncode == 2 and not r.timed_out, explain(r)
    said = "\n".join(l for ls in r.core_lines().values() for l in ls)
    assert maxbytes in said and "api,peer" not in said, explain(r)


# --- item 6: a usage error reaches the user from the core that found it -----------

@pytest.mark.parametrize("extra, words", [
    (["--iters", "0"], "--iters"),
    (["--root", "-1"], "--root"),
    (["--root", "48"], "--root"),
    (["--sizes", "1G-2047M"], "1G"),
])
def test_a_usage_error_on_48_cores_is_printed_by_the_failing_core(extra, words):
    """Only UE 0 printed, and the first core to fail stopped it first: exit
    2 and no text. The core the run was stopped for must say why."""
    r = run_app(apps("bcast_bench"), timeout=TIMEOUT, args=ue_args(ALL48) + extra)
    assert r.returncode == 2 and not r.timed_out, explain(r)
    said = r.core_lines().get(failed_core(r), [])
    assert any("error" in l and words in l for l in said), explain(r)


# --- item 7: a command line the kernel would cut is refused -----------------------

def kernel_cmdline_limit():
    """The longest command line the kernel keeps: its buffer less the NUL."""
    return abi.parse((REPO / "kernel" / "defs.h").read_text())["CMDLINE_MAX"] - 1


def test_arguments_longer_than_the_kernel_keeps_are_refused_before_the_run():
    args = [f"argument-{i:03d}-" + "x" * 16 for i in range(200)]
    size = len(" ".join(["--", *args]))
    assert size > kernel_cmdline_limit()
    t0 = time.monotonic()
    r = scc_run("--app", built(BUILD / "tests" / "apps" / "hello_args.elf"), "--cores", "0",
                "--", *args)
    assert r.returncode == 2, explain(r)
    assert f"{size} bytes" in r.stderr and f"at most {kernel_cmdline_limit()}" in r.stderr, \
        explain(r)
    assert not r.stdout and time.monotonic() - t0 < 30, explain(r)


def test_arguments_exactly_as_long_as_the_kernel_keeps_arrive_whole():
    limit = kernel_cmdline_limit()
    args = ["y" * 99] * ((limit - 2) // 100)
    args.append("z" * (limit - len(" ".join(["--", *args])) - 1))
    assert len(" ".join(["--", *args])) == limit
    r = run_app(built(BUILD / "tests" / "apps" / "hello_args.elf"), cores="0", args=args,
                timeout=TIMEOUT)
    assert r.returncode == 0, explain(r)
    lines = r.core_lines()[0]
    assert f"argc {len(args) + 1}" in lines, explain(r)
    assert f"argv[{len(args)}] [{args[-1]}]" in lines, explain(r)
    assert not any("cut" in l for l in lines), explain(r)


# --- item 8 and 10: only regular files are run ------------------------------------

@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "a-fifo"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize("where", ["module", "kernel"])
def test_a_fifo_in_a_core_map_is_refused_by_name(tmp_path, fifo, where):
    """A FIFO made the run time out with no reason given."""
    kernel = fifo if where == "kernel" else built(KERNEL)
    module = f" module={fifo}" if where == "module" else ""
    cmap = tmp_path / "fifo.map"
    cmap.write_text(f"# a comment\n0 {kernel}{module}\n")
    t0 = time.monotonic()
    r = scc_run("--timeout", 60, "--coremap", cmap)
    assert r.returncode == 2, explain(r)
    assert f"{cmap}:2: {where} {fifo} is not a regular file (a FIFO)" in r.stderr, explain(r)
    assert time.monotonic() - t0 < 30, explain(r)


@pytest.mark.parametrize("device, kind", [("/dev/zero", "a character device"),
                                          ("/dev/null", "a character device")])
def test_a_device_as_a_module_is_refused_by_name(tmp_path, device, kind):
    """/dev/zero was read to 4 GiB before the machine refused it."""
    cmap = tmp_path / "dev.map"
    cmap.write_text(f"0 {built(KERNEL)} module={device}\n")
    r = scc_run("--timeout", 60, "--coremap", cmap)
    assert r.returncode == 2, explain(r)
    assert f"{cmap}:1: module {device} is not a regular file ({kind})" in r.stderr, explain(r)


@pytest.mark.parametrize("option", ["--coremap", "--module", "kernel", "--app"])
def test_a_fifo_given_to_the_runner_is_refused_by_name(fifo, option):
    argv = {"--coremap": ["--coremap", fifo], "--module": ["--module", fifo, built(KERNEL)],
            "kernel": [fifo], "--app": ["--app", fifo]}[option]
    r = scc_run("--timeout", 60, *argv, timeout=60)
    assert r.returncode == 2, explain(r)
    assert f"{fifo} is not a regular file (a FIFO)" in r.stderr, explain(r)


@pytest.mark.no_qemu
def test_dev_null_as_an_app_is_not_called_missing():
    r = scc_run("--app", "/dev/null", timeout=60)
    assert r.returncode == 2, explain(r)
    assert "application /dev/null is not a regular file (a character device)" in r.stderr, \
        explain(r)
    assert "not found" not in r.stderr, explain(r)


# --- item 10: RCCE_init says why it fails -----------------------------------------

@pytest.mark.parametrize("words, why", [
    (ue_args(ALL48 + [0]), "49 UEs"),
    (["3", "0.533", "0", "1", "1"], "core 1 is listed twice"),
    (["2", "0.533", "0", "48"], "'48' is not a core id"),
    (["3", "0.533", "0", "1"], "3 UEs need 3 core ids"),
])
def test_rcce_init_says_why_it_fails(words, why):
    cores = "0-1"
    r = run_app(apps("bcast_bench"), cores=cores, timeout=TIMEOUT, args=words)
    assert r.returncode == 2 and not r.timed_out, explain(r)
    said = r.core_lines().get(failed_core(r), [])
    assert any("RCCE_init" in l and why in l for l in said), explain(r)
