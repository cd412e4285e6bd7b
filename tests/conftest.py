"""Shared pytest setup: the repo and build paths, markers. The tools package
(tools/scc) is installed in build/venv by the build."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
BUILD = REPO / "build"
QEMU_BIN = BUILD / "qemu" / "qemu-system-i386"



@pytest.fixture(scope="session")
def repo() -> Path:
    """The repository's root directory."""
    return REPO


@pytest.fixture(scope="session")
def build() -> Path:
    """The build output directory (build/)."""
    return BUILD


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "no_qemu: the test does not need the QEMU binary (pure unit test)")
    config.addinivalue_line(
        "markers", "slow: takes a minute or more of host time; skip for a fast loop with "
        "make test PYTEST_ARGS='-m \"not slow\"'")
    config.addinivalue_line(
        "markers", "alone: measures against the host's clock, so it must not share the "
        "host with other tests: `make test` runs these after the others, one at a time")


def pytest_collection_modifyitems(config, items):
    """`make test` runs the tests in two passes: SCC_TEST_PASS=shared (on
    several pytest-xdist workers at once) leaves out the tests marked alone,
    SCC_TEST_PASS=alone runs only those. Unset: all of them."""
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
