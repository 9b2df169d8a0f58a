"""Out-of-core aggregation, for timing logs bigger than memory: each file is read once, its records are kept in
slices of send time (in memory, or on disk beyond a budget), and the slices are aggregated one at a time.

* Pass 1 (:meth:`SpillStore.read`) reads a file with the same fast and validating paths as the in-memory reader,
  in chunks of about a million records. Each chunk, reduced to the columns the aggregation needs (about 50 bytes a
  record), is cut by send time into *slices* of whole seconds, held in memory as long as they fit ``held_bytes``
  (``--max-in-memory``), else written to zstd-compressed Arrow IPC files (about 12 bytes a record) under a temporary
  directory. The slice length is chosen from the first chunk's send rate so that a slice holds about
  ``slice_records`` records. Pass 1 also keeps, per file, run id and sender, the first and the last send: the *send
  windows*.
* Between the passes (:func:`~stomp_analysis.runs.plan_parts`, as in memory), the runs and warm-ups are planned
  from the send windows alone: overlapping windows are one run, the warm-up ends ``--warmup`` seconds after a
  run's first send, and a sender belongs to a part when its window reaches into it (which gives each part's
  senders, hence its pacing).
* Pass 2 (:func:`analyze_spilled`) reads the slices in time order. Each record gets its part (run, warm-up or
  rest) from its file, run id and send time, and the part's :class:`~stomp_analysis.aggregate.RunAccumulator`
  adds it. All the records of a message carry its send time, so a slice holds whole messages; the answers of a
  second are complete once the slices up to it are read (an answer comes after its send), so per-second
  percentiles are computed then; every total, histogram and percentile is exact, as in memory.

Memory is bounded by the slices held, one chunk in pass 1 and a few slices in pass 2 (the one aggregated, the next
one read ahead, and the parts of about one more whose books, schedule lags and histograms are added on threads of
their own), plus the value->count histograms, which grow with the distinct (destination, latency) pairs, not with
the records. Disk: about 12 bytes a record not held, under ``--temp-dir``, removed at the end.
"""

from __future__ import annotations

import math
import shutil
import tempfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import polars as pl

from . import InputError
from .aggregate import RunAccumulator, finish_parts
from .results import RunResult, RunSpec
from .runs import FILE, FileScan, add_records, plan_parts, windows
from .timing_log import FrameSink, stream_timing_log

#: Records per chunk handed over by the reader in pass 1.
CHUNK_RECORDS = 1_000_000
#: A chunk spanning fewer slices than this is cut by one filter a slice (in order; 2.6 ms a million records for three
#: slices, against 20 for partition_by).
_FILTERED_SLICES = 8
#: Records a slice of send time should hold (its length is chosen from the first chunk's send rate).
SLICE_RECORDS = 2_000_000


class SpillStore:
    """The slices written in pass 1, under a temporary directory of ``parent`` (removed by :meth:`close`)."""

    def __init__(
        self,
        parent: Path | None = None,
        *,
        total_bytes: int = 0,
        slice_records: int | None = None,
        slice_s: int | None = None,
        held_bytes: int = 0,
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
        # slice -> (file key, its file, or its records while they are held in memory, rows)
        self.slices: dict[int, list[tuple[int, Path | pl.DataFrame, int]]] = {}
        self._written = 0
        self.held_bytes = held_bytes  # how much of the slices may be held in memory instead of written
        self._held = 0
        self._coded: list[str] = []  # the categorical columns, written as their codes

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

    def _write(self, key: int, frame: pl.DataFrame) -> list[Path | pl.DataFrame]:
        width = self.slice_s * 1_000_000
        t = frame.get_column("sent_epoch_us")
        first, last = t.min() // width, t.max() // width
        if first == last:  # records come about in send order: a chunk often falls in one slice
            parts = {(first,): frame}
        elif last - first < _FILTERED_SLICES:  # or in a few: a filter each is a tenth of partition_by's hashing
            of = t // width
            parts = {(s,): frame.filter(of == s) for s in range(first, last + 1)}
        else:
            parts = frame.with_columns((pl.col("sent_epoch_us") // width).alias("_slice")).partition_by(
                "_slice", as_dict=True, include_key=False
            )
        written = []
        for (s,), part in parts.items():
            if not part.height:
                continue
            written.append(self._keep(part, self.directory / f"{s}-{key}-{self._written}.arrow"))
            self._written += 1
            self.slices.setdefault(s, []).append((key, written[-1], part.height))
        return written

    def _keep(self, part: pl.DataFrame, path: Path) -> Path | pl.DataFrame:
        """Holds ``part`` in memory while the budget allows (neither compressed, written nor read back), else writes
        it to ``path``, its categoricals as their codes: these stay valid within this process (polars' categories
        are global), and Arrow's dictionaries cost a quarter of the write's CPU and a fifth of the read's."""
        size = part.estimated_size()
        if self._held + size <= self.held_bytes:
            self._held += size
            return part
        self._coded = [c for c, t in part.schema.items() if t == pl.Categorical]  # the same in every part
        part.with_columns(pl.col(self._coded).to_physical()).write_ipc(path, compression="zstd")
        return path

    def _release(self, where: Path | pl.DataFrame) -> None:
        if isinstance(where, Path):
            where.unlink(missing_ok=True)
        else:
            self._held -= where.estimated_size()

    def _forget(self, written: list[Path | pl.DataFrame]) -> None:
        gone = {id(w) for w in written}
        for s in list(self.slices):
            self.slices[s] = [e for e in self.slices[s] if id(e[1]) not in gone]
            if not self.slices[s]:
                del self.slices[s]
        for w in written:
            self._release(w)

    def rows(self, s: int) -> int:
        return sum(n for _, _, n in self.slices[s])

    def load(self, s: int, lo_s: int | None = None, hi_s: int | None = None) -> pl.DataFrame:
        """The records of slice ``s`` (those sent in seconds [lo_s, hi_s) when given), with their file key."""
        frames = []
        for key, where, _ in self.slices[s]:
            frame = where
            if isinstance(where, Path):  # Expr.cat.to is marked unstable in polars 2: the tests would say if it went
                frame = pl.read_ipc(where).with_columns(pl.col(self._coded).cat.to(pl.Categorical))
            if lo_s is not None:
                t = frame.get_column("sent_epoch_us")
                frame = frame.filter((t >= lo_s * 1_000_000) & (t < hi_s * 1_000_000))
            frames.append(frame.with_columns(pl.lit(key, pl.Int64).alias(FILE)))
        return pl.concat(frames, rechunk=False) if len(frames) > 1 else frames[0]

    def drop(self, s: int) -> None:
        for _, where, _ in self.slices.pop(s):
            self._release(where)


class _SpillSink(FrameSink):
    """Writes a file's chunks into the store's slices and keeps its senders' send windows."""

    def __init__(self, store: SpillStore, key: int, file_bytes: int) -> None:
        super().__init__()
        self.store, self.key, self.file_bytes = store, key, file_bytes
        self.rows = 0
        self._paths: list[Path | pl.DataFrame] = []
        self._windows: list[pl.DataFrame] = []

    def put(self, frame: pl.DataFrame) -> None:
        if not frame.height:
            return
        if self.store.slice_s is None:
            self.store.slice_s = self.store._choose_slice_s(frame, self.file_bytes)
        self.rows += frame.height
        self._windows.append(windows(frame))
        self._paths += self.store._write(self.key, frame)

    def reset(self) -> None:
        self.store._forget(self._paths)
        self._paths, self._windows, self.rows = [], [], 0

    def windows(self) -> pl.DataFrame:
        if not self._windows:
            return pl.DataFrame(schema={"run": pl.Int64, "sender": pl.Categorical, "first": pl.Int64, "last": pl.Int64})
        return windows(pl.concat(self._windows), "first", "last")


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
    reads = []  # (slice, [lo_s, hi_s) or None for the whole slice, whether it is the slice's last read)
    for s in slices:
        # a slice much fuller than planned (the send rate grew) is read in parts of whole seconds
        start_s, slice_s = s * store.slice_s, store.slice_s
        pieces = min(slice_s, math.ceil(store.rows(s) / (2 * store.slice_records)))
        step = math.ceil(slice_s / pieces)
        for lo_s in range(start_s, start_s + slice_s, step):
            hi_s = min(lo_s + step, start_s + slice_s)
            reads.append((s, (lo_s, hi_s) if pieces > 1 else None, hi_s, hi_s == start_s + slice_s))

    def load(i: int) -> pl.DataFrame:
        s, bounds, _, _ = reads[i]
        return store.load(s, *bounds) if bounds else store.load(s)

    # the next read is loaded (decompressed) on a thread of its own while this one is aggregated
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="slices") as pool:
        ahead = pool.submit(load, 0) if reads else None
        for i, (s, _, hi_s, last) in enumerate(reads):
            describe(f"aggregating {spec.label}: slice {slices.index(s) + 1}/{len(slices)}")
            frame = ahead.result()
            ahead = pool.submit(load, i + 1) if i + 1 < len(reads) else None
            add_records(frame, table, accs)
            del frame
            for acc in accs:  # later slices hold later sends, hence later answers
                acc.flush_answers(before_s=hi_s)
            if last:  # the read ahead is of a later slice
                store.drop(s)
    return finish_parts(plans, accs, co_max_entries=co_max_entries, warmup_s=warmup_s)
