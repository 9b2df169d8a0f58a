"""Runs and warm-ups: which records of a run spec are analysed together, planned once for both paths.

Each file contributes one *segment* per ``run`` id (a file may hold several runs appended one after the
other). The engines of one distributed test write one file each and name their run by their own start time, so
their run ids differ although they are one test: segments are grouped by time, the segments whose send windows
(first to last send) overlap forming one run (overlaps.group_segments, the rule stepped tests share). Several groups
give the runs ``<label>#1``, ``<label>#2``, ... in time order (the order of their run ids). Files of the old format
have no run id: a spec with one of them is never split. Malformed records of a file, which belong to no run, are
counted with the first of its runs.

With a warm-up, each run is split once more by send time: the messages sent in its first ``warmup_s`` seconds
(from its first send) are its warm-up, analysed as a run of its own, so it is shown apart, never dropped. All
records of a message carry its send time, so a message (and its replies) falls wholly on one side. A run whose
sends all fall on one side is not split.

The plan (:func:`plan_parts`) needs only the send window of every sender (per file and run id): the in-memory
path computes them from its frames, the out-of-core one keeps them while it spills. Each part's senders are
those whose window reaches into it, which gives its pacing interval before any record is added. Then
:func:`add_records` hands each record to the accumulator of its part.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import polars as pl

from .explain import legacy_note, run_part_note, warmup_notes
from .overlaps import group_segments
from .results import RunResult, RunSpec
from .timing_log import TimingLog

#: The file key column of the records handed to add_records.
FILE = "_file"
_I64_MAX = (1 << 63) - 1


@dataclass
class FileScan:
    """One timing log of a spec: its key, its description, the send window of each of its senders, and how many
    good records it has."""

    key: int
    log: TimingLog
    windows: pl.DataFrame  # run, sender, first, last (µs)
    rows: int = 0


@dataclass
class PartPlan:
    """One part to be analysed: a run of a spec, or its warm-up or rest."""

    spec: RunSpec
    logs: list[tuple[int, TimingLog]]  # its files (key, description), malformed records with the first run
    notes: list[str]
    part: str | None  # "warm-up", "rest", or None when the run is not split
    senders: int


def windows(frame: pl.DataFrame, first: str = "sent_epoch_us", last: str = "sent_epoch_us") -> pl.DataFrame:
    """First and last send per run id and sender."""
    span = pl.col(first).min().alias("first"), pl.col(last).max().alias("last")
    run = frame.get_column("run")
    # lazy: polars' default engine groups in about two thirds of the CPU time of the eager group_by
    if not run.len() or run.null_count() not in (0, run.len()) or run.min() != run.max():
        return frame.lazy().group_by("run", "sender").agg(*span).collect()
    # one run id (or none), the usual chunk: grouped by the sender's code alone, a third of the two-key group-by
    return (
        frame.lazy()
        .group_by(pl.col("sender").to_physical().alias("_code"))
        .agg(pl.col("run").first(), pl.col("sender").first(), *span)
        .drop("_code")
        .collect()
    )


def run_parts(spec: RunSpec, groups: list[tuple[int, list[tuple[int, int]]]]) -> list[tuple[RunSpec, str]]:
    """The spec and note of each run of ``groups`` (see overlaps.group_segments): the spec itself when there is one run,
    else ``<label>#1``, ``<label>#2``, ... with a note each."""
    if len(groups) <= 1:
        return [(spec, "")]
    out = []
    for n, (_, members) in enumerate(groups, start=1):
        note = run_part_note(spec.label, n, len(groups), sorted({r for _, r in members}))
        out.append((replace(spec, label=f"{spec.label}#{n}"), note))
    return out


def warmup_cut_us(start_us: int, warmup_s: float) -> int:
    """The first send time (µs) after a run's warm-up: messages sent before it are its warm-up."""
    return start_us + round(warmup_s * 1_000_000)


def _runs(spec: RunSpec, scans: list[FileScan], segments: pl.DataFrame) -> tuple[list, list[tuple[RunSpec, str]]]:
    """The runs of a spec: the (file, run id) segments of each, and its spec and note."""
    every = list(segments.select(FILE, "run").iter_rows())  # (file, run id) of every segment
    if any(s.log.legacy for s in scans):  # old logs have no run id: never split
        legacy = {s.key for s in scans if s.log.legacy}
        return [(0, every)], [(spec, legacy_note({r for f, r in every if f not in legacy}))]
    groups = group_segments([(a, b, f, r) for f, r, a, b in segments.iter_rows()])
    runs = run_parts(spec, groups)
    return (groups if len(groups) > 1 else [(0, every)]), runs


def _files_of_run(g: int, scans: list[FileScan], runs_of_file: dict[int, list[int]]) -> list[tuple[int, TimingLog]]:
    """The files of run ``g``: those with records in it; a file's malformed records go with its first run, and a
    file without any usable record goes with the first run."""
    logs = []
    for s in scans:
        mine = runs_of_file[s.key]
        if g in mine or (g == 0 and not mine):
            first = not mine or mine[0] == g
            logs.append((s.key, s.log if first else replace(s.log, malformed=0, issues=[])))
    return logs


def _warmup_cut(senders: pl.DataFrame, warmup_s: float) -> tuple[int | None, int, int]:
    """Where a run's warm-up ends (None: not split) and the senders of its warm-up and of its rest, from the send
    windows of its senders."""
    if warmup_s <= 0 or not senders.height:
        return None, 0, 0
    cut = warmup_cut_us(senders.get_column("first").min(), warmup_s)
    warm_n = senders.filter(pl.col("first") < cut).height
    main_n = senders.filter(pl.col("last") >= cut).height
    return (cut if warm_n and main_n else None), warm_n, main_n


def plan_parts(spec: RunSpec, scans: list[FileScan], warmup_s: float) -> tuple[list[PartPlan], pl.DataFrame]:
    """The runs (and warm-ups) of a spec from its senders' send windows, and the part of each record: a table of
    file key, run id, ``lo``, ``hi`` and ``cut``: records sent before ``cut`` belong to part ``lo``, the others to
    part ``hi``."""
    every_window = pl.concat(
        [s.windows.with_columns(pl.lit(s.key, pl.Int64).alias(FILE)) for s in scans], how="vertical"
    ).select(FILE, "run", "sender", "first", "last")
    segments = every_window.group_by(FILE, "run").agg(pl.col("first").min(), pl.col("last").max())
    groups, runs = _runs(spec, scans, segments)
    group_of = {member: g for g, (_, members) in enumerate(groups) for member in members}
    runs_of_file = {s.key: sorted({g for (f, _), g in group_of.items() if f == s.key}) for s in scans}
    plans: list[PartPlan] = []
    mapping = []  # (file, run, lo, hi, cut)
    for g, ((run_spec, run_note), (_, members)) in enumerate(zip(runs, groups)):
        logs = _files_of_run(g, scans, runs_of_file)
        members_df = pl.DataFrame(members, schema={FILE: pl.Int64, "run": pl.Int64}, orient="row")
        senders = every_window.join(members_df, on=[FILE, "run"], how="semi", nulls_equal=True)
        cut, warm_n, main_n = _warmup_cut(senders, warmup_s)
        lo = len(plans)
        if cut is None:
            plans.append(PartPlan(run_spec, logs, [run_note], None, senders.height))
        else:
            warm_spec = replace(run_spec, label=f"{run_spec.label} warm-up")
            warm_note, main_note = warmup_notes(run_spec.label, warm_spec.label, warmup_s)
            warm_logs = [(k, replace(log, malformed=0, issues=[])) for k, log in logs]
            plans.append(PartPlan(warm_spec, warm_logs, [run_note, warm_note], "warm-up", warm_n))
            plans.append(PartPlan(run_spec, logs, [run_note, main_note], "rest", main_n))
        mapping += [(f, r, lo, len(plans) - 1, _I64_MAX if cut is None else cut) for f, r in members]
    table = pl.DataFrame(
        mapping,
        schema={FILE: pl.Int64, "run": pl.Int64, "lo": pl.Int64, "hi": pl.Int64, "cut": pl.Int64},
        orient="row",
    )
    return plans, table


def mark_part(r: RunResult, notes: list[str], warmup_s: float, part: str | None) -> None:
    """Puts the notes of how a run was split first, and says whether it is a warm-up part or has one."""
    r.notes[:0] = [n for n in notes if n]
    r.warmup_s = warmup_s if part else 0.0
    r.is_warmup = part == "warm-up"


def add_records(frame: pl.DataFrame, table: pl.DataFrame, accs: list) -> None:
    """Hands the records of ``frame`` (with their file key, FILE) to the accumulators of their parts (see
    plan_parts). ``frame`` must hold whole messages."""
    if not frame.height:
        return
    files, runs = frame.get_column(FILE), frame.get_column("run")
    if files.min() == files.max() and runs.min() == runs.max() and runs.null_count() in (0, frame.height):
        _add_one_segment(frame, table, accs)  # one file and run id (the usual slice): its part(s) without a join
        return
    part = pl.when(pl.col("sent_epoch_us") < pl.col("cut")).then(pl.col("lo")).otherwise(pl.col("hi"))
    frame = frame.join(table, on=[FILE, "run"], how="left", nulls_equal=True, maintain_order="left").with_columns(
        part.alias("_part")
    )
    for (p,), records in frame.partition_by("_part", as_dict=True).items():
        by_file = records.drop("lo", "hi", "cut", "_part").partition_by(FILE, as_dict=True, include_key=False)
        accs[p].add(sorted(((k, f) for (k,), f in by_file.items()), key=lambda kf: kf[0]))


def _add_one_segment(frame: pl.DataFrame, table: pl.DataFrame, accs: list) -> None:
    key, run = frame.get_column(FILE)[0], frame.get_column("run")[0]
    (lo, hi, cut), *_ = (
        table.filter((pl.col(FILE) == key) & (pl.col("run").eq_missing(pl.lit(run, pl.Int64))))
        .select("lo", "hi", "cut")
        .rows()
    )
    records = frame.drop(FILE)
    sent = records.get_column("sent_epoch_us")
    if lo == hi or sent.max() < cut:
        accs[lo].add([(key, records)])
    elif sent.min() >= cut:
        accs[hi].add([(key, records)])
    else:
        early = pl.col("sent_epoch_us") < cut
        accs[lo].add([(key, records.filter(early))])
        accs[hi].add([(key, records.filter(~early))])
