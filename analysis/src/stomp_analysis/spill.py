"""Out-of-core aggregation, for timing logs bigger than memory: each file is read once, its records are kept on
disk in slices of send time, and the slices are aggregated one at a time.

* Pass 1 (:meth:`SpillStore.read`) reads a file with the same fast and validating paths as the in-memory reader,
  in chunks of about a million records. Each chunk, reduced to the columns the aggregation needs (about 50 bytes a
  record), is cut by send time into *slices* of whole seconds and written to lz4-compressed Arrow IPC files
  (about 16 bytes a record) under a temporary directory. The slice length is chosen from the first chunk's send
  rate so that a slice holds about ``slice_records`` records. Pass 1 also keeps, per file, run id and sender, the
  first and the last send: the *send windows*.
* Between the passes (:func:`plan_parts`), the runs and warm-ups are planned from the send windows alone, by the
  same rules as :func:`~stomp_analysis.aggregate.split_runs` and :func:`~stomp_analysis.aggregate.split_warmup`:
  overlapping windows are one run, the warm-up ends ``--warmup`` seconds after a run's first send, and a sender
  belongs to a part when its window reaches into it (which gives each part's senders, hence its pacing).
* Pass 2 (:func:`analyze_spilled`) reads the slices in time order. Each record gets its part (run, warm-up or
  rest) from its file, run id and send time, and the part's :class:`~stomp_analysis.aggregate.RunAccumulator`
  adds it. All the records of a message carry its send time, so a slice holds whole messages; the answers of a
  second are complete once the slices up to it are read (an answer comes after its send), so per-second
  percentiles are computed then; every total, histogram and percentile is exact, as in memory.

Memory is bounded by one chunk in pass 1 and one slice in pass 2 (plus the value->count histograms, which grow
with the distinct latencies, not with the records). Disk: about 16 bytes a record under ``--temp-dir``, removed
at the end.
"""

from __future__ import annotations

import math
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import polars as pl

from . import InputError
from .aggregate import (
    RunAccumulator,
    RunResult,
    RunSpec,
    group_segments,
    legacy_note,
    mark_part,
    run_parts,
    warmup_cut_us,
    warmup_parts,
)
from .timing_log import FrameSink, TimingLog, stream_timing_log

#: Records per chunk handed over by the reader in pass 1.
CHUNK_RECORDS = 1_000_000
#: Records a slice of send time should hold (its length is chosen from the first chunk's send rate).
SLICE_RECORDS = 2_000_000
_I64_MAX = (1 << 63) - 1
_FILE = "_file"  # the file key column added to the records read back


@dataclass
class FileScan:
    """One timing log after pass 1: its description (the frame stays empty: the records are on disk), the send
    window of each of its senders, and how many good records it has."""

    key: int
    log: TimingLog
    windows: pl.DataFrame  # run, sender, first, last (µs)
    rows: int = 0


class SpillStore:
    """The slices written in pass 1, under a temporary directory of ``parent`` (removed by :meth:`close`)."""

    def __init__(
        self,
        parent: Path | None = None,
        *,
        total_bytes: int = 0,
        slice_records: int | None = None,
        slice_s: int | None = None,
    ) -> None:
        try:
            self.directory = Path(tempfile.mkdtemp(prefix="stomp-analysis-", dir=parent))
        except OSError as e:
            where = parent or tempfile.gettempdir()
            raise InputError(
                f"{where}: cannot create a temporary directory for --temp-dir: {e.strerror or e}"
            ) from None
        self.total_bytes = total_bytes
        self.slice_records = slice_records or SLICE_RECORDS
        self.slice_s = slice_s  # chosen by the first chunk unless given
        self.slices: dict[int, list[tuple[int, Path, int]]] = {}  # slice -> (file key, path, rows)
        self._written = 0

    def __enter__(self) -> SpillStore:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        shutil.rmtree(self.directory, ignore_errors=True)

    def read(
        self,
        path: Path,
        key: int,
        *,
        max_issues: int = 5,
        advance: Callable[[int], None] | None = None,
        chunk_records: int | None = None,
    ) -> FileScan:
        """Pass 1 for one file (``key`` as the in-memory reader's ``file_index``)."""
        sink = _SpillSink(self, key, path.stat().st_size)
        chunk = chunk_records or CHUNK_RECORDS
        log = stream_timing_log(path, key, sink, max_issues=max_issues, advance=advance, chunk_rows=chunk)
        return FileScan(key, log, sink.windows(), sink.rows)

    def _choose_slice_s(self, frame: pl.DataFrame, file_bytes: int) -> int:
        """Whole seconds holding about slice_records records, at the send rate of this first chunk (scaled to all
        the input, as if every file sent at this file's rate)."""
        t = frame.get_column("sent_epoch_us")
        span_s = max(1.0, (t.max() - t.min()) / 1e6)
        rate = frame.height / span_s * max(1.0, self.total_bytes / max(1, file_bytes))
        return max(1, math.floor(self.slice_records / rate))

    def _write(self, key: int, frame: pl.DataFrame) -> list[Path]:
        width = self.slice_s * 1_000_000
        t = frame.get_column("sent_epoch_us")
        first, last = t.min() // width, t.max() // width
        if first == last:  # records come about in send order: a chunk often falls in one slice
            parts = {(first,): frame}
        else:
            parts = frame.with_columns((pl.col("sent_epoch_us") // width).alias("_slice")).partition_by(
                "_slice", as_dict=True, include_key=False
            )
        written = []
        for (s,), part in parts.items():
            p = self.directory / f"{s}-{key}-{self._written}.arrow"
            self._written += 1
            part.write_ipc(p, compression="lz4")
            self.slices.setdefault(s, []).append((key, p, part.height))
            written.append(p)
        return written

    def _forget(self, paths: list[Path]) -> None:
        gone = set(paths)
        for s in list(self.slices):
            self.slices[s] = [e for e in self.slices[s] if e[1] not in gone]
            if not self.slices[s]:
                del self.slices[s]
        for p in paths:
            p.unlink(missing_ok=True)

    def rows(self, s: int) -> int:
        return sum(n for _, _, n in self.slices[s])

    def load(self, s: int, lo_s: int | None = None, hi_s: int | None = None) -> pl.DataFrame:
        """The records of slice ``s`` (those sent in seconds [lo_s, hi_s) when given), with their file key."""
        frames = []
        for key, p, _ in self.slices[s]:
            frame = pl.read_ipc(p)
            if lo_s is not None:
                t = frame.get_column("sent_epoch_us")
                frame = frame.filter((t >= lo_s * 1_000_000) & (t < hi_s * 1_000_000))
            frames.append(frame.with_columns(pl.lit(key, pl.Int64).alias(_FILE)))
        return pl.concat(frames, rechunk=False) if len(frames) > 1 else frames[0]

    def drop(self, s: int) -> None:
        for _, p, _ in self.slices.pop(s):
            p.unlink(missing_ok=True)


class _SpillSink(FrameSink):
    """Writes a file's chunks into the store's slices and keeps its senders' send windows."""

    def __init__(self, store: SpillStore, key: int, file_bytes: int) -> None:
        super().__init__()
        self.store, self.key, self.file_bytes = store, key, file_bytes
        self.rows = 0
        self._paths: list[Path] = []
        self._windows: list[pl.DataFrame] = []

    def put(self, frame: pl.DataFrame) -> None:
        if not frame.height:
            return
        if self.store.slice_s is None:
            self.store.slice_s = self.store._choose_slice_s(frame, self.file_bytes)
        self.rows += frame.height
        self._windows.append(_windows(frame))
        self._paths += self.store._write(self.key, frame)

    def reset(self) -> None:
        self.store._forget(self._paths)
        self._paths, self._windows, self.rows = [], [], 0

    def windows(self) -> pl.DataFrame:
        if not self._windows:
            return pl.DataFrame(schema={"run": pl.Int64, "sender": pl.Categorical, "first": pl.Int64, "last": pl.Int64})
        return _windows(pl.concat(self._windows), "first", "last")


def _windows(frame: pl.DataFrame, first: str = "sent_epoch_us", last: str = "sent_epoch_us") -> pl.DataFrame:
    """First and last send per run id and sender."""
    return frame.group_by("run", "sender").agg(pl.col(first).min().alias("first"), pl.col(last).max().alias("last"))


@dataclass
class PartPlan:
    """One run to be analysed: a run of a spec, or its warm-up or rest (see aggregate.analyze)."""

    spec: RunSpec
    logs: list[tuple[int, TimingLog]]  # its files (key, description), malformed records with the first run
    notes: list[str]
    part: str | None  # "warm-up", "rest", or None when the run is not split
    senders: int


def plan_parts(spec: RunSpec, scans: list[FileScan], warmup_s: float) -> tuple[list[PartPlan], pl.DataFrame]:
    """The runs (and warm-ups) of a spec from its senders' send windows, and the part of each record: a table of
    file key, run id, ``lo``, ``hi`` and ``cut``: records sent before ``cut`` belong to part ``lo``, the others to
    part ``hi``."""
    windows = pl.concat(
        [s.windows.with_columns(pl.lit(s.key, pl.Int64).alias(_FILE)) for s in scans], how="vertical"
    ).select(_FILE, "run", "sender", "first", "last")
    segments = windows.group_by(_FILE, "run").agg(pl.col("first").min(), pl.col("last").max())
    every = list(segments.select(_FILE, "run").iter_rows())  # (file, run id) of every segment
    if any(s.log.legacy for s in scans):  # old logs have no run id: never split (see split_runs)
        legacy = {s.key for s in scans if s.log.legacy}
        groups = [(0, every)]
        runs = [(spec, legacy_note({r for f, r in every if f not in legacy}))]
    else:
        groups = group_segments([(a, b, f, r) for f, r, a, b in segments.iter_rows()])
        runs = run_parts(spec, groups)
    if len(groups) <= 1:  # one run: every file, with its malformed records
        groups = [(0, every)]
    group_of = {member: g for g, (_, members) in enumerate(groups) for member in members}
    groups_of_file = {s.key: sorted({g for (f, _), g in group_of.items() if f == s.key}) for s in scans}
    plans: list[PartPlan] = []
    mapping = []  # (file, run, lo, hi, cut)
    for g, ((run_spec, run_note), (_, members)) in enumerate(zip(runs, groups)):
        logs = []
        for s in scans:
            mine = groups_of_file[s.key]
            if g in mine or (g == 0 and not mine):
                first = not mine or mine[0] == g  # a file's malformed records go with its first run
                logs.append((s.key, s.log if first else replace(s.log, malformed=0, issues=[])))
        members_df = pl.DataFrame(members, schema={_FILE: pl.Int64, "run": pl.Int64}, orient="row")
        mine_w = windows.join(members_df, on=[_FILE, "run"], how="semi", nulls_equal=True)
        cut = None
        if warmup_s > 0 and mine_w.height:
            cut = warmup_cut_us(mine_w.get_column("first").min(), warmup_s)
            warm_n = mine_w.filter(pl.col("first") < cut).height
            main_n = mine_w.filter(pl.col("last") >= cut).height
            if not warm_n or not main_n:
                cut = None
        if cut is None:
            lo = hi = len(plans)
            plans.append(PartPlan(run_spec, logs, [run_note], None, mine_w.height))
            cut = _I64_MAX
        else:
            (warm_spec, warm_note), (main_spec, main_note) = warmup_parts(run_spec, warmup_s)
            warm_logs = [(k, replace(log, malformed=0, issues=[])) for k, log in logs]
            lo, hi = len(plans), len(plans) + 1
            plans.append(PartPlan(warm_spec, warm_logs, [run_note, warm_note], "warm-up", warm_n))
            plans.append(PartPlan(main_spec, logs, [run_note, main_note], "rest", main_n))
        mapping += [(f, r, lo, hi, cut) for f, r in members]
    table = pl.DataFrame(
        mapping,
        schema={_FILE: pl.Int64, "run": pl.Int64, "lo": pl.Int64, "hi": pl.Int64, "cut": pl.Int64},
        orient="row",
    )
    return plans, table


def analyze_spilled(
    spec: RunSpec,
    scans: list[FileScan],
    store: SpillStore,
    *,
    co_max_entries: int = 5_000_000,
    warmup_s: float = 0.0,
    describe: Callable[[str], None] | None = None,
) -> list[RunResult]:
    """Pass 2: the runs of ``spec`` from the slices of ``store``, as aggregate.analyze gives them in memory."""
    describe = describe or (lambda text: None)
    plans, table = plan_parts(spec, scans, warmup_s)
    accs = [RunAccumulator(p.spec, p.senders) for p in plans]
    slices = sorted(store.slices)
    for n, s in enumerate(slices, start=1):
        describe(f"aggregating {spec.label}: slice {n}/{len(slices)}")
        # a slice much fuller than planned (the send rate grew) is read in parts of whole seconds
        start_s, slice_s = s * store.slice_s, store.slice_s
        pieces = min(slice_s, math.ceil(store.rows(s) / (2 * store.slice_records)))
        step = math.ceil(slice_s / pieces)
        for lo_s in range(start_s, start_s + slice_s, step):
            hi_s = min(lo_s + step, start_s + slice_s)
            frame = store.load(s, lo_s, hi_s) if pieces > 1 else store.load(s)
            _add_slice(frame, table, accs)
            del frame
            for acc in accs:  # later slices hold later sends, hence later answers
                acc.flush_answers(before_s=hi_s)
        store.drop(s)
    results = []
    for plan, acc in zip(plans, accs):
        r = acc.finish(plan.logs, co_max_entries=co_max_entries)
        mark_part(r, plan.notes, warmup_s, plan.part)
        results.append(r)
    return results


def _add_slice(frame: pl.DataFrame, table: pl.DataFrame, accs: list[RunAccumulator]) -> None:
    if not frame.height:
        return
    files, runs = frame.get_column(_FILE), frame.get_column("run")
    if files.min() == files.max() and runs.min() == runs.max() and runs.null_count() in (0, frame.height):
        # one file and run id (the usual slice): its part(s) without a join
        key, run = files[0], runs[0]
        (lo, hi, cut), *_ = (
            table.filter((pl.col(_FILE) == key) & (pl.col("run").eq_missing(pl.lit(run, pl.Int64))))
            .select("lo", "hi", "cut")
            .rows()
        )
        records = frame.drop(_FILE)
        if lo == hi or records.get_column("sent_epoch_us").max() < cut:
            accs[lo].add([(key, records)])
        elif records.get_column("sent_epoch_us").min() >= cut:
            accs[hi].add([(key, records)])
        else:
            early = pl.col("sent_epoch_us") < cut
            accs[lo].add([(key, records.filter(early))])
            accs[hi].add([(key, records.filter(~early))])
        return
    part = pl.when(pl.col("sent_epoch_us") < pl.col("cut")).then(pl.col("lo")).otherwise(pl.col("hi"))
    frame = frame.join(table, on=[_FILE, "run"], how="left", nulls_equal=True, maintain_order="left").with_columns(
        part.alias("_part")
    )
    for (p,), records in frame.partition_by("_part", as_dict=True).items():
        by_file = records.drop("lo", "hi", "cut", "_part").partition_by(_FILE, as_dict=True, include_key=False)
        accs[p].add(sorted(((k, f) for (k,), f in by_file.items()), key=lambda kf: kf[0]))
