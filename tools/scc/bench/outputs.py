"""What a point's program prints, turned into rows: an experiment's
`output` ([experiment] output = "NAME", default "csv").

- csv: the CSV of every benchmark in apps/ (apps/lib/bench.h), `#` lines
  above it.
- netpipe: NetPIPE's output file (`-o /dev/stdout`: the one file libscc's
  runtime opens), a line per size, "bytes Mbit/s seconds" (netpipe.c:
  Mbit/s is bits / (seconds x 2^20), seconds the fastest of its trials of
  one way, half a round trip); its other lines (the banner, the host
  names) left out. Rows: bytes, mbit_per_s and seconds as NetPIPE printed
  them, and from them us (one way, 10^-6 s) and MB_per_s (10^6 bytes a
  second, one way: the ping-pong app's MB_per_s, which counts both
  directions of a round trip).

A format also says how its program is built, for the error when it is
missing (tools/scc/bench/appopts.py).
"""
from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Format:
    name: str
    what: str           # what the program prints, in words
    build: str = ""     # how the program is built, when it is not


# the `#` lines of a NetPIPE point's rows (the manifest's legend keeps them)
NETPIPE_LEGEND = (
    "# NetPIPE 3.7.2's output file (-o /dev/stdout), read by scc-bench "
    "(tools/scc/bench/outputs.py): a row per size",
    "# bytes, mbit_per_s, seconds: as NetPIPE printed them; seconds is one way (half a "
    "round trip, the fastest of its trials), mbit_per_s = 8 x bytes / seconds / 2^20",
    "# us = seconds x 10^6; MB_per_s = bytes / seconds / 10^6 (one way)",
    "# times: NetPIPE's gettimeofday, the core's clock: modeled SCC time in timing mode",
)

_NETPIPE_LINE = re.compile(r"\s*(\d+)\s+(\d+(?:\.\d*)?(?:[eE][-+]?\d+)?)\s+"
                           r"(\d+(?:\.\d*)?(?:[eE][-+]?\d+)?)\s*")


def netpipe_rows(text: str) -> list[dict]:
    """The rows of NetPIPE's output file in @text (a point's stdout): one
    a line "bytes Mbit/s seconds", in the order printed; ValueError for a
    time that is not above 0."""
    rows = []
    for line in text.splitlines():
        m = _NETPIPE_LINE.fullmatch(line)
        if not m:
            continue
        n, mbit, s = int(m.group(1)), float(m.group(2)), float(m.group(3))
        if s <= 0:
            raise ValueError(f"NetPIPE line {line.strip()!r}: a time of {s} s")
        rows.append({"bytes": n, "mbit_per_s": mbit, "seconds": s,
                     "us": s * 1e6, "MB_per_s": n / s / 1e6})
    return rows


FORMATS = {
    "csv": Format("csv", "the CSV of apps/lib/bench.h"),
    "netpipe": Format("netpipe", "NetPIPE's output file, a line per size",
                      build="`make netpipe` builds it (it fetches NetPIPE 3.7.2's source, "
                      "Debian's netpipe; docs/mpi.md, \"NetPIPE\")"),
}


def _csv_text(text: str) -> str:
    """The app's CSV out of its stdout: `#` comments and the rows of the
    first header (a line with commas) on; anything else (a summary line
    of an app that prints one on stdout) is left out."""
    lines = [l for l in text.splitlines() if l.strip()]
    out, width = [], None
    for line in lines:
        if line.startswith("#"):
            out.append(line)
            continue
        try:
            fields = len(next(csv.reader([line])))
        except csv.Error:
            continue
        if width is None:
            if fields > 1:
                width = fields
                out.append(line)
        elif fields == width:
            out.append(line)
    return "\n".join(out) + "\n"


def csv_rows(text: str) -> list[dict]:
    """The rows of the CSV an app printed in @text (its stdout)."""
    import pandas as pd
    table = _csv_text(text)
    if not any(l and not l.startswith("#") for l in table.splitlines()):
        return []
    df = pd.read_csv(io.StringIO(table), comment="#", keep_default_na=False)
    return json.loads(df.to_json(orient="records"))


def comments(text: str) -> list[str]:
    """The `#` lines of a point's stdout @text (at most 100)."""
    return [l for l in text.splitlines() if l.startswith("#")][:100]


def parse(name: str, text: str) -> tuple[list[dict], list[str]]:
    """(rows, `#` lines) of a point's stdout @text in format @name."""
    if name == "csv":
        return csv_rows(text), comments(text)
    if name == "netpipe":
        return netpipe_rows(text), list(NETPIPE_LEGEND)
    raise ValueError(f"no output format {name!r}")
