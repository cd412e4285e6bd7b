"""Defaults from measurement: the tuning file libscc's `auto` follows.

    scc-bench tune RESULTS_DIR --out libscc/src/coll/tuning.json
    python3 tools/scc/bench/tuning.py header libscc/src/coll/tuning.json OUT.h   (the build)

`tune` reads a results directory of `scc-bench run experiments/tuning.toml`
and picks, for each collective, member count and size it measured, the
algorithm (with its parameters) of the least median latency in modeled SCC
time. Between measured points the next measured point above decides (MPICH's
"<=" thresholds): a call of 20 members and 3000 bytes takes what was best at
24 members and 4 KiB; above the largest the largest decides. Neighbouring
sizes with the same winner merge into one rule. The file records the commands
and the build the results came from, and for each rule the measurements behind
it (the winner's and the runner-up's median).

`header` compiles the file into C for select.c (build/gen/coll_tuning.h); this
module needs only the standard library and imports nothing of the scc
package, so the build runs it as a script with any python3, no venv
(libscc/build.mk).
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

FORMAT = 1
# What a rule is made of, checked before anything is written as C.
RULE_KEYS = {"members", "bytes", "algorithm", "params", "measured"}
NAME = re.compile(r"^[a-z][a-z0-9_]*$")
PARAMS = re.compile(r"^([a-z][a-z0-9_]*=-?[0-9]+(,[a-z][a-z0-9_]*=-?[0-9]+)*)?$")


class TuningError(ValueError):
    """The results or the tuning file cannot make a selection; says why."""


def spec_of(alg: str, params: str) -> str:
    """An algorithm spec as --alg and scc_coll_set take it: alg[:params]."""
    return f"{alg}:{params}" if params else alg


def _ranges(values: list[int], low: int) -> list[tuple[int, int | None]]:
    """(lo, hi) for each measured value, ascending: from just above the one
    below (or low) up to it; the last is open above (None)."""
    out, lo = [], low
    for i, v in enumerate(values):
        out.append((lo, None if i == len(values) - 1 else v))
        lo = v + 1
    return out


def _repo_path(p: str, repo: Path) -> str:
    try:
        return str(Path(p).resolve().relative_to(repo.resolve()))
    except ValueError:
        return Path(p).name


def tune(results: Path, command: str, repo: Path) -> dict:
    """The tuning file's content from a results directory."""
    import pandas as pd

    csv = results / "results.csv"
    if not csv.exists():
        raise TuningError(f"{csv}: no results (run `scc-bench run experiments/tuning.toml "
                          f"--out {results}` first)")
    manifest = json.loads((results / "manifest.json").read_text())
    df = pd.read_csv(csv, dtype={"params": str}, keep_default_na=False)
    need = {"collective", "algorithm", "params", "cores", "bytes", "median_us", "verified",
            "status", "clock", "commit", "dirty"}
    if missing := need - set(df.columns):
        raise TuningError(f"{csv}: not a collective benchmark's results (no "
                          f"{', '.join(sorted(missing))})")
    failed = df[df["status"] != "ok"]
    if len(failed):
        raise TuningError(f"{csv}: {failed['point'].nunique()} point(s) failed "
                          f"(scc-bench show {results}); a default chosen without them "
                          f"could be one that fails")
    wrong = df[df["verified"] != "yes"]
    if len(wrong):
        r = wrong.iloc[0]
        raise TuningError(f"{csv}: {len(wrong)} row(s) not verified, e.g. {r['collective']} "
                          f"{spec_of(r['algorithm'], r['params'])} at {r['bytes']} B on "
                          f"{r['cores']} cores: a wrong result is no default")
    if set(df["clock"]) != {"modeled"}:
        raise TuningError(f"{csv}: clocks {sorted(set(df['clock']))}: defaults come from "
                          f"modeled SCC time only (mode = \"timing\" on the chip), which "
                          f"is the same on every run")
    builds = sorted({(str(c), str(d).lower() in ("true", "1", "yes"))
                     for c, d in zip(df["commit"], df["dirty"])})
    if len(builds) != 1:
        raise TuningError(f"{csv}: results of {len(builds)} builds "
                          f"({', '.join(c[:12] for c, _ in builds)}): rerun the sweep "
                          f"on one")
    commit, dirty = builds[0]
    df["spec"] = [spec_of(a, p) for a, p in zip(df["algorithm"], df["params"])]
    rules: dict[str, list[dict]] = {}
    for op, d in df.groupby("collective", sort=False):
        members = sorted(int(n) for n in d["cores"].unique())
        rules[op] = []
        for n_lo_hi, n in zip(_ranges(members, 1), members):
            at = d[d["cores"] == n]
            sizes = sorted(int(b) for b in at["bytes"].unique())
            merged: list[dict] = []
            for (b_lo, b_hi), b in zip(_ranges(sizes, 0), sizes):
                pt = at[at["bytes"] == b].sort_values(["median_us", "spec"])
                best, second = pt.iloc[0], pt.iloc[1] if len(pt) > 1 else None
                m = {"members": n, "bytes": b, "median_us": round(float(best["median_us"]), 3)}
                if second is not None:
                    m["runner_up"] = second["spec"]
                    m["runner_up_us"] = round(float(second["median_us"]), 3)
                if merged and (merged[-1]["algorithm"], merged[-1]["params"]) == \
                        (best["algorithm"], best["params"]):
                    merged[-1]["bytes"][1] = b_hi
                    merged[-1]["measured"].append(m)
                    continue
                merged.append({"members": list(n_lo_hi), "bytes": [b_lo, b_hi],
                               "algorithm": best["algorithm"], "params": best["params"],
                               "measured": [m]})
            rules[op].extend(merged)
    sweep = manifest.get("file", "")
    env = manifest.get("environment", {})
    return {
        "format": FORMAT,
        "about": "libscc's measured defaults (auto): for each collective, member count "
                 "and size, the algorithm of the least median latency in modeled SCC time "
                 "on the emulated chip (001's method: root 0, fresh buffers, until the last "
                 "member returns). A call takes the rule whose members and bytes ranges "
                 "hold (null: no upper bound); where none holds, or its algorithm refuses "
                 "the call, select.c's table of the papers' findings decides. Generated: "
                 "do not edit, rerun the commands.",
        "made_by": {
            "sweep": f"scc-bench run {_repo_path(sweep, repo)} --out {results}",
            "command": command,
            "experiment": manifest.get("experiment", ""),
            "commit": commit,
            "dirty": dirty,
            "qemu_version": env.get("qemu_version", ""),
            "clock": "modeled",
            "results_from": str(df["start_time"].max()) if "start_time" in df else "",
        },
        "rules": rules,
    }


def check(data: dict, where: str) -> None:
    """Raise TuningError unless data is a tuning file header() can compile."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise TuningError(f"{where}: not a tuning file of format {FORMAT}")
    rules = data.get("rules")
    if not isinstance(rules, dict):
        raise TuningError(f"{where}: 'rules' must map each collective to its rules")
    for op, lst in rules.items():
        if not NAME.match(op) or not isinstance(lst, list):
            raise TuningError(f"{where}: rules.{op}: want a collective name and a list")
        for i, r in enumerate(lst):
            at = f"{where}: rules.{op}[{i}]"
            if not isinstance(r, dict) or not {"members", "bytes", "algorithm"} <= set(r) \
                    or set(r) - RULE_KEYS:
                raise TuningError(f"{at}: want members, bytes, algorithm, params, measured")
            for k in ("members", "bytes"):
                v = r[k]
                if not (isinstance(v, list) and len(v) == 2 and isinstance(v[0], int)
                        and v[0] >= 0 and (v[1] is None or
                                           (isinstance(v[1], int) and v[1] >= v[0]))):
                    raise TuningError(f"{at}: {k} must be [low, high] (high null or >= low)")
            if not NAME.match(str(r["algorithm"])) or not PARAMS.match(str(r.get("params", ""))):
                raise TuningError(f"{at}: algorithm '{r['algorithm']}' params "
                                  f"'{r.get('params', '')}' are not name and key=N,...")


def header(data: dict, source: str) -> str:
    """C for select.c: one array of rules per collective, tuned_of[op]."""
    check(data, source)
    made = data.get("made_by", {})
    frm = f"commit {str(made.get('commit', '?'))[:12]}{' (dirty)' if made.get('dirty') else ''}"
    out = [f"/* Generated from {source} by tools/scc/bench/tuning.py: do not edit. */",
           f'#define COLL_TUNING_FROM "{frm}"']
    most = max([len(v) for v in data["rules"].values()] + [1])
    out.append(f"#define COLL_TUNED_MAX {most}")
    lists = []
    for op, lst in data["rules"].items():
        if not lst:
            continue
        out.append(f"static const struct tuned tuned_{op}[] = {{")
        for r in lst:
            (n_lo, n_hi), (b_lo, b_hi) = r["members"], r["bytes"]
            spec = spec_of(r["algorithm"], r.get("params", ""))
            out.append(f'    {{ {n_lo}, {"INT_MAX" if n_hi is None else n_hi}, {b_lo}, '
                       f'{"SIZE_MAX" if b_hi is None else b_hi}, "{spec}" }},')
        out.append("};")
        lists.append(f"    [COLL_{op.upper()}] = {{ tuned_{op}, {len(lst)} }},")
    out.append("static const struct tuned_list tuned_of[COLL_NOPS] = {")
    out.extend(lists)
    out.append("};")
    return "\n".join(out) + "\n"


def main_header(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="tuning.py header",
                                description="compile a tuning file into select.c's C")
    p.add_argument("json")
    p.add_argument("out")
    a = p.parse_args(argv)
    try:
        try:
            data = json.loads(Path(a.json).read_text())
        except json.JSONDecodeError as e:
            raise TuningError(f"{a.json}: not JSON: {e}") from None
        text = header(data, a.json)
    except (TuningError, OSError) as e:
        print(f"tuning.py: error: {e}", file=sys.stderr)
        return 1
    Path(a.out).write_text(text)
    return 0


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] != "header":
        sys.exit("usage: tuning.py header TUNING.json OUT.h")
    sys.exit(main_header(sys.argv[2:]))
