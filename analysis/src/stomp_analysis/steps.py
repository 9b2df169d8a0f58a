"""A stepped capacity test's steps, its engines' rows merged, and its knee.

Engines: each JMeter engine writes its own steps log, and names its run by its own start time, so the rows of one
stepped test carry several (run, engine) pairs. Pairs whose spans (first ramp start to last end) overlap are one
test (overlaps.group_segments, which groups timing-log runs too); within a test, rows merge by step number:

* counts and rates are summed (offered, achieved, users, sent, answered, lost, failed, connects, connect_failed);
* the latency percentiles are recomputed from the timing logs where they were given (every engine's samples sent in
  its own hold window, merged: the true p99, see hold_windows.py); without them one engine's are its own, and several
  engines' are the highest of theirs, said so in ``latency_from``;
* the generator's figures (send lag, CPU) and the connect time are the highest engine's: each is one JVM's;
* the service level's thresholds are not in the steps log, so the merged verdict is the engines': a step broke if
  any engine's broke, and it is the generator's limit if any engine says so (that engine could not hold its share).

The *knee* is the first step that broke.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import polars as pl

from .hold_windows import HoldWindows
from .overlaps import group_segments
from .stats import Distribution
from .steps_log import BROKE, GENERATOR, HELD, MACHINE, SERVER, UNCHECKED

#: latency_from: where a step's percentiles come from
FROM_TIMING_LOGS, FROM_STEPS_LOG, MAX_OF_ENGINES = "timing logs", "steps log", "max of engines"


@dataclass
class Step:
    """One step of a stepped test, over every engine."""

    key: int  # unique across the tests of an analysis: the step key of hold_windows
    number: int  # the step's number in its test: 1, 2, ...
    kind: str  # rate | users
    engines: int
    offered: float
    achieved: float | None
    ramp_start_ms: int
    hold_start_ms: int  # the hold every engine was in: the latest engine's start ...
    end_ms: int  # ... to the earliest engine's end (their union when they do not overlap)
    users: int | None
    sent: int | None
    answered: int | None
    lost: int | None
    failed: int | None
    p50_us: int | None
    p99_us: int | None
    p999_us: int | None
    latency_from: str | None
    send_lag_p99_ms: float | None
    generator_cpu: float | None
    machine_cpu: float | None  # the whole machine's CPU share over the hold (the busiest engine's machine)
    connects: int | None
    connect_failed: int | None
    connect_p99_ms: float | None
    heartbeat_misses: int | None  # sessions lost to missed heart-beats in the hold
    verdict: str
    limit: str | None
    reason: str
    server: dict = field(default_factory=dict)  # server_figures.Figure -> mean over the hold

    @property
    def loss_pct(self) -> float | None:
        return 100.0 * self.lost / self.sent if self.sent and self.lost is not None else None

    @property
    def failed_pct(self) -> float | None:
        return 100.0 * self.failed / self.sent if self.sent and self.failed is not None else None

    @property
    def connect_failed_pct(self) -> float | None:
        return (
            100.0 * self.connect_failed / self.connects if self.connects and self.connect_failed is not None else None
        )


@dataclass
class StepTest:
    """The steps of one stepped test, in order, and the engines that ran it."""

    label: str
    runs: list[tuple[int, str]]  # (run, engine)
    steps: list[Step]

    @property
    def kind(self) -> str:
        return self.steps[0].kind if self.steps else ""

    @property
    def checked(self) -> bool:
        """Whether a service level was given (some step has a verdict other than unchecked)."""
        return any(s.verdict != UNCHECKED for s in self.steps)

    @property
    def knee(self) -> Step | None:
        """The first step that broke."""
        return next((s for s in self.steps if s.verdict == BROKE), None)

    @property
    def held(self) -> Step | None:
        """The last step that held before the knee (the last step that held when nothing broke)."""
        knee = self.knee
        before = [s for s in self.steps if s.verdict == HELD and (knee is None or s.number < knee.number)]
        return before[-1] if before else None


def plan_tests(rows: pl.DataFrame) -> tuple[pl.DataFrame, list[tuple[str, list[tuple[int, str]]]]]:
    """Groups the rows into tests: the rows with their step ``key`` (unique per test and step number), and each
    test's label and (run, engine) pairs, in time order."""
    spans = rows.group_by("run", "engine").agg(
        pl.col("ramp_start_epoch_ms").min().alias("a"), pl.col("end_epoch_ms").max().alias("b")
    )
    pairs = list(spans.select("run", "engine").iter_rows())
    groups = group_segments([(a, b, i, 0) for i, (a, b) in enumerate(spans.select("a", "b").iter_rows())])
    tests, test_of = [], {}
    for t, (_, members) in enumerate(groups):
        label = "steps" if len(groups) == 1 else f"steps#{t + 1}"
        tests.append((label, sorted(pairs[i] for i, _ in members)))
        for i, _ in members:
            test_of[pairs[i]] = t
    test_frame = pl.DataFrame(
        {"run": [p[0] for p in test_of], "engine": [p[1] for p in test_of], "test": list(test_of.values())},
        schema={"run": pl.Int64, "engine": pl.String, "test": pl.Int64},
    )
    keyed = rows.join(test_frame, on=["run", "engine"], how="left").with_columns(
        (pl.col("test") * 10_000 + pl.col("step")).alias("key")
    )
    return keyed, tests


def hold_windows(keyed: pl.DataFrame) -> HoldWindows:
    return HoldWindows.of(keyed)


def merge_tests(
    keyed: pl.DataFrame, tests: list[tuple[str, list[tuple[int, str]]]], latency: dict[int, Distribution]
) -> list[StepTest]:
    """The tests with their engines' rows merged per step (see the module's docstring); ``latency``: the samples of
    each step key from the timing logs (none without timing logs)."""
    out = []
    for t, (label, runs) in enumerate(tests):
        mine = keyed.filter(pl.col("test") == t).sort("step", "engine")
        steps = [_merge_step(group, latency.get(key)) for (key,), group in mine.group_by("key", maintain_order=True)]
        out.append(StepTest(label, runs, sorted(steps, key=lambda s: s.number)))
    return out


# A step's columns that several engines' rows merge into one: their counts add up, their lags and loads are
# the worst engine's.
_ADDED_ACROSS_ENGINES = (
    "offered",
    "achieved",
    "users",
    "sent",
    "answered",
    "lost",
    "failed",
    "connects",
    "connect_failed",
    "heartbeat_misses",
)
_WORST_ACROSS_ENGINES = ("send_lag_p99_ms", "generator_cpu", "machine_cpu", "connect_p99_ms")


def _sum(rows: list[dict], col: str):
    values = [r[col] for r in rows if r[col] is not None]
    return sum(values) if values else None


def _max(rows: list[dict], col: str):
    values = [r[col] for r in rows if r[col] is not None]
    return max(values) if values else None


def _merge_step(group: pl.DataFrame, latency: Distribution | None) -> Step:
    rows = list(group.iter_rows(named=True))
    first = rows[0]
    hold_start, end = max(r["hold_start_epoch_ms"] for r in rows), min(r["end_epoch_ms"] for r in rows)
    if end <= hold_start:
        hold_start, end = min(r["hold_start_epoch_ms"] for r in rows), max(r["end_epoch_ms"] for r in rows)
    if latency is not None and latency.n:
        p50, p99, p999 = latency.quantiles((0.5, 0.99, 0.999))
        latency_from = FROM_TIMING_LOGS
    elif len(rows) == 1:
        p50, p99, p999 = first["p50_us"], first["p99_us"], first["p999_us"]
        latency_from = FROM_STEPS_LOG if p99 is not None else None
    else:
        p50, p99, p999 = _max(rows, "p50_us"), _max(rows, "p99_us"), _max(rows, "p999_us")
        latency_from = MAX_OF_ENGINES if p99 is not None else None
    verdicts = {r["verdict"] for r in rows}
    verdict = BROKE if BROKE in verdicts else HELD if HELD in verdicts else UNCHECKED
    limits = {r["limit"] for r in rows if r["verdict"] == BROKE}
    limit = next((w for w in (GENERATOR, MACHINE) if w in limits), SERVER) if verdict == BROKE else None
    reasons = [(r["engine"], r["reason"]) for r in rows if r["reason"] and r["verdict"] == verdict]
    reason = "; ".join(f"{e}: {text}" for e, text in reasons) if len(rows) > 1 else (reasons[0][1] if reasons else "")
    return Step(
        key=first["key"],
        number=first["step"],
        kind=first["kind"],
        engines=len(rows),
        ramp_start_ms=min(r["ramp_start_epoch_ms"] for r in rows),
        hold_start_ms=hold_start,
        end_ms=end,
        p50_us=p50,
        p99_us=p99,
        p999_us=p999,
        latency_from=latency_from,
        **{col: _sum(rows, col) for col in _ADDED_ACROSS_ENGINES},
        **{col: _max(rows, col) for col in _WORST_ACROSS_ENGINES},
        verdict=verdict,
        limit=limit,
        reason=reason,
    )
