"""The charts of a stepped test (matplotlib, Agg, loaded by matplotlib_agg.py when the first is drawn): the classic
one, latency percentiles and achieved load against offered load with the knee marked; and the server's figures over
time with the steps' holds shaded."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from .matplotlib_agg import pyplot, ticker
from .server_figures import Figure
from .steps import StepTest
from .steps_log import GENERATOR, MACHINE, USERS

DPI = 90
KNEE_COLOR = "#d62728"


def _plain_numbers(v: float, _pos) -> str:
    """Plain numbers on log axes (1,000 and 0.5, not 10^3 and 5×10^-1)."""
    return f"{v:,.0f}" if v >= 1 else f"{v:g}"


def _knee_label(test: StepTest) -> str:
    knee = test.knee
    whose = {GENERATOR: "the generator's", MACHINE: "the machine's"}.get(knee.limit, "the server's")
    return f"knee: {whose} limit"


def knee_chart(test: StepTest, path: Path) -> Path:
    """Latency percentiles (log scale) and achieved load against offered load, the knee (first broken step)
    marked and labelled with whose limit it is."""
    fig, _, _ = knee_figure(test)
    fig.savefig(path, dpi=DPI)
    pyplot().close(fig)
    return path


def knee_figure(test: StepTest):
    """The knee chart's figure, its legend and its knee label (None without a knee). The legend sits under the
    axes and the label over them, outside the plotted area, so neither hides the other nor a curve (inside, the
    legend covered the label at a knee on the first step)."""
    steps = test.steps
    users = test.kind == USERS
    x = [s.offered for s in steps]
    mticker = ticker()
    plain = mticker.FuncFormatter(_plain_numbers)
    fig, ax = pyplot().subplots(figsize=(10, 5.5))
    # users steps of connects show the connect time; users steps of closed loops (echo) their round trips
    connects_only = users and all(s.p99_us is None for s in steps)
    curves = (
        [("connect p99", [s.connect_p99_ms for s in steps])]
        if connects_only
        else [
            ("p50", [None if s.p50_us is None else s.p50_us / 1000 for s in steps]),
            ("p99", [None if s.p99_us is None else s.p99_us / 1000 for s in steps]),
            ("p99.9", [None if s.p999_us is None else s.p999_us / 1000 for s in steps]),
        ]
    )
    plotted = False
    for name, ys in curves:
        pts = [(a, b) for a, b in zip(x, ys) if b is not None and b > 0]
        if pts:
            ax.plot([a for a, _ in pts], [b for _, b in pts], marker="o", label=f"{name} ms")
            plotted = True
    if plotted:
        ax.set_yscale("log")
        ax.yaxis.set_major_formatter(plain)
        ax.yaxis.set_minor_formatter(plain)
    if min(x) > 0 and max(x) / min(x) >= 10:  # steps grown by a factor: evenly spaced on a log axis
        ax.set_xscale("log")
        ax.xaxis.set_minor_formatter(mticker.NullFormatter())
    if len(x) <= 12:  # each step's offered load on the axis
        ax.set_xticks(x)
    ax.xaxis.set_major_formatter(plain)
    ax.set_xlabel("offered users" if users else "offered msg/s")
    ax.set_ylabel("connect time ms (log)" if users else "reply latency ms (log)")
    ax.grid(True, which="both", alpha=0.3)
    ax2 = ax.twinx()
    achieved = [(a, s.achieved) for a, s in zip(x, steps) if s.achieved is not None]
    if achieved:
        ax2.plot(
            [a for a, _ in achieved],
            [b for _, b in achieved],
            color="#7f3fbf",
            marker="s",
            lw=1.5,
            label="achieved users" if users else "achieved msg/s",
        )
    # through every step, so that it stays the diagonal between steps on a log axis as the achieved curve does
    ax2.plot(x, x, color="#999999", ls="--", lw=1, label="achieved = offered")
    ax2.set_ylabel("achieved users" if users else "achieved msg/s")
    ax2.set_ylim(bottom=0)
    knee = test.knee
    label = None
    if knee is not None:
        ax.axvline(knee.offered, color=KNEE_COLOR, ls=":", lw=2)
        label = ax.annotate(
            _knee_label(test),
            xy=(knee.offered, 1.0),
            xycoords=("data", "axes fraction"),
            xytext=(0, 4),
            textcoords="offset points",
            ha="center",
            va="bottom",
            color=KNEE_COLOR,
            fontsize=9,
        )
    lines = ax.get_legend_handles_labels()
    lines2 = ax2.get_legend_handles_labels()
    legend = ax.legend(
        lines[0] + lines2[0],
        lines[1] + lines2[1],
        fontsize=8,
        loc="upper center",
        bbox_to_anchor=(0.5, -0.13),
        ncol=5,
        frameon=False,
    )
    ax.set_title(f"{test.label}: latency and achieved load against offered load", fontsize=10, pad=18)
    fig.tight_layout()
    return fig, legend, label


def server_chart(test: StepTest, frame: pl.DataFrame, series: list[Figure], path: Path) -> Path:
    """Each server figure over time (s from the test's first ramp), one panel per metric, the steps' holds shaded
    (the knee's in red)."""
    plt = pyplot()
    metrics = list(dict.fromkeys(f.metric for f in series))
    t0 = min(s.ramp_start_ms for s in test.steps)
    t_end = max(s.end_ms for s in test.steps)
    mine = frame.filter((pl.col("epoch_ms") >= t0 - 5000) & (pl.col("epoch_ms") <= t_end + 5000))
    fig, axes = plt.subplots(len(metrics), 1, figsize=(10, 2.2 * len(metrics) + 0.6), squeeze=False, sharex=True)
    knee = test.knee
    for ax, metric in zip(axes[:, 0], metrics):
        for f in (f for f in series if f.metric == metric):
            rows = mine.filter((pl.col("source") == f.source) & (pl.col("metric") == metric))
            t = (rows.get_column("epoch_ms").to_numpy() - t0) / 1000
            scale, unit = (1e-6, " MB") if f.is_bytes else (f.factor, "")
            ax.plot(t, rows.get_column("value").to_numpy() * scale, lw=1.2, label=f.header + unit)
        for i, s in enumerate(test.steps):
            broke = knee is not None and s.number == knee.number
            color = KNEE_COLOR if broke else ("#1f77b4" if i % 2 == 0 else "#17becf")
            ax.axvspan((s.hold_start_ms - t0) / 1000, (s.end_ms - t0) / 1000, color=color, alpha=0.12, lw=0)
        ax.legend(fontsize=8, loc="upper left")
        ax.grid(True, alpha=0.3)
    axes[-1, 0].set_xlabel("s from the first step's ramp (shaded: each step's hold; red: the knee)")
    axes[0, 0].set_title(f"{test.label}: the server's figures over time", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=DPI)
    plt.close(fig)
    return path


def write_step_charts(
    tests: list[StepTest], server: pl.DataFrame, series: list[Figure], out_dir: Path
) -> list[tuple[str, Path]]:
    drawn = []
    for i, t in enumerate(tests):
        suffix = "" if len(tests) == 1 else f"_{i + 1}"
        if not t.steps:
            continue
        drawn.append(
            (
                f"{t.label}: latency and achieved load against offered load",
                knee_chart(t, out_dir / f"steps{suffix}.png"),
            )
        )
        if series and server.height:
            drawn.append(
                (
                    f"{t.label}: the server's figures over time",
                    server_chart(t, server, series, out_dir / f"server{suffix}.png"),
                )
            )
    return drawn
