"""Exact latency distributions, percentiles and coordinated-omission correction.

A :class:`Distribution` is a lossless histogram: the sorted distinct values (integer microseconds) and
how many times each occurred. Merging distributions adds counts, so percentiles of merged data are the
percentiles of the concatenated samples, never an average of per-file percentiles.

Percentile definition ("higher", as numpy's and polars' ``method/interpolation="higher"``): for N samples
sorted ascending ``x[0] <= ... <= x[N-1]``, the q-quantile is ``x[ceil(q * (N - 1))]``. It is always an
observed value; p0 is the minimum and p100 the maximum.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

#: Percentiles reported everywhere (as fractions).
QUANTILES: tuple[float, ...] = (0.5, 0.9, 0.95, 0.99, 0.999)
QUANTILE_NAMES: tuple[str, ...] = ("p50", "p90", "p95", "p99", "p99.9")


def higher_index(q: float, n: int) -> int:
    """0-based index of the q-quantile ("higher" method) among n sorted samples (float math as numpy/polars)."""
    if n <= 0:
        raise ValueError("no samples")
    if not 0.0 <= q <= 1.0:
        raise ValueError(f"quantile {q} outside [0, 1]")
    return min(n - 1, math.ceil(q * (n - 1)))


@dataclass(frozen=True)
class Distribution:
    values: np.ndarray  # int64, strictly increasing
    counts: np.ndarray  # int64, > 0

    @staticmethod
    def empty() -> Distribution:
        return Distribution(np.empty(0, np.int64), np.empty(0, np.int64))

    @staticmethod
    def from_samples(samples: Sequence[int] | np.ndarray) -> Distribution:
        a = np.asarray(samples, dtype=np.int64)
        if a.size == 0:
            return Distribution.empty()
        v, c = np.unique(a, return_counts=True)
        return Distribution(v.astype(np.int64, copy=False), c.astype(np.int64, copy=False))

    @staticmethod
    def from_weighted(values: np.ndarray, counts: np.ndarray) -> Distribution:
        """Builds from possibly unsorted, repeated values with weights (zero weights dropped)."""
        values = np.asarray(values, dtype=np.int64)
        counts = np.asarray(counts, dtype=np.int64)
        keep = counts > 0
        values, counts = values[keep], counts[keep]
        if values.size == 0:
            return Distribution.empty()
        order = np.argsort(values, kind="stable")
        sv, sc = values[order], counts[order]
        starts = np.concatenate(([0], np.flatnonzero(np.diff(sv)) + 1))
        return Distribution(sv[starts], np.add.reduceat(sc, starts))

    @staticmethod
    def merge(parts: Iterable[Distribution]) -> Distribution:
        parts = [p for p in parts if p.n]
        if not parts:
            return Distribution.empty()
        if len(parts) == 1:
            return parts[0]
        return Distribution.from_weighted(
            np.concatenate([p.values for p in parts]), np.concatenate([p.counts for p in parts])
        )

    @property
    def n(self) -> int:
        return int(self.counts.sum()) if self.counts.size else 0

    def min(self) -> int | None:
        return int(self.values[0]) if self.values.size else None

    def max(self) -> int | None:
        return int(self.values[-1]) if self.values.size else None

    def mean(self) -> float | None:
        n = self.n
        if not n:
            return None
        return float(np.dot(self.values.astype(np.float64), self.counts.astype(np.float64))) / n

    def quantile(self, q: float) -> int | None:
        n = self.n
        if not n:
            return None
        rank = higher_index(q, n) + 1  # 1-based rank of the wanted sample
        cum = np.cumsum(self.counts)
        return int(self.values[int(np.searchsorted(cum, rank, side="left"))])

    def quantiles(self, qs: Sequence[float] = QUANTILES) -> list[int | None]:
        n = self.n
        if not n:
            return [None] * len(qs)
        cum = np.cumsum(self.counts)
        ranks = np.array([higher_index(q, n) + 1 for q in qs], dtype=np.int64)
        return [int(x) for x in self.values[np.searchsorted(cum, ranks, side="left")]]


class DistributionBuilder:
    """Adds up distributions (of the slices of a run read one after the other) into one, exactly.

    Parts are merged in batches, so that adding many small parts costs one sort of their entries, not one per
    part, while the entries waiting stay fewer than those already merged (or ``min_pending``)."""

    def __init__(self, min_pending: int = 1 << 20) -> None:
        self._merged = Distribution.empty()
        self._parts: list[Distribution] = []
        self._pending = 0
        self._min_pending = min_pending

    def add(self, d: Distribution) -> None:
        if not d.n:
            return
        self._parts.append(d)
        self._pending += d.values.size
        if self._pending > max(self._min_pending, self._merged.values.size):
            self._compact()

    def _compact(self) -> None:
        self._merged = Distribution.merge([self._merged, *self._parts])
        self._parts, self._pending = [], 0

    def result(self) -> Distribution:
        if self._parts:
            self._compact()
        return self._merged


@dataclass(frozen=True)
class CoCorrected:
    """A distribution corrected for coordinated omission, with the bookkeeping of the correction."""

    interval_us: int
    distribution: Distribution  # original + synthetic samples (possibly capped)
    added: int  # synthetic samples the correction calls for (exact, even when capped)
    dropped: int  # synthetic samples not recorded because of the cap (0 normally)
    exact_mean: float | None  # mean of the full correction, computed analytically (unaffected by the cap)

    @property
    def n(self) -> int:
        return self.distribution.n + self.dropped


def co_correct(dist: Distribution, interval_us: int, max_entries: int = 5_000_000) -> CoCorrected:
    """Coordinated-omission correction, as HdrHistogram's ``recordValueWithExpectedInterval``.

    Every recorded value v larger than the expected interval I stands for the samples a sender that
    kept its pace would have taken while waiting: ``v - I, v - 2I, ...`` while the value is >= I, i.e.
    ``floor(v / I) - 1`` extra samples (each with the count of v).

    Work is done on distinct values, vectorised (``np.repeat`` and a cumulative sum). ``max_entries``
    caps the number of distinct synthetic entries materialised: when exceeded, each value keeps its
    largest ``m`` synthetic samples (``m`` chosen to fit), and the samples left out are counted in
    ``dropped``. The mean is always computed exactly (arithmetic series).
    """
    if interval_us <= 0:
        raise ValueError("expected interval must be > 0")
    v, c = dist.values, dist.counts
    if v.size == 0:
        return CoCorrected(interval_us, dist, 0, 0, None)
    k = np.maximum(v // interval_us - 1, 0)  # synthetic samples per distinct value
    vf, cf, kf = v.astype(np.float64), c.astype(np.float64), k.astype(np.float64)
    added = int(np.dot(k.astype(object), c.astype(object))) if k.any() else 0
    # sum over the synthetic samples of one value: k*v - I*k*(k+1)/2
    extra_sum = float(np.dot(cf, kf * vf - interval_us * kf * (kf + 1.0) / 2.0))
    base_sum = float(np.dot(cf, vf))
    exact_mean = (base_sum + extra_sum) / (dist.n + added)
    if added == 0:
        return CoCorrected(interval_us, dist, 0, 0, exact_mean)
    kept = k
    total_entries = int(k.sum())
    if total_entries > max_entries:
        # largest per-value cap m with sum(min(k, m)) <= max_entries
        lo, hi = 0, int(k.max())
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if int(np.minimum(k, mid).sum()) <= max_entries:
                lo = mid
            else:
                hi = mid - 1
        kept = np.minimum(k, lo)
    dropped = int(np.dot((k - kept).astype(object), c.astype(object)))
    m = int(kept.sum())
    if m == 0:
        return CoCorrected(interval_us, dist, added, dropped, exact_mean)
    owners = np.repeat(np.arange(v.size), kept)
    # j = 1..kept[i] within each owner: position minus the start offset of its run, plus one
    starts = np.cumsum(kept) - kept
    j = np.arange(m, dtype=np.int64) - np.repeat(starts, kept) + 1
    syn_values = v[owners] - j * interval_us
    syn_counts = c[owners]
    corrected = Distribution.from_weighted(np.concatenate([v, syn_values]), np.concatenate([c, syn_counts]))
    return CoCorrected(interval_us, corrected, added, dropped, exact_mean)
