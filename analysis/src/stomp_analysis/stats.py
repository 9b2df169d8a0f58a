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
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import polars as pl

#: Percentiles reported everywhere (as fractions).
QUANTILES: tuple[float, ...] = (0.5, 0.9, 0.95, 0.99, 0.999)
QUANTILE_NAMES: tuple[str, ...] = ("p50", "p90", "p95", "p99", "p99.9")
#: Values spanning fewer than this many µs (and not many more than there are samples) are counted with one
#: bincount instead of a sort: latencies and schedule lags mostly do.
DENSE_SPAN = 1 << 22


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
        dense = _dense(a, None)
        if dense is not None:
            return dense
        a = pl.Series(a).sort().to_numpy()  # polars sorts on every core
        starts = np.flatnonzero(np.r_[True, a[1:] != a[:-1]])
        return Distribution(a[starts], np.diff(np.r_[starts, a.size]))

    @staticmethod
    def from_weighted(values: np.ndarray, counts: np.ndarray) -> Distribution:
        """Builds from possibly unsorted, repeated values with weights (zero weights dropped)."""
        values = np.asarray(values, dtype=np.int64)
        counts = np.asarray(counts, dtype=np.int64)
        if values.size and counts.min() <= 0:
            keep = counts > 0
            values, counts = values[keep], counts[keep]
        if values.size == 0:
            return Distribution.empty()
        dense = _dense(values, counts)
        if dense is not None:
            return dense
        # polars sorts on every core (about 3 times numpy's argsort and gathers on 2 cores); the order of equal
        # values does not matter, their counts are added up
        by_value = pl.DataFrame({"v": values, "c": counts}).sort("v")
        sv, sc = by_value.get_column("v").to_numpy(), by_value.get_column("c").to_numpy()
        starts = np.flatnonzero(np.r_[True, sv[1:] != sv[:-1]])
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


def _dense(values: np.ndarray, counts: np.ndarray | None) -> Distribution | None:
    """The distribution of ``values`` (weighted by ``counts``) by one bincount, when their span is small enough
    (see DENSE_SPAN); else None. Exact: float64 weights hold integer sums below 2**53."""
    lo, hi = int(values.min()), int(values.max())
    span = hi - lo + 1
    if span > min(DENSE_SPAN, max(1024, 8 * values.size)):
        return None
    c = np.bincount(values - lo, weights=counts, minlength=span)
    if counts is not None:
        c = np.rint(c).astype(np.int64)
    nz = np.flatnonzero(c)
    return Distribution((nz + lo).astype(np.int64), c[nz].astype(np.int64, copy=False))


def merge_two(a: Distribution, b: Distribution) -> Distribution:
    """``a`` and ``b`` added up, in time linear in their sizes (both are sorted: ``b``'s values are found in ``a`` by
    a search that moves forward, the new ones inserted) rather than by sorting them together again."""
    if not a.values.size or not b.values.size:
        return a if b.values.size == 0 else b
    at = np.searchsorted(a.values, b.values)
    found = at < a.values.size
    found[found] = a.values[at[found]] == b.values[found]
    counts = a.counts.copy()
    counts[at[found]] += b.counts[found]  # b's values are distinct: no index twice
    new = ~found
    return Distribution(np.insert(a.values, at[new], b.values[new]), np.insert(counts, at[new], b.counts[new]))


class DistributionBuilder:
    """Adds up distributions (of the slices of a run read one after the other) into one, exactly.

    Parts are merged in batches, so that adding many small parts costs one sort of their entries, not one per
    part, while the entries waiting stay fewer than those already merged (or ``min_pending``)."""

    def __init__(self, min_pending: int = 1 << 20) -> None:
        self._merged = Distribution.empty()
        self._parts: list[Distribution] = []
        self.pending = 0  # entries waiting to be merged
        self._min_pending = min_pending

    @property
    def size(self) -> int:
        """Entries (distinct values) merged so far."""
        return self._merged.values.size

    def add(self, d: Distribution) -> None:
        if not d.n:
            return
        self._parts.append(d)
        self.pending += d.values.size
        if self.pending > max(self._min_pending, self._merged.values.size):
            self.compact()

    def compact(self) -> None:
        if self._parts:
            self._merged = merge_two(self._merged, Distribution.merge(self._parts))
            self._parts, self.pending = [], 0

    def result(self) -> Distribution:
        self.compact()
        return self._merged


class Serial:
    """Jobs run one after the other, in the order given, on a thread of their own (numpy and polars release the
    GIL), while the caller goes on: the accumulation of one slice overlaps with the next slice's. At most
    ``in_flight`` jobs wait (each holds its slice's arrays); :meth:`wait` waits for all of them and re-raises the
    error of a failed one."""

    def __init__(self, name: str, in_flight: int = 2) -> None:
        self._name, self._in_flight = name, in_flight
        self._pool: ThreadPoolExecutor | None = None
        self._jobs: deque[Future] = deque()

    def submit(self, fn: Callable[..., None], *args) -> None:
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix=self._name)
        self._jobs.append(self._pool.submit(fn, *args))
        while len(self._jobs) > self._in_flight:
            self._jobs.popleft().result()

    def wait(self) -> None:
        try:
            while self._jobs:
                self._jobs.popleft().result()
        finally:
            if self._pool is not None:
                self._pool.shutdown(cancel_futures=True)
                self._pool = None


class KeyedHistograms:
    """Exact value->count histograms of many keys at once (one per destination), added up slice after slice.

    Entries are packed ``key << 40 | value`` (values in [0, 2**40), keys below 2**23) into one distribution, so
    that thousands of keys cost what one does. The packed samples of the slices wait as they are, unsorted, until
    they outnumber the entries already merged (or ``min_pending``); then they are sorted together (one sort, by
    polars on every core) and merged in. A slice's samples are mostly distinct (a destination's latencies in µs
    rarely repeat within a slice), so sorting each slice on its own would reduce them little and sort them twice.
    The distribution of all the keys together is added up apart, slice by slice (latencies span few enough µs for
    one bincount a slice), rather than merged from the keys' at the end, when nothing else is left to run beside it.

    The packing, sorting and merging are done on a worker thread of their own (numpy and polars release the GIL),
    while the caller goes on with the next slice; at most ``in_flight`` slices wait for it."""

    SHIFT = 40
    MASK = (1 << SHIFT) - 1

    def __init__(self, in_flight: int = 2, min_pending: int = 1 << 23, total: bool = True) -> None:
        self._merged = Distribution.empty()
        # the samples of every key together, added slice by slice (None: not wanted, total() is not called)
        self._all = DistributionBuilder() if total else None
        self._samples: list[np.ndarray] = []  # packed samples waiting to be sorted
        self._waiting = 0
        self._min_pending = min_pending
        self._worker = Serial("histograms", in_flight)

    def add(self, keys: np.ndarray, values: np.ndarray) -> None:
        if values.size:
            if int(keys.max()) >= 1 << (63 - self.SHIFT):
                raise ValueError(f"key {int(keys.max())} too large to pack (more than 8 million destinations?)")
            self._worker.submit(self._add, keys, values)

    def _add(self, keys: np.ndarray, values: np.ndarray) -> None:
        self._samples.append((keys.astype(np.int64) << self.SHIFT) | values)
        if self._all is not None:
            self._all.add(Distribution.from_samples(values))
        self._waiting += values.size
        if self._waiting > max(self._min_pending, self._merged.values.size):
            self._merge_waiting()

    def _merge_waiting(self) -> None:
        if self._samples:
            waiting = np.concatenate(self._samples) if len(self._samples) > 1 else self._samples[0]
            self._samples, self._waiting = [], 0
            self._merged = merge_two(self._merged, Distribution.from_samples(waiting))

    def flush(self) -> None:
        """Says that no more samples come: the last merges are started on the worker, while the caller finishes
        its other work (they were the run's last serial step)."""
        self._worker.submit(self._finish)

    def _finish(self) -> None:
        self._merge_waiting()
        if self._all is not None:
            self._all.compact()

    def result(self) -> dict[int, Distribution]:
        """The distribution of each key."""
        self._worker.wait()
        self._finish()
        d = self._merged
        keys, values = d.values >> self.SHIFT, d.values & self.MASK
        starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]]) if keys.size else np.empty(0, np.int64)
        ends = np.r_[starts[1:], keys.size]
        return {int(keys[a]): Distribution(values[a:b], d.counts[a:b]) for a, b in zip(starts, ends)}

    def total(self) -> Distribution:
        """The distribution of all the keys' samples together."""
        self._worker.wait()
        return self._all.result()


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
