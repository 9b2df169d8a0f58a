"""The hold windows of a stepped test's steps, by engine, and which step a timing record falls in.

A steps log row says when its engine held the step: [hold_start_epoch_ms, end_epoch_ms). The timing log's records
of the same engine and run (the same ``run`` and ``engine`` values, written by the same JVM) sent in that window are
the step's messages, so the step's latency percentiles over every engine are the percentiles of those records'
samples merged: the true p99 of the step, not a max of the engines' p99s.

Finding the step of a record is one ``searchsorted`` over all the windows at once: each window is keyed by its
(run, engine) *source* number shifted above the send time in µs (2**51 µs is about 71 years past the epoch), so one
sorted array holds every source's windows in order.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

_SHIFT = 51
#: The step key of a record that falls in no hold window.
NO_STEP = -1


@dataclass(frozen=True)
class HoldWindows:
    """The hold windows of every engine's steps, each with the key of the step it belongs to (the merged step the
    report shows: engines' rows of one step share a key)."""

    sources: pl.DataFrame  # run (Int64), engine (String), source (Int64)
    starts: np.ndarray  # int64: source << 51 | hold start µs, sorted
    ends: np.ndarray  # int64: source << 51 | end µs (exclusive), aligned with starts
    keys: np.ndarray  # int64: the step key of each window

    @staticmethod
    def of(rows: pl.DataFrame) -> HoldWindows:
        """From rows with run, engine, key, hold_start_epoch_ms, end_epoch_ms (one per engine and step)."""
        sources = rows.select("run", pl.col("engine").cast(pl.String)).unique(maintain_order=True)
        sources = sources.with_row_index("source").with_columns(pl.col("source").cast(pl.Int64))
        w = (
            rows.with_columns(pl.col("engine").cast(pl.String))
            .join(sources, on=["run", "engine"], how="left")
            .select(
                (pl.col("source") * (1 << _SHIFT) + pl.col("hold_start_epoch_ms") * 1000).alias("start"),
                (pl.col("source") * (1 << _SHIFT) + pl.col("end_epoch_ms") * 1000).alias("end"),
                pl.col("key").cast(pl.Int64),
            )
            .filter(pl.col("end") > pl.col("start"))
            .sort("start")
        )
        return HoldWindows(
            sources,
            w.get_column("start").to_numpy(),
            w.get_column("end").to_numpy(),
            w.get_column("key").to_numpy(),
        )

    def assign(self, records: pl.DataFrame) -> np.ndarray:
        """The step key of each record (run, engine, sent_epoch_us), NO_STEP where it falls in no hold window (or
        its engine and run wrote no step)."""
        if not records.height or not self.starts.size:
            return np.full(records.height, NO_STEP, np.int64)
        one = one_source(records)
        if one is not None:  # the usual slice: one engine's run, no join
            return self.assign_sent(records.get_column("sent_epoch_us").to_numpy(), one)
        else:
            src = (
                records.select("run", pl.col("engine").cast(pl.String), "sent_epoch_us")
                .join(self.sources, on=["run", "engine"], how="left", maintain_order="left")
                .select((pl.col("source") * (1 << _SHIFT) + pl.col("sent_epoch_us")).fill_null(-1))
                .to_series()
                .to_numpy()
            )
        return self._find(src)

    def assign_sent(self, sent_us: np.ndarray, source: tuple[int, str]) -> np.ndarray:
        """The step key of each send time (µs) of records of one (run, engine), NO_STEP where it falls in no hold."""
        run, engine = source
        found = self.sources.filter((pl.col("run") == run) & (pl.col("engine") == engine))
        if not found.height or not self.starts.size:
            return np.full(sent_us.size, NO_STEP, np.int64)
        return self._find(sent_us + (int(found.get_column("source")[0]) << _SHIFT))

    def _find(self, src: np.ndarray) -> np.ndarray:
        """The step key of each packed (source, send time), NO_STEP where it is in no window (or negative)."""
        i = np.searchsorted(self.starts, src, side="right") - 1
        inside = (i >= 0) & (src >= 0)
        i = np.maximum(i, 0)
        inside &= src < self.ends[i]
        return np.where(inside, self.keys[i], NO_STEP)


def one_source(records: pl.DataFrame) -> tuple[int, str] | None:
    """The (run, engine) of every record when they all have the same (None otherwise, or when one has none)."""
    run, engine = records.get_column("run"), records.get_column("engine")
    if run.null_count() or engine.null_count() or run.min() != run.max():
        return None
    codes = engine.to_physical()
    if codes.min() != codes.max():
        return None
    return int(run[0]), str(engine[0])
