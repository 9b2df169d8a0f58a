"""Reading the plugin's reply-timing logs.

Format (fixed, written by the Java side; columns are only ever added at the end)::

    sent_epoch_ms,outcome,msg_id,latency_us,sender,receiver,destination,bytes,detail,mode,run,sent_epoch_us,engine,
    version,sender_user,receiver_user,receipt_us,redelivered_after_us

Logs of older plugin versions have the first nine columns (``HEADER_V1``), the first fourteen (``HEADER_V2``,
without sender_user and receiver_user), the first sixteen (``HEADER_V3``, without receipt_us) or the first
seventeen (``HEADER_V4``, without redelivered_after_us); they are read too, with the newer columns null (and, for
9 columns, ``sent_epoch_us`` = ``sent_epoch_ms`` × 1000). The header line tells them apart: it must be exactly one
of the five (:data:`FORMATS`).

A REDELIVERED record (18 columns only) is a message answered before and delivered again by a broker (after a
NACK, or a session lost with it unacknowledged): it has a receiver and a latency (send to this delivery) as an
ANSWERED record has, and ``redelivered_after_us``, the time from the message's first delivery. It is never an
answer: the aggregation counts it beside the books (``RunResult.redelivered``) and leaves it out of everything
else. ``redelivered_after_us`` is empty on every other record.

``receipt_us`` (send to the server's RECEIPT) is never required: it is empty where no receipt came or none was
asked for. The mode ``await-receipt`` (the sender waited for the RECEIPT, which answered the message) is a closed
loop as ``await-reply`` is, and is counted as one.

``sender`` and ``receiver`` are the logins (one login may serve every virtual user); ``sender_user`` and
``receiver_user`` name the virtual users. Where the log has them, a message's sender is its ``sender_user``:
the reduced records carry it in their ``sender`` column, so that everything counted per sender (senders, the
pacing interval, the schedule lag) is counted per virtual user.

Two paths:

* fast path: polars parses the whole file with strict types and a vectorised check of the per-outcome
  required fields; nothing is done line by line.
* validating path, taken only when the fast path reports a problem: the file is cut into blocks at record
  boundaries; each block is again parsed by polars and only a block that polars rejects, or in which the
  vectorised check finds a bad record, is re-read line by line with Python's csv module, which gives every
  malformed record a line number and a reason. The good records of every block are kept. When the fast path
  stopped at a record that parses but lacks a field (a line cut short, as by a run killed while writing it),
  the records before it were received in file order: they are kept, and validation starts after them (found
  by counting line ends outside quotes, without parsing again), so a bad last record of a big file costs one
  block of validation, not a second parse. When polars could not parse a record at all, the batches received
  before its error are not reliably the file's first ones (polars 2.1 may deliver a later batch and skip an
  earlier one): everything is then validated from the top.

A record is malformed when it cannot be parsed (non-integer number, unknown outcome or mode, more fields
than the header) or lacks a field its outcome needs. The rule is written once, per format, in ``_RULES``
(read by the vectorised and the line-by-line checks): sent_epoch_ms, outcome, msg_id, sender, destination and
bytes always; latency_us and receiver for ANSWERED; detail for LOST and FAILED; in the 14-, 16- and
17-column formats also mode, run, sent_epoch_us (whose milliseconds must be sent_epoch_ms), engine and version;
in the 16- and 17-column formats also sender_user, and receiver_user for ANSWERED (receipt_us never). A record
with fewer fields than the header is malformed when one of the missing ones is required (so a 9-column ANSWERED
record lacking only its trailing empty detail is accepted, as is a 16-column LOST or FAILED record lacking only
its empty receiver_user, or a 17-column record lacking only its empty receipt_us: nothing is lost; a shorter
14-column record always lacks a required field). Blank lines are malformed records too.

The message id strings are not kept: each record carries a 64-bit hash ``h`` of (file, msg_id). The records of
one message also share run, sent_epoch_us, sender and destination, so the aggregation identifies a message by
(h, run, sent_epoch_us, sender, destination): two messages are merged only if their ids collide in 64 bits
*and* they were sent in the same run by the same sender to the same destination in the same microsecond (the
same millisecond for old logs). sent_epoch_ms is not kept: sent_epoch_us carries it. Nor is every detail: only a
FAILED record's (its reason, in the failures table) and whether a LOST record's is ``test-ended`` (``te``).

Both paths hand the reduced records to a *sink* in file order (:func:`stream_timing_log`): the in-memory reader
(:func:`read_timing_log`) keeps them all; the out-of-core aggregation (``spill.py``) writes them to disk in slices
of send time as they come, so a file bigger than memory is read once and never held whole.
"""

from __future__ import annotations

import csv
import io
import os
import re
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from . import InputError, read_head

COLUMNS_V1 = (
    "sent_epoch_ms",
    "outcome",
    "msg_id",
    "latency_us",
    "sender",
    "receiver",
    "destination",
    "bytes",
    "detail",
)
COLUMNS_V2 = (*COLUMNS_V1, "mode", "run", "sent_epoch_us", "engine", "version")
COLUMNS_V3 = (*COLUMNS_V2, "sender_user", "receiver_user")
COLUMNS_V4 = (*COLUMNS_V3, "receipt_us")
COLUMNS = (*COLUMNS_V4, "redelivered_after_us")
#: The header of logs written by plugin versions before mode, run, sent_epoch_us, engine and version.
HEADER_V1 = ",".join(COLUMNS_V1)
#: The header of logs written by plugin versions before sender_user and receiver_user.
HEADER_V2 = ",".join(COLUMNS_V2)
#: The header of logs written by plugin versions before receipt_us.
HEADER_V3 = ",".join(COLUMNS_V3)
#: The header of logs written by plugin versions before redelivered_after_us.
HEADER_V4 = ",".join(COLUMNS_V4)
#: The header the plugin writes.
HEADER = ",".join(COLUMNS)
#: Enum order is also the precedence of outcomes within one message (lowest physical code wins).
OUTCOMES = ("ANSWERED", "FAILED", "LOST", "REDELIVERED")
OUTCOME_DTYPE = pl.Enum(list(OUTCOMES))
ANSWERED, FAILED, LOST, REDELIVERED = 0, 1, 2, 3  # physical codes of OUTCOME_DTYPE
#: The outcomes of a record of a delivery (a receiver, a latency): the answer, and a delivery again.
DELIVERED = ("ANSWERED", "REDELIVERED")
#: await-reply: closed loop (the sender waits for the reply before its next send); fire-and-forget: open loop;
#: await-receipt: closed loop on the server's RECEIPT, counted as await-reply once read (see _reduce).
AWAIT_REPLY, FIRE_AND_FORGET, AWAIT_RECEIPT = MODES = ("await-reply", "fire-and-forget", "await-receipt")
MODE_DTYPE = pl.Enum(list(MODES))

_TYPES = {
    "sent_epoch_ms": pl.Int64,
    "outcome": OUTCOME_DTYPE,
    "msg_id": pl.String,
    "latency_us": pl.Int64,
    "sender": pl.Categorical,
    "receiver": pl.Categorical,
    "destination": pl.Categorical,
    "bytes": pl.Int64,
    "detail": pl.String,
    "mode": MODE_DTYPE,
    "run": pl.Int64,
    "sent_epoch_us": pl.Int64,
    "engine": pl.Categorical,
    "version": pl.Categorical,
    "sender_user": pl.Categorical,
    "receiver_user": pl.Categorical,
    "receipt_us": pl.Int64,
    "redelivered_after_us": pl.Int64,
}
#: Text columns that are only validated: the logins (``sender`` is kept where the log has no sender_user), the
#: receiver's login and virtual user, and the version (whose distinct values are kept per file).
_ONLY_CHECKED = ("sender", "receiver", "receiver_user", "version")
SCHEMA_V1 = {c: _TYPES[c] for c in COLUMNS_V1}
SCHEMA_V2 = {c: _TYPES[c] for c in COLUMNS_V2}
SCHEMA = {c: _TYPES[c] for c in COLUMNS}

#: When a field is required: always, on records of a delivery (ANSWERED, REDELIVERED), or on the others (LOST,
#: FAILED).
ALWAYS, IF_ANSWERED, UNLESS_ANSWERED = "always", "ANSWERED", "not ANSWERED"
#: The record-validation rule: (column, when it is required), per format. The vectorised check (_problem_expr,
#: _has_empty_fields) and the line-by-line one (_check_fields) are both read from it. In the 14- and 16-column
#: formats sent_epoch_us must also fall in sent_epoch_ms.
_RULES_V1 = (
    ("sent_epoch_ms", ALWAYS),
    ("outcome", ALWAYS),
    ("msg_id", ALWAYS),
    ("sender", ALWAYS),
    ("destination", ALWAYS),
    ("bytes", ALWAYS),
    ("latency_us", IF_ANSWERED),
    ("receiver", IF_ANSWERED),
    ("detail", UNLESS_ANSWERED),
)
_RULES_V2 = (*_RULES_V1, *((c, ALWAYS) for c in COLUMNS_V2[len(COLUMNS_V1) :]))
_RULES_V3 = (*_RULES_V2, ("sender_user", ALWAYS), ("receiver_user", IF_ANSWERED))
#: receipt_us and redelivered_after_us are never required: no rule.
_RULES_V4 = _RULES_V3
_RULES = _RULES_V4


@dataclass(frozen=True)
class LogFormat:
    """One of the timing-log formats (9, 14, 16, 17 or 18 columns): its columns, types and validation rule."""

    columns: tuple[str, ...]
    rules: tuple[tuple[str, str], ...]

    @property
    def width(self) -> int:
        return len(self.columns)

    @property
    def header(self) -> str:
        return ",".join(self.columns)

    @property
    def schema(self) -> dict:
        """The types the file is parsed with: those of _TYPES, except that text which is only validated, never
        kept (_ONLY_CHECKED), is parsed as strings: a categorical costs a look-up in polars' global categories
        for every value, about a fifth of the parse's CPU for these four columns."""
        checked = set(_ONLY_CHECKED) - {self.sender_column}
        return {c: pl.String if c in checked else _TYPES[c] for c in self.columns}

    @property
    def legacy(self) -> bool:
        """The old 9-column format: no mode, run, sent_epoch_us, engine, version."""
        return "run" not in self.columns

    @property
    def sender_column(self) -> str:
        """Who sent a message: the virtual user where the log says it, else the login."""
        return "sender_user" if "sender_user" in self.columns else "sender"


FORMATS = {
    f.width: f
    for f in (
        LogFormat(COLUMNS_V1, _RULES_V1),
        LogFormat(COLUMNS_V2, _RULES_V2),
        LogFormat(COLUMNS_V3, _RULES_V3),
        LogFormat(COLUMNS_V4, _RULES_V4),
        LogFormat(COLUMNS, _RULES),
    )
}
_BY_HEADER = {f.header: f for f in FORMATS.values()}
#: Columns kept after reading (msg_id is replaced by its hash h; sent_epoch_ms by sent_epoch_us, which holds it;
#: sender is the sending virtual user (sender_user) in 16-column logs, else the login; detail is kept for FAILED
#: records only, te says whether a LOST record's detail is test-ended; receiver(s), bytes and the login of a
#: 16-column log are only validated; the versions are kept per file). Null for old logs: mode, run, engine;
#: receipt_us for logs before it.
KEPT = (
    "sent_epoch_us",
    "outcome",
    "h",
    "latency_us",
    "sender",
    "destination",
    "detail",
    "te",
    "mode",
    "run",
    "engine",
    "receipt_us",
)

_SEED = 0x5EED_0001
_MASK64 = (1 << 64) - 1
_BLOCK_BYTES = 32 * 1024 * 1024
_INT_RE = re.compile(r"[+-]?[0-9]+")
_I64_MIN, _I64_MAX = -(1 << 63), (1 << 63) - 1
_SHOWN_CHARS = 200


@dataclass
class Issue:
    """One malformed record: where it starts, why it was rejected, and its text (truncated)."""

    line: int
    reason: str
    text: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.reason}: {self.text}"


@dataclass
class TimingLog:
    path: Path
    frame: pl.DataFrame  # the good records, reduced (KEPT); empty when they went to a sink instead
    records: int = 0  # data records found, good or not
    malformed: int = 0
    issues: list[Issue] = field(default_factory=list)  # the first few malformed records
    validated_line_by_line: bool = False  # whether the validating path ran
    columns: int = len(COLUMNS)  # its format: 9 (old), 14, 16, 17 or 18 columns
    versions: tuple[str, ...] = ()  # plugin versions found in the records

    @property
    def legacy(self) -> bool:
        """Written with the old 9-column header (no mode, run, sent_epoch_us, engine, version)."""
        return self.columns == len(COLUMNS_V1)


class _NeedsValidation(Exception):
    """The fast path found a problem, having reported ``consumed`` bytes to the progress bar. When ``records`` is
    not None, it had handed over that many records, the file's first ones, and seen ``versions``; when None,
    what it handed over must be forgotten."""

    def __init__(self, records: int | None, consumed: int, versions: set[str]) -> None:
        super().__init__(records, consumed)
        self.records, self.consumed, self.versions = records, consumed, versions


class FrameSink:
    """Receives the good records of one file, reduced (the KEPT columns), in file order.

    ``reset()`` means: forget what this file sent so far, it is read again from its start. This one keeps the
    frames in memory."""

    def __init__(self) -> None:
        self.frames: list[pl.DataFrame] = []

    def put(self, frame: pl.DataFrame) -> None:
        self.frames.append(_without_empty_receipts(frame))

    def reset(self) -> None:
        self.frames.clear()

    def frame(self, fmt: LogFormat, file_index: int) -> pl.DataFrame:
        if not self.frames:
            return _reduce(pl.DataFrame(schema=fmt.schema), file_index, fmt)
        return pl.concat(self.frames, rechunk=False) if len(self.frames) > 1 else self.frames[0]


def _without_empty_receipts(frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` with an all-null receipt_us (receipts were off) held as one constant: polars keeps a column made
    of one literal as that value, where a parsed one costs 8 bytes a record (0.8 GB for 100M records)."""
    if "receipt_us" in frame.columns and frame.get_column("receipt_us").null_count() == frame.height:
        return frame.with_columns(pl.lit(None, pl.Int64).alias("receipt_us"))
    return frame


def check_header(path: Path) -> tuple[int, LogFormat]:
    """Validates the header line; returns its length in bytes (incl. the line end) and the log's format.
    Raises InputError."""
    first, more = read_head(path, "a timing log")
    if not first:
        raise InputError(f"{path}: empty file (expected the header line '{HEADER}' and records)")
    text = first.decode("utf-8", errors="replace").lstrip("\ufeff").rstrip("\r\n")
    if text not in _BY_HEADER:
        expected = f"expected '{HEADER}' (or the older '{HEADER_V4}', '{HEADER_V3}', '{HEADER_V2}' or '{HEADER_V1}')"
        if text[:1].isdigit():
            raise InputError(f"{path}: no header line (the first line is data: {text[:80]!r}); {expected}")
        raise InputError(f"{path}: not a timing log: header {text[:200]!r}, {expected}")
    if not more or not first.endswith(b"\n"):
        raise InputError(f"{path}: no records after the header line")
    return len(first), _BY_HEADER[text]


def _when(when: str) -> pl.Expr:
    """Where a rule of the form (column, when) applies."""
    if when == IF_ANSWERED:
        return pl.col("outcome").is_in(DELIVERED)
    if when == UNLESS_ANSWERED:
        return ~pl.col("outcome").is_in(DELIVERED)
    return pl.lit(True)


def _problem_expr(fmt: LogFormat, empty_checks: bool = True) -> pl.Expr:
    """True for records lacking a field their outcome needs (the rule of ``fmt``, vectorised).

    Without ``empty_checks`` only nulls are looked at (cheap validity-bitmap work); empty strings, which only
    come from quoted empty fields (``""``), are then checked per distinct value by _has_empty_fields.
    """
    bad = pl.lit(False)
    for c, when in fmt.rules:
        missing = pl.col(c).is_null()
        if empty_checks and _TYPES[c] in (pl.String, pl.Categorical):
            missing = missing | (pl.col(c) == "")
        bad = bad | (missing if when == ALWAYS else _when(when) & missing)
    if not fmt.legacy:
        bad = bad | (pl.col("sent_epoch_us") // 1000 != pl.col("sent_epoch_ms"))
    return bad.fill_null(True)


#: Prefix of the copies of the text columns that the fast path keeps until it has checked them for empty strings.
_CHECKED = "_x_"


def _checked_text(fmt: LogFormat) -> list[tuple[str, str]]:
    """The text columns of the rule (msg_id apart: it is checked through its hash) and when they are required."""
    return [(c, when) for c, when in fmt.rules if _TYPES[c] in (pl.String, pl.Categorical) and c != "msg_id"]


def _has_empty_fields(frame: pl.DataFrame, file_index: int, fmt: LogFormat) -> bool:
    """Whether a required field is an empty string somewhere (checked on distinct values, then rows if needed).
    ``frame`` holds the copies (``_x_<column>``) of the columns _checked_text names."""
    empty_code = pl.Series([""], dtype=pl.Categorical).to_physical().item()  # categories are global
    for c, when in _checked_text(fmt):
        col = frame.get_column(_CHECKED + c)
        empty = (col.to_physical() == empty_code) if col.dtype == pl.Categorical else (col == "")
        if not empty.any():
            continue
        if when == ALWAYS or frame.select((_when(when) & (pl.col(_CHECKED + c) == "")).any()).item():
            return True
    empty_id = (pl.Series([""]).hash(_SEED).item() ^ ((file_index * 0x9E3779B97F4A7C15) & _MASK64)) & _MASK64
    return bool((frame.get_column("h") == empty_id).any())


def _reduce(lf, file_index: int, fmt: LogFormat, *extra: pl.Expr | str):
    """Keeps the columns the aggregation needs (KEPT, then ``extra``); replaces msg_id by a hash of (file, msg_id),
    the sender by the sending virtual user where the log names it, and detail by te (a LOST record's detail is
    test-ended) and the reason of a FAILED record (null for the others).

    Old logs get sent_epoch_us = sent_epoch_ms × 1000 and null mode, run and engine; logs before receipts a null
    receipt_us. An await-receipt record counts as await-reply: both are closed loops.
    """
    mix = (file_index * 0x9E3779B97F4A7C15) & _MASK64
    if fmt.legacy:
        sent_us = (pl.col("sent_epoch_ms") * 1000).alias("sent_epoch_us")
        newer = [
            pl.lit(None, MODE_DTYPE).alias("mode"),
            pl.lit(None, pl.Int64).alias("run"),
            pl.lit(None, pl.Categorical).alias("engine"),
        ]
    else:
        sent_us = pl.col("sent_epoch_us")
        mode = pl.col("mode")
        closed = pl.when(mode == AWAIT_RECEIPT).then(pl.lit(AWAIT_REPLY, MODE_DTYPE)).otherwise(mode).alias("mode")
        newer = [closed, pl.col("run"), pl.col("engine")]
    receipt = pl.col("receipt_us") if "receipt_us" in fmt.columns else pl.lit(None, pl.Int64).alias("receipt_us")
    outcome = pl.col("outcome")
    return lf.select(
        sent_us,
        "outcome",
        (pl.col("msg_id").hash(_SEED) ^ pl.lit(mix, pl.UInt64)).alias("h"),
        "latency_us",
        pl.col(fmt.sender_column).alias("sender"),
        "destination",
        pl.when(outcome == "FAILED").then(pl.col("detail")).alias("detail"),
        ((outcome == "LOST") & (pl.col("detail") == "test-ended")).fill_null(False).alias("te"),
        *newer,
        receipt,
        *extra,
    )


def _versions(frame: pl.DataFrame, column: str = "version") -> tuple[str, ...]:
    if column not in frame.columns:
        return ()
    col = frame.get_column(column).cast(pl.String)
    if col.len() and not col.null_count() and (col == col[0]).all():  # one version, the usual file: no hashing
        return (col[0],) if col[0] else ()
    return tuple(sorted(v for v in col.unique().to_list() if v))


def read_timing_log(
    path: str | os.PathLike,
    file_index: int = 0,
    *,
    max_issues: int = 5,
    advance: Callable[[int], None] | None = None,
) -> TimingLog:
    """Reads one timing log (any of the three formats) into memory. Raises InputError for a file that cannot be
    used at all.

    ``file_index`` must differ between files whose msg_ids may collide (different generator JVMs).
    ``advance(nbytes)`` is called as input is consumed (for a progress bar; may be called with a
    negative value when the validating path restarts the file).
    """
    sink = FrameSink()
    log = stream_timing_log(path, file_index, sink, max_issues=max_issues, advance=advance)
    log.frame = sink.frame(FORMATS[log.columns], file_index)
    return log


def stream_timing_log(
    path: str | os.PathLike,
    file_index: int,
    sink: FrameSink,
    *,
    max_issues: int = 5,
    advance: Callable[[int], None] | None = None,
    chunk_rows: int | None = None,
) -> TimingLog:
    """Reads one timing log, handing its good records to ``sink`` (see FrameSink) in chunks of about
    ``chunk_rows`` records (None: the fast path hands the whole file at once, the validating path its 32 MiB
    blocks). Returns the file's description (counts, malformed records, versions) with an empty frame."""
    path = Path(path)
    header_len, fmt = check_header(path)
    size = path.stat().st_size
    advance = advance or (lambda n: None)
    empty = pl.DataFrame()
    try:
        records, versions = _fast_path(path, header_len, size, file_index, fmt, advance, sink, chunk_rows)
        return TimingLog(path=path, frame=empty, records=records, columns=fmt.width, versions=versions)
    except _NeedsValidation as e:
        stop = e
    if stop.records is None:  # from the top
        sink.reset()
        stop = _NeedsValidation(0, stop.consumed, set())
    start, lines = _skip_records(path, header_len, stop.records)
    advance(start - header_len - stop.consumed)
    log = _validating_path(path, start, 2 + lines, file_index, fmt, max_issues, advance, sink)
    log.records += stop.records
    log.versions = tuple(sorted(stop.versions.union(log.versions)))
    if log.records == 0:
        raise InputError(f"{path}: no records after the header line")
    return log


def _skip_records(path: Path, start: int, records: int) -> tuple[int, int]:
    """The byte offset just after ``records`` records from ``start`` (a record boundary), and how many line ends
    they span. A line end inside quotes ends no record (RFC 4180; an escaped quote ``""`` toggles twice)."""
    pos, lines, quoted = start, 0, False
    if records <= 0:
        return pos, lines
    with open(path, "rb") as f:
        f.seek(start)
        while block := f.read(_BLOCK_BYTES):
            for k, part in enumerate(block.split(b'"')):
                if k:  # the quote before this part
                    quoted, pos = not quoted, pos + 1
                ends = part.count(b"\n")
                if not quoted and ends >= records:
                    cut = -1
                    for _ in range(records):
                        cut = part.index(b"\n", cut + 1)
                    return pos + cut + 1, lines + records
                if not quoted:
                    records -= ends
                lines += ends
                pos += len(part)
    return pos, lines


def _fast_path(
    path: Path, header_len: int, size: int, file_index: int, fmt: LogFormat, advance, sink: FrameSink, chunk_rows
) -> tuple[int, tuple[str, ...]]:
    """Parses the whole file with polars; returns the record count and the plugin versions. At a record with a
    missing field, hands over the batches before it and raises _NeedsValidation; at a parse error, raises it
    asking to start again (the batches received are then not reliably in file order)."""
    with open(path, "rb") as f:
        f.seek(header_len)
        sample = f.read(1 << 20)
    bytes_per_line = max(1.0, len(sample) / max(1, sample.count(b"\n")))
    body = size - header_len
    lf = pl.scan_csv(path, has_header=False, skip_rows=1, schema=fmt.schema)
    lf = lf.with_columns(_problem_expr(fmt, empty_checks=False).alias("_bad"))
    checked = [pl.col(c).alias(_CHECKED + c) for c, _ in _checked_text(fmt)]
    extra = [c.meta.output_name() for c in checked]
    parts: list[pl.DataFrame] = []
    pending = 0  # rows in parts
    records = 0
    versions: set[str] = set()
    consumed = 0

    def hand_over() -> None:
        nonlocal parts, pending, records
        chunk = pl.concat(parts, rechunk=False) if len(parts) > 1 else parts[0]
        parts, pending = [], 0
        if _has_empty_fields(chunk, file_index, fmt):
            raise _NeedsValidation(records, consumed, versions)
        versions.update(_versions(chunk, _CHECKED + "version"))
        records += chunk.height
        sink.put(chunk.drop(["_bad", *extra]))

    failed = False
    batches = _reduce(lf, file_index, fmt, "_bad", *checked).collect_batches()  # in file order, unless it fails
    try:
        for batch in batches:
            if batch["_bad"].any():
                failed = True
                break
            parts.append(batch)
            pending += batch.height
            step = min(body - consumed, int(batch.height * bytes_per_line))
            consumed += step
            advance(step)
            if chunk_rows and pending >= chunk_rows:
                hand_over()
    except pl.exceptions.PolarsError:
        raise _NeedsValidation(None, consumed, versions) from None
    finally:
        del batches  # an abandoned query stops (its batches are no longer taken)
    if not failed:
        advance(body - consumed)
        consumed = body
    if parts:
        hand_over()
    if failed or records == 0:
        raise _NeedsValidation(records, consumed, versions)
    return records, tuple(sorted(versions))


def _safe_cut(data: bytes) -> int:
    """Index just after the last line end of ``data`` that lies outside quotes (0 when there is none).

    ``data`` starts at a record boundary, so a line end is outside quotes iff an even number of quote
    characters precede it (RFC 4180 escapes a quote inside a quoted field by doubling it).
    """
    p = data.rfind(b"\n")
    while p >= 0:
        if data.count(b'"', 0, p) % 2 == 0:
            return p + 1
        p = data.rfind(b"\n", 0, p)
    return 0


def _validating_path(
    path: Path, start: int, line: int, file_index: int, fmt: LogFormat, max_issues: int, advance, sink: FrameSink
) -> TimingLog:
    """Validates the records from byte ``start`` (a record boundary, on physical line ``line``) to the end.

    Blocks are read in order and parsed on a small thread pool (polars releases the GIL; one in-memory
    parse uses one core), with at most ``workers + 1`` blocks in flight; results are merged in file order."""
    log = TimingLog(path=path, frame=pl.DataFrame(), validated_line_by_line=True, columns=fmt.width)
    workers = max(1, min(4, os.cpu_count() or 1))
    pending: deque[tuple[Future, int]] = deque()
    versions: set[str] = set()

    def merge_oldest() -> None:
        fut, nbytes = pending.popleft()
        part = fut.result()
        log.records += part.records
        log.malformed += part.malformed
        log.issues.extend(part.issues[: max(0, max_issues - len(log.issues))])
        versions.update(part.versions)
        if part.frame.height:
            sink.put(part.frame)
        advance(nbytes)

    def submit(data: bytes, first_line: int) -> None:
        fut = pool.submit(_validate_block, data, first_line, file_index, fmt, max_issues)
        pending.append((fut, len(data)))

    # line: physical line number of the first line of the next block
    with open(path, "rb") as f, ThreadPoolExecutor(max_workers=workers) as pool:
        f.seek(start)
        carry = b""
        while True:
            block = f.read(_BLOCK_BYTES)
            data = carry + block if carry else block
            if not block:
                if data:
                    submit(data, line)
                break
            cut = _safe_cut(data)
            if cut == 0:  # no record boundary yet: read more
                carry = data
                continue
            chunk, carry = data[:cut], data[cut:]
            submit(chunk, line)
            line += chunk.count(b"\n")
            while len(pending) > workers:
                merge_oldest()
        while pending:
            merge_oldest()
    log.versions = tuple(sorted(versions))
    return log


def _validate_block(chunk: bytes, first_line: int, file_index: int, fmt: LogFormat, max_issues: int) -> TimingLog:
    """Parses one block of whole records; only a block with a problem is re-read line by line."""
    part = TimingLog(path=Path(), frame=pl.DataFrame(), columns=fmt.width)
    try:
        df = pl.read_csv(chunk, has_header=False, schema=fmt.schema)
        if df.select(_problem_expr(fmt).any()).item():
            df = None
        else:
            part.records = df.height
    except pl.exceptions.PolarsError:
        df = None
    if df is None:
        df = _validate_lines(chunk, first_line, part, max_issues, fmt)
    part.versions = _versions(df)
    part.frame = _reduce(df, file_index, fmt)
    return part


def _validate_lines(chunk: bytes, first_line: int, log: TimingLog, max_issues: int, fmt: LogFormat) -> pl.DataFrame:
    text = chunk.decode("utf-8", errors="replace")
    reader = csv.reader(io.StringIO(text, newline=""), strict=False)
    cols: dict[str, list] = {c: [] for c in fmt.columns}
    lines: list[str] | None = None
    prev_line_num = 0
    while True:
        record_line = first_line + prev_line_num
        try:
            fields = next(reader)
            reason, values = _check_fields(fields, fmt)
        except StopIteration:
            break
        except csv.Error as e:
            reason, values = f"unparsable CSV ({e})", None
        prev_line_num = reader.line_num
        log.records += 1
        if reason is None:
            for c, v in zip(fmt.columns, values):
                cols[c].append(v)
            continue
        log.malformed += 1
        if len(log.issues) < max_issues:
            if lines is None:
                lines = text.split("\n")
            raw = lines[record_line - first_line] if record_line - first_line < len(lines) else ""
            raw = raw.rstrip("\r")
            if len(raw) > _SHOWN_CHARS:
                raw = raw[:_SHOWN_CHARS] + "…"
            log.issues.append(Issue(record_line, reason, repr(raw)))
    return pl.DataFrame(cols, schema=fmt.schema)


def _parse_int(name: str, s: str) -> int:
    if not _INT_RE.fullmatch(s):
        raise ValueError(f"{name} {s!r} is not an integer")
    v = int(s)
    if not _I64_MIN <= v <= _I64_MAX:
        raise ValueError(f"{name} {s!r} is out of range")
    return v


def _parse_field(name: str, s: str):
    """One non-empty field, typed as the schema says; raises ValueError quoting it."""
    kind = _TYPES[name]
    if kind == pl.Int64:
        return _parse_int(name, s)
    if kind == OUTCOME_DTYPE and s not in OUTCOMES:
        raise ValueError(f"unknown outcome {s!r}")
    if kind == MODE_DTYPE and s not in MODES:
        raise ValueError(f"unknown mode {s!r}")
    return s


def _missing(name: str, when: str, outcome: str) -> str:
    if when == ALWAYS:
        return f"missing {name}"
    return f"{outcome} without {name}"


def _check_fields(fields: list[str], fmt: LogFormat) -> tuple[str | None, tuple | None]:
    """Validates one record by the rule of ``fmt`` (as _problem_expr does on a whole frame); returns
    (reason, None) or (None, the typed values, None for the empty ones)."""
    n, expected = len(fields), fmt.width
    if n == 0 or (n == 1 and fields[0] == ""):
        return "blank line", None
    if n > expected:
        return f"{n} fields, expected {expected}", None
    prefix = f"{n} fields, expected {expected}: " if n < expected else ""
    row = dict(zip(fmt.columns, fields + [""] * (expected - n)))
    required = dict(fmt.rules)
    try:
        for c, s in row.items():  # in column order: what is always required, and the types
            if s == "" and required.get(c) == ALWAYS:
                raise ValueError(_missing(c, ALWAYS, ""))
            row[c] = _parse_field(c, s) if s != "" else None
        outcome = row["outcome"]
        for c, when in fmt.rules:  # then what the outcome requires (the fields always required are there)
            if row[c] is None and (when == IF_ANSWERED) == (outcome in DELIVERED):
                raise ValueError(_missing(c, when, outcome))
        if not fmt.legacy and row["sent_epoch_us"] // 1000 != row["sent_epoch_ms"]:
            raise ValueError(f"sent_epoch_us {row['sent_epoch_us']} is not in sent_epoch_ms {row['sent_epoch_ms']}")
    except ValueError as e:
        return prefix + str(e), None
    return None, tuple(row.values())
