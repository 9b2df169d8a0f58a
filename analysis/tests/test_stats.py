from __future__ import annotations

import numpy as np
import pytest

from stomp_analysis.stats import QUANTILES, Distribution, KeyedHistograms, co_correct, higher_index, merge_two


def test_quantiles_hand_computed():
    d = Distribution.from_samples([7000, 1000, 3000, 2000, 5000, 6000, 4000, 9000, 8000, 10000])
    # higher method: index ceil(q*(n-1)) of the sorted samples, n = 10
    assert d.quantile(0.5) == 6000  # ceil(4.5) = 5
    assert d.quantile(0.9) == 10000  # ceil(8.1) = 9
    assert d.quantile(0.1) == 2000  # ceil(0.9) = 1
    assert d.quantile(0.0) == 1000
    assert d.quantile(1.0) == 10000
    assert d.mean() == 5500.0
    assert (d.min(), d.max(), d.n) == (1000, 10000, 10)


def test_repeated_values_use_counts():
    d = Distribution.from_samples([5, 5, 5, 5, 1, 9])  # sorted: 1 5 5 5 5 9
    assert list(d.values) == [1, 5, 9]
    assert list(d.counts) == [1, 4, 1]
    assert d.quantiles([0.0, 0.2, 0.21, 0.8, 0.81, 1.0]) == [1, 5, 5, 5, 9, 9]


@pytest.mark.parametrize("n", [1, 2, 3, 10, 99, 100, 101, 1000, 1001, 12345])
def test_matches_numpy_higher_method(n):
    rng = np.random.default_rng(n)
    x = rng.integers(0, 50_000, n)
    d = Distribution.from_samples(x)
    for q in (*QUANTILES, 0.0, 0.25, 1.0):
        assert d.quantile(q) == int(np.quantile(x, q, method="higher")), q
    assert d.mean() == pytest.approx(x.mean())


def test_higher_index_bounds():
    assert higher_index(0.999, 1) == 0
    assert higher_index(0.5, 2) == 1
    with pytest.raises(ValueError):
        higher_index(0.5, 0)
    with pytest.raises(ValueError):
        higher_index(1.5, 3)


def test_merge_equals_concatenation_not_mean_of_percentiles():
    a = np.array([1, 2, 3, 4, 100])
    b = np.array([50, 60, 70, 80, 90, 95, 96, 97, 98, 99])
    merged = Distribution.merge([Distribution.from_samples(a), Distribution.from_samples(b)])
    both = np.concatenate([a, b])
    for q in QUANTILES:
        assert merged.quantile(q) == int(np.quantile(both, q, method="higher"))
    mean_of_p50 = (np.quantile(a, 0.5, method="higher") + np.quantile(b, 0.5, method="higher")) / 2
    assert merged.quantile(0.5) == 80  # index ceil(0.5 * 14) = 7 of the 15 sorted samples
    assert mean_of_p50 == 49  # (3 + 95) / 2: what averaging per-file percentiles would give
    assert merged.quantile(0.5) != mean_of_p50
    assert merged.n == 15


def test_empty_distribution():
    d = Distribution.empty()
    assert d.n == 0
    assert d.quantile(0.5) is None and d.mean() is None and d.min() is None
    assert d.quantiles() == [None] * len(QUANTILES)
    assert Distribution.merge([d, d]).n == 0


def test_co_correction_hand_computed():
    # interval 10: 100 -> +90,80,...,10 (9 samples); 35 -> +25,15 (15-10=5 < 10 stops); 10 -> nothing
    c = co_correct(Distribution.from_samples([100, 10, 35]), 10)
    d = c.distribution
    expected = sorted([100, 10, 35, 90, 80, 70, 60, 50, 40, 30, 20, 10, 25, 15])
    assert c.added == 11 and c.dropped == 0
    assert d.n == 14
    assert np.repeat(d.values, d.counts).tolist() == expected
    assert c.exact_mean == pytest.approx(sum(expected) / 14)
    assert d.quantile(0.5) == 40  # index ceil(6.5) = 7 of the 14 sorted samples
    assert d.quantile(0.9) == 90  # index ceil(11.7) = 12


def test_co_correction_boundaries():
    # exactly 2*I adds exactly I; just below 2*I adds nothing; at or below I nothing
    assert co_correct(Distribution.from_samples([20]), 10).added == 1
    assert co_correct(Distribution.from_samples([19]), 10).added == 0
    assert co_correct(Distribution.from_samples([10, 3]), 10).added == 0
    # counts multiply the synthetic samples
    c = co_correct(Distribution.from_samples([30, 30, 30]), 10)
    assert c.added == 6
    assert c.distribution.values.tolist() == [10, 20, 30]
    assert c.distribution.counts.tolist() == [3, 3, 3]
    with pytest.raises(ValueError):
        co_correct(Distribution.from_samples([1]), 0)


def _naive_java_co(values, interval):
    out = []
    for v in values:
        out.append(v)
        m = v - interval
        while m >= interval:
            out.append(m)
            m -= interval
    return np.array(out)


def test_co_correction_matches_a_naive_loop():
    rng = np.random.default_rng(3)
    x = rng.lognormal(np.log(2000), 1.2, 3000).astype(np.int64)
    c = co_correct(Distribution.from_samples(x), 1500)
    naive = _naive_java_co(x.tolist(), 1500)
    assert c.distribution.n == naive.size
    assert c.added == naive.size - x.size
    for q in QUANTILES:
        assert c.distribution.quantile(q) == int(np.quantile(naive, q, method="higher"))
    assert c.exact_mean == pytest.approx(naive.mean())


def test_co_correction_agrees_with_hdrhistogram():
    hdr = pytest.importorskip("hdrh.histogram")
    rng = np.random.default_rng(5)
    x = rng.lognormal(np.log(3000), 1.0, 20000).astype(np.int64)
    interval = 4000
    h = hdr.HdrHistogram(1, 10**8, 3)
    for v in _naive_java_co(x.tolist(), interval):  # Java's recordValueWithExpectedInterval semantics
        h.record_value(int(v))
    c = co_correct(Distribution.from_samples(x), interval)
    assert c.distribution.n == h.get_total_count()
    for q in (50, 90, 99, 99.9):
        # HdrHistogram keeps 3 significant digits
        assert c.distribution.quantile(q / 100) == pytest.approx(h.get_value_at_percentile(q), rel=2e-3)


def test_co_cap_counts_what_is_left_out():
    d = Distribution.from_samples([1_000_000, 500_000, 7])
    full = co_correct(d, 1)  # v // 1 - 1 synthetic samples each
    assert full.added == 999_999 + 499_999 + 6 and full.dropped == 0
    capped = co_correct(d, 1, max_entries=1000)
    assert capped.added == full.added
    assert capped.dropped > 0
    assert capped.distribution.n + capped.dropped == full.distribution.n
    assert capped.distribution.values.size <= 1000 + 3
    assert capped.exact_mean == pytest.approx(full.exact_mean)  # the mean is exact even when capped


def test_dense_and_sorted_paths_agree():
    rng = np.random.default_rng(5)
    small = rng.integers(-50, 5_000, 20_000)  # a small span: counted by bincount
    wide = np.r_[small, 1 << 45]  # a wide one: sorted
    for samples in (small, wide):
        d = Distribution.from_samples(samples)
        v, c = np.unique(samples, return_counts=True)
        assert np.array_equal(d.values, v) and np.array_equal(d.counts, c)
    merged = Distribution.merge([Distribution.from_samples(small[:7]), Distribution.from_samples(small[7:])])
    assert np.array_equal(merged.values, np.unique(small)) and merged.n == small.size


@pytest.mark.parametrize("min_pending", [1 << 23, 1])  # merged once at the end, or at every slice
def test_keyed_histograms_are_the_histograms_of_each_key(min_pending):
    rng = np.random.default_rng(6)
    h = KeyedHistograms(min_pending=min_pending)
    keys_all, values_all = [], []
    for _ in range(3):  # three slices
        keys, values = rng.integers(0, 50, 10_000), rng.integers(0, 1 << 30, 10_000)
        h.add(keys, values)
        keys_all.append(keys)
        values_all.append(values)
    keys, values = np.concatenate(keys_all), np.concatenate(values_all)
    result = h.result()
    assert sorted(result) == sorted(set(keys.tolist()))
    for k, d in result.items():
        v, c = np.unique(values[keys == k], return_counts=True)
        assert np.array_equal(d.values, v) and np.array_equal(d.counts, c)
    v, c = np.unique(values, return_counts=True)
    assert np.array_equal(h.total().values, v) and np.array_equal(h.total().counts, c)


def test_merge_two_is_a_merge():
    rng = np.random.default_rng(7)
    a = Distribution.from_samples(rng.integers(0, 1 << 40, 5_000))
    b = Distribution.from_samples(np.r_[a.values[::3], rng.integers(0, 1 << 40, 3_000)])
    m = merge_two(a, b)
    expected = Distribution.merge([a, b])
    assert np.array_equal(m.values, expected.values) and np.array_equal(m.counts, expected.counts)
    assert merge_two(a, Distribution.empty()) is a and merge_two(Distribution.empty(), b) is b
