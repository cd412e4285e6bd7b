"""Shared pytest setup: the repo and build paths, markers. The tools package
(tools/scc) is installed in build/venv by the build."""
from __future__ import annotations

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
