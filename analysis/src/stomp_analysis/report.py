"""The self-contained HTML report (tables + charts embedded as base64 data URIs, no external assets)."""

from __future__ import annotations

import base64
import html
from collections.abc import Sequence
from datetime import datetime, timezone
from pathlib import Path

from .aggregate import RunResult
from .jtl import JtlLog
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

EXPLANATIONS = """
<h2>How to read this report</h2>
<dl>
<dt>Books</dt>
<dd>Counted per message, i.e. per distinct <code>msg_id</code> within one timing log and run. A message is
<em>answered</em> when it has at least one ANSWERED record, otherwise <em>failed</em> when it has a FAILED
record (the send itself failed), otherwise <em>lost</em> (no reply before the timeout or the end of the test).
So sent = answered + lost + failed, and loss % = lost / sent. A broadcast answered by N receivers is one
answered message with N replies, and contributes N latency samples.</dd>
<dt>Latency</dt>
<dd>The asynchronous reply time: from the send of a message to the arrival of its reply at the receiving
virtual user, in microseconds in the logs, shown in milliseconds. Percentiles are exact, computed on all the
samples of a run merged across files (never averaged across files) with the "higher" method: the q-quantile of
N sorted samples is the sample at 0-based index ceil(q&middot;(N&minus;1)).</dd>
<dt>Throughput, achieved TPS, span</dt>
<dd>The span of a run goes from its first send to its last send or reply, whichever is later. Throughput =
answered messages / span; achieved TPS = sent messages / send window (first to last send).</dd>
<dt>Per-second series</dt>
<dd>Sends, losses and failures are counted in the second the message was sent; answers and their p50/p99 in
the second the reply arrived (send time + latency). Active threads = the highest JMeter <code>allThreads</code>
seen in that second of the .jtl.</dd>
<dt>Coordinated omission (CO) and the CO-corrected figures</dt>
<dd>A paced sender that waits for something (a blocked connection, a full buffer, a stalled server) sends
nothing while it waits, so the load generator "coordinates" with the slowness it should measure: the messages
that would have been sent during the stall, and would all have been slow, are simply missing from the raw
samples. When the pacing is known (a Constant Throughput Timer target for the whole test, giving each sender
an expected interval I = senders &times; 60000 / target ms, or an interval given directly), every latency v
greater than I is completed with the samples the missed sends would have produced: v&minus;I, v&minus;2I, ...
down to I (HdrHistogram's <code>recordValueWithExpectedInterval</code>). The raw figures describe the messages
actually sent; the CO-corrected ones estimate what a user arriving at the planned rate would have experienced.
A large gap between the two means the generator was held back and the raw percentiles are optimistic.
The correction is only valid for a closed loop, where a sender waits for the reply before its next send
(<code>mode</code> <em>await-reply</em> in the timing log): it is applied to those runs only. A
<em>fire-and-forget</em> sender (open loop) does not wait, so a slow reply delays no send and the correction
would invent a tail: its latencies stay uncorrected, and what is checked instead is whether the generator kept
the pace: the achieved send rate against the target (per second, in the throughput chart) and each send's
<em>lag</em> behind its sender's schedule (the k-th send of a sender is due at its first send + k &times; I),
reported as p50, p99 and max. A run mixing both modes is corrected only on the destinations whose records are
all await-reply. Timing logs of older plugin versions have no mode column: they are corrected as before whenever
a pacing is given, which is valid only if their senders awaited the replies.</dd>
<dt>Runs</dt>
<dd>Each record carries its test run's id (<code>run</code>: when the run started on its engine) and engine.
Runs appended to one timing log are analysed apart, labelled <em>label</em>#1, #2, ... in time order; the
files of several engines of one test (whose run ids differ) stay one run, since their sends overlap in time.
A message is identified within its file and run, so an id reused by another run is another message.</dd>
<dt>Unrecordable values, malformed records</dt>
<dd>A negative (or absurdly large) latency cannot be recorded: such records are counted, reported and left out
of the latency figures. Malformed records (unparsable, unknown outcome, missing required fields) are counted
per file and the first ones listed with their line numbers; the rest of the file is still aggregated.</dd>
</dl>
"""


def _img(title: str, path: Path) -> str:
    data = base64.b64encode(path.read_bytes()).decode("ascii")
    return f'<figure><img alt="{html.escape(title)}" src="data:image/png;base64,{data}"></figure>'


def write_html(
    path: Path,
    *,
    runs: Sequence[RunResult],
    jtls: Sequence[JtlLog],
    tables: Sequence[Table],
    charts: Sequence[tuple[str, Path]],
    notes: Sequence[str],
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
    for n in notes:
        parts.append(f'<p class="warn">{html.escape(n)}</p>')
    parts.append("<h2>Treatment per run</h2>")
    parts.append("<ul>" + "".join(f"<li>{html.escape(r.treatment)}</li>" for r in runs) + "</ul>")
    by_name = {t.name: t for t in tables}
    first = ("comparison", "summary", "latency_co", "schedule")
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
    parts.append(EXPLANATIONS)
    parts.append("</body></html>\n")
    path.write_text("\n".join(parts), encoding="utf-8")
    return path
