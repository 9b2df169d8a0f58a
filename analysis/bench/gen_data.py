"""Synthetic data for the benchmark: a realistic timing log and a JMeter .jtl of the same size.

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
]
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
) -> dict:
    """Write ``records`` lines: one echo destination, lognormal latencies, a few multi-second stalls; unique
    message ids.

    ``mode`` goes into the mode column of the current 14-column format (one run, engine ``local``); ``None``
    writes the old 9-column format. Written ``chunk`` records at a time, so any size fits in memory. Returns the
    parameters a caller needs (target rate in msgs/min, span).
    """
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
            out.write_csv(f, include_header=lo == 0, null_value="")
            sent = out.get_column("sent_epoch_ms")
            first_sent = sent[0] if first_sent is None else first_sent
            last_sent = sent[-1]
    span_s = (int(last_sent) - int(first_sent)) / 1000.0 if records else 0.0
    return {"records": records, "senders": senders, "target_rate_per_min": rate_per_s * 60.0, "span_s": span_s}


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
    )
    if mode is None:
        out = out.select(TIMING_HEADER[:9])
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
    p.add_argument("--senders", type=int, default=200)
    p.add_argument("--rate", type=float, default=20_000.0, help="messages per second (timing log)")
    p.add_argument(
        "--mode",
        choices=["await-reply", "fire-and-forget", "old"],
        default="await-reply",
        help="mode column of the timing log; old = the former 9-column format",
    )
    args = p.parse_args(argv)
    if args.kind == "timing":
        mode = None if args.mode == "old" else args.mode
        meta = generate_timing_log(
            args.path, records=args.records, senders=args.senders, rate_per_s=args.rate, mode=mode
        )
    else:
        generate_jtl(args.path, rows=args.records, threads=args.senders)
        meta = {"records": args.records}
    print(json.dumps(meta))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
