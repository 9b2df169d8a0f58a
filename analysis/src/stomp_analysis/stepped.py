"""A stepped test in the pipeline: its steps logs read before the timing logs (their hold windows go to the
aggregation, which keeps each step's latency samples in the same pass), then its steps merged, the server's
figures averaged over each hold, and its table."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from .hold_windows import HoldWindows
from .results import RunResult
from .server_figures import Figure, averages, figures, read_server_figures
from .stats import Distribution
from .step_tables import steps_markdown, steps_table
from .steps import StepTest, hold_windows, merge_tests, plan_tests
from .steps_log import read_steps_logs
from .tables import Table


@dataclass
class StepsPlan:
    """The steps logs' rows (with their step keys), the tests they form and their hold windows."""

    keyed: pl.DataFrame
    tests: list[tuple[str, list[tuple[int, str]]]]
    windows: HoldWindows


@dataclass
class SteppedReport:
    tests: list[StepTest]
    server: pl.DataFrame  # epoch_ms, source, metric, value (empty without a server-figures file)
    series: list[Figure]  # the (source, metric) series the server-figures files have
    table: Table

    def markdown(self) -> str:
        return steps_markdown(self.tests, self.table)


def plan_steps(paths: Sequence[Path]) -> StepsPlan:
    keyed, tests = plan_tests(read_steps_logs(list(paths)))
    return StepsPlan(keyed, tests, hold_windows(keyed))


def step_latencies(results: Sequence[RunResult]) -> dict[int, Distribution]:
    """Each step's latency samples over every run (engines, warm-up and rest): runs never share a message."""
    parts: dict[int, list[Distribution]] = {}
    for r in results:
        for key, d in r.step_latency.items():
            parts.setdefault(key, []).append(d)
    return {k: Distribution.merge(v) for k, v in parts.items()}


def stepped_report(plan: StepsPlan, results: Sequence[RunResult], server_paths: Sequence[Path]) -> SteppedReport:
    tests = merge_tests(plan.keyed, plan.tests, step_latencies(results))
    # the generator's own rows are what the server's are divided by (session_costs.py), not the server's
    server = read_server_figures(list(server_paths)).filter(pl.col("source") != "generator")
    series = figures(server)
    steps = [s for t in tests for s in t.steps]
    for s, means in zip(steps, averages(server, [(s.hold_start_ms, s.end_ms) for s in steps])):
        s.server = means
    return SteppedReport(tests, server, series, steps_table(tests, series))
