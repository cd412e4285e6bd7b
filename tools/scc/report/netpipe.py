"""The report's section beside the ping-pong rows: MPI, measured with
NetPIPE 3.7.2's MPI module (experiments/report/netpipe.toml), next to the
ping-pong experiment's RCCE and iRCCE (experiments/report/pingpong.toml),
on the same two cores in the timing mode (modeled SCC time).

No paper publishes it, so it is not a row: no band, no verdict, in neither
score nor the summary table. It shows one plot (one-way time and MB/s
against the message size, a curve each) and a table: the one-way time at
each curve's smallest size, MB/s at 4 KiB and 64 KiB.

It runs where experiments/report/ has netpipe.toml, with every row (no
--only) or with --only netpipe. Without build/netpipe/NPmpi.elf (NetPIPE's
source could not be fetched) the section says so and why, and the rest of
the report runs as before.
"""
from __future__ import annotations

import math
from pathlib import Path

from scc.report import rows as data
from scc.report.tables import ok_rows

ID = "netpipe"
EXPERIMENT = "netpipe"          # experiments/report/netpipe.toml
PINGPONG = "pingpong"           # the ping-pong rows' experiment
EXPERIMENTS = (EXPERIMENT, PINGPONG)
TITLE = "MPI beside RCCE and iRCCE: NetPIPE 3.7.2"
# the ping-pong's points drawn: libscc's copies (the MPI library's own),
# no MPBT buffers; RCCE 1.x's protocol and two buffers (the file's [args])
PINGPONG_WITH = {"copy": "libscc", "mpbt": "off"}
# the curves, in the legend's words and order
CURVES = {"mpi": "MPI (NetPIPE 3.7.2)", "rcce": "RCCE", "ircce": "iRCCE"}
AT = (4096, 65536)
COLUMNS = ("library", "one-way time, smallest size", "MB/s at 4 KiB", "MB/s at 64 KiB")


def wanted(only) -> bool:
    """Whether the report has the section: its experiment is in the
    report's data, and every row runs or --only names it."""
    return (data.DATA / f"{EXPERIMENT}.toml").is_file() and (not only or ID in only)


def curves(dfs: dict):
    """One table of the three curves: library (mpi, rcce, ircce), bytes,
    us (one way: half a round trip) and MB_per_s (10^6 bytes a second one
    way), from the points that ran."""
    import pandas as pd
    parts = []
    if EXPERIMENT in dfs:
        np_ = ok_rows(dfs[EXPERIMENT])
        if len(np_) and {"bytes", "us", "MB_per_s"} <= set(np_.columns):
            parts.append(np_.assign(library="mpi")[["library", "bytes", "us", "MB_per_s"]])
    if PINGPONG in dfs:
        pp = ok_rows(dfs[PINGPONG])
        if len(pp) and {"api", "bytes", "latency_us", "MB_per_s", *PINGPONG_WITH} <= \
                set(pp.columns):
            for k, v in PINGPONG_WITH.items():
                pp = pp[pp[k].astype(str) == v]
            pp = pp[pp["api"].isin(["rcce", "ircce"])].rename(columns={"api": "library",
                                                                       "latency_us": "us"})
            parts.append(pp[["library", "bytes", "us", "MB_per_s"]])
    if not parts:
        return pd.DataFrame(columns=["library", "bytes", "us", "MB_per_s"])
    df = pd.concat(parts, ignore_index=True)
    df["bytes"] = df["bytes"].astype(int)
    df = df.groupby(["library", "bytes"], as_index=False, sort=False)[["us", "MB_per_s"]].median()
    order = {k: i for i, k in enumerate(CURVES)}
    return df.sort_values(["library", "bytes"], key=lambda c: c.map(order) if c.name ==
                          "library" else c).reset_index(drop=True)


def table(df) -> list[dict]:
    """A line per curve that has points: its smallest size and one-way
    time there, and MB/s at each of AT (None where it has no such size)."""
    out = []
    for lib, words in CURVES.items():
        g = df[df["library"] == lib]
        if not len(g):
            continue
        first = g.loc[g["bytes"].idxmin()]
        at = {b: (float(g[g["bytes"] == b]["MB_per_s"].iloc[0]) if (g["bytes"] == b).any()
                  else None) for b in AT}
        out.append({"library": lib, "words": words, "smallest": int(first["bytes"]),
                    "us": float(first["us"]), "mb_per_s": at})
    return out


def _num(x, digits=3) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    mag = math.floor(math.log10(abs(x))) if x else 0
    return f"{x:.{max(0, digits - 1 - mag)}f}"


def plot(df, out: Path) -> Path:
    """One figure, two panels against the message size: one-way time and
    MB/s, a curve each, named in words; every time modeled SCC time."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (lat, bw) = plt.subplots(1, 2, figsize=(13, 5.5))
    for i, (lib, words) in enumerate(CURVES.items()):
        g = df[df["library"] == lib].sort_values("bytes")
        if not len(g):
            continue
        for ax, y in ((lat, "us"), (bw, "MB_per_s")):
            ax.plot(g["bytes"], g[y], marker="o", markersize=3 if lib == "mpi" else 5,
                    color=f"C{i}", label=f"ours: {words}")
    lat.set_yscale("log")
    for ax, ylabel in ((lat, "one-way time (us, modeled SCC time)"),
                       (bw, "MB/s one way (10^6 B/s, modeled SCC time)")):
        ax.set_xscale("log", base=2)
        ax.set_xlabel("message size (bytes)")
        ax.set_ylabel(ylabel)
        ax.grid(True, which="both", alpha=0.3)
    bw.legend(fontsize="small", loc="upper left")
    fig.suptitle("Ping-pong between cores 0 and 1 (one tile): MPI, RCCE and iRCCE")
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=120)
    fig.savefig(out.with_suffix(".svg"))        # its SVG twin, as every plot's
    plt.close(fig)
    return out


def markdown(dfs: dict, out: Path, files: dict, quick: bool, skipped: str = "",
             df=None) -> list[str]:
    """The section's lines of index.md (its plot written to DIR/plots/);
    @skipped: why NetPIPE did not run (then the section says so); @df:
    curves(dfs), if the caller has it already."""
    md = [f"## {TITLE}", "",
          "Not a row of the papers (none publishes it): no band and no verdict, counted in "
          "neither score. NetPIPE 3.7.2's MPI module (Debian's netpipe source, built "
          "unchanged: `make netpipe`; docs/mpi.md, \"NetPIPE\") as two MPI ranks on cores "
          "0 and 1 (one tile), beside the ping-pong experiment's RCCE and iRCCE "
          "(apps/pingpong.c: RCCE 1.x's protocol, a send and a receive buffer, libscc's "
          "copies, MPBT off) on the same cores; 533 MHz cores, 800 MHz mesh and DRAM, every "
          "time **modeled SCC time** (the timing mode: NetPIPE times with gettimeofday, the "
          "core's clock). One-way time is half a round trip (NetPIPE's: the fastest of its "
          "trials; the ping-pong's: the mean of its round trips); MB/s is 10^6 bytes a "
          "second one way (NetPIPE's own Mbit/s column counts 2^20 bits: in the results, "
          "`mbit_per_s`)." + (" Quick: NetPIPE's powers of two and midpoints with 20 "
                              "round trips a size; the ping-pong's quick sizes (4 KiB to "
                              "1 MiB)." if quick else ""), ""]
    df = curves(dfs) if df is None else df
    lines = table(df)
    if skipped:
        md += [f"**MPI (NetPIPE 3.7.2): not measured.** {skipped}", ""]
    elif not (df["library"] == "mpi").any():
        bad = dfs.get(EXPERIMENT)
        why = ", ".join(sorted(set(bad["why"].astype(str)))) if bad is not None and \
            "why" in bad.columns else "no results"
        md += [f"**MPI (NetPIPE 3.7.2): not measured.** Its run failed: {why}", ""]
    if lines:
        md += ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
        for ln in lines:
            md.append(f"| {ln['words']} | {_num(ln['us'])} us ({ln['smallest']} B) | "
                      + " | ".join(_num(ln["mb_per_s"][b]) for b in AT) + " |")
        md += ["", "(- : a size the run did not measure.)", ""]
        f = plot(df, out / "plots" / "netpipe.png")
        md += [f"![{TITLE}](plots/{f.name})", ""]
    md += ["```"] + [f"build/venv/bin/scc-bench run {files[n]} --out build/bench/{n}"
                     for n in EXPERIMENTS if n in files] + ["```", ""]
    return md
