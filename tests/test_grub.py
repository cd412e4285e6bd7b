"""Booting through GRUB 2 (scc-run --grub, docs/grub.md, tools/scc/machine/grub.py).

The expectation each run is checked against is the machine's own loader:
the same program, cores and words booted directly must print the same.
"""
from __future__ import annotations

import re
import subprocess

import pytest

from lib import BUILD, explain, kernel, test_app
from scc.cli import run as cmd_run
from scc.machine import grub, sccrun
from scc.machine.coremap import SccRunError

MKIMAGE = BUILD / "grub" / "grub-mkimage"
MODDIR = BUILD / "grub" / "grub-core"


def normalized(r: sccrun.RunResult) -> dict[int, list[str]]:
    """Each core's stdout lines (what the program printed)."""
    return {c: lines for c, lines in r.core_lines(stream="stdout").items()}


def grub_stderr(r: sccrun.RunResult, core: int) -> str:
    return "\n".join(r.core_lines(stream="stderr").get(core, []))


# --- Without QEMU: the boot plan's words and grub.cfg ---------------------------

@pytest.mark.no_qemu
def test_kernel_words_split_as_the_kernel_splits():
    assert grub.kernel_words('mbox=ipi -- a "two words" b') == ["mbox=ipi", "--", "a", "two words", "b"]
    assert grub.kernel_words("  a   b ") == ["a", "b"]
    assert grub.kernel_words('""') == [""]


@pytest.mark.no_qemu
@pytest.mark.parametrize("word", ["", "it's", 'say"x"', "back\\slash"])
def test_a_word_grub_would_change_is_refused(word):
    with pytest.raises(SccRunError, match="--grub cannot pass"):
        grub.grub_word(word, "here")


@pytest.mark.no_qemu
def test_grub_cfg_picks_each_core_line_by_its_runs(tmp_path):
    plan = [grub.BootLine(cores=[0, 1, 2, 5], kernel="/k", cmdline="x -- a"),
            grub.BootLine(cores=[3], kernel="/k", cmdline="", modules=[("/m", "apps/m.elf")])]
    cfg = grub.grub_cfg(plan, {"/k": "/f/0-k", "/m": "/f/1-m"})
    assert 'if [ "$scc_core" -ge 0 -a "$scc_core" -le 2 ]; then set line=0; fi' in cfg
    assert 'if [ "$scc_core" -eq 5 ]; then set line=0; fi' in cfg
    assert 'if [ "$scc_core" -eq 3 ]; then set line=1; fi' in cfg
    assert "multiboot /f/0-k 'x' '--' 'a'" in cfg
    assert "module /f/1-m 'apps/m.elf'" in cfg
    assert cfg.rstrip().splitlines()[-1].startswith("scc_exit 252 ")


def test_scc_run_refuses_a_word_grub_would_change_before_the_run(capsys):
    rc = cmd_run.main(["--grub", "--app", str(test_app("hello_args")), "--cores", "0",
                       "--timeout", "30", "--", "it's"])
    err = capsys.readouterr().err
    assert rc == 2, err
    assert "--grub cannot pass" in err and "it's" in err


# --- Booting ----------------------------------------------------------------------

def test_grub_boots_the_kernel_on_one_core(tmp_path):
    """A core map of one line, one core (5): GRUB loads the kernel, which
    says who booted it; no other core starts."""
    (tmp_path / "kernel.elf").symlink_to(kernel())
    cmap = tmp_path / "one.map"
    cmap.write_text("5 kernel.elf\n")
    r = sccrun.run(coremap=str(cmap), timeout=60, grub=True)
    assert r.returncode == 0, explain(r)
    out = normalized(r)
    assert sorted(out) == [5], explain(r)
    assert out[5] == ["core 05: booted by GRUB 2.12", "core 05 tile (2,0) up"], explain(r)
    direct = sccrun.run(coremap=str(cmap), timeout=60)
    assert normalized(direct)[5] == ["core 05 tile (2,0) up"], explain(direct)


def test_grub_runs_an_app_on_48_cores_as_the_direct_boot_does():
    """48 cores through GRUB: every core's output equals the direct boot's,
    the arguments (one with a space) included."""
    args = ["first", "two words", "x=1"]
    r = sccrun.run_app(test_app("hello_args"), cores="all", args=args, timeout=120, grub=True)
    assert r.returncode == 0, explain(r)
    direct = sccrun.run_app(test_app("hello_args"), cores="all", args=args, timeout=120)
    assert direct.returncode == 0, explain(direct)
    assert normalized(r) == normalized(direct)
    assert len(normalized(r)) == 48
    assert "argv[2] [two words]" in normalized(r)[47]


def test_grub_gives_each_core_line_its_own_program_and_words(tmp_path):
    """A core map with two lines, other apps and words: GRUB's per-core
    choice (scc_core) must hand each core its own line."""
    for name, path in (("kernel.elf", kernel()), ("args.elf", test_app("hello_args")),
                       ("kinfo.elf", test_app("kinfo"))):
        (tmp_path / name).symlink_to(path)
    cmap = tmp_path / "two.map"
    cmap.write_text("0,2-3  kernel.elf  module=args.elf -- a b\n"
                    "1      kernel.elf  module=args.elf -- c\n"
                    "4      kernel.elf  module=kinfo.elf\n")
    r = sccrun.run(coremap=str(cmap), timeout=60, grub=True)
    direct = sccrun.run(coremap=str(cmap), timeout=60)
    assert r.returncode == 0 and direct.returncode == 0, explain(r) + explain(direct)
    assert normalized(r) == normalized(direct)
    out = normalized(r)
    assert "argv[2] [b]" in out[3] and "argv[1] [c]" in out[1] and "argc 2" in out[1]


def test_grub_boots_in_timing_mode(tmp_path):
    """Modeled time: GRUB runs on the modeled clocks too, and the run ends."""
    r = sccrun.run_app(test_app("hello_args"), cores="0-3", args=["t"], timeout=120, grub=True,
                       machine={"timing": "on"})
    assert r.returncode == 0, explain(r)
    assert all("argv[1] [t]" in lines for lines in normalized(r).values())


# --- GRUB's failures end the core with a status, and are seen ----------------------

def test_a_kernel_grub_cannot_boot_ends_the_run_with_its_error(tmp_path):
    """An app ELF (no Multiboot header) as the kernel: GRUB's own error is
    printed on the core's stderr, and the core ends with 252 at once."""
    (tmp_path / "notmb.elf").symlink_to(test_app("hello_args"))
    cmap = tmp_path / "bad.map"
    cmap.write_text("0 notmb.elf\n")
    r = sccrun.run(coremap=str(cmap), timeout=60, grub=True)
    assert not r.timed_out, explain(r)
    assert r.returncode != 0, explain(r)
    err = grub_stderr(r, 0)
    assert "no multiboot header found" in err, explain(r)
    assert "nothing was booted" in err, explain(r)
    assert re.search(r"core 00 failed: exit status 252", r.stderr), explain(r)


def test_grub_never_waits_for_a_key(tmp_path):
    """A grub.cfg that does not boot drops GRUB to its command line, which
    asks for a key: the scc terminal ends the core instead of waiting."""
    md = tmp_path / "md" / "boot" / "grub"
    md.mkdir(parents=True)
    (md / "grub.cfg").write_text('echo "grub: this script boots nothing"\n')
    tar = tmp_path / "memdisk.tar"
    subprocess.run(["tar", "cf", str(tar), "-C", str(tmp_path / "md"), "boot"], check=True)
    image = tmp_path / "grub.elf"
    subprocess.run([str(MKIMAGE), "-d", str(MODDIR), "-O", "i386-multiboot", "-p",
                    "(memdisk)/boot/grub", "-m", str(tar), "-o", str(image),
                    *grub.GRUB_MODULES], check=True, timeout=60)
    cmap = tmp_path / "g.map"
    cmap.write_text(f"0 {image}\n")
    r = sccrun.run(coremap=str(cmap), timeout=60)
    assert not r.timed_out, explain(r)
    err = grub_stderr(r, 0)
    assert "this script boots nothing" in err, explain(r)
    assert "waiting for a key" in err, explain(r)
    assert "core 00 failed: exit status 252" in r.stderr, explain(r)
