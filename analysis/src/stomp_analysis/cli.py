"""Command line: ``sockjs-stomp-aggregate`` / ``python3 analysis/aggregate.py``: the arguments, and what is printed;
the work is the pipeline's (pipeline.py)."""

from __future__ import annotations

from . import huge_pages  # noqa: F401  first: numpy reads its switch when it is imported (see huge_pages.py)

# isort: split

import argparse
import math
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path

from polars.exceptions import PanicException  # a polars panic is a BaseException

from . import InputError, __version__, explain
from .pipeline import DEFAULT_MAX_IN_MEMORY_MIB, Options, Stage, analyse, write_outputs
from .results import RunSpec
from .server_figures import SERVER_FIGURES_LOG
from .steps_log import STEPS_LOG

PROG = "sockjs-stomp-aggregate"

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
  %(prog)s gen1.csv gen2.csv --merge --label "500 users" --jtl results.jtl --messages-per-second 500 --out out/
  %(prog)s a.csv b.csv --label "100/s" --label "200/s" --messages-per-second 100 --messages-per-second 200
  %(prog)s stomp-timing.csv --steps stomp-steps.csv --server-figures stomp-server.csv --out report
  %(prog)s --server-figures stomp-server.csv

a stepped test (--steps; stomp-steps.csv beside the timing logs is found by default): its answer in one line
(what held, where it broke, whose limit: the server's or the generator's), then a table per step and, with --out,
steps.csv, the knee chart and the server's figures over time.

the server's figures (--server-figures; stomp-server.csv beside the timing logs is found by default): what each
session held cost the server and the generator in memory, and each message the server in CPU, in the words the run's
end said them on the console; with --out, memory_per_session.csv and cpu_per_message.csv.

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
    return _non_negative(text, "rate", "a number of messages per second", " (0 = unthrottled)")


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


def _count(text: str, zero_allowed: bool) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid count {text!r}: expected a whole number") from None
    if v < 0 or (v == 0 and not zero_allowed):
        raise argparse.ArgumentTypeError(f"invalid count {text!r}: must be {'>=' if zero_allowed else '>'} 0")
    return v


def positive_int(text: str) -> int:
    return _count(text, zero_allowed=False)


def non_negative_int(text: str) -> int:
    return _count(text, zero_allowed=True)


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
    p.add_argument(
        "timing_logs",
        nargs="*",
        type=Path,
        metavar="TIMING_LOG",
        help="reply-timing log(s) (CSV); may be left out when --steps or --server-figures is given (a connect test's "
        "steps or figures alone)",
    )
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
        "--messages-per-second",
        action="append",
        default=[],
        type=non_negative_rate,
        metavar="RATE",
        help="the target send rate for the whole test, send.jmx's messagesPerSecond (messages per second, all "
        "senders together; decimals allowed; 0 = unthrottled); one value for all runs or one per run. Each sender's "
        "expected interval = senders*1000/rate ms, used for the coordinated-omission correction (await-reply runs) "
        "or the send schedule (fire-and-forget runs)",
    )
    # The name the rate had in messages per minute: refused, naming the new one (refuse_target_rate).
    p.add_argument("--target-rate", action="append", default=[], help=argparse.SUPPRESS)
    pace.add_argument(
        "--expected-interval-ms",
        action="append",
        default=[],
        type=positive_ms,
        metavar="MS",
        help="each sender's expected interval between sends (ms), one value or one per run (instead of "
        "--messages-per-second)",
    )
    p.add_argument(
        "--steps",
        action="append",
        default=[],
        type=Path,
        metavar="FILE",
        help=f"a stepped test's steps log, repeatable (one per JMeter engine; default: {STEPS_LOG} next to the "
        "timing logs, if there is one): the answer in one line (what held, where it broke, whose limit), the "
        "steps table and the knee chart come first",
    )
    p.add_argument(
        "--server-figures",
        action="append",
        default=[],
        type=Path,
        metavar="FILE",
        help=f"the server's figures polled during the test, repeatable (default: {SERVER_FIGURES_LOG} next to the "
        "timing logs, if there is one): what each session held cost the server and the generator in memory, and each "
        "message the server in CPU; in a stepped test, also averaged over each step's hold and charted over time. "
        "The timing logs may be left out (a connect test's figures alone)",
    )
    p.add_argument(
        "--no-steps",
        action="store_true",
        help=f"do not look for {STEPS_LOG} and {SERVER_FIGURES_LOG} next to the timing logs",
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
    rates = _per_run(args.messages_per_second, len(groups), "--messages-per-second", parser)
    intervals = _per_run(args.expected_interval_ms, len(groups), "--expected-interval-ms", parser)
    return [
        RunSpec(label=label, paths=paths, messages_per_second=rate or None, expected_interval_ms=iv)
        for (label, paths), rate, iv in zip(groups.items(), rates, intervals)
    ]


def refuse_target_rate(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    """--target-rate was the rate in messages per minute: taken as per second it would put each sender's expected
    interval 60 times too short, so it is refused, naming --messages-per-second with the value it would take."""
    if not args.target_rate:
        return
    given = args.target_rate[0]
    try:
        per_minute = float(given)
    except ValueError:
        per_minute = math.nan
    example = ""
    if math.isfinite(per_minute) and per_minute >= 0:
        example = f": --target-rate {given} is --messages-per-second {explain.number(per_minute / 60)}"
    parser.error(
        "--target-rate (messages per minute) is now --messages-per-second (messages per second, as send.jmx's "
        f"messagesPerSecond){example}"
    )


def repeated_paths(paths: Sequence[Path]) -> list[Path]:
    """The mentions of a file that an earlier one already named (by its resolved path), in order."""
    seen: set[Path] = set()
    repeated = []
    for pth in paths:
        key = pth.resolve()
        if key in seen:
            repeated.append(pth)
        seen.add(key)
    return repeated


def found_next_to(timing_logs: Sequence[Path], name: str, off: bool, quiet: bool) -> list[Path]:
    """The files called ``name`` in the timing logs' directories (each directory once), said on stderr."""
    if off:
        return []
    found = []
    for d in dict.fromkeys(p.resolve().parent for p in timing_logs):
        if (d / name).is_file():
            found.append(d / name)
            _info(f"reading {d / name}, found next to the timing log (--no-steps: not)", quiet)
    return found


def pipeline_options(args: argparse.Namespace) -> Options:
    """The pipeline's options from the command line's."""
    return Options(
        max_issues=args.max_issues,
        co_max_entries=args.co_max_entries,
        warmup_s=args.warmup,
        max_in_memory_mib=args.max_in_memory,
        temp_dir=args.temp_dir,
        progress=None if not args.quiet else False,
    )


def _warn(msg: str, listed: Sequence[str] = ()) -> None:
    print(f"{PROG}: warning: {msg}", file=sys.stderr)
    for line in listed:
        print(f"  {line}", file=sys.stderr)


def _info(msg: str, quiet: bool) -> None:
    if not quiet:
        print(f"{PROG}: {msg}", file=sys.stderr)


def _failure(stage: Stage, e: BaseException) -> str:
    """One line: where it failed and why (the first line of the exception's message)."""
    if isinstance(e, MemoryError):
        why = "out of memory (a lower --max-in-memory aggregates big runs out of core)"
    else:
        text = str(e).strip().splitlines()
        why = type(e).__name__ + (f": {text[0][:300]}" if text else "")
    return f"{stage.text} failed: {why}"


def run(args: argparse.Namespace, parser: argparse.ArgumentParser, stage: Stage | None = None) -> int:
    """The command once its arguments are parsed: the pipeline, its warnings on stderr, the Markdown on stdout and,
    with --out, the files."""
    stage = stage or Stage()
    stage("checking the inputs")
    refuse_target_rate(args, parser)
    if not args.timing_logs and not args.steps and not args.server_figures:
        parser.error(
            "give the timing log(s), a stepped test's steps log(s) with --steps, or the server's figures with "
            "--server-figures"
        )
    specs = build_runs(args, parser) if args.timing_logs else []
    for pth in repeated_paths(args.timing_logs):
        _warn(f"{pth} is given more than once: its messages are counted once per mention")
    steps = args.steps or found_next_to(args.timing_logs, STEPS_LOG, args.no_steps, args.quiet)
    server = args.server_figures or found_next_to(args.timing_logs, SERVER_FIGURES_LOG, args.no_steps, args.quiet)
    analysis = analyse(
        specs,
        args.jtl,
        pipeline_options(args),
        out=args.out,
        stage=stage,
        warn=_warn,
        steps_paths=steps,
        server_paths=server,
    )
    stage("writing the tables to stdout")
    sys.stdout.write(analysis.markdown())
    sys.stdout.flush()
    if args.out is not None:
        written = write_outputs(analysis, args.out, charts=not args.no_charts, stage=stage)
        _info(f"wrote {len(written)} files to {args.out}: " + ", ".join(p.name for p in written), args.quiet)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
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
