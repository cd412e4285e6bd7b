"""scc-report: the papers' headline results, reproduced in modeled time.

    scc-report [--quick] [--out DIR] [--workers N | --scheduler ADDRESS] [--only ID]...

Runs the experiments behind every headline result of the papers and
libscc's targets on Dask, through scc-bench's engine and cache, and writes
DIR/index.md and a self-contained DIR/index.html (plots embedded): two
scores, the predictions' first, a summary table (result, published, ours,
ratio, band, verdict, role), the build's provenance, and for each result
what the paper says, the configuration, its role, our number, the band
and why, the verdict, a plot and the command that reproduces it
(tools/scc/report/). It prints the summary's two score lines. Nothing is hidden: a
result outside its band says so. `make report` runs it (REPORT_ARGS=--quick
passes options); --quick runs fewer sizes and iterations, with every row
still present.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from scc.bench.experiment import ExperimentError
from scc.report import make, netpipe


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="scc-report", description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true",
                   help="fewer sizes and iterations (every row still present)")
    p.add_argument("--out", metavar="DIR", default=str(make.DEFAULT_OUT))
    g = p.add_mutually_exclusive_group()
    g.add_argument("--workers", type=int, metavar="N",
                   help="local Dask workers (default: the host's CPUs)")
    g.add_argument("--scheduler", metavar="ADDRESS", help="an existing Dask scheduler")
    p.add_argument("--only", metavar="ID", action="append",
                   help="only this headline, target or section (netpipe: MPI beside RCCE "
                   "and iRCCE; repeatable)")
    p.add_argument("--no-progress", action="store_true",
                   help="no progress bar (on a terminal) or lines (elsewhere, every 30 s)")
    a = p.parse_args(argv)
    heads, tgts = make.select(a.only)
    section = netpipe.wanted(a.only)
    if not heads and not tgts and not section:
        p.error(f"no headline, target or section {', '.join(a.only)}")
    out = Path(a.out)
    try:
        jobs, files, skipped = make.prepare(heads, tgts, out, a.quick, section)
    except (ExperimentError, ValueError) as e:
        print(f"scc-report: error: {e}", file=sys.stderr)
        return 2
    for name, why in skipped.items():
        print(f"scc-report: warning: {name} not run: {why}", file=sys.stderr)
    done = make.run(heads, tgts, jobs, files, out, quick=a.quick, workers=a.workers,
                    scheduler=a.scheduler, progress=False if a.no_progress else None,
                    section=section, skipped=skipped)
    rows, t_rows = done["rows"], done["targets"]
    print(f"report: {out / 'index.md'} and {out / 'index.html'}")
    print(f"points: {done['run']} run, {done['cached']} cached, {done['failed']} failed")
    # the two scores, as the summary gives them (a calibrating row is never
    # counted as a prediction), then what neither counts
    for line in make.scores(rows):
        print(line)
    judged = {"inside", "outside"}
    rest = {}
    for r in rows:
        if r["verdict"] not in judged or r.get("role") not in ("predicts", "calibrates"):
            rest[r["verdict"]] = rest.get(r["verdict"], 0) + 1
    if rest:
        print("not scored: " + ", ".join(f"{n} {v}" for v, n in rest.items()))
    if t_rows:
        print(f"targets: {len(t_rows)}; met: "
              + (", ".join(r["id"] for r in t_rows if r["verdict"] == "met") or "none"))
    if section:
        lines = done["netpipe"] or []
        print(f"{netpipe.TITLE} (not scored): "
              + ("; ".join(f"{ln['words']} {ln['us']:.3g} us at {ln['smallest']} B"
                           for ln in lines) or "not measured")
              + (" (MPI not measured)" if not any(ln["library"] == "mpi" for ln in lines)
                 else ""))
    cannot = [r["id"] for r in rows if r.get("cannot")]
    print(f"outside with the reason the model cannot get inside: {len(cannot)}"
          + (f" ({', '.join(cannot)})" if cannot else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
