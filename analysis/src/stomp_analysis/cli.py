"""Command line: ``sockjs-stomp-aggregate`` / ``python3 analysis/aggregate.py``."""

from __future__ import annotations

import argparse
import math
import os
import sys
import tempfile
import traceback
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from polars.exceptions import PanicException  # a polars panic is a BaseException

try:
    from numpy._core import multiarray as np_multiarray
except ImportError:  # numpy 1
    from numpy.core import multiarray as np_multiarray

from . import InputError, __version__, explain
from .aggregate import RunResult, RunSpec, analyze
from .jtl import _header as check_jtl_header
from .jtl import assign_to_runs, read_jtl
from .progress import Progress
from .spill import SpillStore, analyze_spilled
from .tables import Table, build_tables, markdown_document, per_second_frame
from .timing_log import TimingLog, check_header, read_timing_log

PROG = "sockjs-stomp-aggregate"
#: Runs whose timing logs total this many MiB or more are aggregated out of core (--max-in-memory).
DEFAULT_MAX_IN_MEMORY_MIB = 512

DESCRIPTION = """\
Aggregates the reply-timing logs written by the jmeter-sockjs-stomp plugin (one CSV line per outcome of a
sent message) into per-run/per-destination books and latency percentiles, per-second series and a comparison
across runs; optionally with JMeter .jtl result files. Markdown tables go to stdout; with --out, CSV files,
PNG charts and a self-contained report.html are written too."""

EPILOG = (
    """\
runs: each timing log is one run, labelled by its --label (in order) or its file name; logs given the same
--label form one run (e.g. several generators of one test); --merge puts all logs in one run. Records of
several test runs (the run column: runs appended to one file) are split into runs LABEL#1, LABEL#2, ...

"""
    + explain.EPILOG_COORDINATED_OMISSION
    + """

examples:
  %(prog)s results/timing.csv --out results/report
  %(prog)s gen1.csv gen2.csv --merge --label "500 users" --jtl results.jtl --target-rate 30000 --out out/
  %(prog)s a.csv b.csv --label "100/s" --label "200/s" --target-rate 6000 --target-rate 12000

big inputs: the timing logs of a run that total --max-in-memory MiB or more are aggregated out of core: read
once into compressed slices of send time under --temp-dir (about 12 bytes a record), then aggregated slice by
slice, with the same exact figures.

exit status: 0 success (malformed records are reported on stderr but do not fail the run), 2 bad usage or an
input file that cannot be used (missing, unreadable, empty, wrong header), 1 the aggregation failed (one line
says where and why; --traceback for Python's traceback)."""
)


# ----------------------------------------------------------------------------------------------------------
# argument types


def _non_negative(text: str, what: str, expected: str, bound: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid {what} {text!r}: expected {expected}") from None
    if not math.isfinite(v) or v < 0:
        raise argparse.ArgumentTypeError(f"invalid {what} {text!r}: must be >= 0{bound}")
    return v


def non_negative_rate(text: str) -> float:
    return _non_negative(text, "rate", "a number of messages per minute", " (0 = unthrottled)")


def non_negative_seconds(text: str) -> float:
    return _non_negative(text, "duration", "seconds", " s")


def positive_ms(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid interval {text!r}: expected milliseconds") from None
    if not math.isfinite(v) or v <= 0:
        raise argparse.ArgumentTypeError(f"invalid interval {text!r}: must be > 0 ms")
    return v


def positive_int(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid count {text!r}: expected a whole number") from None
    if v <= 0:
        raise argparse.ArgumentTypeError(f"invalid count {text!r}: must be > 0")
    return v


def non_negative_int(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid count {text!r}: expected a whole number") from None
    if v < 0:
        raise argparse.ArgumentTypeError(f"invalid count {text!r}: must be >= 0")
    return v


def label_text(text: str) -> str:
    if not text.strip():
        raise argparse.ArgumentTypeError(f"invalid label {text!r}: must not be blank")
    return text.strip()


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog=PROG,
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("timing_logs", nargs="+", type=Path, metavar="TIMING_LOG", help="reply-timing log(s) (CSV)")
    p.add_argument(
        "--label",
        action="append",
        default=[],
        type=label_text,
        metavar="TEXT",
        help="run label, repeatable, aligned with the timing logs in order (default: the file name); "
        "logs with the same label form one run",
    )
    p.add_argument("--merge", action="store_true", help="all timing logs form one run (several generators of one test)")
    p.add_argument(
        "--jtl",
        action="append",
        default=[],
        type=Path,
        metavar="FILE",
        help="JMeter CSV result file, repeatable; matched to runs in order when there are as many as runs, "
        "else by time overlap",
    )
    pace = p.add_mutually_exclusive_group()
    pace.add_argument(
        "--target-rate",
        action="append",
        default=[],
        type=non_negative_rate,
        metavar="MSGS_PER_MIN",
        help="the plan's Constant Throughput Timer target for the whole test (messages/minute; 0 = unthrottled); "
        "one value for all runs or one per run. Each sender's expected interval = senders*60000/rate ms, used for "
        "the coordinated-omission correction (await-reply runs) or the send schedule (fire-and-forget runs)",
    )
    pace.add_argument(
        "--expected-interval-ms",
        action="append",
        default=[],
        type=positive_ms,
        metavar="MS",
        help="each sender's expected interval between sends (ms), one value or one per run (instead of --target-rate)",
    )
    p.add_argument("--out", type=Path, metavar="DIR", help="write CSV files, PNG charts and report.html into DIR")
    p.add_argument("--no-charts", action="store_true", help="no PNG charts (report.html without charts)")
    p.add_argument("--quiet", action="store_true", help="no progress bar and no informational messages on stderr")
    p.add_argument(
        "--max-issues",
        type=non_negative_int,
        default=5,
        metavar="N",
        help="malformed records shown per file (default 5; all are counted)",
    )
    p.add_argument(
        "--co-max-entries",
        type=positive_int,
        default=5_000_000,
        metavar="N",
        help="cap on distinct synthetic values the CO correction may create (default 5000000; what the cap "
        "leaves out is counted and reported)",
    )
    p.add_argument(
        "--warmup",
        type=non_negative_seconds,
        default=0.0,
        metavar="SECONDS",
        help="show the messages sent in each run's first SECONDS apart, as the run '<label> warm-up', and leave "
        "them out of the run's own figures (default 0: no warm-up)",
    )
    p.add_argument(
        "--max-in-memory",
        type=non_negative_int,
        default=DEFAULT_MAX_IN_MEMORY_MIB,
        metavar="MIB",
        help=f"timing logs of a run totalling this many MiB or more are aggregated out of core, in slices of send "
        f"time spilled to --temp-dir (default {DEFAULT_MAX_IN_MEMORY_MIB}; 0: always)",
    )
    p.add_argument(
        "--temp-dir",
        type=Path,
        metavar="DIR",
        help="where out-of-core aggregation keeps its slices, about 12 bytes per record, removed at the end "
        "(default: the system's temporary directory, $TMPDIR)",
    )
    p.add_argument("--traceback", action="store_true", help="when the aggregation fails, print Python's traceback too")
    p.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    return p


# ----------------------------------------------------------------------------------------------------------


def _per_run(values: list, runs: int, option: str, parser: argparse.ArgumentParser) -> list:
    if not values:
        return [None] * runs
    if len(values) == 1:
        return values * runs
    if len(values) != runs:
        parser.error(f"{option} given {len(values)} times for {runs} run(s): give it once or once per run")
    return values


def build_runs(args: argparse.Namespace, parser: argparse.ArgumentParser) -> list[RunSpec]:
    files: list[Path] = args.timing_logs
    labels: list[str] = args.label
    if args.merge:
        if len(set(labels)) > 1:
            parser.error("--merge makes one run: give at most one --label")
        groups = {(labels[0] if labels else "merged"): list(files)}
    else:
        if len(labels) > len(files):
            parser.error(f"{len(labels)} --label for {len(files)} timing log(s)")
        names = list(labels)
        used = set(labels)
        for f in files[len(labels) :]:
            name, k = f.stem, 2
            while name in used:
                name, k = f"{f.stem}#{k}", k + 1
            used.add(name)
            names.append(name)
        groups: dict[str, list[Path]] = {}
        for name, f in zip(names, files):
            groups.setdefault(name, []).append(f)
    rates = _per_run(args.target_rate, len(groups), "--target-rate", parser)
    intervals = _per_run(args.expected_interval_ms, len(groups), "--expected-interval-ms", parser)
    return [
        RunSpec(label=label, paths=paths, target_rate_per_min=rate or None, expected_interval_ms=iv)
        for (label, paths), rate, iv in zip(groups.items(), rates, intervals)
    ]


def _warn(msg: str) -> None:
    print(f"{PROG}: warning: {msg}", file=sys.stderr)


def _info(msg: str, quiet: bool) -> None:
    if not quiet:
        print(f"{PROG}: {msg}", file=sys.stderr)


def _report_issues(path: Path, records: int, malformed: int, issues: list) -> None:
    if not malformed:
        return
    _warn(f"{path}: {malformed} malformed record(s) out of {records} skipped; the first {len(issues)}:")
    for i in issues:
        print(f"  {i}", file=sys.stderr)


def _unique_labels(results: list[RunResult]) -> None:
    """Runs split from a spec (LABEL#n) may meet a label given to another run: later ones get " (2)", ..."""
    used: set[str] = set()
    for r in results:
        label, k = r.label, 2
        while label in used:
            label, k = f"{r.label} ({k})", k + 1
        if label != r.label:
            r.spec = replace(r.spec, label=label)
        used.add(label)


class Stage:
    """What the command is doing, for the one-line message when something fails."""

    def __init__(self) -> None:
        self.text = "starting"

    def __call__(self, text: str) -> None:
        self.text = text


def _failure(stage: Stage, e: BaseException) -> str:
    """One line: where it failed and why (the first line of the exception's message)."""
    if isinstance(e, MemoryError):
        why = "out of memory (a lower --max-in-memory aggregates big runs out of core)"
    else:
        text = str(e).strip().splitlines()
        why = type(e).__name__ + (f": {text[0][:300]}" if text else "")
    return f"{stage.text} failed: {why}"


def _read_in_memory(spec: RunSpec, file_index: int, args, progress: Progress, stage: Stage) -> list[RunResult]:
    logs = []
    for i, pth in enumerate(spec.paths):
        stage(f"reading {pth}")
        progress.describe(f"reading {pth.name}")
        logs.append(read_timing_log(pth, file_index + i, max_issues=args.max_issues, advance=progress.advance))
    _check_usable(spec, [(log, log.frame.height) for log in logs], progress)
    stage(f"aggregating {spec.label}")
    progress.describe(f"aggregating {spec.label}")
    return analyze(spec, logs, co_max_entries=args.co_max_entries, warmup_s=args.warmup)


def _read_out_of_core(
    spec: RunSpec, file_index: int, args, progress: Progress, stage: Stage, total: int
) -> list[RunResult]:
    stage(f"creating a temporary directory in {args.temp_dir or tempfile.gettempdir()}")
    with SpillStore(args.temp_dir, total_bytes=total, held_bytes=args.max_in_memory * 2**20) as store:
        scans = []
        for i, pth in enumerate(spec.paths):
            stage(f"reading {pth} (out of core, into {store.directory})")
            progress.describe(f"reading {pth.name}")
            scans.append(store.read(pth, file_index + i, max_issues=args.max_issues, advance=progress.advance))
        _check_usable(spec, [(s.log, s.rows) for s in scans], progress)
        stage(f"aggregating {spec.label} (out of core, from {store.directory})")

        def describe(text: str) -> None:
            stage(text)
            progress.describe(text)

        return analyze_spilled(
            spec, scans, store, co_max_entries=args.co_max_entries, warmup_s=args.warmup, describe=describe
        )


def _check_usable(spec: RunSpec, logs: list[tuple[TimingLog, int]], progress: Progress) -> None:
    """Raises InputError when no file of the spec has a usable record: (description, good records) per file."""
    if any(good for _, good in logs):
        return
    progress.close()
    for log, _ in logs:
        _report_issues(log.path, log.records, log.malformed, log.issues)
    names = ", ".join(str(p) for p in spec.paths)
    raise InputError(f"{names}: no usable record (all {sum(log.records for log, _ in logs)} are malformed)")


def run(args: argparse.Namespace, parser: argparse.ArgumentParser, stage: Stage | None = None) -> int:
    stage = stage or Stage()
    specs = _check_inputs(args, parser, stage)
    results = _aggregate(specs, args, stage)
    stage("making the tables")
    _unique_labels(results)
    for r in results:
        for f in r.files:
            _report_issues(f.path, f.records, f.malformed, f.issues)
    jtls, jtl_by_run = _read_jtls(args.jtl, results, args.max_issues, stage)
    notes = [f"{r.label}: {n}" for r in results for n in r.notes]
    for n in notes:
        _warn(n)
    tables, inputs = build_tables(results, jtls, jtl_by_run)
    stage("writing the tables to stdout")
    sys.stdout.write(markdown_document(results, tables, inputs))
    sys.stdout.flush()
    if args.out is not None:
        per_second = per_second_frame(results, {k: v for k, v in jtl_by_run.items() if k is not None})
        _write_out(args, stage, results, jtls, [*tables, inputs], per_second, notes)
    return 0


def _check_inputs(args: argparse.Namespace, parser: argparse.ArgumentParser, stage: Stage) -> list[RunSpec]:
    """The run specs, once every input has been checked (before the long work starts)."""
    stage("checking the inputs")
    specs = build_runs(args, parser)
    seen: set[Path] = set()
    for pth in args.timing_logs:
        key = pth.resolve()
        if key in seen:
            _warn(f"{pth} is given more than once: its messages are counted once per mention")
        seen.add(key)
    for spec in specs:
        for pth in spec.paths:
            check_header(pth)
    for pth in args.jtl:
        check_jtl_header(pth)
    if args.out is not None:
        try:
            args.out.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise InputError(f"{args.out}: cannot create the output directory: {e.strerror or e}") from None
    return specs


def _aggregate(specs: list[RunSpec], args: argparse.Namespace, stage: Stage) -> list[RunResult]:
    """The runs of every spec, each spec in memory or out of core by its size."""
    total_bytes = sum(os.path.getsize(p) for s in specs for p in s.paths)
    progress = Progress(total_bytes, enabled=None if not args.quiet else False)
    results: list[RunResult] = []
    file_index = 0
    try:
        for spec in specs:
            spec_bytes = sum(os.path.getsize(p) for p in spec.paths)
            if spec_bytes >= args.max_in_memory * 2**20:
                results += _read_out_of_core(spec, file_index, args, progress, stage, spec_bytes)
            else:
                results += _read_in_memory(spec, file_index, args, progress, stage)
            file_index += len(spec.paths)
    finally:
        progress.close()
    return results


def _read_jtls(paths: list[Path], results: list[RunResult], max_issues: int, stage: Stage) -> tuple[list, dict]:
    """The .jtl files, and which run each belongs to (None: none)."""
    jtls = []
    for p in paths:
        stage(f"reading {p}")
        jtls.append(read_jtl(p, max_issues=max_issues))
    stage("making the tables")
    for j in jtls:
        _report_issues(j.path, j.records, j.malformed, j.issues)
    assignment = assign_to_runs(jtls, [(r.start_ms, r.end_us // 1000) for r in results])
    jtl_by_run: dict = {}
    for j, idx in zip(jtls, assignment):
        jtl_by_run.setdefault(idx, []).append(j)
        if idx is None:
            _warn(f"{j.path}: its samples overlap no run in time; shown apart")
    return jtls, jtl_by_run


def _write_out(args, stage: Stage, results, jtls, tables: list[Table], per_second, notes: list[str]) -> None:
    """The CSV files, the charts and report.html in --out."""
    d: Path = args.out
    stage(f"writing to {d}")
    *shown, inputs = tables
    written = [t.write_csv(d) for t in shown]
    ps_path = d / "per_second.csv"
    per_second.write_csv(ps_path, null_value="")
    written.append(ps_path)
    written.append(inputs.write_csv(d))
    charts = []
    if not args.no_charts:
        from .charts import write_charts  # matplotlib is only imported when charts are wanted

        charts = write_charts(results, per_second, d)
        written += [p for _, p in charts]
    from .report import write_html

    written.append(write_html(d / "report.html", runs=results, jtls=jtls, tables=tables, charts=charts, notes=notes))
    _info(f"wrote {len(written)} files to {d}: " + ", ".join(p.name for p in written), args.quiet)


def without_huge_pages() -> None:
    """Stops numpy from asking for transparent huge pages (it does for every array of 4 MiB and more): where the
    kernel's THP defrag setting is ``madvise`` (a common default, and this project's machines'), the first touch
    of each such array may compact memory first. The aggregation makes many short-lived arrays of a few million
    values: on 10 million real-shaped records, page faults were a fifth of the CPU (perf), and fewer without."""
    set_madvise = getattr(np_multiarray, "_set_madvise_hugepage", None)  # numpy's switch for NUMPY_MADVISE_HUGEPAGE
    if set_madvise is not None:
        set_madvise(False)


def main(argv: Sequence[str] | None = None) -> int:
    without_huge_pages()
    parser = build_parser()
    stage = Stage()
    args = None
    try:
        args = parser.parse_args(argv)
        return run(args, parser, stage)
    except SystemExit as e:  # argparse: --help, --version, usage errors
        return e.code if isinstance(e.code, int) else (0 if e.code is None else 2)
    except InputError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except (Exception, PanicException) as e:  # anything else inside the aggregation: one line, not a traceback
        print(f"{PROG}: error: {_failure(stage, e)}", file=sys.stderr)
        if args is not None and args.traceback:
            traceback.print_exc()
        return 1


if __name__ == "__main__":
    sys.exit(main())
