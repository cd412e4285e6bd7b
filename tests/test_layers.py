"""The guest code's layers (docs/kernel.md): drivers/ sits below the kernel
and the kernel's files do not call each other in circles where a layer
order was promised. Checked on the built objects (what they define and
what they need) and on the sources' includes."""
from __future__ import annotations

import re
import subprocess

import pytest

pytestmark = pytest.mark.no_qemu

NM = "i686-linux-gnu-nm"


def symbols(obj, undefined):
    args = [NM, "-u" if undefined else "--defined-only", str(obj)]
    out = subprocess.run(args, capture_output=True, text=True, check=True, timeout=30).stdout
    return {line.split()[-1] for line in out.splitlines()
            if line.strip() and (undefined or line.split()[-2] in "TDBRC")}


@pytest.fixture(scope="module")
def drivers(build):
    objs = sorted((build / "drivers").glob("*.o"))
    if not objs:
        pytest.fail("no build/drivers/*.o: run make")
    return objs


def test_drivers_need_nothing_from_the_kernel(drivers):
    defined = set().union(*(symbols(o, False) for o in drivers))
    for o in drivers:
        missing = symbols(o, True) - defined
        assert not missing, f"{o.name} calls {sorted(missing)} outside drivers/"


def test_drivers_include_no_kernel_header(repo):
    for f in sorted((repo / "drivers").glob("*.[ch]")):
        for inc in re.findall(r'^\s*#\s*include\s+[<"]([^>"]+)[>"]', f.read_text(), re.M):
            assert "kernel" not in inc and inc != "defs.h", f"{f.name} includes {inc}"


def test_core_and_exit_do_not_call_each_other(build):
    core, exit_ = build / "kernel" / "core.o", build / "kernel" / "exit.o"
    core_calls_exit = symbols(core, True) & symbols(exit_, False)
    exit_calls_core = symbols(exit_, True) & symbols(core, False)
    assert not (core_calls_exit and exit_calls_core), \
        f"core.o calls {sorted(core_calls_exit)} of exit.o and exit.o {sorted(exit_calls_core)} of core.o"
