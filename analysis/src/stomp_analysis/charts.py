"""PNG charts of the runs (matplotlib, Agg backend, loaded by matplotlib_agg.py when the first is drawn): throughput
over time, latency over time, latency by percentile, latency distribution."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import polars as pl

from .matplotlib_agg import pyplot, ticker
from .results import RunResult
from .stats import Distribution

DPI = 90


def _color(i: int) -> str:
    colors = pyplot().rcParams["axes.prop_cycle"].by_key()["color"]
    return colors[i % len(colors)]


def throughput_chart(runs: Sequence[RunResult], per_second: pl.DataFrame, path: Path) -> Path:
    plt = pyplot()
    n = len(runs)
    fig, axes = plt.subplots(n, 1, figsize=(10, 2.8 * n + 0.6), squeeze=False, sharex=False)
    for i, r in enumerate(runs):
        ax = axes[i][0]
        ps = per_second.filter(pl.col("run") == r.label).sort("t_s")
        t = ps.get_column("t_s").to_numpy()
        ax.plot(t, ps.get_column("sends").to_numpy(), label="sends/s", color="#1f77b4", lw=1.2)
        target = ps.get_column("target_sends")
        if target.null_count() < len(target):
            ax.plot(t, target.to_numpy().astype(float), label="target sends/s", color="#000000", lw=0.8, ls="--")
        ax.plot(t, ps.get_column("answers").to_numpy(), label="answers/s", color="#2ca02c", lw=1.2)
        lost = ps.get_column("lost").to_numpy()
        failed = ps.get_column("failed").to_numpy()
        if lost.any():
            ax.plot(t, lost, label="lost/s (by send time)", color="#d62728", lw=1)
        if failed.any():
            ax.plot(t, failed, label="failed/s (by send time)", color="#ff7f0e", lw=1)
        js = ps.get_column("jmeter_samples")
        if js.null_count() < len(js):
            ax.plot(t, js.fill_null(0).to_numpy(), label="JMeter samples/s", color="#7f7f7f", lw=0.8, ls=":")
        ax.set_ylabel("per second")
        ax.set_title(f"{r.label}: throughput", fontsize=10)
        ax.grid(True, alpha=0.3)
        ax.set_ylim(bottom=0)
        handles, labels = ax.get_legend_handles_labels()
        threads = ps.get_column("active_threads")
        if threads.null_count() < len(threads):
            ax2 = ax.twinx()
            ax2.step(t, threads.to_numpy().astype(float), where="post", color="#9467bd", lw=1, label="active threads")
            ax2.set_ylabel("active threads")
            ax2.set_ylim(bottom=0)
            h2, l2 = ax2.get_legend_handles_labels()
            handles, labels = handles + h2, labels + l2
        ax.legend(handles, labels, loc="lower right", fontsize=8, ncol=3)
    axes[-1][0].set_xlabel("seconds since the run's first send")
    fig.tight_layout()
    fig.savefig(path, dpi=DPI)
    plt.close(fig)
    return path


def latency_over_time_chart(runs: Sequence[RunResult], per_second: pl.DataFrame, path: Path) -> Path:
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(10, 4.2))
    lo, hi = np.inf, 0.0
    for i, r in enumerate(runs):
        ps = per_second.filter(pl.col("run") == r.label).sort("t_s")
        t = ps.get_column("t_s").to_numpy()
        p50 = ps.get_column("p50_ms").to_numpy().astype(float)
        p99 = ps.get_column("p99_ms").to_numpy().astype(float)
        ax.plot(t, p99, color=_color(i), lw=1.2, label=f"{r.label} p99")
        ax.plot(t, p50, color=_color(i), lw=1, ls="--", label=f"{r.label} p50")
        finite = np.concatenate([p50[np.isfinite(p50)], p99[np.isfinite(p99)]])
        if finite.size:
            lo, hi = min(lo, finite[finite > 0].min(initial=np.inf)), max(hi, finite.max())
    if np.isfinite(lo) and hi / max(lo, 1e-3) > 50:
        ax.set_yscale("log")
    ax.set_xlabel("seconds since the run's first send (replies grouped by answer time)")
    ax.set_ylabel("latency ms (raw)")
    ax.set_title("Reply latency per second: p50 and p99 (raw)", fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, ncol=2)
    fig.tight_layout()
    fig.savefig(path, dpi=DPI)
    plt.close(fig)
    return path


def _percentile_curve(d: Distribution, points: int = 400) -> tuple[np.ndarray, np.ndarray]:
    """x = 1/(1-p) (log axis, as HdrHistogram's percentile plots), y = latency ms."""
    n = d.n
    max_nines = min(6.0, np.log10(max(n, 10)))
    nines = np.linspace(0.0, max_nines, points)
    qs = 1.0 - 10.0 ** (-nines)
    qs[0] = 0.0
    vals = np.array(d.quantiles(list(qs)), dtype=float) / 1000.0
    return 1.0 / (1.0 - np.minimum(qs, 1 - 1e-12)), vals


def latency_percentiles_chart(runs: Sequence[RunResult], path: Path) -> Path:
    plt, mticker = pyplot(), ticker()
    fig, ax = plt.subplots(figsize=(10, 4.6))
    top = 1.0
    for i, r in enumerate(runs):
        d = r.total.latency
        if not d.n:
            continue
        x, y = _percentile_curve(d)
        ax.plot(x, y, color=_color(i), lw=1.4, label=f"{r.label} raw")
        top = max(top, x[-1])
        if r.total.co is not None and r.total.co.distribution.n:
            x, y = _percentile_curve(r.total.co.distribution)
            ax.plot(x, y, color=_color(i), lw=1.2, ls="--", label=f"{r.label} CO-corrected")
            top = max(top, x[-1])
    ax.set_xscale("log")
    lo_hi = [ln.get_ydata() for ln in ax.get_lines()]
    if lo_hi:
        ys = np.concatenate([np.asarray(y, dtype=float) for y in lo_hi])
        ys = ys[np.isfinite(ys) & (ys > 0)]
        if ys.size and ys.max() / ys.min() > 100:
            ax.set_yscale("log")
    ticks = [10.0**k for k in range(0, int(np.ceil(np.log10(top))) + 1)]
    names = {1: "0%", 10: "90%", 100: "99%", 1000: "99.9%", 10**4: "99.99%", 10**5: "99.999%", 10**6: "99.9999%"}
    ax.xaxis.set_major_locator(mticker.FixedLocator(ticks))
    ax.xaxis.set_major_formatter(mticker.FuncFormatter(lambda v, _pos: names.get(round(v), "")))
    ax.xaxis.set_minor_formatter(mticker.NullFormatter())
    ax.set_xlabel("percentile")
    ax.set_ylabel("latency ms")
    ax.set_title("Latency by percentile (all messages of each run)", fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=DPI)
    plt.close(fig)
    return path


def latency_histogram_chart(runs: Sequence[RunResult], path: Path) -> Path:
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(10, 4.2))
    dists = [(i, r) for i, r in enumerate(runs) if r.total.latency.n]
    if dists:
        lo = max(1, min(int(r.total.latency.values[0]) for _, r in dists))
        hi = max(int(r.total.latency.values[-1]) for _, r in dists)
        edges = np.geomspace(lo, max(hi, lo * 2) + 1, 80)
        for i, r in dists:
            d = r.total.latency
            counts, _ = np.histogram(np.maximum(d.values, lo), bins=edges, weights=d.counts.astype(float))
            share = 100.0 * counts / d.n
            ax.stairs(share, edges / 1000.0, color=_color(i), lw=1.3, label=f"{r.label} (n={d.n})")
        ax.set_xscale("log")
        ax.set_yscale("log")  # shows the tail, where the trouble is
        ax.legend(fontsize=8)
    ax.set_xlabel("latency ms (raw, log bins)")
    ax.set_ylabel("% of replies (log)")
    ax.set_title("Latency distribution (raw)", fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=DPI)
    plt.close(fig)
    return path


def write_charts(runs: Sequence[RunResult], per_second: pl.DataFrame, out_dir: Path) -> list[tuple[str, Path]]:
    return [
        ("Throughput over time", throughput_chart(runs, per_second, out_dir / "throughput.png")),
        ("Latency over time", latency_over_time_chart(runs, per_second, out_dir / "latency_over_time.png")),
        ("Latency by percentile", latency_percentiles_chart(runs, out_dir / "latency_percentiles.png")),
        ("Latency distribution", latency_histogram_chart(runs, out_dir / "latency_histogram.png")),
    ]
