"""Reading JMeter CSV result files (.jtl, JMeter 5.6.3 default CSV format with a header line).

Columns are found by name, in any order; only ``timeStamp`` (sample start, ms since epoch) and ``elapsed``
(ms) are required. ``label``, ``success`` and ``allThreads`` are used when present (without ``success``
every sample counts as successful, without ``label`` all samples share one label). Quoted fields may
contain commas, quotes and line ends.

As for timing logs, polars reads the file with strict types first; only when that fails, or a record
lacks a required value, is the file re-read line by line, counting malformed records with their line
numbers.
"""

from __future__ import annotations

import csv
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import polars as pl

from . import InputError, read_head
from .stats import Distribution
from .timing_log import Issue

REQUIRED = ("timeStamp", "elapsed")
OPTIONAL = ("label", "success", "allThreads", "SampleCount", "ErrorCount")
# Integer columns; SampleCount/ErrorCount: a row that stands for several samples (the plugin's scheduled sender
# sends many messages in one sample, as JMeter's JMS publisher does).
_INT_COLUMNS = ("timeStamp", "elapsed", "allThreads", "SampleCount", "ErrorCount")
NO_LABEL = "(no label)"
_INT_RE = re.compile(r"[+-]?[0-9]+")


@dataclass
class JtlLog:
    path: Path
    frame: pl.DataFrame  # timeStamp i64, elapsed i64, label str, success bool, allThreads i64 (nullable)
    records: int = 0
    malformed: int = 0
    issues: list[Issue] = field(default_factory=list)
    has_threads: bool = False
    has_success: bool = False

    @property
    def start_ms(self) -> int | None:
        return int(self.frame.get_column("timeStamp").min()) if self.frame.height else None

    @property
    def end_ms(self) -> int | None:
        if not self.frame.height:
            return None
        return int(self.frame.select((pl.col("timeStamp") + pl.col("elapsed")).max()).item())


def check_header(path: Path) -> list[str]:
    """The column names of a .jtl's header line; raises InputError naming the file when it is not one."""
    first = read_head(path, "a .jtl file")[0].decode("utf-8", errors="replace")
    if not first:
        raise InputError(f"{path}: empty file (expected a JMeter CSV result file with a header line)")
    names = next(csv.reader([first.lstrip("\ufeff")]))
    missing = [c for c in REQUIRED if c not in names]
    if missing:
        raise InputError(
            f"{path}: not a JMeter CSV result file with a header: no column {', '.join(missing)}"
            f" in {first.strip()[:200]!r}"
            " (save results as CSV with jmeter.save.saveservice.print_field_names=true)"
        )
    return [n.strip() for n in names]


def read_jtl(path: str | os.PathLike, *, max_issues: int = 5) -> JtlLog:
    path = Path(path)
    names = check_header(path)
    has_success = "success" in names
    has_threads = "allThreads" in names
    has_label = "label" in names
    wanted = [c for c in (*REQUIRED, *OPTIONAL) if c in names]
    log = JtlLog(path=path, frame=pl.DataFrame(), has_threads=has_threads, has_success=has_success)
    try:
        raw = pl.read_csv(
            path,
            columns=wanted,
            schema_overrides={
                "timeStamp": pl.Int64,
                "elapsed": pl.Int64,
                "allThreads": pl.Int64,
                "SampleCount": pl.Int64,
                "ErrorCount": pl.Int64,
                "label": pl.String,
                "success": pl.String,
            },
            infer_schema=False,
            raise_if_empty=False,
        )
        bad = pl.col("timeStamp").is_null() | pl.col("elapsed").is_null()
        if has_success:
            bad = bad | ~pl.col("success").str.to_lowercase().is_in(["true", "false"]).fill_null(False)
        if raw.select(bad.any()).item():
            raise ValueError("bad records")
        frame = raw
    except (pl.exceptions.PolarsError, ValueError):
        frame = _read_validating(path, names, wanted, log, max_issues)
    else:
        log.records = frame.height
    if not has_label:
        frame = frame.with_columns(pl.lit(NO_LABEL).alias("label"))
    frame = frame.with_columns(
        pl.col("success").str.to_lowercase().eq("true") if has_success else pl.lit(True).alias("success"),
        pl.col("allThreads") if has_threads else pl.lit(None, pl.Int64).alias("allThreads"),
        pl.col("label").fill_null(NO_LABEL),
    )
    frame = frame.with_columns(
        (pl.col("SampleCount").fill_null(1) if "SampleCount" in names else pl.lit(1, pl.Int64)).alias("count"),
        (pl.col("ErrorCount").fill_null(0) if "ErrorCount" in names else (~pl.col("success")).cast(pl.Int64)).alias(
            "errors"
        ),
    ).select("timeStamp", "elapsed", "label", "success", "allThreads", "count", "errors")
    log.frame = frame
    if log.records == 0:
        raise InputError(f"{path}: no samples after the header line")
    if frame.height == 0:
        raise InputError(f"{path}: none of the {log.records} samples could be read (first problem: {log.issues[0]})")
    return log


def _read_validating(path: Path, names: list[str], wanted: list[str], log: JtlLog, max_issues: int) -> pl.DataFrame:
    idx = {c: names.index(c) for c in wanted}
    cols: dict[str, list] = {c: [] for c in wanted}
    ncols = len(names)
    with open(path, encoding="utf-8", errors="replace", newline="") as f:
        reader = csv.reader(f, strict=False)
        next(reader)  # header
        prev = reader.line_num
        while True:
            line = prev + 1
            try:
                row = next(reader)
                reason = _check_row(row, ncols, idx)
            except StopIteration:
                break
            except csv.Error as e:
                row, reason = None, f"unparsable CSV ({e})"
            prev = reader.line_num
            log.records += 1
            if reason is None:
                for c, i in idx.items():
                    v = row[i]
                    cols[c].append(int(v) if c in _INT_COLUMNS and v != "" else (v or None))
                continue
            log.malformed += 1
            if len(log.issues) < max_issues:
                text = ",".join(row) if row is not None else ""
                log.issues.append(Issue(line, reason, repr(text[:200])))
    schema = {c: (pl.Int64 if c in _INT_COLUMNS else pl.String) for c in wanted}
    return pl.DataFrame(cols, schema=schema)


def _check_row(row: list[str], ncols: int, idx: dict[str, int]) -> str | None:
    if not row:
        return "blank line"
    if len(row) != ncols:
        return f"{len(row)} fields, expected {ncols}"
    for c in ("timeStamp", "elapsed"):
        v = row[idx[c]]
        if not _INT_RE.fullmatch(v):
            if c == "timeStamp" and v:
                return f"timeStamp {v!r} is not ms since epoch (set jmeter.save.saveservice.timestamp_format=ms)"
            return f"{c} {v!r} is not an integer"
    for c in ("allThreads", "SampleCount", "ErrorCount"):
        if c in idx and row[idx[c]] != "" and not _INT_RE.fullmatch(row[idx[c]]):
            return f"{c} {row[idx[c]]!r} is not an integer"
    if "success" in idx and row[idx["success"]].lower() not in ("true", "false"):
        return f"success {row[idx['success']]!r} is not true/false"
    return None


# ----------------------------------------------------------------------------------------------------------
# statistics


def jtl_summary(frame: pl.DataFrame) -> list[dict]:
    """Per label (then a TOTAL row): samples, errors, error %, mean/p90/p99 elapsed (ms), throughput (/s).

    A row with a SampleCount stands for that many samples (and ErrorCount errors); the elapsed figures are
    per row.
    """
    rows = []
    labels = frame.get_column("label").unique(maintain_order=True).to_list()
    groups = [(lab, frame.filter(pl.col("label") == lab)) for lab in sorted(labels)]
    if len(groups) > 1:
        groups.append(("TOTAL", frame))
    for lab, part in groups:
        n = int(part.get_column("count").sum())
        errors = int(part.get_column("errors").sum())
        dist = Distribution.from_samples(part.get_column("elapsed").to_numpy())
        p90, p99 = dist.quantiles((0.9, 0.99))
        start = int(part.get_column("timeStamp").min())
        end = int(part.select((pl.col("timeStamp") + pl.col("elapsed")).max()).item())
        span = (end - start) / 1000.0
        rows.append(
            {
                "label": lab,
                "samples": n,
                "errors": errors,
                "error_pct": 100.0 * errors / n if n else None,
                "mean_ms": dist.mean(),
                "p90_ms": p90,
                "p99_ms": p99,
                "throughput_per_s": n / span if span > 0 else None,
            }
        )
    return rows


def jtl_per_second(frame: pl.DataFrame) -> pl.DataFrame:
    """epoch_s, jmeter_samples, jmeter_errors, active_threads (max allThreads in that second), by sample start."""
    return (
        frame.lazy()
        .group_by((pl.col("timeStamp") // 1000).alias("epoch_s"))
        .agg(
            pl.col("count").sum().cast(pl.Int64).alias("jmeter_samples"),
            pl.col("errors").sum().cast(pl.Int64).alias("jmeter_errors"),
            pl.col("allThreads").max().alias("active_threads"),
        )
        .sort("epoch_s")
        .collect()
    )


def max_threads(frame: pl.DataFrame) -> int | None:
    v = frame.get_column("allThreads").max()
    return int(v) if v is not None else None


def assign_to_runs(jtls: list[JtlLog], spans: list[tuple[int, int]]) -> list[int | None]:
    """Which run (index) each .jtl belongs to: in order when there are as many as runs, all to the only run,
    otherwise the run whose time span overlaps it most (None when none does)."""
    if not jtls:
        return []
    if len(spans) == 1:
        return [0] * len(jtls)
    if len(jtls) == len(spans):
        return list(range(len(jtls)))
    out: list[int | None] = []
    for j in jtls:
        s, e = j.start_ms, j.end_ms
        overlaps = np.array([max(0, min(e, re) - max(s, rs)) for rs, re in spans], dtype=np.int64)
        out.append(int(overlaps.argmax()) if overlaps.max() > 0 else None)
    return out
