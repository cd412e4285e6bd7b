"""Where the checkout and its build outputs are: the tools run from the
checkout (tools/ is installed editable), so the repository is two levels
above this package."""
from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
BUILD = REPO / "build"
