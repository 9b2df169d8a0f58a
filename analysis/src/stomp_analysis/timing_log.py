"""Reading the plugin's reply-timing logs.

Format (fixed, written by the Java side; columns are only ever added at the end)::

    sent_epoch_ms,outcome,msg_id,latency_us,sender,receiver,destination,bytes,detail,mode,run,sent_epoch_us,engine,version

Logs of older plugin versions have the first nine columns only (``HEADER_V1``); they are read too, with the
five newer columns null (and ``sent_epoch_us`` = ``sent_epoch_ms`` × 1000). The header line tells the two apart:
it must be exactly one of them.

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
than the header) or lacks a field its outcome needs: sent_epoch_ms, outcome, msg_id, sender, destination and
bytes always; latency_us and receiver for ANSWERED; detail for LOST and FAILED; in the 14-column format also
mode, run, sent_epoch_us (whose milliseconds must be sent_epoch_ms), engine and version. In the 9-column format
a record with fewer than 9 fields is malformed when one of those is among the missing ones (so an ANSWERED
record lacking only its trailing empty detail is accepted: nothing is lost); in the 14-column format every
field after detail is required, so a record with fewer than 14 fields is always malformed. Blank lines are
malformed records too.

The message id strings are not kept: each record carries a 64-bit hash ``h`` of (file, msg_id). The records of
one message also share run, sent_epoch_us, sender and destination, so the aggregation identifies a message by
(h, run, sent_epoch_us, sender, destination): two messages are merged only if their ids collide in 64 bits
*and* they were sent in the same run by the same sender to the same destination in the same microsecond (the
same millisecond for old logs). sent_epoch_ms is not kept: sent_epoch_us carries it.

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

from . import InputError

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
COLUMNS = (*COLUMNS_V1, "mode", "run", "sent_epoch_us", "engine", "version")
#: The header of logs written by plugin versions before mode, run, sent_epoch_us, engine and version.
HEADER_V1 = ",".join(COLUMNS_V1)
#: The header the plugin writes.
HEADER = ",".join(COLUMNS)
#: Enum order is also the precedence of outcomes within one message (lowest physical code wins).
OUTCOMES = ("ANSWERED", "FAILED", "LOST")
OUTCOME_DTYPE = pl.Enum(list(OUTCOMES))
ANSWERED, FAILED, LOST = 0, 1, 2  # physical codes of OUTCOME_DTYPE
#: await-reply: closed loop (the sender waits for the reply before its next send); fire-and-forget: open loop.
AWAIT_REPLY, FIRE_AND_FORGET = MODES = ("await-reply", "fire-and-forget")
MODE_DTYPE = pl.Enum(list(MODES))

SCHEMA_V1 = {
    "sent_epoch_ms": pl.Int64,
    "outcome": OUTCOME_DTYPE,
    "msg_id": pl.String,
    "latency_us": pl.Int64,
    "sender": pl.Categorical,
    "receiver": pl.Categorical,
    "destination": pl.Categorical,
    "bytes": pl.Int64,
    "detail": pl.Categorical,
}
SCHEMA = {
    **SCHEMA_V1,
    "mode": MODE_DTYPE,
    "run": pl.Int64,
    "sent_epoch_us": pl.Int64,
    "engine": pl.Categorical,
    "version": pl.Categorical,
}
#: Columns kept after reading (msg_id is replaced by its hash h; sent_epoch_ms by sent_epoch_us, which holds it;
#: receiver and bytes are only validated; the versions are kept per file). Null for old logs: mode, run, engine.
KEPT = ("sent_epoch_us", "outcome", "h", "latency_us", "sender", "destination", "detail", "mode", "run", "engine")

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
    legacy: bool = False  # written with the old 9-column header (no mode, run, sent_epoch_us, engine, version)
    versions: tuple[str, ...] = ()  # plugin versions found in the records


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
        self.frames.append(frame)

    def reset(self) -> None:
        self.frames.clear()

    def frame(self, legacy: bool, file_index: int) -> pl.DataFrame:
        if not self.frames:
            return _reduce(pl.DataFrame(schema=_schema(legacy)), file_index, legacy)
        return pl.concat(self.frames, rechunk=False) if len(self.frames) > 1 else self.frames[0]


def _schema(legacy: bool) -> dict:
    return SCHEMA_V1 if legacy else SCHEMA


def check_header(path: Path) -> tuple[int, bool]:
    """Validates the header line; returns its length in bytes (incl. the line end) and whether it is the old
    9-column header. Raises InputError."""
    try:
        with open(path, "rb") as f:
            first = f.readline(64 * 1024)
            more = f.read(1)
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory, not a timing log") from None
    except OSError as e:
        raise InputError(f"{path}: cannot read: {e.strerror or e}") from None
    if not first:
        raise InputError(f"{path}: empty file (expected the header line '{HEADER}' and records)")
    text = first.decode("utf-8", errors="replace").lstrip("\ufeff").rstrip("\r\n")
    if text not in (HEADER, HEADER_V1):
        expected = f"expected '{HEADER}' (or the older '{HEADER_V1}')"
        if text[:1].isdigit():
            raise InputError(f"{path}: no header line (the first line is data: {text[:80]!r}); {expected}")
        raise InputError(f"{path}: not a timing log: header {text[:200]!r}, {expected}")
    if not more or not first.endswith(b"\n"):
        raise InputError(f"{path}: no records after the header line")
    return len(first), text == HEADER_V1


def _problem_expr(legacy: bool, empty_checks: bool = True) -> pl.Expr:
    """True for records lacking a field their outcome needs (vectorised twin of _check_fields).

    Without ``empty_checks`` only nulls are looked at (cheap validity-bitmap work); empty strings, which only
    come from quoted empty fields (``""``), are then checked per distinct value by _has_empty_fields.
    """

    def missing(c: str) -> pl.Expr:
        return (pl.col(c).is_null() | (pl.col(c) == "")) if empty_checks else pl.col(c).is_null()

    o = pl.col("outcome")
    bad = (
        pl.col("sent_epoch_ms").is_null()
        | o.is_null()
        | missing("msg_id")
        | missing("sender")
        | missing("destination")
        | pl.col("bytes").is_null()
        | ((o == "ANSWERED") & (pl.col("latency_us").is_null() | missing("receiver")))
        | ((o != "ANSWERED") & missing("detail"))
    )
    if not legacy:
        bad = (
            bad
            | pl.col("mode").is_null()
            | pl.col("run").is_null()
            | pl.col("sent_epoch_us").is_null()
            | (pl.col("sent_epoch_us") // 1000 != pl.col("sent_epoch_ms"))
            | missing("engine")
            | missing("version")
        )
    return bad.fill_null(True)


def _has_empty_fields(frame: pl.DataFrame, file_index: int, legacy: bool) -> bool:
    """Whether a required field is an empty string somewhere (checked on distinct values, then rows if needed)."""

    empty_code = pl.Series([""], dtype=pl.Categorical).to_physical().item()  # categories are global

    def has_empty(c: str) -> bool:
        return bool((frame.get_column(c).to_physical() == empty_code).any())

    if has_empty("sender") or has_empty("destination"):
        return True
    if not legacy and (has_empty("engine") or has_empty("version")):
        return True
    if (
        has_empty("receiver")
        and frame.select(((pl.col("outcome") == "ANSWERED") & (pl.col("receiver") == "")).any()).item()
    ):
        return True
    if (
        has_empty("detail")
        and frame.select(((pl.col("outcome") != "ANSWERED") & (pl.col("detail") == "")).any()).item()
    ):
        return True
    empty_id = (pl.Series([""]).hash(_SEED).item() ^ ((file_index * 0x9E3779B97F4A7C15) & _MASK64)) & _MASK64
    return bool((frame.get_column("h") == empty_id).any())


def _reduce(lf, file_index: int, legacy: bool, *extra: str):
    """Keeps the columns the aggregation needs (KEPT, then ``extra``); replaces msg_id by a hash of (file, msg_id).

    Old logs get sent_epoch_us = sent_epoch_ms × 1000 and null mode, run and engine.
    """
    mix = (file_index * 0x9E3779B97F4A7C15) & _MASK64
    if legacy:
        sent_us = (pl.col("sent_epoch_ms") * 1000).alias("sent_epoch_us")
        newer = [
            pl.lit(None, MODE_DTYPE).alias("mode"),
            pl.lit(None, pl.Int64).alias("run"),
            pl.lit(None, pl.Categorical).alias("engine"),
        ]
    else:
        sent_us = pl.col("sent_epoch_us")
        newer = [pl.col("mode"), pl.col("run"), pl.col("engine")]
    return lf.select(
        sent_us,
        "outcome",
        (pl.col("msg_id").hash(_SEED) ^ pl.lit(mix, pl.UInt64)).alias("h"),
        "latency_us",
        "sender",
        "destination",
        "detail",
        *newer,
        *extra,
    )


def _versions(frame: pl.DataFrame) -> tuple[str, ...]:
    if "version" not in frame.columns:
        return ()
    return tuple(sorted(v for v in frame.get_column("version").unique().cast(pl.String).to_list() if v))


def read_timing_log(
    path: str | os.PathLike,
    file_index: int = 0,
    *,
    max_issues: int = 5,
    advance: Callable[[int], None] | None = None,
) -> TimingLog:
    """Reads one timing log (either header) into memory. Raises InputError for a file that cannot be used at all.

    ``file_index`` must differ between files whose msg_ids may collide (different generator JVMs).
    ``advance(nbytes)`` is called as input is consumed (for a progress bar; may be called with a
    negative value when the validating path restarts the file).
    """
    sink = FrameSink()
    log = stream_timing_log(path, file_index, sink, max_issues=max_issues, advance=advance)
    log.frame = sink.frame(log.legacy, file_index)
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
    header_len, legacy = check_header(path)
    size = path.stat().st_size
    advance = advance or (lambda n: None)
    empty = pl.DataFrame()
    try:
        records, versions = _fast_path(path, header_len, size, file_index, legacy, advance, sink, chunk_rows)
        return TimingLog(path=path, frame=empty, records=records, legacy=legacy, versions=versions)
    except _NeedsValidation as e:
        stop = e
    if stop.records is None:  # from the top
        sink.reset()
        stop = _NeedsValidation(0, stop.consumed, set())
    start, lines = _skip_records(path, header_len, stop.records)
    advance(start - header_len - stop.consumed)
    log = _validating_path(path, start, 2 + lines, file_index, legacy, max_issues, advance, sink)
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
    path: Path, header_len: int, size: int, file_index: int, legacy: bool, advance, sink: FrameSink, chunk_rows
) -> tuple[int, tuple[str, ...]]:
    """Parses the whole file with polars; returns the record count and the plugin versions. At a record with a
    missing field, hands over the batches before it and raises _NeedsValidation; at a parse error, raises it
    asking to start again (the batches received are then not reliably in file order)."""
    with open(path, "rb") as f:
        f.seek(header_len)
        sample = f.read(1 << 20)
    bytes_per_line = max(1.0, len(sample) / max(1, sample.count(b"\n")))
    body = size - header_len
    lf = pl.scan_csv(path, has_header=False, skip_rows=1, schema=_schema(legacy))
    lf = lf.with_columns(_problem_expr(legacy, empty_checks=False).alias("_bad"))
    extra = ("_bad", "receiver") if legacy else ("_bad", "receiver", "version")
    parts: list[pl.DataFrame] = []
    pending = 0  # rows in parts
    records = 0
    versions: set[str] = set()
    consumed = 0

    def hand_over() -> None:
        nonlocal parts, pending, records
        chunk = pl.concat(parts, rechunk=False) if len(parts) > 1 else parts[0]
        parts, pending = [], 0
        if _has_empty_fields(chunk, file_index, legacy):
            raise _NeedsValidation(records, consumed, versions)
        versions.update(_versions(chunk))
        records += chunk.height
        sink.put(chunk.drop(["_bad", "receiver", "version"], strict=False))

    failed = False
    batches = _reduce(lf, file_index, legacy, *extra).collect_batches()  # in file order, unless it fails
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
    path: Path, start: int, line: int, file_index: int, legacy: bool, max_issues: int, advance, sink: FrameSink
) -> TimingLog:
    """Validates the records from byte ``start`` (a record boundary, on physical line ``line``) to the end.

    Blocks are read in order and parsed on a small thread pool (polars releases the GIL; one in-memory
    parse uses one core), with at most ``workers + 1`` blocks in flight; results are merged in file order."""
    log = TimingLog(path=path, frame=pl.DataFrame(), validated_line_by_line=True, legacy=legacy)
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
        fut = pool.submit(_validate_block, data, first_line, file_index, legacy, max_issues)
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


def _validate_block(chunk: bytes, first_line: int, file_index: int, legacy: bool, max_issues: int) -> TimingLog:
    """Parses one block of whole records; only a block with a problem is re-read line by line."""
    part = TimingLog(path=Path(), frame=pl.DataFrame(), legacy=legacy)
    schema = _schema(legacy)
    try:
        df = pl.read_csv(chunk, has_header=False, schema=schema)
        if df.select(_problem_expr(legacy).any()).item():
            df = None
        else:
            part.records = df.height
    except pl.exceptions.PolarsError:
        df = None
    if df is None:
        df = _validate_lines(chunk, first_line, part, max_issues, legacy)
    part.versions = _versions(df)
    part.frame = _reduce(df, file_index, legacy)
    return part


def _validate_lines(chunk: bytes, first_line: int, log: TimingLog, max_issues: int, legacy: bool) -> pl.DataFrame:
    text = chunk.decode("utf-8", errors="replace")
    reader = csv.reader(io.StringIO(text, newline=""), strict=False)
    columns = COLUMNS_V1 if legacy else COLUMNS
    cols: dict[str, list] = {c: [] for c in columns}
    lines: list[str] | None = None
    prev_line_num = 0
    while True:
        record_line = first_line + prev_line_num
        try:
            fields = next(reader)
            reason, values = _check_fields(fields, legacy)
        except StopIteration:
            break
        except csv.Error as e:
            reason, values = f"unparsable CSV ({e})", None
        prev_line_num = reader.line_num
        log.records += 1
        if reason is None:
            for c, v in zip(columns, values):
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
    return pl.DataFrame(cols, schema=_schema(legacy))


def _parse_int(name: str, s: str) -> int:
    if not _INT_RE.fullmatch(s):
        raise ValueError(f"{name} {s!r} is not an integer")
    v = int(s)
    if not _I64_MIN <= v <= _I64_MAX:
        raise ValueError(f"{name} {s!r} is out of range")
    return v


def _check_fields(fields: list[str], legacy: bool = False) -> tuple[str | None, tuple | None]:
    """Validates one record (line-by-line twin of _problem_expr); returns (reason, None) or (None, values)."""
    n = len(fields)
    expected = len(COLUMNS_V1) if legacy else len(COLUMNS)
    if n == 0 or (n == 1 and fields[0] == ""):
        return "blank line", None
    if n > expected:
        return f"{n} fields, expected {expected}", None
    f = fields + [""] * (expected - n)
    sent_s, outcome, msg_id, lat_s, sender, receiver, destination, bytes_s, detail = f[:9]
    prefix = f"{n} fields, expected {expected}: " if n < expected else ""
    try:
        if sent_s == "":
            raise ValueError("missing sent_epoch_ms")
        sent = _parse_int("sent_epoch_ms", sent_s)
        if outcome not in OUTCOMES:
            raise ValueError(f"unknown outcome {outcome!r}" if outcome else "missing outcome")
        if msg_id == "":
            raise ValueError("missing msg_id")
        lat = _parse_int("latency_us", lat_s) if lat_s != "" else None
        if sender == "":
            raise ValueError("missing sender")
        if destination == "":
            raise ValueError("missing destination")
        if bytes_s == "":
            raise ValueError("missing bytes")
        nbytes = _parse_int("bytes", bytes_s)
        if outcome == "ANSWERED":
            if lat is None:
                raise ValueError("ANSWERED without latency_us")
            if receiver == "":
                raise ValueError("ANSWERED without receiver")
        elif detail == "":
            raise ValueError(f"{outcome} without detail")
        values = (sent, outcome, msg_id, lat, sender, receiver or None, destination, nbytes, detail or None)
        if legacy:
            return None, values
        mode, run_s, sent_us_s, engine, version = f[9:]
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r}" if mode else "missing mode")
        if run_s == "":
            raise ValueError("missing run")
        run = _parse_int("run", run_s)
        if sent_us_s == "":
            raise ValueError("missing sent_epoch_us")
        sent_us = _parse_int("sent_epoch_us", sent_us_s)
        if sent_us // 1000 != sent:
            raise ValueError(f"sent_epoch_us {sent_us} is not in sent_epoch_ms {sent}")
        if engine == "":
            raise ValueError("missing engine")
        if version == "":
            raise ValueError("missing version")
    except ValueError as e:
        return prefix + str(e), None
    return None, (*values, mode, run, sent_us, engine, version)
