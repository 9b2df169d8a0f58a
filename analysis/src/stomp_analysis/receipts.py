"""Receipt latency: the time from a send to the server's RECEIPT (``receipt_us``), apart from the reply's.

Every record of a message carries its message's receipt latency (the plugin holds a message's records until its
RECEIPT came or its timeout passed), so a message counts once, whatever its records: one sample per message
(distinct h, run, sent_epoch_us, sender, destination), per destination and per second of its arrival (send
time + receipt latency). Logs without the column, or in which no receipt came, add nothing and change no output.
"""

from __future__ import annotations

import polars as pl

from .stats import Distribution, KeyedHistograms

#: What identifies a message in the reduced records (see timing_log: its id hash and what its records share).
MESSAGE = ["h", "run", "sent_epoch_us", "sender", "destination"]
#: Columns added to the per-second series when a run has receipts.
PER_SECOND = ["receipts", "receipt_p50_us", "receipt_p99_us"]


class ReceiptAccumulator:
    """The receipt latencies of one run, added up slice after slice (each slice holds whole messages)."""

    def __init__(self, max_us: int) -> None:
        self._max_us = max_us
        self._histograms = KeyedHistograms()  # per destination code
        self._pending: list[pl.DataFrame] = []  # receipt_at_us, receipt_us: not yet per second
        self._per_s: list[pl.DataFrame] = []  # epoch_s, receipts, receipt_p50_us, receipt_p99_us
        self.seen = False

    def add(self, df: pl.DataFrame) -> None:
        if df.get_column("receipt_us").null_count() == df.height:
            return
        r = pl.col("receipt_us")
        got = (
            df.lazy()
            .filter(r.is_not_null() & (r >= 0) & (r < self._max_us))
            .unique(subset=MESSAGE)
            .select(
                pl.col("destination").to_physical().alias("dest_code"),
                (pl.col("sent_epoch_us") + r).alias("receipt_at_us"),
                "receipt_us",
            )
            .collect()
        )
        if not got.height:
            return
        self.seen = True
        self._histograms.add(got.get_column("dest_code").to_numpy(), got.get_column("receipt_us").to_numpy())
        self._pending.append(got.drop("dest_code"))

    def flush(self, before_s: int | None = None) -> None:
        """Computes the per-second figures of the seconds before ``before_s`` (all when None): no later slice has
        receipts in them."""
        ready = take_before(self._pending, "receipt_at_us", before_s)
        if ready is not None:
            self._per_s.append(_per_second(ready))

    def per_destination(self) -> dict[int, Distribution]:
        """The receipt latency distribution of each destination code."""
        return self._histograms.result() if self.seen else {}

    def total(self) -> Distribution:
        """The receipt latency distribution of all the destinations together."""
        return self._histograms.total() if self.seen else Distribution.empty()

    def join_per_second(self, per_second: pl.DataFrame) -> pl.DataFrame:
        """The run's per-second series with the receipt columns added (unchanged when no receipt came)."""
        self.flush()
        if not self._per_s:
            return per_second
        receipts = pl.concat(self._per_s) if len(self._per_s) > 1 else self._per_s[0]
        return per_second.join(receipts, on="epoch_s", how="left").with_columns(pl.col("receipts").fill_null(0))


def take_before(pending: list[pl.DataFrame], column: str, before_s: int | None) -> pl.DataFrame | None:
    """Takes from ``pending`` the rows whose ``column`` (µs) is before second ``before_s`` (all when None), leaving
    the others in it; None when there are none."""
    if not pending:
        return None
    frame = pl.concat(pending) if len(pending) > 1 else pending[0]
    pending.clear()
    if before_s is not None:
        early = pl.col(column) < before_s * 1_000_000
        rest = frame.filter(~early)
        if rest.height:
            pending.append(rest)
        frame = frame.filter(early)
    return frame if frame.height else None


def _per_second(samples: pl.DataFrame) -> pl.DataFrame:
    """Receipts per arrival second, with their p50 and p99 latency ("higher" percentiles, as the replies')."""
    return (
        samples.lazy()
        .group_by((pl.col("receipt_at_us") // 1_000_000).alias("epoch_s"))
        .agg(
            pl.len().cast(pl.Int64).alias("receipts"),
            pl.col("receipt_us").quantile(0.5, "higher").cast(pl.Int64).alias("receipt_p50_us"),
            pl.col("receipt_us").quantile(0.99, "higher").cast(pl.Int64).alias("receipt_p99_us"),
        )
        .collect()
    )
