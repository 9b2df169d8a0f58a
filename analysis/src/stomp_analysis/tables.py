"""The output tables (summary, CO comparison, run comparison, schedule lag, .jtl summary, per-second series) and
their rendering as Markdown, CSV and HTML."""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from . import explain
from .jtl import JtlLog, jtl_per_second, jtl_summary, max_threads
from .receipts import PER_SECOND as RECEIPT_PER_SECOND
from .results import TOTAL, Books, RunResult
from .stats import QUANTILE_NAMES, QUANTILES

# column kinds: how a value is shown (CSV keeps full precision except ms, rounded to the µs)
INT, MS, PCT, RATE, TEXT, SEC, BYTES = "int", "ms", "pct", "rate", "text", "sec", "bytes"


@dataclass
class Column:
    key: str
    header: str
    kind: str = TEXT
    markdown: bool = True  # shown in the Markdown/HTML table (always in the CSV)


@dataclass
class Table:
    name: str  # file stem of the CSV
    title: str
    columns: list[Column]
    rows: list[dict] = field(default_factory=list)
    note: str = ""
    # > 0: the markdown and HTML show at most this many destinations per run, then a line saying how many more
    # (a run with one queue per user has thousands); the CSV keeps every row
    destinations_shown: int = 0

    def shown(self) -> list[Column]:
        return [c for c in self.columns if c.markdown]

    def shown_rows(self) -> list[dict | str]:
        """The rows the markdown and HTML show; a str stands for the destinations left out of a run."""
        if self.destinations_shown <= 0:
            return list(self.rows)
        out: list[dict | str] = []
        kept = left_out = 0
        for r in self.rows:
            if r.get("destination") == TOTAL:
                if left_out:
                    out.append(
                        f"… and {left_out:,} more destinations of {r.get('run')} ({self.name}.csv has every row)"
                    )
                out.append(r)
                kept = left_out = 0
            elif kept < self.destinations_shown:
                out.append(r)
                kept += 1
            else:
                left_out += 1
        return out

    def to_polars(self) -> pl.DataFrame:
        data = {c.key: [_csv_value(r.get(c.key), c.kind) for r in self.rows] for c in self.columns}
        schema = {c.key: _polars_type(c.kind) for c in self.columns}
        return pl.DataFrame(data, schema=schema, strict=False)

    def write_csv(self, directory: Path) -> Path:
        path = directory / f"{self.name}.csv"
        self.to_polars().write_csv(path, null_value="")
        return path

    def markdown(self) -> str:
        cols = self.shown()
        head = "| " + " | ".join(_md_escape(c.header) for c in cols) + " |"
        align = "|" + "|".join("---" if c.kind == TEXT else "---:" for c in cols) + "|"
        body = [
            f"| {_md_escape(r)} |" + " |" * (len(cols) - 1)
            if isinstance(r, str)
            else "| " + " | ".join(_md_escape(fmt(r.get(c.key), c.kind)) for c in cols) + " |"
            for r in self.shown_rows()
        ]
        out = [f"## {self.title}", "", head, align, *body]
        if self.note:
            out += ["", self.note]
        return "\n".join(out) + "\n"

    def html(self) -> str:
        cols = self.shown()
        th = "".join(f'<th class="{"t" if c.kind == TEXT else "n"}">{html.escape(c.header)}</th>' for c in cols)
        trs = []
        for r in self.shown_rows():
            if isinstance(r, str):
                trs.append(f'<tr><td class="t" colspan="{len(cols)}">{html.escape(r)}</td></tr>')
                continue
            cls = ' class="total"' if r.get("destination") == TOTAL or r.get("label") == "TOTAL" else ""
            tds = "".join(
                f'<td class="{"t" if c.kind == TEXT else "n"}">{html.escape(fmt(r.get(c.key), c.kind))}</td>'
                for c in cols
            )
            trs.append(f"<tr{cls}>{tds}</tr>")
        note = f'<p class="note">{html.escape(self.note)}</p>' if self.note else ""
        return (
            f"<h2>{html.escape(self.title)}</h2>\n<table><thead><tr>{th}</tr></thead><tbody>\n"
            + "\n".join(trs)
            + f"\n</tbody></table>\n{note}"
        )


def _polars_type(kind: str):
    return {INT: pl.Int64, MS: pl.Float64, PCT: pl.Float64, RATE: pl.Float64, SEC: pl.Float64, BYTES: pl.Float64}.get(
        kind, pl.String
    )


def _csv_value(v, kind: str):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return None
    if kind == MS:
        return round(float(v), 3)
    if kind in (PCT, RATE, SEC):
        return round(float(v), 6)
    if kind == BYTES:
        return round(float(v))
    if kind == INT:
        return int(v)
    return str(v)


def fmt(v, kind: str) -> str:
    """Human formatting: ms with 3 decimals (µs resolution), % with 3, rates with 1."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "–"
    if kind == INT:
        return str(int(v))
    if kind == MS:
        return f"{float(v):.3f}"
    if kind == PCT:
        return f"{float(v):.3f}"
    if kind == RATE:
        return f"{float(v):.1f}"
    if kind == SEC:
        return f"{float(v):.1f}"
    if kind == BYTES:
        return bytes_words(float(v))
    return str(v)


def bytes_words(n: float) -> str:
    """A byte figure in decimal units, three significant digits: 512 B, 1.5 KB, 23.4 MB, 1.20 GB, 2.00 TB."""
    for unit, size in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if abs(n) >= size:
            v = n / size
            return f"{v:.2f} {unit}" if abs(v) < 10 else f"{v:.1f} {unit}" if abs(v) < 100 else f"{v:.0f} {unit}"
    return f"{n:.0f} B"


def _md_escape(s: str) -> str:
    return s.replace("|", "\\|").replace("\n", " ")


def _us_to_ms(v):
    return None if v is None else v / 1000.0


# ----------------------------------------------------------------------------------------------------------
# builders

LAT_KEYS = [n.replace(".", "_") for n in QUANTILE_NAMES]  # p50 p90 p95 p99 p99_9


def _columns(keys: str, kind: str = TEXT, markdown: bool = True) -> list[Column]:
    """Columns whose header is their key: ``_columns("run destination")``."""
    return [Column(k, k, kind, markdown) for k in keys.split()]


def _cols(kind: str, markdown: bool = True, **headers: str) -> list[Column]:
    """Columns of one kind, key=header: ``_cols(MS, mean_ms="mean ms", p99_ms="p99 ms")``."""
    return [Column(k, header, kind, markdown) for k, header in headers.items()]


def _latency_cols(prefix: str, header_suffix: str, markdown: bool, with_min: bool = True) -> list[Column]:
    cols = [Column(f"{prefix}mean_ms", f"mean{header_suffix}", MS, markdown)]
    if with_min:
        cols.append(Column("min_ms", f"min{header_suffix}", MS, markdown))
    cols += [Column(f"{prefix}{k}_ms", f"{n}{header_suffix}", MS, markdown) for k, n in zip(LAT_KEYS, QUANTILE_NAMES)]
    cols.append(Column(f"{prefix}max_ms", f"max{header_suffix}", MS, markdown))
    return cols


def _latency_values(b: Books) -> dict:
    d = b.latency
    out = {"mean_ms": _us_to_ms(d.mean()), "min_ms": _us_to_ms(d.min()), "max_ms": _us_to_ms(d.max())}
    for k, v in zip(LAT_KEYS, d.quantiles(QUANTILES)):
        out[f"{k}_ms"] = _us_to_ms(v)
    if b.co is not None:
        c = b.co.distribution
        out.update(
            {
                "co_interval_ms": b.co.interval_us / 1000.0,
                "co_samples_added": b.co.added,
                "co_samples_dropped": b.co.dropped,
                "co_mean_ms": _us_to_ms(b.co.exact_mean),
                "co_max_ms": _us_to_ms(c.max()),
            }
        )
        for k, v in zip(LAT_KEYS, c.quantiles(QUANTILES)):
            out[f"co_{k}_ms"] = _us_to_ms(v)
    return out


# Destinations per run the report shows (in the order of the CSV): a run with one queue per user has thousands
SUMMARY_DESTINATIONS_SHOWN = 20


def summary_table(runs: Sequence[RunResult]) -> Table:
    cols = [
        *_columns("run destination"),
        *_columns("sent answered lost", INT),
        Column("lost_test_ended", "lost (test-ended)", INT, False),
        Column("failed", "failed", INT),
        Column("loss_pct", "loss %", PCT),
        *_columns("replies unrecordable", INT, False),
        Column("span_s", "span s", SEC, False),
        Column("throughput_msg_s", "answered msg/s", RATE),
        *_latency_cols("", " ms", True),
        Column("co_interval_ms", "CO interval ms", MS, False),
        Column("co_samples_added", "CO samples added", INT, False),
        Column("co_samples_dropped", "CO samples dropped", INT, False),
        *_latency_cols("co_", " ms (CO)", False, with_min=False),
    ]
    t = Table(
        "summary",
        "Summary per run and destination (latency: raw, ms)",
        cols,
        note=explain.SUMMARY_NOTE,
        destinations_shown=SUMMARY_DESTINATIONS_SHOWN,
    )
    for r in runs:
        for b in [*r.destinations, r.total]:
            row = {
                "run": r.label,
                "destination": b.destination,
                "sent": b.sent,
                "answered": b.answered,
                "lost": b.lost,
                "lost_test_ended": b.lost_test_ended,
                "failed": b.failed,
                "loss_pct": b.loss_pct,
                "replies": b.replies,
                "unrecordable": b.unrecordable,
                "span_s": r.span_s,
                "throughput_msg_s": r.rate(b.answered),
            }
            row.update(_latency_values(b))
            t.rows.append(row)
    return t


def receipts_table(runs: Sequence[RunResult]) -> Table | None:
    """Receipt latency per run and destination, beside the reply's; None when no run had a receipt."""
    if not any(r.total.receipt.n for r in runs):
        return None
    names = ["mean", "min", *QUANTILE_NAMES, "max"]
    keys = [f"receipt_{n.replace('.', '_')}_ms" for n in names]
    cols = [
        *_columns("run destination"),
        *_columns("sent receipts", INT),
        Column("receipts_pct", "receipts %", PCT),
        *[Column(k, f"receipt {n} ms", MS) for k, n in zip(keys, names)],
        Column("reply_p50_ms", "reply p50 ms", MS),
        Column("reply_p99_ms", "reply p99 ms", MS),
    ]
    t = Table("receipts", "Receipt latency per run and destination (ms), beside the reply's", cols)
    t.note = explain.RECEIPTS_NOTE
    for r in runs:
        for b in [*r.destinations, r.total]:
            d = b.receipt
            values = [d.mean(), d.min(), *d.quantiles(QUANTILES), d.max()]
            p50, p99 = b.latency.quantiles([0.5, 0.99])
            row = {"run": r.label, "destination": b.destination, "sent": b.sent, "receipts": d.n}
            row["receipts_pct"] = 100.0 * d.n / b.sent if b.sent else None
            row.update({k: _us_to_ms(v) for k, v in zip(keys, values)})
            row.update(reply_p50_ms=_us_to_ms(p50), reply_p99_ms=_us_to_ms(p99))
            t.rows.append(row)
    return t


def co_table(runs: Sequence[RunResult]) -> Table | None:
    if not any(r.co_corrected for r in runs):
        return None
    cols = [
        *_columns("run destination figures"),
        Column("interval_ms", "expected interval ms", MS),
        Column("samples", "samples", INT),
        *_latency_cols("", " ms", True, with_min=False),
    ]
    t = Table("latency_co", "Latency: raw vs CO-corrected (coordinated omission), ms", cols, note=explain.CO_NOTE)
    for r in runs:
        for b in r.co_corrected:
            v = _latency_values(b)
            base = {"run": r.label, "destination": b.destination, "interval_ms": r.interval_us / 1000.0}
            t.rows.append({**base, "figures": "raw", "samples": b.latency.n, **{k: v.get(k) for k in _plain_keys()}})
            co = {k: v.get("co_" + k) for k in _plain_keys()}
            co["mean_ms"] = v.get("co_mean_ms")
            t.rows.append({**base, "figures": "CO-corrected", "samples": b.co.n if b.co else None, **co})
    return t


def _plain_keys() -> list[str]:
    return ["mean_ms", *[f"{k}_ms" for k in LAT_KEYS], "max_ms"]


def comparison_table(runs: Sequence[RunResult], jtl_by_run: dict[int, list[JtlLog]]) -> Table:
    cols = [
        *_columns("run"),
        *_columns("concurrency", INT),
        *_cols(TEXT, concurrency_from="concurrency from", pacing="pacing", mode="mode"),
        *_cols(MS, False, co_interval_ms="interval ms/sender"),
        *_columns("sent", INT),
        *_cols(SEC, False, span_s="span s", send_window_s="send window s"),
        *_cols(RATE, achieved_tps="achieved TPS (sent/s)", target_tps="target TPS"),
        *_cols(RATE, False, answered_per_s="answered msg/s"),
        *_cols(MS, mean_ms="mean ms (raw)", p99_ms="p99 ms (raw)", co_mean_ms="mean ms (CO)", co_p99_ms="p99 ms (CO)"),
        *_cols(MS, lag_p99_ms="send lag p99 ms"),
        *_cols(PCT, loss_pct="loss %", failed_pct="failed %"),
        *_columns("treatment", TEXT, False),
    ]
    t = Table("comparison", "Comparison across runs", cols, note=explain.COMPARISON_NOTE)
    for i, r in enumerate(runs):
        threads = None
        for j in jtl_by_run.get(i, []):
            m = max_threads(j.frame)
            if m is not None:
                threads = m if threads is None else max(threads, m)
        lat = _latency_values(r.total)
        pacing = explain.pacing_text(r.spec)
        concurrency, concurrency_from = _concurrency(r, threads)
        t.rows.append(
            {
                "run": r.label,
                "concurrency": concurrency,
                "concurrency_from": concurrency_from,
                "pacing": pacing
                if not r.interval_us or r.spec.expected_interval_ms
                else f"{pacing} ({explain.number(r.interval_us / 1000)} ms/sender)",
                "mode": explain.mode_text(r.mode, r.senders, threads),
                "co_interval_ms": r.interval_us / 1000.0 if r.interval_us else None,
                "sent": r.total.sent,
                "span_s": r.span_s,
                "send_window_s": r.send_window_s,
                "achieved_tps": r.achieved_tps,
                "target_tps": r.target_per_s,
                "answered_per_s": r.rate(r.total.answered),
                "mean_ms": lat["mean_ms"],
                "p99_ms": lat["p99_ms"],
                "co_mean_ms": lat.get("co_mean_ms"),
                "co_p99_ms": lat.get("co_p99_ms"),
                "lag_p99_ms": _us_to_ms(r.schedule.lag.quantile(0.99)) if r.schedule else None,
                "loss_pct": r.total.loss_pct,
                "failed_pct": 100.0 * r.total.failed / r.total.sent if r.total.sent else None,
                "treatment": explain.treatment_sentence(r),
            }
        )
    return t


def _concurrency(r: RunResult, threads: int | None) -> tuple[int, str]:
    """A run's concurrency and where it comes from: its virtual users where the logs name them (a JMeter thread may
    run many: its allThreads would count threads, not users), else the .jtl's allThreads, else its senders."""
    if r.files and all(f.columns >= 16 for f in r.files):
        return r.senders, "virtual users"
    if threads is not None:
        return threads, "jtl allThreads"
    return r.senders, "senders"


def schedule_table(runs: Sequence[RunResult]) -> Table | None:
    """Fire-and-forget sends against their schedule, for the runs that have a pacing."""
    if not any(r.schedule for r in runs):
        return None
    cols = [
        *_columns("run"),
        *_columns("senders sends", INT),
        *_cols(MS, interval_ms="interval ms/sender"),
        *_cols(RATE, target_tps="target sends/s", achieved_tps="achieved sends/s"),
        *_cols(MS, lag_p50_ms="lag p50 ms", lag_p99_ms="lag p99 ms", lag_max_ms="lag max ms"),
        *_cols(TEXT, worst_sender="most behind"),
    ]
    t = Table("schedule", "Fire-and-forget sends vs their schedule (lag, ms)", cols, note=explain.SCHEDULE_NOTE)
    for r in runs:
        sl = r.schedule
        if sl is None:
            continue
        t.rows.append(
            {
                "run": r.label,
                "senders": sl.senders,
                "sends": sl.sends,
                "interval_ms": sl.interval_us / 1000.0,
                "target_tps": r.target_per_s,
                "achieved_tps": r.achieved_tps,
                "lag_p50_ms": _us_to_ms(sl.lag.quantile(0.5)),
                "lag_p99_ms": _us_to_ms(sl.lag.quantile(0.99)),
                "lag_max_ms": _us_to_ms(sl.lag.max()),
                "worst_sender": sl.worst_sender,
            }
        )
    return t


def jtl_table(runs: Sequence[RunResult], jtl_by_run: dict[int | None, list[JtlLog]]) -> Table | None:
    if not any(jtl_by_run.values()):
        return None
    cols = [
        *_columns("run label"),
        *_columns("samples errors", INT),
        Column("error_pct", "error %", PCT),
        *[Column(f"{k}_ms", f"{k} ms", MS) for k in ("mean", "p90", "p99")],
        Column("throughput_per_s", "throughput /s", RATE),
    ]
    t = Table("jtl_summary", "JMeter samples (.jtl), elapsed time", cols, note=explain.JTL_NOTE)
    for i in sorted(jtl_by_run, key=lambda k: (k is None, k if k is not None else 0)):
        logs = jtl_by_run[i]
        if not logs:
            continue
        frame = pl.concat([j.frame for j in logs]) if len(logs) > 1 else logs[0].frame
        run_label = runs[i].label if i is not None else "(no matching run)"
        for row in jtl_summary(frame):
            t.rows.append({"run": run_label, **row})
    return t


def per_second_frame(runs: Sequence[RunResult], jtl_by_run: dict[int, list[JtlLog]]) -> pl.DataFrame:
    """The per-second series of every run; with receipt columns (receipts, their p50 and p99) when a run had any."""
    with_receipts = any(RECEIPT_PER_SECOND[0] in r.per_second.columns for r in runs)
    receipts = [
        pl.col("receipts"),
        (pl.col("receipt_p50_us") / 1000.0).round(3).alias("receipt_p50_ms"),
        (pl.col("receipt_p99_us") / 1000.0).round(3).alias("receipt_p99_ms"),
    ]
    parts = []
    for i, r in enumerate(runs):
        ps = r.per_second
        if with_receipts and RECEIPT_PER_SECOND[0] not in ps.columns:
            ps = ps.with_columns(pl.lit(0, pl.Int64).alias("receipts"))
            ps = ps.with_columns(pl.lit(None, pl.Int64).alias(c) for c in RECEIPT_PER_SECOND[1:])
        logs = jtl_by_run.get(i, [])
        if logs:
            frame = pl.concat([j.frame for j in logs]) if len(logs) > 1 else logs[0].frame
            js = jtl_per_second(frame)
            ps = ps.join(js, on="epoch_s", how="full", coalesce=True).with_columns(
                pl.col("sends", "answers", "lost", "failed").fill_null(0),
                pl.col("jmeter_samples", "jmeter_errors").fill_null(0),
            )
        else:
            ps = ps.with_columns(
                pl.lit(None, pl.Int64).alias("jmeter_samples"),
                pl.lit(None, pl.Int64).alias("jmeter_errors"),
                pl.lit(None, pl.Int64).alias("active_threads"),
            )
        first_s = r.start_ms // 1000
        parts.append(
            ps.sort("epoch_s").select(
                pl.lit(r.label).alias("run"),
                "epoch_s",
                (pl.col("epoch_s") - first_s).alias("t_s"),
                "sends",
                pl.lit(r.target_per_s, pl.Float64).alias("target_sends"),
                "answers",
                "lost",
                "failed",
                (pl.col("p50_us") / 1000.0).round(3).alias("p50_ms"),
                (pl.col("p99_us") / 1000.0).round(3).alias("p99_ms"),
                pl.col("jmeter_samples").cast(pl.Int64),
                pl.col("jmeter_errors").cast(pl.Int64),
                pl.col("active_threads").cast(pl.Int64),
                *(receipts if with_receipts else []),
            )
        )
    return pl.concat(parts, how="vertical")


def failures_table(runs: Sequence[RunResult], top: int = 10) -> Table | None:
    rows = []
    for r in runs:
        for detail, n in r.failure_reasons.head(top).iter_rows():
            rows.append({"run": r.label, "reason": detail, "records": n})
    if not rows:
        return None
    return Table(
        "failures",
        "FAILED records by reason",
        [Column("run", "run"), Column("reason", "reason"), Column("records", "records", INT)],
        rows,
    )


def input_table(runs: Sequence[RunResult], jtls: Sequence[JtlLog]) -> Table:
    t = Table(
        "inputs",
        "Inputs",
        [
            *_columns("run file"),
            *_columns("records malformed", INT),
            *_cols(TEXT, format="format", run_ids="run id(s)", engines="engine(s)", versions="plugin version(s)"),
        ],
    )
    for r in runs:
        for f in r.files:
            t.rows.append(
                {
                    "run": r.label,
                    "file": str(f.path),
                    "records": f.records,
                    "malformed": f.malformed,
                    "format": "9 columns (old)" if f.legacy else f"{f.columns} columns",
                    "run_ids": " ".join(str(x) for x in f.run_ids) or None,
                    "engines": " ".join(f.engines) or None,
                    "versions": " ".join(f.versions) or None,
                }
            )
    for j in jtls:
        t.rows.append({"run": "(jtl)", "file": str(j.path), "records": j.records, "malformed": j.malformed})
    return t


def build_tables(runs: Sequence[RunResult], jtls: Sequence[JtlLog], jtl_by_run: dict) -> tuple[list[Table], Table]:
    """The tables shown (those with something to show, in order) and the inputs table."""
    tables = [
        summary_table(runs),
        receipts_table(runs),
        co_table(runs),
        comparison_table(runs, jtl_by_run),
        schedule_table(runs),
        jtl_table(runs, jtl_by_run),
        failures_table(runs),
    ]
    return [t for t in tables if t], input_table(runs, jtls)


def markdown_document(runs: Sequence[RunResult], tables: Sequence[Table], inputs: Table) -> str:
    """The Markdown on stdout: one line per run, the treatment of each, the tables (the inputs when malformed
    records were found)."""
    out = ["# SockJS/STOMP reply timing\n\n"]
    for r in runs:
        pacing = explain.pacing_text(r.spec) + (f"; expected interval {r.interval_note}" if r.interval_us else "")
        out.append(
            f"- **{r.label}**: {len(r.files)} file(s), {r.records} records, {r.senders} sender(s), "
            f"span {r.span_s:.1f} s, pacing {pacing}, mode {r.mode}\n"
        )
    out.append("\n## Treatment\n\n")
    out += [f"- {explain.treatment_sentence(r)}\n" for r in runs]
    out.append("\n")
    shown = [*tables, inputs] if any(row["malformed"] for row in inputs.rows) else tables
    out += [t.markdown() + "\n" for t in shown]
    return "".join(out)
