"""The documentation's own consistency, without QEMU.

- Every citation of a paper by line in the tracked files ("001 line 969",
  "002 lines 1250-1256", "004 lines 11, 192", or the report's "001
  L969-971", "004 L11, L144") lands in an entry of docs/papers/figures.toml
  for that paper: each cited line inside an entry's range. A bare line in
  the L form after a citation belongs to the paper cited last before it.
- Every relative link of README.md and docs/**/*.md names a file that
  exists, and, where it names an anchor in a Markdown file, a heading of
  that file.
- docs/timing.md is the model's reference: no dated lab-book entry (a
  date appears only inside a link to the journal); every docs/journal/
  file is dated entries.

Each check has a test that feeds it a broken case and sees it fail.
"""
from __future__ import annotations

import re
import subprocess
import tomllib
from pathlib import Path

import pytest

pytestmark = pytest.mark.no_qemu

from lib import REPO

FIGURES = REPO / "docs" / "papers" / "figures.toml"
CITED_EXT = (".py", ".c", ".h", ".S", ".md", ".toml", ".json")
PAPERS = ("000", "001", "002", "003", "004")

RANGE = r"\d+(?:-\d+)?"
# Between the paper and its line: spaces, or a line break inside a comment
# (" *", "#", "//" leading the next line).
GAP = r"(?:\s*\n\s*(?:\*|#|//)?\s*|\s+)"
# "001 line 969", "002, lines 1250-1256", "004 lines 11, 144 and 192",
# "000's lines 2185-2199"; the report's "001 L969-971", "004 L11, L144".
# Lines in the L form have two digits or more, so that "002's L1" (the
# cache) is not a citation.
CITATION = re.compile(
    r"\b(00[0-4])(?:'s)?,?" + GAP + r"(?:"
    r"lines?\s+(" + RANGE + r"(?:(?:,\s*|\s+and\s+)" + RANGE + r"(?!\d|\.\d))*)"
    r"|L(\d{2,}(?:-\d+)?(?:,\s*L" + RANGE + r")*)"
    r")\b")
# A bare "L5418-5420", or "lines 5534-5555" (three digits or more, so that
# "a line 97 cycles long" is not one), continues the last paper named
# before it.
BARE = re.compile(r"(?<![\w])(?:L(\d{2,5}(?:-\d+)?)|lines?\s+(\d{3,5}(?:-\d+)?))\b")
PAPER_NUMBER = re.compile(r"\b00[0-4]\b")
BARE_REACH = 2000          # characters back to the paper a bare line belongs to

DATE = re.compile(r"\b20\d\d-[01]\d-[0-3]\d\b")


def _ranges(body: str) -> list[tuple[int, int]]:
    out = []
    for r in re.findall(RANGE, body):
        a, _, b = r.partition("-")
        out.append((int(a), int(b or a)))
    return out


def citations(text: str) -> list[tuple[str | None, int, int, int]]:
    """(paper, first, last, offset) of every line citation in text; paper
    is None for a bare line with no paper cited before it."""
    found, covered = [], []
    for m in CITATION.finditer(text):
        for a, b in _ranges(m.group(2) or m.group(3)):
            found.append((m.group(1), a, b, m.start()))
        covered.append((m.start(), m.end()))
    for m in BARE.finditer(text):
        if any(s <= m.start() < e for s, e in covered):
            continue
        before = list(PAPER_NUMBER.finditer(text, max(0, m.start() - BARE_REACH), m.start()))
        paper = before[-1].group(0) if before else None
        for a, b in _ranges(m.group(1) or m.group(2)):
            found.append((paper, a, b, m.start()))
    return sorted(found, key=lambda c: c[3])


def load_figures(path: Path = FIGURES) -> dict:
    with open(path, "rb") as f:
        return tomllib.load(f)


def resolves(figures: dict, paper: str | None, first: int, last: int) -> bool:
    """Whether every line of paper's first..last lies in an entry of that
    paper; a span entry answers only a citation of exactly its range."""
    if paper is None or first > last:
        return False
    entries = [e for e in figures["entry"] if e["paper"] == paper]
    if any(e.get("span") and tuple(e["lines"]) == (first, last) for e in entries):
        return True
    ranges = [tuple(e["lines"]) for e in entries if not e.get("span")]
    return all(any(a <= n <= b for a, b in ranges) for n in range(first, last + 1))


def tracked(*suffixes: str) -> list[Path]:
    out = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, check=True,
                         capture_output=True).stdout.decode()
    return [REPO / p for p in out.split("\0") if p and p.endswith(suffixes)]


def shown(path: Path) -> str:
    return str(path.relative_to(REPO)) if path.is_relative_to(REPO) else path.name


def unresolved(figures: dict, files: list[Path]) -> tuple[int, list[str]]:
    n, bad = 0, []
    for path in files:
        if not path.is_file():
            continue            # tracked but deleted in the work tree
        text = path.read_text(errors="replace")
        for paper, a, b, at in citations(text):
            n += 1
            if not resolves(figures, paper, a, b):
                line = text.count("\n", 0, at) + 1
                cited = f"{paper or '(no paper)'} lines {a}-{b}"
                bad.append(f"{shown(path)}:{line}: {cited}")
    return n, bad


# --- the figures file ------------------------------------------------------

def test_every_figure_entry_is_well_formed():
    figures = load_figures()
    ids = [e["id"] for e in figures["entry"]]
    assert len(ids) == len(set(ids)), "duplicate ids"
    for e in figures["entry"]:
        assert e["paper"] in PAPERS, e["id"]
        a, b = e["lines"]
        assert 0 < a <= b, e["id"]
        assert e["what"].strip(), e["id"]
        for v in e.get("value", []):
            assert a <= v["line"] <= b, f"{e['id']}: value line {v['line']} outside {a}-{b}"
            assert v["what"].strip() and v["unit"].strip(), e["id"]
            val = v["value"]
            assert isinstance(val, (int, float)) or (
                isinstance(val, list) and len(val) == 2
                and all(isinstance(x, (int, float)) for x in val)), e["id"]
    numbers = [c["number"] for c in figures["caveat"]]
    assert numbers == list(range(1, len(numbers) + 1))


def test_every_headline_row_has_its_figures_entry():
    with open(REPO / "experiments" / "report" / "rows.toml", "rb") as f:
        rows = {r["id"] for r in tomllib.load(f)["row"]}
    named = {h for e in load_figures()["entry"] for h in e.get("headlines", [])}
    assert rows - named == set(), "report rows no entry names"
    assert named - rows == set(), "entries name rows the report does not have"


# --- citations -------------------------------------------------------------

def test_every_paper_line_citation_lands_in_an_entry():
    n, bad = unresolved(load_figures(), tracked(*CITED_EXT))
    assert n > 50, f"only {n} citations found: is the pattern still right?"
    assert bad == [], ("citations no entry of docs/papers/figures.toml covers "
                       "(add the passage, or correct the line):\n" + "\n".join(bad))


def test_a_citation_no_entry_covers_fails(tmp_path):
    figures = load_figures()
    paper = "0" + "01"        # these kept apart, so that this file cites nothing
    L, LINES = "L", "lines"
    good = tmp_path / "good.c"
    good.write_text(f"/* the 1-line broadcast ({paper} {LINES[:-1]} 971) */\n")
    bad = tmp_path / "bad.c"
    bad.write_text(f"/* nothing there ({paper} line 5), nor ({paper} {L}20-21) */\n"
                   f"/* half inside ({paper} {LINES} 969-975) */\n")
    assert unresolved(figures, [good]) == (1, [])
    n, found = unresolved(figures, [bad])
    assert n == 3 and len(found) == 3, found


def test_the_citation_forms_are_read():
    p = "0" + "04"            # these kept apart, so that this file cites nothing
    L, LINES = "L", "lines"
    assert [c[:3] for c in citations(f"{p} {L}11, {L}144, {L}192")] == \
        [(p, 11, 11), (p, 144, 144), (p, 192, 192)]
    assert [c[:3] for c in citations(f"{p} {LINES} 130-132, 178 and 180.")] == \
        [(p, 130, 132), (p, 178, 178), (p, 180, 180)]
    assert [c[:3] for c in citations(f"({p} {L}119) the note ({L}115-119)")] == \
        [(p, 119, 119), (p, 115, 119)]
    assert citations(f"{p}'s L1 and L2 caches") == []
    assert [c[:3] for c in citations(f"a bare {L}1774-1786")] == [(None, 1774, 1786)]
    assert [c[:3] for c in citations(f"S-Net ({p}\n * {LINES} 130-132)")] == [(p, 130, 132)]
    assert [c[:3] for c in citations(f"{p}'s Table I, {LINES} 144; a line 97 long")] == \
        [(p, 144, 144)]


# --- links -----------------------------------------------------------------

LINK = re.compile(r"\[[^\]]*\]\(\s*([^)\s]+)(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
CODE = re.compile(r"`[^`\n]*`")


def slug(heading: str) -> str:
    """GitHub's anchor for a heading."""
    h = heading.strip().lower()
    h = re.sub(r"[^\w\- ]", "", h)
    return h.replace(" ", "-")


def anchors(md: Path) -> set[str]:
    seen: dict[str, int] = {}
    out = set()
    for line in FENCE.sub("", md.read_text()).splitlines():
        m = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not m:
            continue
        s = slug(m.group(1))
        k = seen.get(s, 0)
        seen[s] = k + 1
        out.add(s if k == 0 else f"{s}-{k}")
    return out


def broken_links(md: Path) -> list[str]:
    text = CODE.sub("", FENCE.sub("", md.read_text()))
    bad = []
    for m in LINK.finditer(text):
        target = m.group(1)
        if re.match(r"[a-z][a-z0-9+.-]*:", target, re.I):
            continue            # http:, mailto: ...
        path, _, anchor = target.partition("#")
        dest = (md.parent / path).resolve() if path else md
        where = f"{shown(md)}: {target}"
        if not dest.exists():
            bad.append(f"{where} (no such file)")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            bad.append(f"{where} (no such heading)")
    return bad


def test_every_relative_link_of_the_docs_resolves():
    docs = [REPO / "README.md"] + sorted((REPO / "docs").rglob("*.md"))
    bad = [b for md in docs for b in broken_links(md)]
    assert bad == [], "\n".join(bad)


def test_a_broken_link_fails(tmp_path):
    (tmp_path / "there.md").write_text("# A heading: `here`, too\n\n## Twice\n\n## Twice\n")
    md = tmp_path / "page.md"
    md.write_text("[ok](there.md) [ok](there.md#a-heading-here-too) [ok](there.md#twice-1)\n"
                  "[gone](missing.md) [no heading](there.md#nowhere) [web](https://example.org)\n"
                  "```\n[in code](missing-too.md)\n```\n")
    bad = broken_links(md)
    assert len(bad) == 2 and "missing.md" in bad[0] and "nowhere" in bad[1], bad


# --- reference and journal -------------------------------------------------

def dated_entries(text: str) -> list[str]:
    """Lines of text that start with a date (after list, heading, quote or
    emphasis marks), and any date outside a link."""
    out = [line for line in text.splitlines()
           if re.match(r"\s*(?:[-*+>#|]\s*)*(?:\*\*|__)?\(?" + DATE.pattern, line)]
    bare = re.sub(r"\[[^\]]*\]\([^)]*\)", "", text)
    out += [f"date outside a link: {m.group(0)}" for m in DATE.finditer(bare)]
    return out


def test_the_timing_reference_holds_no_dated_entries():
    found = dated_entries((REPO / "docs" / "timing.md").read_text())
    assert found == [], ("dated lab-book entries in docs/timing.md (they belong in "
                         "docs/journal/, linked from the reference):\n" + "\n".join(found))


def journal_problems(md: Path) -> list[str]:
    heads = [line for line in md.read_text().splitlines() if line.startswith("## ")]
    if not heads:
        return [f"{md.name}: no entries"]
    return [f"{md.name}: undated entry {h!r}" for h in heads
            if not re.match(r"## " + DATE.pattern, h)]


def test_every_journal_file_is_dated_entries():
    files = sorted((REPO / "docs" / "journal").glob("*.md"))
    assert files, "no journal"
    bad = [p for md in files for p in journal_problems(md)]
    assert bad == [], "\n".join(bad)


def test_an_undated_entry_fails(tmp_path):
    assert dated_entries("# Ref\n\nSee [journal, 2026-11-27](j.md#2026-11-27-x).\n") == []
    assert dated_entries("# Ref\n\n**2026-11-27, over the bound.** text\n") != []
    assert dated_entries("- 2026-12-01: measured\n") != []
    assert dated_entries("Measured (2026-11-26) here.\n") != []
    (tmp_path / "j.md").write_text("# Notes\n\n## 2026-11-27: one\n\n## later\n")
    assert journal_problems(tmp_path / "j.md") == ["j.md: undated entry '## later'"]
    (tmp_path / "k.md").write_text("# Notes\n\ntext\n")
    assert journal_problems(tmp_path / "k.md") == ["k.md: no entries"]


# --- the model's parameters (docs/timing.md, "Parameters") --------------------------

MACHINE_SOURCES = REPO / "qemu" / "overlay" / "hw" / "scc"
ROW_ID = re.compile(r"\b(?:1[0-5]|[1-9])[a-l]?\b")


def machine_timing_properties(src: Path = MACHINE_SOURCES) -> set[str]:
    """Every timing-* property the machine defines, read from its source
    (scc_prop_add_*(oc, "NAME", ...), object_class_property_add_str(oc,
    "NAME", ...)), not from a list kept by hand."""
    names = set()
    for f in sorted(src.glob("*.c")):
        names |= set(re.findall(r'(?:scc_prop_add_\w+|object_class_property_add_\w+)'
                                r'\(\s*oc,\s*"(timing-[a-z0-9-]+)"', f.read_text()))
    return names


def parameter_table(md: str) -> dict[str, list[str]]:
    """{parameter: its cells} of the table under "## Parameters" (the
    parameter's name without backquotes)."""
    part = md[md.index("## Parameters\n"):]
    part = part[:part.index("\n## ", 1)]
    out = {}
    for line in part.splitlines():
        if not line.startswith("| ") or line.startswith("| parameter |"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        out[cells[0].strip("`")] = cells
    return out


def parameter_table_problems(md: str, properties: set[str], heads) -> list[str]:
    """What the table lacks: a property of the machine; a parameter a
    calibrating row names, or that row in the parameter's source; a
    source (a paper's line, `fit`, or what else it is); a prediction row
    where the table says a parameter is tested (a calibrating row tests
    nothing, an unknown id is a typo)."""
    table = parameter_table(md)
    out = [f"machine property {p} not in the table" for p in sorted(properties - set(table))]
    roles = {h.id: h.role for h in heads}
    for h in heads:
        for p in h.parameters:
            if p not in table:
                out.append(f"row {h.id} calibrates {p}, which the table does not list")
            elif not re.search(rf"\brows? (?:[\w ]+, )*{re.escape(h.id)}\b", table[p][3]):
                out.append(f"{p}: its source does not name row {h.id}, which calibrates it")
    for name, cells in table.items():
        if len(cells) != 5:
            out.append(f"{name}: {len(cells)} cells, not 5")
            continue
        src = cells[3]
        if not (citations(src) or re.match(r"fit\b", src) or
                re.search(r"Intel|P54C|a switch|a diagnostic|smallest latency", src)):
            out.append(f"{name}: no source (a paper's line) and not marked fit: {src!r}")
        for i in ROW_ID.findall(cells[4]):
            if roles.get(i) != "predicts":
                out.append(f"{name}: tested by {i}, which is "
                           f"{'no row' if i not in roles else 'a ' + roles[i] + ' row'}")
    return out


def test_the_parameter_table_holds_every_parameter():
    from scc.report import rows
    props = machine_timing_properties()
    assert {"timing-mpb-cycles", "timing-rank-cycles", "timing-stats"} <= props
    md = (REPO / "docs" / "timing.md").read_text()
    assert parameter_table_problems(md, props, rows.headlines()) == []
    assert md.count("\n| parameter | value |") == 1       # one table of them


def test_a_parameter_missing_from_the_table_fails(tmp_path):
    from scc.report import rows
    heads = rows.headlines()
    md = (REPO / "docs" / "timing.md").read_text()
    props = machine_timing_properties()
    # a property the machine gains and the table does not list
    (tmp_path / "x.c").write_text('scc_prop_add_uint32(oc, "timing-new-cycles",\n')
    assert machine_timing_properties(tmp_path) == {"timing-new-cycles"}
    assert parameter_table_problems(md, props | {"timing-new-cycles"}, heads) == [
        "machine property timing-new-cycles not in the table"]
    # a calibrating row's parameter left out, a source dropped, a calibrating row as a test
    gone = "\n".join(line for line in md.splitlines() if not line.startswith("| `timing-mc-cycles`"))
    bad = parameter_table_problems(gone, props - {"timing-mc-cycles"}, heads)
    assert "row 11d calibrates timing-mc-cycles, which the table does not list" in bad
    nosrc = md.replace("fit: no published figure | none |", "nothing given | none |")
    assert "timing-sif-cycles: no source (a paper's line) and not marked fit: 'nothing given'" \
        in parameter_table_problems(nosrc, props, heads)
    as_test = md.replace("| 11b, 11e |\n| `timing-mc-window-ns`", "| 11b, 11d |\n| `timing-mc-window-ns`")
    assert "timing-mc-cycles: tested by 11d, which is a calibrates row" in \
        parameter_table_problems(as_test, props, heads)
    unnamed = md.replace("(row 11d)", "")
    assert "timing-mc-cycles: its source does not name row 11d, which calibrates it" in \
        parameter_table_problems(unnamed, props, heads)
