"""Shared pytest setup: the repo and build paths, markers. The tools package
(tools/scc) is installed in build/venv by the build."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from lib import BUILD, REPO     # the one definition (tests/lib)

QEMU_BIN = BUILD / "qemu" / "qemu-system-i386"



@pytest.fixture(scope="session")
def repo() -> Path:
    """The repository's root directory."""
    return REPO


@pytest.fixture(scope="session")
def build() -> Path:
    """The build output directory (build/)."""
    return BUILD


# Each test file's layer, a marker: `pytest -m kernel tests` runs one layer.
# A new test file must be named here (test_every_test_file_has_a_layer).
LAYERS = {
    "machine": "the QEMU machine, its timing mode, GRUB and gdb on it",
    "kernel": "the per-core kernel and its system calls, copy cores, notification",
    "libscc": "RCCE, iRCCE, RCCEnb and the collectives, on both backends; scc-cc",
    "apps": "the benchmark apps, their options and output",
    "tools": "scc-run, scc-bench and the other Python tools",
    "report": "the papers' report and its targets",
    "project": "the repository's own habits: history, docs",
}
LAYER_OF = {
    "test_abi.py": "machine", "test_machine.py": "machine", "test_migration.py": "machine",
    "test_timing.py": "machine", "test_tcg.py": "machine", "test_grub.py": "machine",
    "test_debug.py": "machine",
    "test_kernel.py": "kernel", "test_kernel_guard.py": "kernel", "test_layers.py": "kernel",
    "test_copy.py": "kernel", "test_grant.py": "kernel", "test_notify.py": "kernel",
    "test_reliability.py": "kernel",
    "test_libscc.py": "libscc", "test_coll.py": "libscc", "test_tuning.py": "libscc",
    "test_sdk.py": "libscc", "test_examples.py": "libscc", "test_mpi.py": "libscc",
    "test_appopts.py": "apps", "test_membench.py": "apps", "test_output.py": "apps",
    "test_inputs.py": "apps",
    "test_bench.py": "tools", "test_tools.py": "tools", "test_run_args.py": "tools",
    "test_headlines.py": "report", "test_report.py": "report", "test_targets.py": "report",
    "test_history.py": "project", "test_docs.py": "project",
}


def pytest_configure(config):
    for layer, what in LAYERS.items():
        config.addinivalue_line("markers", f"{layer}: {what} (tests/conftest.py LAYER_OF)")
    config.addinivalue_line(
        "markers", "no_qemu: the test does not need the QEMU binary (pure unit test)")
    config.addinivalue_line(
        "markers", "slow: takes a minute or more of host time; skip for a fast loop with "
        "make test PYTEST_ARGS='-m \"not slow\"'")
    config.addinivalue_line(
        "markers", "alone: measures against the host's clock, or looks at the host's "
        "processes, so it must not share the host with other tests: `make test` "
        "runs these after the others, one at a time")


def pytest_collection_modifyitems(config, items):
    """`make test` runs the tests in two passes: SCC_TEST_PASS=shared (on
    several pytest-xdist workers at once) leaves out the tests marked alone,
    SCC_TEST_PASS=alone runs only those. Unset: all of them."""
    for item in items:
        layer = LAYER_OF.get(Path(str(item.fspath)).name)
        if layer:
            item.add_marker(getattr(pytest.mark, layer))
    which = os.environ.get("SCC_TEST_PASS", "")
    if which not in ("", "shared", "alone"):
        raise pytest.UsageError(f"SCC_TEST_PASS={which!r}: expected shared or alone")
    # The slow tests first, last file first (the report's and the chip's
    # single long runs before the host's many shorter ones), so that the
    # workers end together instead of one starting a long test when the
    # others are done.
    slow = [item for item in items if item.get_closest_marker("slow") is not None]
    items[:] = slow[::-1] + [item for item in items
                             if item.get_closest_marker("slow") is None]
    if not which:
        return
    keep, drop = [], []
    for item in items:
        alone = item.get_closest_marker("alone") is not None
        (keep if alone == (which == "alone") else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


@pytest.fixture(scope="session")
def qemu_bin() -> Path:
    """The QEMU binary; fails the session's tests clearly if it was not built."""
    if not QEMU_BIN.is_file():
        pytest.fail(f"{QEMU_BIN.relative_to(REPO)} does not exist: run `make test` "
                    "(or `make`) to build it before running the tests", pytrace=False)
    return QEMU_BIN


@pytest.fixture(autouse=True)
def _needs_qemu(request) -> None:
    """Every test needs the built QEMU, except those marked no_qemu."""
    if request.node.get_closest_marker("no_qemu") is None:
        request.getfixturevalue("qemu_bin")
