"""The papers' headline results, reproduced in modeled time: what
scc-report (tools/scc/cli/report.py) runs.

Runs the experiments behind every headline result of the papers and
libscc's targets (experiments/report/: rows.toml, targets.toml, an
experiment file each, read by rows.py) on Dask, through scc-bench's engine
and cache, and writes DIR/index.md and a self-contained DIR/index.html
(plots embedded): two scores, the predictions' first ("predictions: N of M
inside", then "calibration: ..."), a summary table (result, published,
ours, ratio, band, verdict, role), the build's provenance, and for each
result what the paper says, the configuration, its role (the parameters a
calibrating row set), our number, the band and why, the verdict, a plot
with the paper's values beside ours and the command that reproduces it.
Nothing is hidden: a result outside its band says so. --quick runs fewer sizes
and iterations, with every row still present. Beside the ping-pong rows, a
section that is not a row (netpipe.py): MPI measured with NetPIPE 3.7.2
next to RCCE's and iRCCE's ping-pong, in neither score.
"""
from __future__ import annotations

import base64
import math
import re
import time
from pathlib import Path

from scc.bench import appopts, plots, provenance, results
from scc.bench import experiment as xp
from scc.paths import BUILD, REPO
from scc.report import netpipe as np_section
from scc.report import rows as data
from scc.report import targets as tg

DEFAULT_OUT = BUILD / "report"
COLUMNS = ("result", "published", "ours", "ratio", "band", "verdict", "role")
# The two scores, the predictions' the headline: a row a parameter was set
# from (calibrates) cannot fail, so it is never counted as a prediction.
SCORES = (("predicts", "predictions"), ("calibrates", "calibration"))


def specs(heads, tgts, quick: bool) -> dict[str, dict]:
    """Every experiment the rows and then the targets read, once each, by
    name, as it runs (experiments/report/NAME.toml; with @quick, its quick
    variant)."""
    names = [n for h in heads for n in h.experiments] + [n for t in tgts for n in t.experiments]
    return {n: data.experiment(n, quick) for n in dict.fromkeys(names)}


def fmt(x, digits=3) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    if isinstance(x, (int, float)):
        if x == 0:
            return "0"
        mag = math.floor(math.log10(abs(x)))
        return f"{x:.{max(0, digits - 1 - mag)}f}"
    return str(x)


QUICK_VERDICT = "not measured well enough in quick mode"


def judge(h, dfs: dict, quick: bool = False) -> dict:
    """One summary row: our number, the ratio and the verdict. With
    @quick, a row whose quick variant cannot give the full run's verdict
    (its quick_why) shows its number and gives none."""
    row = {"id": h.id, "result": h.result, "published": h.published, "unit": h.unit,
           "ours": None, "ratio": None, "band": h.band, "why": "",
           "role": getattr(h, "role", "predicts")}
    if h.not_reproducible or h.measure is None:
        row.update(verdict="not reproducible here",
                   why=h.not_reproducible or getattr(h, "role_why", ""))
        return row
    failed = {n: df for n, df in dfs.items() if (df["status"] != "ok").any()}
    try:
        ours = float(h.measure(dfs))
    except Exception as e:
        bad = "; ".join(f"{n}: {', '.join(sorted(set(df['why'])))}" for n, df in failed.items())
        row.update(verdict="no result", why=f"{type(e).__name__}: {e}" + (f" ({bad})" if bad else ""))
        return row
    row["ours"] = ours
    if h.published:
        row["ratio"] = ours / h.published
    if h.band and row["ratio"] is not None:
        lo, hi = h.band
        row["verdict"] = "inside" if lo <= row["ratio"] <= hi else "outside"
        if row["verdict"] == "outside":
            row["cannot"] = h.outside_why
    else:
        row["verdict"] = "shown (no band)"
    if quick and getattr(h, "quick_why", "") and row["verdict"] in ("inside", "outside"):
        row.update(verdict=QUICK_VERDICT, why=h.quick_why)
        row.pop("cannot", None)
    if row["role"] == "not reproducible":
        # measured, for what it shows, but not a result of the paper's
        row.update(verdict="not reproducible here", why=getattr(h, "role_why", ""))
        row.pop("cannot", None)
    if failed:
        row["why"] = "some points failed: " + ", ".join(failed)
    return row


def scores(rows) -> list[str]:
    """The summary's two score lines, predictions first: `predictions: N
    of M inside`, M the rows of the role with a verdict (inside or
    outside); rows not reproducible count in neither."""
    out = []
    for role, name in SCORES:
        judged = [r for r in rows if r.get("role") == role
                  and r["verdict"] in ("inside", "outside")]
        inside = sum(r["verdict"] == "inside" for r in judged)
        out.append(f"{name}: {inside} of {len(judged)} inside")
    return out


def _band(b) -> str:
    return f"{fmt(b[0])}-{fmt(b[1])}x" if b else "-"


def _role_md(h) -> str:
    role = getattr(h, "role", "predicts")
    why = getattr(h, "role_why", "")
    if role == "calibrates":
        return (f"**Role: calibrates** {', '.join(f'`{p}`' for p in h.parameters)}: {why}")
    return f"**Role: {role}.**" + (f" {why}" if why else "")


def _md_escape(s: str) -> str:
    return str(s).replace("|", "\\|").replace("\n", " ")


def _plot(h, dfs, out: Path) -> Path | None:
    spec = getattr(h, "plot", None)
    if not spec or spec.get("experiment") not in dfs:
        return None
    df = dfs[spec["experiment"]]
    f = out / "plots" / f"{re.sub(r'[^A-Za-z0-9]+', '_', h.id)}.png"
    try:
        plots.plot_xy(df, f, x=spec["x"], y=spec["y"], hue=spec.get("hue"),
                      logx=spec.get("logx", False), logy=spec.get("logy", False),
                      ylabel=spec.get("ylabel"), xlabel=spec.get("xlabel"), title=h.result,
                      words=data.legend_words(), published=spec.get("published", ()))
    except (ValueError, KeyError):
        return None
    return f


def write(rows, headlines, dfs_all, out: Path, *, quick: bool, wall: float, files: dict,
          targets=None, by_target=None, beside: list[str] | None = None) -> None:
    """index.md and index.html. @beside: the lines of the section that is
    not a row (netpipe.py), after the last row that reads the ping-pong
    experiment (else after the rows)."""
    env = provenance.environment()
    by_id = {h.id: h for h in headlines}
    md = ["# The papers' headline results, reproduced on the emulated SCC", "",
          f"{'Quick' if quick else 'Full'} report: every time below is **modeled SCC time** "
          "(the machine's timing mode) unless a row says otherwise. "
          "Bands are ratios ours / published.", ""]
    for line in scores(rows):
        md += [line, ""]
    md += ["Predictions are the rows no parameter of the model was set from; calibration "
           "the rows one was (each names its parameters below; docs/timing.md, "
           "'Parameters'): those are inside by construction and test nothing.", "",
           "| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    for r in rows:
        pub = f"{fmt(r['published'])} {r['unit']}" if r["published"] is not None else "-"
        ours = f"{fmt(r['ours'])} {r['unit']}" if r["ours"] is not None else "-"
        ratio = fmt(r["ratio"]) if r["ratio"] is not None else "-"
        md.append(f"| {r['id']}. {_md_escape(r['result'])} | {pub} | {ours} | {ratio} | "
                  f"{_band(r['band'])} | {r['verdict']} | {r.get('role', 'predicts')} |")
    counts = {}
    for r in rows:
        counts[r["verdict"]] = counts.get(r["verdict"], 0) + 1
    md += ["", "Verdicts: " + ", ".join(f"{n} {v}" for v, n in counts.items()) + ".", ""]
    outside = [r for r in rows if r["verdict"] == "outside"]
    if outside:
        md += ["## Outside their band", "",
               "Each with the reason it is outside, where one is established, worked out "
               "with the papers' own numbers: a mechanism or cost the model lacks (which, "
               "and what would test it), or software the papers do not describe (its cost "
               "bounded by their numbers); a contradiction only where two of a paper's "
               "numbers cannot both hold under any mechanism (a bound is not one). The "
               "others are open.", ""]
        md += [f"- **{r['id']}. {_md_escape(r['result'])}** (ratio {fmt(r['ratio'])}): "
               + (_md_escape(r["cannot"]) if r.get("cannot") else "no reason established: open.")
               for r in outside]
        md += [""]
    md += targets_md(targets or [], by_target or {}, files)
    md += ["## Build and run", "",
           f"- commit `{env['commit']}`{' (tree dirty)' if env['dirty'] else ''}; "
           f"QEMU {env['qemu_version']}",
           f"- host {env['host']} ({env['cpus']} CPUs, {env['platform']}), Python {env['python']}",
           f"- generated {env['time']}; the runs took {wall:.0f} s of host wall clock",
           f"- experiment files: `{_shown(out / 'experiments')}/` (each row's command below "
           "runs one)",
           ""]
    sections = [_row_md(r, by_id[r["id"]], dfs_all, out, files) for r in rows]
    if beside:
        after = max((i for i, r in enumerate(rows)
                     if np_section.PINGPONG in by_id[r["id"]].experiments),
                    default=len(rows) - 1)
        sections.insert(after + 1, beside)
    for sec in sections:
        md += sec
    text = "\n".join(md) + "\n"
    (out / "index.md").write_text(text, encoding="utf-8")
    (out / "index.html").write_text(html(text, out), encoding="utf-8")


def _row_md(r, h, dfs_all, out: Path, files: dict) -> list[str]:
    """One row's section of index.md (its plot written to DIR/plots/)."""
    md = [f"## {r['id']}. {h.result}", "", f"**The paper:** {h.paper}", "",
          f"**Configuration:** {h.config}", "", _role_md(h), ""]
    if r["verdict"] == "not reproducible here" and r["ours"] is None:
        return md + [f"**Verdict: not reproducible here.** {r['why']}", ""]
    pub = f"{fmt(r['published'])} {r['unit']}" if r["published"] is not None else "-"
    md += [f"- published: {pub}",
           f"- ours: {fmt(r['ours'])} {r['unit']}" if r["ours"] is not None else "- ours: -",
           f"- ratio: {fmt(r['ratio'])}" if r["ratio"] is not None else "- ratio: -",
           f"- band: {_band(r['band'])}: {h.why_band}",
           f"- **verdict: {r['verdict']}**" + (f" ({r['why']})" if r["why"] else ""), ""]
    if r.get("cannot"):
        md += [f"**Why the model cannot get inside the band:** {r['cannot']}", ""]
    p = _plot(h, dfs_all, out)
    if p:
        md += [f"![{h.result}](plots/{p.name})", ""]
    for name in h.experiments:
        md += ["```", f"build/venv/bin/scc-bench run {files[name]} --out build/bench/{name}",
               "```", ""]
    return md


TARGET_COLUMNS = ("target", "collective", "size", "ours", "papers' best", "RCCE_comm",
                  "ratio", "auto ran", "met")


def _alg(x, alg, unit) -> str:
    return f"{fmt(x)} {unit} ({alg})" if x is not None else "-"


def targets_md(rows, by_target, files) -> list[str]:
    """Beyond the papers: each target's lines (ours = the best of every
    algorithm libscc has), then per target its goal and configuration."""
    if not rows:
        return []
    md = ["## Beyond the papers: libscc's targets", "",
          "48 cores, modeled SCC time, 001's method (root 0, private memory to private "
          "memory, fresh buffer offsets, until the last member returns). Ours is the best "
          "of every algorithm libscc has, the papers' best that of the algorithms 000-004 "
          "and RCCE_comm describe; the ratio is RCCE_comm's over ours (T2: ours over "
          "RCCE_comm's); auto is what a program gets by default (its time, and what it "
          "ran).", "",
          "| " + " | ".join(TARGET_COLUMNS) + " |", "|" + "---|" * len(TARGET_COLUMNS)]
    for r in rows:
        if not r["lines"]:
            md.append(f"| {r['id']}. {_md_escape(r['result'])} | - | - | - | - | - | - | - | "
                      f"{r['verdict']} ({_md_escape(r['why'])}) |")
        for ln in r["lines"]:
            u = r["unit"]
            auto = (f"{fmt(ln['auto'])} {u} ({ln['auto_ran'] or 'auto'})"
                    if ln.get("auto") is not None else "-")
            md.append(f"| {r['id']} | {ln['op']} | {ln['bytes']} B | "
                      f"{_alg(ln['ours'], ln['ours_alg'], u)} | "
                      f"{_alg(ln['papers'], ln['papers_alg'], u)} | "
                      f"{_alg(ln['rcce_comm'], ln['rcce_comm_alg'], u)} | "
                      f"{fmt(ln['ratio']) + 'x' if ln['ratio'] is not None else '-'} | {auto} | "
                      f"{'yes' if ln['met'] else 'no'} |")
    md += [""]
    for r in rows:
        t = by_target[r["id"]]
        md += [f"### {t.id}. {t.result}", "", f"**Target:** {t.goal}.", "",
               f"**Configuration:** 48 cores (0-47), root 0; {t.config}", "",
               f"**Verdict: {r['verdict']}**" + (f" ({r['why']})" if r["why"] else ""), ""]
        md += [f"- {ln['op']}: {ln['note']}" for ln in r["lines"] if ln.get("note")]
        md += ["```"] + [f"build/venv/bin/scc-bench run {files[n]} --out build/bench/{n}"
                         for n in t.experiments] + ["```", ""]
    return md


def _shown(p: Path) -> str:
    """@p relative to the repository when it is inside it."""
    try:
        return str(p.resolve().relative_to(REPO))
    except ValueError:
        return str(p)


def html(md_text: str, out: Path) -> str:
    """index.md as one HTML page, its plots inlined as data URIs."""
    from markdown_it import MarkdownIt
    body = MarkdownIt("commonmark").enable("table").render(md_text)

    def inline(m):
        f = out / m.group(1)
        if not f.is_file():
            return m.group(0)
        return 'src="data:image/png;base64,' + base64.b64encode(f.read_bytes()).decode() + '"'
    body = re.sub(r'src="(plots/[^"]+\.png)"', inline, body)
    style = ("body{font-family:sans-serif;max-width:60em;margin:2em auto;line-height:1.4}"
             "table{border-collapse:collapse}td,th{border:1px solid #bbb;padding:.2em .5em}"
             "code,pre{background:#f4f4f4}img{max-width:100%}")
    return ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
            "<title>SCC: the papers reproduced</title>"
            f"<style>{style}</style></head><body>\n{body}</body></html>\n")


def select(only: list[str] | None) -> tuple[list, list]:
    """The headlines and targets to run: all, or those whose id is in @only."""
    heads = [h for h in data.headlines() if not only or h.id in only]
    tgts = [t for t in data.all_targets() if not only or t.id in only]
    return heads, tgts


def prepare(heads, tgts, out: Path, quick: bool, section: bool = False):
    """Every experiment the rows and targets need (and, with @section, the
    NetPIPE section's: netpipe.py), written as a file to DIR/experiments/
    and loaded: ([(experiment, its results directory)], {name: its file},
    {name: why it does not run}). Refuses (ExperimentError) an app that is
    not built or an option an app does not take, before anything runs;
    NetPIPE's program not built is not refused: the section says why."""
    (out / "experiments").mkdir(parents=True, exist_ok=True)
    (out / "results").mkdir(exist_ok=True)
    jobs, files, skipped = [], {}, {}
    todo = specs(heads, tgts, quick)
    if section:
        todo.update({n: data.experiment(n, quick) for n in np_section.EXPERIMENTS
                     if n not in todo})
    for name, spec in todo.items():
        f = out / "experiments" / f"{name}.toml"
        f.write_text(xp.to_toml(spec, f"scc-report{' --quick' if quick else ''}: "
                                f"experiment {name}"), encoding="utf-8")
        files[name] = f
        jobs.append((xp.load(f), out / "results" / name))
    for e, _ in [j for j in jobs if j[0].name == np_section.EXPERIMENT]:
        why = [problem for _, problem in appopts.problems([e])]
        if why:                             # NetPIPE's source could not be fetched
            skipped[e.name] = "; ".join(why)
            jobs = [j for j in jobs if j[0] is not e]
    appopts.check([e for e, _ in jobs])     # every app built, every option its own
    return jobs, files, skipped


def run(heads, tgts, jobs, files, out: Path, *, quick: bool, workers=None, scheduler=None,
        progress: bool | None = None, section: bool = False, skipped=None) -> dict:
    """Run the jobs' points, judge every row and target, write the report
    (with @section, the NetPIPE section; @skipped: {experiment: why it did
    not run}). Returns {"rows", "targets" (their judged rows), "netpipe"
    (the section's table lines, or None without it), "run", "cached",
    "failed" (points)}."""
    t0 = time.monotonic()
    frames = results.run_many(jobs, workers=workers, scheduler=scheduler, progress=progress,
                              label="report")
    wall = time.monotonic() - t0
    dfs = {e.name: df for (e, _), (df, _) in zip(jobs, frames)}
    rows = [judge(h, {n: dfs[n] for n in h.experiments}, quick) for h in heads]
    t_rows = [tg.judge(t, {n: dfs[n] for n in t.experiments}) for t in tgts]
    try:
        shown = {n: f.relative_to(REPO) for n, f in files.items()}
    except ValueError:
        shown = files
    np_df = np_section.curves(dfs) if section else None
    beside = np_section.markdown(dfs, out, shown, quick, (skipped or {}).get(
        np_section.EXPERIMENT, ""), df=np_df) if section else None
    write(rows, heads, dfs, out, quick=quick, wall=wall, files=shown, targets=t_rows,
          by_target={t.id: t for t in tgts}, beside=beside)
    return {"rows": rows, "targets": t_rows,
            "netpipe": np_section.table(np_df) if section else None,
            **{k: sum(c[k] for _, c in frames) for k in ("run", "cached", "failed")}}
