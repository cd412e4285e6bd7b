"""scc-report: the report's structure and verdicts (with headlines made
here, whose expectations are computed by hand), and the quick report of
the real headlines end to end (tools/scc/report.py, headlines.py)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

import pytest

from conftest import REPO
from scc import report


@dataclass(frozen=True)
class H:
    id: str
    result: str
    paper: str = "the paper says so (000 L1)"
    published: float | None = None
    unit: str = "us"
    band: tuple | None = None
    why_band: str = "because"
    experiments: dict = field(default_factory=dict)
    quick: dict = field(default_factory=dict)
    measure: object = None
    config: str = "4 cores"
    not_reproducible: str = ""
    plot: dict | None = None


BC = {"experiment": {"app": "bcast_bench", "cores": "0-3", "rcce": True, "timeout": 120},
      "args": {"sizes": "32,64", "iters": 1, "warmup": 0}, "sweep": {"alg": ["binomial"]}}


def median(dfs, size):
    df = dfs["bc"]
    return float(df[df["bytes"] == size]["median_us"].iloc[0])


def fake_headlines(ours_at_32):
    return [
        H("1", "in band", published=ours_at_32, band=(0.9, 1.1), experiments={"bc": BC},
          quick={"bc": {"args": {"sizes": "32"}}}, measure=lambda d: median(d, 32),
          plot={"experiment": "bc", "x": "bytes", "y": "median_us", "hue": "algorithm",
                "ylabel": "latency (us)"}),
        H("2", "out of band", published=ours_at_32 / 2, band=(0.9, 1.1),
          experiments={"bc": BC}, quick={"bc": {"args": {"sizes": "32"}}},
          measure=lambda d: median(d, 32)),
        H("3", "elsewhere only", not_reproducible="needs Linux"),
    ]


def summary(md: str) -> list[list[str]]:
    lines = md.splitlines()
    i = lines.index("| result | published | ours | ratio | band | verdict |")
    rows = []
    for l in lines[i + 2:]:
        if not l.startswith("|"):
            break
        rows.append([c.strip() for c in l.strip("|").split("|")])
    return rows


def test_report_verdicts_and_pages(tmp_path, monkeypatch, capsys):
    import scc.headlines
    monkeypatch.setenv("SCC_BENCH_CACHE", str(tmp_path / "cache"))
    # our number, measured first by the report itself with a made-up published value
    monkeypatch.setattr(scc.headlines, "HEADLINES", fake_headlines(1.0))
    assert report.main(["--quick", "--workers", "1", "--out", str(tmp_path / "r0"),
                        "--no-progress"]) == 0
    import pandas as pd
    df = pd.read_csv(tmp_path / "r0" / "results" / "bc" / "results.csv")
    ours = float(df[df["bytes"] == 32]["median_us"].iloc[0])
    monkeypatch.setattr(scc.headlines, "HEADLINES", fake_headlines(ours))
    out = tmp_path / "r"
    assert report.main(["--quick", "--workers", "1", "--out", str(out), "--no-progress"]) == 0
    assert capsys.readouterr().out.splitlines()[-2] == "points: 0 run, 1 cached, 0 failed"
    md = (out / "index.md").read_text()
    rows = summary(md)
    assert [r[0] for r in rows] == ["1. in band", "2. out of band", "3. elsewhere only"]
    assert rows[0][3] == "1.00" and rows[0][5] == "inside" and rows[0][4] == "0.900-1.10x"
    assert rows[1][3] == "2.00" and rows[1][5] == "outside"
    assert rows[2][5] == "not reproducible here" and "needs Linux" in md
    assert "scc-bench run" in md and (out / "experiments" / "bc.toml").is_file()
    assert (out / "plots" / "1.png").is_file()
    page = (out / "index.html").read_text()
    assert "data:image/png;base64," in page and "<table>" in page
    assert "plots/1.png" not in page      # self-contained


@pytest.mark.slow
def test_quick_report_of_the_papers(tmp_path):
    import subprocess
    import sys
    out = tmp_path / "report"
    p = subprocess.run([sys.executable, "-m", "scc.report", "--quick", "--workers", "2",
                        "--out", str(out), "--no-progress"], capture_output=True, text=True,
                       timeout=600, cwd=REPO)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-3000:]
    md = (out / "index.md").read_text()
    from scc.headlines import HEADLINES
    rows = summary(md)
    assert [r[0].split(".")[0] for r in rows] == [h.id for h in HEADLINES]
    for r in rows:
        assert r[5] in ("inside", "outside", "not reproducible here", "no result",
                        "shown (no band)"), r
    assert re.search(r"commit `[0-9a-f]{40}`", md)
    assert (out / "index.html").is_file()
