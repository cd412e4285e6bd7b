"""The project's habits that a machine can check: every commit since the
rule was adopted has a subject of at most 72 characters, then a blank line
and a body saying why (DEVELOPERS' guide), so `git log --oneline` reads as
a history."""
from __future__ import annotations

import subprocess

import pytest

from conftest import REPO

# The last commit before the rule held (commit subjects averaged 211
# characters until then); every later one is checked.
RULE_FROM = "3af753e"
SUBJECT_MAX = 72


def commits() -> list[tuple[str, str]]:
    """(hash, whole message) of each commit after RULE_FROM, oldest first."""
    have = subprocess.run(["git", "-C", str(REPO), "cat-file", "-e", f"{RULE_FROM}^{{commit}}"],
                          capture_output=True, timeout=60)
    if have.returncode != 0:
        pytest.skip(f"{RULE_FROM} is not in this clone's history (a shallow clone?)")
    out = subprocess.run(["git", "-C", str(REPO), "log", "--reverse", "--format=%h%x00%B%x01",
                          f"{RULE_FROM}..HEAD"], capture_output=True, text=True, timeout=60)
    if out.returncode != 0:
        pytest.fail(f"git log failed: {out.stderr.strip()}")
    return [tuple(c.strip("\n").split("\0", 1)) for c in out.stdout.split("\1") if c.strip()]


def problems(message: str) -> list[str]:
    lines = message.strip("\n").split("\n")
    found = []
    if len(lines[0]) > SUBJECT_MAX:
        found.append(f"subject of {len(lines[0])} characters (at most {SUBJECT_MAX})")
    if len(lines) < 3 or lines[1].strip() or not any(l.strip() for l in lines[2:]):
        found.append("no body after a blank line")
    return found


@pytest.mark.no_qemu
def test_problems_sees_what_it_checks():
    assert problems("x" * 73 + "\n\nwhy") == ["subject of 73 characters (at most 72)"]
    assert problems("short") == ["no body after a blank line"]
    assert problems("short\nno blank line") == ["no body after a blank line"]
    assert problems("short\n\nthe why") == []


@pytest.mark.no_qemu
def test_commits_have_short_subjects_and_a_body():
    bad = [f"{h}: {', '.join(p)}: {m.splitlines()[0][:80]}"
           for h, m in commits() if (p := problems(m))]
    assert not bad, "\n".join(bad)


@pytest.mark.no_qemu
def test_every_test_file_has_a_layer():
    """`pytest -m LAYER` runs one layer only if every file is in one."""
    from conftest import LAYER_OF, LAYERS
    files = sorted(p.name for p in (REPO / "tests").glob("test_*.py"))
    assert [f for f in files if f not in LAYER_OF] == []
    assert set(LAYER_OF.values()) <= set(LAYERS)
