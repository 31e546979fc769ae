"""Generate the results pages from every ``<experiment>/claims.json`` (never by hand).

``ROOT/README.md`` is the page a referee reads first: the status of the folder (current
or stale, from the last ``gameai reproduce --check``), how to read a verdict, the Holm
families, then ONE table with one line per claim (the claim in a few words, its source,
the measured ratio or score with its 95% interval, n, the verdict), and the forest plots.
Each ``ROOT/<experiment>/README.md`` holds that experiment's details: every claim in full,
everything measured (power, Wilcoxon, bootstrap, Holm step), and the command.
"""
from __future__ import annotations

import json
import re
from datetime import datetime, timezone
from pathlib import Path

from gameai.manifest import atomic_write_bytes, git_commit

from ._common import SOURCES, default_root, is_full, verdict_of

STATUS = "check.json"    #: the last --check's verdict per experiment, kept beside README.md

#: what the verdict classes mean, for the page
MEANING = {
    "holds": "the 95% interval (at the claim's Holm level) shows the claimed direction and does "
             "not exclude the claimed size",
    "does not hold": "the interval excludes the claimed effect (the other way, or smaller than claimed)",
    "equivalent": "two one-sided tests put the ratio within a margin fixed before the data "
                  "(+-3% of nodes): no difference worth the name, where the claim says there is one",
    "inconclusive": "the data cannot tell, or the t and bootstrap intervals disagree",
    "not judged": "reported, not tested: the source gives nothing testable, or the design "
                  "cannot show it here (the claim says why)",
}

LEAVES = ("`leaves` counts the positions a search evaluated at its horizon plus the terminal "
          "positions (game over) it met before it; `nodes` counts every position visited, "
          "the root and quiescence positions included.")


def _cite(text: str) -> str:
    """A source document named by file (``004_f1fc....txt``) becomes what it is."""
    return re.sub(r"\b(\d{3})_[0-9a-f]{16}\.txt\b", lambda m: SOURCES.get(m.group(1), m.group(0)), text)


def _cell(text) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _short_source(text: str) -> str:
    m = re.match(r"the (\d{3}) document", text)
    if m:
        return f"{m.group(1)} document"
    return re.split(r",|;", text)[0]


def _estimate(c: dict) -> str:
    """The measured number with its interval: the claim's own ``estimate``, else (claims
    of the old format) the first ``x [lo, hi]`` or Elo interval of its measured text."""
    if c.get("estimate"):
        return c["estimate"]
    text = c.get("measured", "")
    m = re.search(r"Elo ([+-]?\d+), 95% interval[^\[]*\[([^\]]+)\] Elo", text)
    if m:
        return f"{m.group(1)} Elo [{m.group(2)}]"
    m = re.search(r"history\+TT (\d+\.\d+ \[[-\d.]+, [-\d.]+\])", text)   # the old Schaeffer line
    if m:
        return m.group(1) + " (Shapley share)"
    m = re.search(r"(\d+\.\d+ \[[-\d.]+, [-\d.]+\])", text)
    return m.group(1) if m else ""


def _n(c: dict) -> str:
    if c.get("n") is not None:
        return str(c["n"])
    m = re.search(r"\bn=(\d+)", c.get("measured", "")) or re.search(r"in (\d+) games", c.get("measured", ""))
    return m.group(1) if m else ""


def _short(c: dict) -> str:
    if c.get("short"):
        return c["short"]
    text = re.sub(r"\s*\[one of .*?\]", "", c["claim"])
    return text if len(text) <= 90 else text[:87].rsplit(" ", 1)[0] + " ..."


def read_status(root: Path) -> dict[str, list[str]]:
    """The last check's problems per experiment (empty list: current), {} without one."""
    path = Path(root) / STATUS
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return data.get("experiments", {}) if isinstance(data, dict) else {}


def _status_lines(root: Path, status: dict[str, list[str]], rows) -> list[str]:
    if not status:
        return ["**Status: not checked.** Run `gameai reproduce --check` to recount a sample of "
                "these node counts at today's code.", ""]
    stale = {k: v for k, v in status.items() if v}
    data = json.loads((root / STATUS).read_text()) if (root / STATUS).exists() else {}
    when = f"at commit {data.get('commit', 'unknown')[:12]} ({data.get('checked_utc', '')})"
    if not stale:
        return [f"**Status: current.** `gameai reproduce --check` {when}: every table intact, every "
                "recounted node count equal.", ""]
    lines = [f"**Status: STALE.** `gameai reproduce --check` {when} found {len(stale)} of "
             f"{len(status)} experiments stale: their numbers are not what today's code counts, "
             "and their verdicts were reached by rules older than today's. Cite none of them "
             "before the full run is repeated (`gameai reproduce --full`).", ""]
    for name, why in sorted(stale.items()):
        shown = "; ".join(why[:2]) + (f"; and {len(why) - 2} more" if len(why) > 2 else "")
        lines.append(f"- `{name}`: {_cell(shown)}")
    return lines + [""]


def _experiment_page(folder: Path, claims: list[dict], manifest: dict) -> None:
    exp = folder.name
    lines = [f"# {exp}: every claim in full", "",
             "Generated by `gameai reproduce` from `claims.json`; do not edit by hand. The table "
             "files and `manifest.json` (config, seed, commit, code fingerprint, each table's "
             "row count and hash) are beside this page.", "",
             f"Made at commit `{(manifest.get('commit') or 'unknown')[:12]}`, "
             f"{'full' if is_full(manifest) else 'quick'} setting, seed {manifest.get('seed')}.", ""]
    for i, c in enumerate(claims, 1):
        lines += [f"## {i}. {_cell(_short(c))}", "",
                  f"- **Source:** {_cite(c['source'])}",
                  f"- **Claim:** {c['claim']}",
                  f"- **Measured:** {c['measured']}",
                  f"- **Verdict:** {verdict_of(c)}" + (f" (Holm family: {c['family']})" if c.get("family") else ""),
                  f"- **Command:** `{c['command']}`", ""]
    atomic_write_bytes(folder / "README.md", ("\n".join(lines) + "\n").encode())


def write_report(root: Path | None = None, status: dict[str, list[str]] | None = None) -> Path:
    """Collect every claims.json below ``root`` (default ./results) into ``root/README.md``
    and each experiment's own README; ``status`` (experiment -> problems found by
    ``--check``) is kept in ``root/check.json`` and shown at the top; return the path."""
    root = Path(root) if root is not None else default_root()
    if status is not None:
        atomic_write_bytes(root / STATUS, (json.dumps(
            {"commit": git_commit(Path(__file__).resolve().parent) or "unknown",
             "checked_utc": datetime.now(timezone.utc).isoformat(timespec="seconds"),
             "experiments": status}, indent=2, sort_keys=True) + "\n").encode())
    else:
        status = read_status(root)
    rows, figures, quick, families = [], [], [], {}
    for claims_file in sorted(root.glob("*/claims.json")):
        exp = claims_file.parent.name
        try:
            manifest = json.loads((claims_file.parent / "manifest.json").read_text())
        except (OSError, ValueError):
            manifest = {}                  # none, or torn: the status line says which
        manifest = manifest if isinstance(manifest, dict) else {}
        if not is_full(manifest):
            quick.append(exp)
        claims = json.loads(claims_file.read_text())
        _experiment_page(claims_file.parent, claims, manifest)
        for c in claims:
            rows.append((exp, c, manifest))
            if c.get("family"):
                families.setdefault(c["family"], []).append(exp)
        pngs = sorted(claims_file.parent.glob("*.png"), key=lambda p: (p.stem != "forest", p.name))
        figures += [p.relative_to(root) for p in pngs]
    title = "Results" if not quick else "Smoke test (quick settings), not the headline results"
    lines = [f"# {title}: the source documents' claims, measured", ""]
    if quick:
        lines += [f"**Smoke test, not the headline results:** {', '.join(sorted(set(quick)))} "
                  "ran with the quick settings (fewer positions, games and depths), to check that "
                  "everything runs. The headline numbers come from `gameai reproduce --full`.", ""]
    lines += _status_lines(root, status, rows)
    old = sorted({exp for exp, c, _ in rows if not c.get("verdict")})
    if old:
        lines += [f"**Made by older code:** the claims of {', '.join(old)} predate the present "
                  "design of the experiments (position pools with one position per self-play game, "
                  "Schaeffer's own measure, MTD(f) against NegaScout at the same evaluation grain, "
                  "Pearl on i.i.d. trees, the 002 look-ahead with the evaluation held equal, equal "
                  "effort per move against the max-min) and its verdict rules (four classes, claimed "
                  "effects, equivalence): their verdict reads \"inconclusive or not judged\" where the "
                  "two were not told apart. `gameai reproduce --full` replaces them.", ""]
    lines += ["Generated by `gameai reproduce` from each experiment folder's `claims.json`; do not "
              "edit by hand. Each folder has its own `README.md` with every claim in full, what was "
              "measured, power and the command, beside its tables (CSV + Parquet) and "
              "`manifest.json`.", "",
              "**Verdicts.** " + " ".join(f"*{k}*: {v}." for k, v in MEANING.items()), "",
              "**Counts.** " + LEAVES, ""]
    if families:
        lines += ["**Holm families** (the claims corrected together, so that the family-wise error "
                  "rate is at most 5%):", ""]
        for fam, exps in families.items():
            lines.append(f"- *{fam}*: {len(exps)} claims ({', '.join(sorted(set(exps)))})")
        lines.append("")
    lines += ["| experiment | claim | source | measured (95% interval) | n | verdict |",
              "|---|---|---|---|---|---|"]
    for exp, c, _ in rows:
        lines.append(f"| {exp} | {_cell(_short(c))} | {_cell(_short_source(_cite(c['source'])))} | "
                     f"{_cell(_estimate(c))} | {_n(c)} | {verdict_of(c)} |")
    if figures:
        lines += ["", "## Figures", ""]
        lines += [f"![{f}]({f.as_posix()})" for f in figures]
    path = root / "README.md"
    atomic_write_bytes(path, ("\n".join(lines) + "\n").encode())
    return path
