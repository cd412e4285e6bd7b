"""scc-run's words for the program (tools/scc/cli/run.py): the program's
words typed without `--` before them are refused, saying where they go;
an RCCE program run without RCCE's words gets a note saying which words
RCCE_init needs (issue 43, item 6a)."""
from __future__ import annotations

import subprocess

import pytest

from conftest import BUILD, REPO
from scc.cli import run as cmd_run
from scc.machine.elf import elf_defines

SCC_RUN = str(REPO / "tools" / "scc-run")
PINGPONG = BUILD / "apps" / "pingpong.elf"     # an RCCE program
HELLO = BUILD / "apps" / "hello.elf"           # not one


@pytest.mark.no_qemu
@pytest.mark.parametrize("words", [["4", "0.533", "0", "1", "2", "3"], ["4"], ["x", "y"]])
def test_program_words_without_the_dashes_are_refused(words):
    p = subprocess.run([SCC_RUN, "--app", str(PINGPONG), "--cores", "0-3", *words],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2, p.stderr
    last = p.stderr.strip().splitlines()[-1]
    assert last.startswith(f"scc-run: error: {' '.join(words)}: with --app, the program's "
                           "words go after --"), p.stderr
    assert f"-- {' '.join(words)})" in last and "--rcce" in last
    assert "unrecognized arguments" not in p.stderr


@pytest.mark.no_qemu
def test_other_stray_words_keep_argparse_message():
    # an unknown option, and a second word without --app, are argparse's
    for argv in (["--app", str(PINGPONG), "--bogus"], [str(HELLO), "more"]):
        p = subprocess.run([SCC_RUN, *argv], capture_output=True, text=True, timeout=60)
        assert p.returncode == 2 and "scc-run: error: unrecognized arguments:" in p.stderr, \
            p.stderr


@pytest.mark.no_qemu
def test_rcce_programs_are_told_apart_by_their_symbols():
    assert elf_defines(str(PINGPONG), "RCCE_init")
    assert not elf_defines(str(HELLO), "RCCE_init")
    assert not elf_defines(str(REPO / "README.md"), "RCCE_init")
    assert cmd_run.rcce_hint(str(HELLO), []) is None
    assert cmd_run.rcce_hint(str(PINGPONG), ["2", "0.533", "0", "1"]) is None
    assert "--rcce" in cmd_run.rcce_hint(str(PINGPONG), [])
    assert "'--sizes'" in cmd_run.rcce_hint(str(PINGPONG), ["--sizes", "32"])


def test_rcce_program_without_its_words_gets_a_note():
    """The guest still says why RCCE_init refused; scc-run says before the
    run what was missing. A program that is not RCCE's gets no note."""
    p = subprocess.run([SCC_RUN, "--timeout", "60", "--app", str(PINGPONG), "--cores", "0,1"],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode != 0
    assert "RCCE_init: '' is not a number of UEs" in p.stdout + p.stderr
    note = p.stderr.splitlines()[0]
    assert note.startswith("scc-run: note: ") and "RCCE program" in note and "--rcce" in note
    p = subprocess.run([SCC_RUN, "--timeout", "60", "--app", str(HELLO), "--cores", "0"],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and "scc-run: note" not in p.stderr, p.stderr
