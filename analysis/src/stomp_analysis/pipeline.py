"""The aggregation pipeline, apart from the command line: run specs (and .jtl files) in, an :class:`Analysis` out
(the runs, their tables and the Markdown document), and :func:`write_outputs` for the CSV files, charts and
report.html. Callable from Python and from tests::

    analysis = analyse([RunSpec("echo", [Path("timing.csv")], messages_per_second=100)])
    print(analysis.markdown(), end="")
    write_outputs(analysis, Path("out"))

It prints nothing: each warning (malformed records, a run's notes, a .jtl that overlaps no run) goes to ``warn`` as
it is found, and ``stage`` is told what it is doing, for a one-line message when something fails; the command line
(cli.py) prints both. An input that cannot be used at all raises :class:`~stomp_analysis.InputError`.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import polars as pl

from . import InputError
from .aggregate import analyze
from .charts import write_charts
from .jtl import JtlLog, assign_to_runs, read_jtl
from .jtl import check_header as check_jtl_header
from .progress import Progress
from .report import write_html
from .results import RunResult, RunSpec
from .server_figures import check_header as check_server_header
from .session_costs import CostReport, cost_report
from .spill import SpillStore, analyze_spilled
from .step_charts import write_step_charts
from .stepped import SteppedReport, plan_steps, stepped_report
from .steps_log import check_header as check_steps_header
from .tables import Table, build_tables, markdown_document, per_second_frame
from .timing_log import Issue, TimingLog, check_header, read_timing_log

#: Runs whose timing logs total this many MiB or more are aggregated out of core (--max-in-memory).
DEFAULT_MAX_IN_MEMORY_MIB = 512

#: Told each warning as it is found: its line, and the lines listed under it (the first malformed records).
Warn = Callable[[str, Sequence[str]], None]


@dataclass(frozen=True)
class Options:
    """How the pipeline reads and aggregates; the defaults are the command line's."""

    max_issues: int = 5  # malformed records listed per file (all are counted)
    co_max_entries: int = 5_000_000  # cap on the distinct synthetic values of the CO correction
    warmup_s: float = 0.0  # each run's first seconds shown apart as its warm-up (0: none)
    max_in_memory_mib: int = DEFAULT_MAX_IN_MEMORY_MIB  # runs whose logs total this or more: out of core
    temp_dir: Path | None = None  # where out-of-core slices go (None: the system's temporary directory)
    progress: bool | None = False  # a progress bar on stderr; None: on a terminal, for big inputs


class Stage:
    """What the pipeline is doing, for the one-line message when something fails."""

    def __init__(self) -> None:
        self.text = "starting"

    def __call__(self, text: str) -> None:
        self.text = text


@dataclass
class Analysis:
    """The runs of an analysis and what is shown of them."""

    results: list[RunResult]
    jtls: list[JtlLog]
    jtl_by_run: dict[int | None, list[JtlLog]]  # run index (None: overlaps no run) -> its .jtl files
    notes: list[str]  # every run's notes, "<label>: <note>"
    tables: list[Table]  # the tables shown, in order
    inputs: Table  # the input files (shown when some had malformed records)
    steps: SteppedReport | None = None  # a stepped test's answer and steps (with steps logs)
    costs: CostReport | None = None  # what the sessions and messages cost (with server-figures files)

    def markdown(self) -> str:
        """The Markdown document of stdout: a stepped test's answer and steps first, then what the sessions cost."""
        head = self.steps.markdown() if self.steps is not None else ""
        head += self.costs.markdown() if self.costs is not None else ""
        if not self.results:
            return head
        return head + markdown_document(self.results, self.tables, self.inputs)


def _ignore(text: str, listed: Sequence[str]) -> None:
    pass


def analyse(
    specs: Sequence[RunSpec],
    jtl_paths: Sequence[Path] = (),
    options: Options | None = None,
    *,
    out: Path | None = None,
    stage: Stage | None = None,
    warn: Warn | None = None,
    steps_paths: Sequence[Path] = (),
    server_paths: Sequence[Path] = (),
) -> Analysis:
    """Checks every input (and creates ``out``, where :func:`write_outputs` will write) before the long work,
    aggregates the runs of every spec, reads the .jtl files and makes the tables. With ``steps_paths`` (a stepped
    test's steps logs, one per engine) the steps are read first, so that the aggregation keeps each step's latency
    samples in the same pass, and ``server_paths`` (the server's figures) are averaged over each step's hold. The
    server's figures also give what each session held and each message cost (session_costs.py), stepped or not."""
    options = options or Options()
    stage = stage or Stage()
    warn = warn or _ignore
    check_inputs(specs, jtl_paths, out, stage, steps_paths, server_paths)
    steps_plan = None
    if steps_paths:
        stage("reading the steps logs")
        steps_plan = plan_steps(steps_paths)
        specs = [replace(s, steps=steps_plan.windows) for s in specs]
    results = aggregate(specs, options, stage, warn)
    stage("making the tables")
    unique_labels(results)
    for r in results:
        for f in r.files:
            _warn_malformed(warn, f.path, f.records, f.malformed, f.issues)
    jtls, jtl_by_run = _read_jtls(jtl_paths, results, options.max_issues, stage, warn)
    notes = [f"{r.label}: {n}" for r in results for n in r.notes]
    for n in notes:
        warn(n, ())
    tables, inputs = build_tables(results, jtls, jtl_by_run)
    steps = None
    if steps_plan is not None:
        stage("merging the steps")
        steps = stepped_report(steps_plan, results, server_paths)
    costs = None
    if server_paths:
        stage("reading what the sessions cost from the server's figures")
        costs = cost_report(server_paths)
        for n in costs.notes:
            warn(n, ())
    return Analysis(results, jtls, jtl_by_run, notes, tables, inputs, steps, costs)


def check_inputs(
    specs: Sequence[RunSpec],
    jtl_paths: Sequence[Path],
    out: Path | None,
    stage: Stage,
    steps_paths: Sequence[Path] = (),
    server_paths: Sequence[Path] = (),
) -> None:
    """Raises InputError for the first input that cannot be used (a header, or ``out`` that cannot be created)."""
    stage("checking the inputs")
    for spec in specs:
        for pth in spec.paths:
            check_header(pth)
    for pth in jtl_paths:
        check_jtl_header(pth)
    for pth in steps_paths:
        check_steps_header(pth)
    for pth in server_paths:
        check_server_header(pth)
    if out is not None:
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise InputError(f"{out}: cannot create the output directory: {e.strerror or e}") from None


def aggregate(specs: Sequence[RunSpec], options: Options, stage: Stage, warn: Warn = _ignore) -> list[RunResult]:
    """The runs of every spec, each spec in memory or out of core by its size."""
    total_bytes = sum(os.path.getsize(p) for s in specs for p in s.paths)
    progress = Progress(total_bytes, enabled=options.progress)
    results: list[RunResult] = []
    file_index = 0
    try:
        for spec in specs:
            spec_bytes = sum(os.path.getsize(p) for p in spec.paths)
            if spec_bytes >= options.max_in_memory_mib * 2**20:
                results += _read_out_of_core(spec, file_index, options, progress, stage, warn, spec_bytes)
            else:
                results += _read_in_memory(spec, file_index, options, progress, stage, warn)
            file_index += len(spec.paths)
    finally:
        progress.close()
    return results


def unique_labels(results: list[RunResult]) -> None:
    """Runs split from a spec (LABEL#n) may meet a label given to another run: later ones get " (2)", ..."""
    used: set[str] = set()
    for r in results:
        label, k = r.label, 2
        while label in used:
            label, k = f"{r.label} ({k})", k + 1
        if label != r.label:
            r.spec = replace(r.spec, label=label)
        used.add(label)


def write_outputs(
    analysis: Analysis, directory: Path, *, charts: bool = True, stage: Stage | None = None
) -> list[Path]:
    """Writes the CSV files, the charts (unless ``charts`` is false) and report.html into ``directory`` (created if
    need be); returns the files written, in order."""
    stage = stage or Stage()
    stage(f"writing to {directory}")
    directory.mkdir(parents=True, exist_ok=True)
    results = analysis.results
    jtl_by_run = {k: v for k, v in analysis.jtl_by_run.items() if k is not None}
    per_second = per_second_frame(results, jtl_by_run) if results else None
    steps = analysis.steps
    written = [steps.table.write_csv(directory)] if steps is not None else []
    if analysis.costs is not None:
        written += [t.write_csv(directory) for t in analysis.costs.tables()]
    if results:
        written += [t.write_csv(directory) for t in analysis.tables]
        written.append(_write_per_second(per_second, directory))
        written.append(analysis.inputs.write_csv(directory))
    drawn, step_drawn = [], []
    if charts:
        if steps is not None:
            step_drawn = write_step_charts(steps.tests, steps.server, steps.series, directory)
            written += [p for _, p in step_drawn]
        if results:
            drawn = write_charts(results, per_second, directory)
            written += [p for _, p in drawn]
    written.append(
        write_html(
            directory / "report.html",
            runs=results,
            jtls=analysis.jtls,
            tables=[*analysis.tables, analysis.inputs] if results else [],
            charts=drawn,
            notes=analysis.notes,
            steps=steps,
            step_charts=step_drawn,
            costs=analysis.costs,
        )
    )
    return written


def _write_per_second(per_second: pl.DataFrame, directory: Path) -> Path:
    path = directory / "per_second.csv"
    per_second.write_csv(path, null_value="")
    return path


def _warn_malformed(warn: Warn, path: Path, records: int, malformed: int, issues: list[Issue]) -> None:
    if malformed:
        warn(
            f"{path}: {malformed} malformed record(s) out of {records} skipped; the first {len(issues)}:",
            [str(i) for i in issues],
        )


def _read_in_memory(
    spec: RunSpec, file_index: int, options: Options, progress: Progress, stage: Stage, warn: Warn
) -> list[RunResult]:
    logs = []
    for i, pth in enumerate(spec.paths):
        stage(f"reading {pth}")
        progress.describe(f"reading {pth.name}")
        logs.append(read_timing_log(pth, file_index + i, max_issues=options.max_issues, advance=progress.advance))
    _check_usable(spec, [(log, log.frame.height) for log in logs], progress, warn)
    stage(f"aggregating {spec.label}")
    progress.describe(f"aggregating {spec.label}")
    return analyze(spec, logs, co_max_entries=options.co_max_entries, warmup_s=options.warmup_s)


def _read_out_of_core(
    spec: RunSpec, file_index: int, options: Options, progress: Progress, stage: Stage, warn: Warn, total: int
) -> list[RunResult]:
    stage(f"creating a temporary directory in {options.temp_dir or tempfile.gettempdir()}")
    held_bytes = options.max_in_memory_mib * 2**20
    with SpillStore(options.temp_dir, total_bytes=total, held_bytes=held_bytes) as store:
        scans = []
        for i, pth in enumerate(spec.paths):
            stage(f"reading {pth} (out of core, into {store.directory})")
            progress.describe(f"reading {pth.name}")
            scans.append(store.read(pth, file_index + i, max_issues=options.max_issues, advance=progress.advance))
        _check_usable(spec, [(s.log, s.rows) for s in scans], progress, warn)
        stage(f"aggregating {spec.label} (out of core, from {store.directory})")

        def describe(text: str) -> None:
            stage(text)
            progress.describe(text)

        return analyze_spilled(
            spec, scans, store, co_max_entries=options.co_max_entries, warmup_s=options.warmup_s, describe=describe
        )


def _check_usable(spec: RunSpec, logs: list[tuple[TimingLog, int]], progress: Progress, warn: Warn) -> None:
    """Raises InputError when no file of the spec has a usable record: (description, good records) per file."""
    if any(good for _, good in logs):
        return
    progress.close()
    for log, _ in logs:
        _warn_malformed(warn, log.path, log.records, log.malformed, log.issues)
    names = ", ".join(str(p) for p in spec.paths)
    raise InputError(f"{names}: no usable record (all {sum(log.records for log, _ in logs)} are malformed)")


def _read_jtls(
    paths: Sequence[Path], results: list[RunResult], max_issues: int, stage: Stage, warn: Warn
) -> tuple[list[JtlLog], dict[int | None, list[JtlLog]]]:
    """The .jtl files, and which run each belongs to (None: none)."""
    jtls = []
    for p in paths:
        stage(f"reading {p}")
        jtls.append(read_jtl(p, max_issues=max_issues))
    stage("making the tables")
    for j in jtls:
        _warn_malformed(warn, j.path, j.records, j.malformed, j.issues)
    assignment = assign_to_runs(jtls, [(r.start_ms, r.end_us // 1000) for r in results])
    jtl_by_run: dict[int | None, list[JtlLog]] = {}
    for j, idx in zip(jtls, assignment):
        jtl_by_run.setdefault(idx, []).append(j)
        if idx is None:
            warn(f"{j.path}: its samples overlap no run in time; shown apart", ())
    return jtls, jtl_by_run
