"""Data for the benchmark: timing logs of two shapes, a copy of a real log grown to any size, and a JMeter .jtl.

* ``synthetic`` (the default): 200 senders, each its own login, all to ``/app/echo``, 20,000 messages/s.
* ``real``: what real runs look like: one login (``guest``) for thousands of virtual users (``vu-1`` ..
  ``vu-2000``), a destination per user (``/queue/echo.<n>``), 1 message/s per user, fire-and-forget, and the
  long, quoted details of real failures.
* ``replicate_log``: the rows of a real timing log, copied with their send times shifted forward and their
  message ids made unique per copy, up to the requested number of records.

Every timing log is written in the 16-column format (the current one adds receipt_us, empty without receipts)
unless ``columns`` says 14 or 9 (the older ones).
Kept apart from bench_aggregate.py so tests and ad-hoc runs can import the generators.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl

TIMING_HEADER = [
    "sent_epoch_ms",
    "outcome",
    "msg_id",
    "latency_us",
    "sender",
    "receiver",
    "destination",
    "bytes",
    "detail",
    "mode",
    "run",
    "sent_epoch_us",
    "engine",
    "version",
    "sender_user",
    "receiver_user",
]
#: The header of each format, by its number of columns.
WIDTHS = (9, 14, 16)
JTL_HEADER = [
    "timeStamp",
    "elapsed",
    "label",
    "responseCode",
    "responseMessage",
    "threadName",
    "dataType",
    "success",
    "failureMessage",
    "bytes",
    "sentBytes",
    "grpThreads",
    "allThreads",
    "URL",
    "Latency",
    "IdleTime",
    "Connect",
]


def generate_timing_log(
    path: Path,
    records: int = 10_000_000,
    senders: int = 200,
    rate_per_s: float = 20_000.0,
    lost_share: float = 0.01,
    failed_share: float = 0.001,
    stall_share: float = 0.0005,
    seed: int = 42,
    start_ms: int = 1_763_771_234_567,
    mode: str | None = "await-reply",
    chunk: int = 2_000_000,
    columns: int = 16,
    shape: str = "synthetic",
) -> dict:
    """Write ``records`` lines: lognormal latencies, a few multi-second stalls; unique message ids.

    ``shape`` ``synthetic``: ``senders`` senders, each its own login, to one echo destination, ``rate_per_s``
    messages/s in all; ``real``: ``senders`` virtual users under one login, each to its own destination, each
    sending ``rate_per_s / senders`` messages/s (see the module's docstring).
    ``mode`` goes into the mode column (one run, engine ``local``); ``None`` writes the old 9-column format,
    whatever ``columns`` (16, or 14 for the format without sender_user and receiver_user). Written ``chunk``
    records at a time, so any size fits in memory. Returns the parameters a caller needs (target rate in
    msgs/min, span).
    """
    if columns not in WIDTHS:
        raise ValueError(f"columns {columns}: expected one of {WIDTHS}")
    if mode is None:
        columns = 9
    rng = np.random.default_rng(seed)
    # The last ~2 s of sends that were lost were lost because the test ended.
    test_end_ms = start_ms + int((records - 1) * (1000.0 / rate_per_s)) - 2_000
    first_sent = last_sent = None
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as f:
        for lo in range(0, records, chunk):
            n = min(chunk, records - lo)
            out = _timing_chunk(
                rng, lo, n, senders, rate_per_s, lost_share, failed_share, stall_share, start_ms, test_end_ms, mode
            )
            if shape == "real":
                out = _real_shape(out, rng)
            out = out.select(TIMING_HEADER[:columns])
            out.write_csv(f, include_header=lo == 0, null_value="")
            sent = out.get_column("sent_epoch_ms")
            first_sent = sent[0] if first_sent is None else first_sent
            last_sent = sent[-1]
    span_s = (int(last_sent) - int(first_sent)) / 1000.0 if records else 0.0
    return {"records": records, "senders": senders, "messages_per_second": rate_per_s, "span_s": span_s}


def _timing_chunk(
    rng, lo, n, senders, rate_per_s, lost_share, failed_share, stall_share, start_ms, test_end_ms, mode
) -> pl.DataFrame:
    """Records lo .. lo + n - 1 of generate_timing_log."""
    idx = np.arange(lo, lo + n, dtype=np.int64)
    # Sends spread evenly over the run with a little jitter; sender i sends every `senders` messages.
    sent = start_ms + (idx * (1000.0 / rate_per_s)).astype(np.int64) + rng.integers(0, 3, n)
    sent_us = sent * 1000 + rng.integers(0, 1000, n)
    u = rng.random(n)
    outcome = np.where(u < lost_share, 1, np.where(u < lost_share + failed_share, 2, 0)).astype(np.int8)
    lat = rng.lognormal(mean=np.log(2_000.0), sigma=0.6, size=n)
    stalls = rng.random(n) < stall_share
    lat[stalls] = rng.uniform(200_000.0, 3_000_000.0, int(stalls.sum()))
    lat = lat.astype(np.int64)
    answered = outcome == 0
    sender_idx = (idx % senders).astype(np.int32)
    df = pl.DataFrame(
        {
            "sent_epoch_ms": sent,
            "sent_epoch_us": sent_us,
            "o": outcome,
            "seq": idx,
            "latency_us": pl.Series(lat).set(pl.Series(~answered), None),
            "s": sender_idx,
            "bytes": rng.integers(96, 128, n, dtype=np.int32),
            "end": sent >= test_end_ms,
        }
    )
    out = df.select(
        "sent_epoch_ms",
        pl.col("o").replace_strict({0: "ANSWERED", 1: "LOST", 2: "FAILED"}, return_dtype=pl.String).alias("outcome"),
        pl.concat_str(pl.lit("m4k2x9a-"), pl.col("seq").cast(pl.String)).alias("msg_id"),
        "latency_us",
        pl.concat_str(pl.lit("user-"), pl.col("s").cast(pl.String)).alias("sender"),
        pl.when(pl.col("o") == 0)
        .then(pl.concat_str(pl.lit("user-"), pl.col("s").cast(pl.String)))
        .otherwise(None)
        .alias("receiver"),
        pl.lit("/app/echo").alias("destination"),
        "bytes",
        pl.when(pl.col("o") == 1)
        .then(pl.when(pl.col("end")).then(pl.lit("test-ended")).otherwise(pl.lit("timeout")))
        .when(pl.col("o") == 2)
        .then(pl.lit("SendFailed: Connection closed, 1006"))
        .otherwise(None)
        .alias("detail"),
        pl.lit(mode).alias("mode"),
        pl.lit(start_ms - 5_000).alias("run"),
        "sent_epoch_us",
        pl.lit("local").alias("engine"),
        pl.lit("0.1.0").alias("version"),
        pl.concat_str(pl.lit("senders #"), pl.col("s").cast(pl.String)).alias("sender_user"),
        pl.when(pl.col("o") == 0)
        .then(pl.concat_str(pl.lit("senders #"), pl.col("s").cast(pl.String)))
        .otherwise(None)
        .alias("receiver_user"),
    )
    return out


#: Reasons of real FAILED records: long, with commas and quotes (so quoted in the CSV), naming the session.
_REAL_FAILURES = (
    'SendFailed: Connection closed by the server, code 1006 "abnormal closure" (session {}), after 3 retries',
    "SendFailed: java.io.IOException: Broken pipe, while writing a SEND frame of 64 bytes to session {}",
    'StompError: ERROR frame received: message="Not authorized", content-type=text/plain, session {}',
)


def _real_shape(out: pl.DataFrame, rng) -> pl.DataFrame:
    """A chunk of _timing_chunk made real-shaped: every user logs in as ``guest``; user ``vu-<n>`` sends to
    ``/queue/echo.<n>``; the failures carry long quoted reasons, and the lost messages a timeout in words."""
    n = out.height
    user = pl.col("sender_user").str.strip_prefix("senders #").cast(pl.Int64) + 1
    why = rng.integers(0, len(_REAL_FAILURES), n)
    session = rng.integers(0, 1 << 40, n)
    failures = pl.Series([_REAL_FAILURES[k].format(f"{s:010x}") for k, s in zip(why, session)])
    answered = pl.col("outcome") == "ANSWERED"
    return out.with_columns(
        pl.lit("guest").alias("sender"),
        pl.when(answered).then(pl.lit("guest")).alias("receiver"),
        pl.concat_str(pl.lit("/queue/echo."), user.cast(pl.String)).alias("destination"),
        pl.when(pl.col("outcome") == "FAILED")
        .then(pl.lit(failures))
        .when(pl.col("detail") == "timeout")
        .then(pl.lit("timeout: no reply within 30000 ms"))
        .otherwise(pl.col("detail"))
        .alias("detail"),
        pl.concat_str(pl.lit("vu-"), user.cast(pl.String)).alias("sender_user"),
        pl.when(answered).then(pl.concat_str(pl.lit("vu-"), user.cast(pl.String))).alias("receiver_user"),
    )


def replicate_log(source: Path, path: Path, records: int, chunk: int = 2_000_000) -> dict:
    """Write ``records`` records made of the rows of the timing log ``source``, copied as often as needed: copy c
    is sent c × (the source's send span and one mean gap between its records) later, and its message ids get ``~c``
    appended, so that every copy holds messages of its own. Returns the parameters a caller needs: the target rate
    is the rate the source achieved (records / that span)."""
    header = source.open(encoding="utf-8").readline().strip().lstrip("\ufeff")
    rows = pl.read_csv(source, infer_schema=False)
    if rows.columns != header.split(",") or not rows.height:
        raise ValueError(f"{source}: not a timing log with records")
    ms = pl.col("sent_epoch_ms").cast(pl.Int64, strict=False)
    first, last = rows.select(ms.min().alias("first"), ms.max().alias("last")).row(0)
    # a copy follows the previous one by the source's span plus its mean gap between records, so that each sender
    # keeps its cadence from one copy to the next
    step_ms = max(1, round((last - first) * rows.height / max(1, rows.height - 1)))
    span_s = step_ms / 1000.0
    path.parent.mkdir(parents=True, exist_ok=True)
    written = 0
    with open(path, "wb") as f:
        f.write((header + "\n").encode())
        while written < records:
            copies = max(1, chunk // rows.height)
            block = pl.concat(
                [rows.with_columns(pl.lit(written // rows.height + c).alias("_copy")) for c in range(copies)]
            ).head(records - written)
            block.select(_shifted(rows.columns, step_ms)).write_csv(f, include_header=False, null_value="")
            written += block.height
    return {
        "records": records,
        "source_records": rows.height,
        "messages_per_second": rows.height / span_s,
        "span_s": span_s * records / rows.height,
    }


def _shifted(columns: list[str], step_ms: int) -> list[pl.Expr]:
    """The columns of a copy (column ``_copy``): send times moved ``_copy`` × ``step_ms`` later, ids made unique."""
    shift_ms = pl.col("_copy").cast(pl.Int64) * step_ms

    def moved(c: str, unit: int) -> pl.Expr:
        v = pl.col(c).cast(pl.Int64, strict=False)
        return pl.coalesce((v + shift_ms * unit).cast(pl.String), pl.col(c)).alias(c)

    out = []
    for c in columns:
        if c == "sent_epoch_ms":
            out.append(moved(c, 1))
        elif c == "sent_epoch_us":
            out.append(moved(c, 1000))
        elif c == "msg_id":
            out.append(pl.concat_str(pl.col(c), pl.lit("~"), pl.col("_copy").cast(pl.String)).alias(c))
        else:
            out.append(pl.col(c))
    return out


def generate_jtl(
    path: Path, rows: int = 10_000_000, threads: int = 200, seed: int = 7, start_ms: int = 1_763_771_234_567
):
    """Write a JMeter 5.6.3 default-CSV result file with ``rows`` samples (0.1 % errors)."""
    rng = np.random.default_rng(seed)
    idx = np.arange(rows, dtype=np.int64)
    ts = start_ms + idx // 20  # 20 samples per ms
    elapsed = rng.lognormal(np.log(3.0), 0.5, rows).astype(np.int64)
    ok = rng.random(rows) >= 0.001
    thread = (idx % threads).astype(np.int32)
    df = pl.DataFrame({"timeStamp": ts, "elapsed": elapsed, "ok": ok, "t": thread})
    out = df.select(
        "timeStamp",
        "elapsed",
        pl.lit("STOMP send").alias("label"),
        pl.when("ok").then(pl.lit("200")).otherwise(pl.lit("500")).alias("responseCode"),
        pl.when("ok").then(pl.lit("OK")).otherwise(pl.lit("Send failed, connection closed")).alias("responseMessage"),
        pl.concat_str(pl.lit("Users 1-"), (pl.col("t") + 1).cast(pl.String)).alias("threadName"),
        pl.lit("text").alias("dataType"),
        pl.when("ok").then(pl.lit("true")).otherwise(pl.lit("false")).alias("success"),
        pl.when("ok").then(None).otherwise(pl.lit("Send failed, connection closed")).alias("failureMessage"),
        pl.lit(112).alias("bytes"),
        pl.lit(98).alias("sentBytes"),
        pl.lit(threads).alias("grpThreads"),
        pl.lit(threads).alias("allThreads"),
        pl.lit("null").alias("URL"),
        pl.col("elapsed").alias("Latency"),
        pl.lit(0).alias("IdleTime"),
        pl.lit(0).alias("Connect"),
    )
    out.columns = JTL_HEADER
    path.parent.mkdir(parents=True, exist_ok=True)
    out.write_csv(path, null_value="")


def main(argv: list[str] | None = None) -> int:
    import argparse
    import json

    p = argparse.ArgumentParser(description="Generate benchmark data (timing log or .jtl).")
    p.add_argument("kind", choices=["timing", "jtl"])
    p.add_argument("path", type=Path)
    p.add_argument("--records", type=int, default=10_000_000)
    p.add_argument("--senders", type=int, default=200, help="senders (synthetic), virtual users (real)")
    p.add_argument("--rate", type=float, default=20_000.0, help="messages per second in all (timing log)")
    p.add_argument(
        "--mode",
        choices=["await-reply", "fire-and-forget", "old"],
        default="await-reply",
        help="mode column of the timing log; old = the former 9-column format",
    )
    p.add_argument(
        "--columns",
        type=int,
        choices=WIDTHS,
        default=16,
        help="the timing log's format: 16 columns (current), 14 (without sender_user, receiver_user) or 9 (old)",
    )
    p.add_argument("--shape", choices=["synthetic", "real"], default="synthetic", help="see the module's docstring")
    p.add_argument("--from-log", type=Path, metavar="FILE", help="replicate the rows of this timing log instead")
    args = p.parse_args(argv)
    if args.kind == "timing" and args.from_log:
        meta = replicate_log(args.from_log, args.path, args.records)
    elif args.kind == "timing":
        mode = None if args.mode == "old" else args.mode
        meta = generate_timing_log(
            args.path,
            records=args.records,
            senders=args.senders,
            rate_per_s=args.rate,
            mode=mode,
            columns=args.columns,
            shape=args.shape,
        )
    else:
        generate_jtl(args.path, rows=args.records, threads=args.senders)
        meta = {"records": args.records}
    print(json.dumps(meta))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
