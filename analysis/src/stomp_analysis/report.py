"""The self-contained HTML report (tables + charts embedded as base64 data URIs, no external assets)."""

from __future__ import annotations

import base64
import html
from collections.abc import Sequence
from datetime import datetime, timezone
from pathlib import Path

from . import explain
from .jtl import JtlLog
from .results import RunResult
from .session_costs import CostReport
from .step_tables import answers
from .stepped import SteppedReport
from .tables import Table

CSS = """
body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:24px auto;max-width:1400px;color:#222;
padding:0 16px;line-height:1.4}
h1{font-size:1.5em}h2{font-size:1.15em;margin-top:1.8em;border-bottom:1px solid #ddd;padding-bottom:4px}
table{border-collapse:collapse;font-size:13px;margin:8px 0;display:block;overflow-x:auto}
th,td{border:1px solid #d0d0d0;padding:3px 7px;white-space:nowrap}th{background:#f2f4f7}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}td.t,th.t{text-align:left}
tr.total td{font-weight:600;background:#fafafa}
.note{color:#555;font-size:12.5px;max-width:1100px}
.warn{background:#fff4e5;border-left:4px solid #f0a020;padding:6px 10px}
img{max-width:100%;border:1px solid #eee;margin:6px 0}code,pre{font-size:12px;background:#f6f8fa}
pre{padding:6px;overflow-x:auto}dt{font-weight:600;margin-top:8px}dd{margin-left:18px}
"""


def _img(title: str, path: Path) -> str:
    data = base64.b64encode(path.read_bytes()).decode("ascii")
    return f'<figure><img alt="{html.escape(title)}" src="data:image/png;base64,{data}"></figure>'


def _steps_part(steps: SteppedReport, charts: Sequence[tuple[str, Path]]) -> list[str]:
    """The top of a stepped test's report: its answer in one line, the steps table, its charts."""
    parts = [] if steps.tests else ['<p class="answer">the steps logs hold no step</p>']
    for answer, note in answers(steps.tests):
        parts.append(f'<p class="answer" style="font-size:1.2em;font-weight:600">{html.escape(answer)}</p>')
        if note:
            parts.append(f'<p class="note">{html.escape(note)}</p>')
    parts.append(steps.table.html())
    for title, p in charts:
        parts.append(f"<h3>{html.escape(title)}</h3>" + _img(title, p))
    return parts


def _costs_part(costs: CostReport) -> list[str]:
    """What the sessions cost: the lines the run's end said on the console, then their tables."""
    parts = ["<h2>What the sessions cost</h2>"]
    parts += [f'<p class="warn">{html.escape(n)}</p>' for n in costs.notes]
    if costs.runs:
        parts.append("<pre>" + html.escape("\n".join(costs.lines())) + "</pre>")
        parts += [t.html() for t in costs.tables()]
    return parts


def write_html(
    path: Path,
    *,
    runs: Sequence[RunResult],
    jtls: Sequence[JtlLog],
    tables: Sequence[Table],
    charts: Sequence[tuple[str, Path]],
    notes: Sequence[str],
    steps: SteppedReport | None = None,
    step_charts: Sequence[tuple[str, Path]] = (),
    costs: CostReport | None = None,
) -> Path:
    now = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        "<title>SockJS/STOMP load test report</title>",
        f"<style>{CSS}</style></head><body>",
        "<h1>SockJS/STOMP load test report</h1>",
        f'<p class="note">Generated {now} from {sum(len(r.files) for r in runs)} timing log(s)'
        f" and {len(jtls)} .jtl file(s); {len(runs)} run(s): "
        + ", ".join(html.escape(r.label) for r in runs)
        + ".</p>",
    ]
    if steps is not None:
        parts += _steps_part(steps, step_charts)
    if costs is not None:
        parts += _costs_part(costs)
    for n in notes:
        parts.append(f'<p class="warn">{html.escape(n)}</p>')
    if runs:
        parts.append("<h2>Treatment per run</h2>")
        parts.append("<ul>" + "".join(f"<li>{html.escape(explain.treatment_sentence(r))}</li>" for r in runs) + "</ul>")
    by_name = {t.name: t for t in tables}
    first = ("comparison", "summary", "receipts", "latency_co", "schedule")
    for name in first:
        if name in by_name:
            parts.append(by_name[name].html())
    if charts:
        parts.append("<h2>Charts</h2>")
        for title, p in charts:
            parts.append(f"<h3>{html.escape(title)}</h3>" + _img(title, p))
    for t in tables:
        if t.name not in first:
            parts.append(t.html())
    issues = []
    for r in runs:
        for f in r.files:
            if f.malformed:
                issues.append((str(f.path), f.malformed, f.issues))
    for j in jtls:
        if j.malformed:
            issues.append((str(j.path), j.malformed, j.issues))
    if issues:
        parts.append("<h2>Malformed records</h2>")
        for name, count, first in issues:
            listing = "\n".join(str(i) for i in first)
            parts.append(
                f"<p>{html.escape(name)}: {count} malformed record(s); the first {len(first)}:</p>"
                f"<pre>{html.escape(listing)}</pre>"
            )
    parts.append(explain.REPORT_EXPLANATIONS)
    parts.append("</body></html>\n")
    path.write_text("\n".join(parts), encoding="utf-8")
    return path
