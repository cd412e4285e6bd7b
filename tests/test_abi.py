"""The guest ABI header (include/standard-headers/scc/abi.h): the tests'
reader of it (tests/lib/abi.py) against the C preprocessor, and the rule that
it is the one definition: the machine's tree gets this very file, and
neither the machine nor the guest code defines its names again."""
from __future__ import annotations

import re
import subprocess

import pytest

from lib import abi

pytestmark = pytest.mark.no_qemu

EXIT_NAMES = ["SCC_EXIT_TRAP_BASE", "SCC_EXIT_STALLED", "SCC_EXIT_BADOPTION",
              "SCC_EXIT_BADAPP", "SCC_EXIT_PANIC", "SCC_EXIT_STOPPED",
              "SCC_EXIT_BADBOOT", "SCC_EXIT_HUNG", "SCC_EXIT_TRIPLE"]


def test_parser_finds_the_exit_statuses():
    for name in EXIT_NAMES:
        assert name in abi.ABI, name
    statuses = [abi.ABI[n] for n in EXIT_NAMES]
    assert len(set(statuses)) == len(statuses), "two exit statuses share a value"
    # Applications own 0-127: every status the kernel or machine reports is above.
    assert all(128 <= v <= 255 for v in statuses), statuses
    assert abi.EXIT_PAGE_FAULT == abi.EXIT_TRAP_BASE + 14


def test_parser_reads_expressions_and_skips_the_rest():
    text = """
    #define A 0x10          /* a comment */
    #define B (A << 4)      // another
    #define  C   (B | 1)
    #define F(x) ((x) + 1)
    #define S "a string"
    #define T { "x", "y" }
    #define LONG (A + \\
                  2)
    /* #define HIDDEN 1
       #define HIDDEN2 2 */
    #define EMPTY
    """
    got = abi.parse(text)
    assert got == {"A": 0x10, "B": 0x100, "C": 0x101, "LONG": 0x12}


def test_parser_refuses_octal():
    with pytest.raises(abi.AbiError, match="octal"):
        abi.parse("#define X 010\n")


def test_parser_agrees_with_the_c_preprocessor(tmp_path, repo):
    """Every value the reader found is the one a C compiler sees."""
    names = sorted(abi.ABI)
    src = tmp_path / "dump.c"
    src.write_text("#include <stdio.h>\n#include <standard-headers/scc/abi.h>\n"
                   "int main(void) {\n" +
                   "".join(f'    printf("{n} %lld\\n", (long long)({n}));\n' for n in names) +
                   "    return 0;\n}\n")
    exe = tmp_path / "dump"
    subprocess.run(["gcc", "-I", str(repo / "include"), "-o", str(exe), str(src)],
                   check=True, timeout=60)
    out = subprocess.run([str(exe)], capture_output=True, text=True, check=True, timeout=10).stdout
    c_values = {n: int(v) for n, v in (line.split() for line in out.splitlines())}
    assert c_values == {n: abi.ABI[n] for n in names}


def test_qemu_tree_has_the_same_header(repo):
    """scripts/qemu-tree.sh puts the project's headers into QEMU's tree."""
    for name in ("abi.h", "multiboot.h"):
        ours = repo / "include" / "standard-headers" / "scc" / name
        theirs = repo / "build" / "src" / "qemu" / "include" / "standard-headers" / "scc" / name
        # `make` assembles the tree before any test runs: a missing header
        # means scripts/qemu-tree.sh did not copy it (or make was not run)
        assert theirs.exists(), f"{theirs} is missing: run make (scripts/qemu-tree.sh copies it)"
        assert theirs.read_bytes() == ours.read_bytes(), f"{theirs} differs from {ours}: run make"


def _defines(path):
    return set(re.findall(r"^\s*#\s*define\s+(\w+)", path.read_text(), flags=re.M))


def test_no_second_definition(repo):
    """No file of the machine or the guest code defines an ABI name again
    (aliases under other names are allowed)."""
    header = repo / "include" / "standard-headers" / "scc" / "abi.h"
    names = _defines(header)
    dirs = ["qemu/overlay", "include/scc", "kernel", "drivers", "boot", "libscc", "tests/guest",
            "tests/apps", "apps"]
    again = {}
    for d in dirs:
        for f in (repo / d).rglob("*"):
            if f.suffix in (".c", ".h", ".S") and f != header:
                both = _defines(f) & names
                if both:
                    again[str(f.relative_to(repo))] = sorted(both)
    assert not again, f"ABI names defined again outside {header.name}: {again}"
