"""Reading the steps logs of a stepped capacity test (plan property ``stepsLog``, default ``stomp-steps.csv``).

Format (fixed with the Java side; one file per JMeter engine, one row per step, written when the step ends, and for
the step under way when the test ends)::

    run,engine,step,kind,offered,ramp_start_epoch_ms,hold_start_epoch_ms,end_epoch_ms,users,sent,answered,lost,
    failed,achieved,p50_us,p99_us,p999_us,send_lag_p99_ms,generator_cpu,machine_cpu,connects,connect_failed,
    connect_p99_ms,heartbeat_misses,verdict,limit,reason

``kind`` is ``rate`` (``offered`` and ``achieved`` in messages per second) or ``users`` (users asked for, users
holding a session at the step's end); the figures are counted over the hold, [hold_start, end); ``verdict`` is
``held``, ``broke`` or ``unchecked`` (no service level was given), ``limit`` ``server``, ``generator`` or ``machine``
(the whole machine saturated: server and generator shared it) when it broke. Logs written before ``machine_cpu`` and
``heartbeat_misses`` were columns are read too, those cells empty. Empty cells are nulls. A file with another header,
or a row that does not parse, cannot be used: it is refused with one line naming the file (and the line), since a
stepped test's answer must not rest on guesses.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from . import InputError, read_head

#: The steps log's default name, next to the timing log.
STEPS_LOG = "stomp-steps.csv"

RATE, USERS = "rate", "users"
HELD, BROKE, UNCHECKED = "held", "broke", "unchecked"
SERVER, GENERATOR, MACHINE = "server", "generator", "machine"

SCHEMA: dict[str, pl.DataType] = {
    "run": pl.Int64,
    "engine": pl.String,
    "step": pl.Int64,
    "kind": pl.String,
    "offered": pl.Float64,
    "ramp_start_epoch_ms": pl.Int64,
    "hold_start_epoch_ms": pl.Int64,
    "end_epoch_ms": pl.Int64,
    "users": pl.Int64,
    "sent": pl.Int64,
    "answered": pl.Int64,
    "lost": pl.Int64,
    "failed": pl.Int64,
    "achieved": pl.Float64,
    "p50_us": pl.Int64,
    "p99_us": pl.Int64,
    "p999_us": pl.Int64,
    "send_lag_p99_ms": pl.Float64,
    "generator_cpu": pl.Float64,
    "machine_cpu": pl.Float64,
    "connects": pl.Int64,
    "connect_failed": pl.Int64,
    "connect_p99_ms": pl.Float64,
    "heartbeat_misses": pl.Int64,
    "verdict": pl.String,
    "limit": pl.String,
    "reason": pl.String,
}
HEADER = ",".join(SCHEMA)
#: The columns of the logs written before the machine's CPU and the heart-beat misses were counted.
_ADDED = ("machine_cpu", "heartbeat_misses")
_BEFORE = {k: v for k, v in SCHEMA.items() if k not in _ADDED}
HEADER_BEFORE = ",".join(_BEFORE)
#: Cells a row cannot do without, and the words the text columns may hold.
_REQUIRED = ("run", "engine", "step", "kind", "offered", "ramp_start_epoch_ms", "hold_start_epoch_ms", "end_epoch_ms")
_ALLOWED = {"kind": (RATE, USERS), "verdict": (HELD, BROKE, UNCHECKED), "limit": (SERVER, GENERATOR, MACHINE)}


def read_steps_logs(paths: list[Path]) -> pl.DataFrame:
    """Every row of the steps logs, with ``file`` (its index in ``paths``); InputError for a file that cannot be
    used."""
    frames = []
    for i, path in enumerate(paths):
        frames.append(read_steps_log(path).with_columns(pl.lit(i, pl.Int64).alias("file")))
    if not frames:
        return pl.DataFrame(schema={**SCHEMA, "file": pl.Int64})
    return pl.concat(frames)


def check_header(path: Path) -> dict[str, pl.DataType]:
    """The schema of the file's header (today's, or the one before the added columns); InputError for another."""
    first, _ = read_head(path, "a steps log")
    header = first.decode("utf-8", "replace").strip().lstrip("\ufeff")
    if header == HEADER:
        return SCHEMA
    if header == HEADER_BEFORE:
        return _BEFORE
    raise InputError(f"{path}: not a steps log (its first line is {header[:80]!r}; expected {HEADER[:40]}...)")


def read_steps_log(path: Path) -> pl.DataFrame:
    schema = check_header(path)
    try:
        frame = pl.read_csv(path, schema=schema, has_header=True)
        if schema is not SCHEMA:
            frame = frame.with_columns(*(pl.lit(None, SCHEMA[c]).alias(c) for c in _ADDED)).select(list(SCHEMA))
    except (pl.exceptions.ComputeError, pl.exceptions.PolarsError) as e:
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise InputError(f"{path}: a row of the steps log does not parse: {first[:200]}") from None
    frame = frame.with_columns(pl.col(pl.String).replace("", None))
    for i, row in enumerate(frame.iter_rows(named=True), start=1):
        missing = [c for c in _REQUIRED if row[c] is None]
        if missing:
            raise InputError(f"{path}: row {i}: no {', '.join(missing)}")
        for col, allowed in _ALLOWED.items():
            if row[col] is not None and row[col] not in allowed:
                raise InputError(f"{path}: row {i}: {col} {row[col]!r} is not one of {', '.join(allowed)}")
        if not row["ramp_start_epoch_ms"] <= row["hold_start_epoch_ms"] <= row["end_epoch_ms"]:
            raise InputError(f"{path}: row {i}: ramp_start_epoch_ms <= hold_start_epoch_ms <= end_epoch_ms fails")
    return frame
