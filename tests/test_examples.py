"""The README's examples (examples/) build with scc-cc and run as the README
says, on the chip and on the host, with the output it implies."""
from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from conftest import BUILD, REPO

SCC_CC = BUILD / "venv" / "bin" / "scc-cc"
WORDS = ["8", "0.533", *map(str, range(8))]
# ranks 1..7 each add their rank
RING_LINE = f"token {sum(range(8))} after 8 UEs, sqrt {sum(range(8)) ** 0.5:.3f}"


def build(d, *args):
    p = subprocess.run([str(SCC_CC), *args], cwd=d, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    return p


@pytest.fixture
def ring(tmp_path):
    shutil.copy(REPO / "examples" / "ring.c", tmp_path)
    return tmp_path


def test_readme_ring_on_the_chip(ring):
    build(ring, "-O2", "-o", "ring.elf", "ring.c", "-lm")
    for mode in ([], ["--timing"]):
        # the README's command, word for word but the paths and a time limit
        r = subprocess.run([str(REPO / "tools" / "scc-run"), "--timeout", "120", *mode,
                            "--app", "ring.elf", "--cores", "0-7", "--stdout-of", "0",
                            "--", *WORDS], cwd=ring, capture_output=True, text=True,
                           timeout=180)
        assert r.returncode == 0, r.stderr[-3000:]
        assert r.stdout == RING_LINE + "\n", r.stdout


def test_readme_ring_on_the_host(ring):
    build(ring, "--host", "-O2", "-o", "ring", "ring.c", "-lm")
    r = subprocess.run([str(ring / "ring"), *WORDS], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout == RING_LINE + "\n"


@pytest.mark.no_qemu
def test_readme_names_only_examples_that_exist():
    """Every examples/ file the README and the guides name is in the tree,
    and every example is listed in examples/README.md."""
    listed = (REPO / "examples" / "README.md").read_text()
    for f in (REPO / "examples").glob("*.c"):
        assert f"`{f.name}`" in listed, f.name
    for doc in [REPO / "README.md", *(REPO / "docs").glob("*.md")]:
        for name in re.findall(r"examples/([\w.-]*\w)", doc.read_text()):
            assert (REPO / "examples" / name).exists(), (doc.name, name)
