"""Per-run aggregation of timing logs: books per destination, latency distributions, per-second series.

:class:`RunAccumulator` adds up the records of one run, slice after slice (the in-memory path adds them at once,
the out-of-core one, spill.py, one slice of send time after the other), exactly: books and counts are sums,
latency distributions value->count histograms. :meth:`RunAccumulator.finish` turns the sums into a
:class:`~stomp_analysis.results.RunResult`, applying the policies of its pacing (pacing.py) and the words
(explain.py). Which records form a run, or its warm-up, is planned in runs.py; what the figures mean is
written in explain.py.

A message is identified by (h, run, sent_epoch_us, sender, destination) (see timing_log.py); its status is its
best outcome (ANSWERED, else FAILED, else LOST). Latency samples are the ANSWERED records; a latency that cannot
be recorded (negative, or 2**40 µs and more) is counted as *unrecordable* and left out of the latency figures and
of the per-second answers, while its message still counts as answered.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import polars as pl

from . import explain, pacing
from .hold_windows import NO_STEP, one_source
from .receipts import ReceiptAccumulator, take_before
from .results import (
    MIXED,
    TOTAL,
    UNKNOWN,
    Books,
    FileInfo,
    RunResult,
    RunSpec,
    ScheduleLag,
)
from .runs import FILE, FileScan, PartPlan, add_records, mark_part, plan_parts, windows
from .stats import Distribution, DistributionBuilder, KeyedHistograms, Serial
from .timing_log import ANSWERED, AWAIT_REPLY, FAILED, FIRE_AND_FORGET, LOST, TimingLog

__all__ = [
    "MIXED",
    "TOTAL",
    "UNKNOWN",
    "Books",
    "FileInfo",
    "RunAccumulator",
    "RunResult",
    "RunSpec",
    "ScheduleLag",
    "analyze",
    "analyze_run",
    "finish_parts",
]

#: Latencies at or above this many µs (~12.7 days) are not recordable (and keep the packed sort key in int64).
MAX_LATENCY_US = 1 << 40
#: Beyond this many seconds a run's per-second series lists only the seconds that had events.
MAX_FILLED_SECONDS = 1_000_000


def analyze(
    spec: RunSpec, logs: list[TimingLog], *, co_max_entries: int = 5_000_000, warmup_s: float = 0.0
) -> list[RunResult]:
    """The runs of a run spec, each with its warm-up apart (see runs.py), analysed in memory."""
    scans = [FileScan(i, log, windows(log.frame), log.frame.height) for i, log in enumerate(logs)]
    plans, table = plan_parts(spec, scans, warmup_s)
    accs = [RunAccumulator(p.spec, p.senders) for p in plans]
    for i, log in enumerate(logs):
        add_records(log.frame.with_columns(pl.lit(i, pl.Int64).alias(FILE)), table, accs)
    return finish_parts(plans, accs, co_max_entries=co_max_entries, warmup_s=warmup_s)


def finish_parts(
    plans: list[PartPlan], accs: list[RunAccumulator], *, co_max_entries: int, warmup_s: float
) -> list[RunResult]:
    """The results of the parts planned by runs.plan_parts, once their accumulators have every record."""
    results = []
    for plan, acc in zip(plans, accs):
        r = acc.finish(plan.logs, co_max_entries=co_max_entries)
        mark_part(r, plan.notes, warmup_s, plan.part)
        results.append(r)
    return results


def _senders(frame: pl.DataFrame) -> int:
    """Distinct senders of one file: sender names are per generator JVM and run."""
    run = frame.get_column("run")
    if run.min() == run.max():  # one run, or none (old logs)
        return frame.get_column("sender").n_unique()
    return frame.select(pl.struct("run", "sender").n_unique()).item()


def analyze_run(spec: RunSpec, logs: list[TimingLog], *, co_max_entries: int = 5_000_000) -> RunResult:
    """Analyses the records of ``logs`` as one run, unsplit (use :func:`analyze` to split a spec's runs first)."""
    frames = [(i, log.frame) for i, log in enumerate(logs) if log.frame.height]
    if not frames:
        raise ValueError(f"run {spec.label!r}: no usable records")
    # sender names are per generator JVM (one file) and run: "user-3" of two generators are two senders
    acc = RunAccumulator(spec, sum(_senders(f) for _, f in frames))
    acc.add(frames)
    return acc.finish(list(enumerate(logs)), co_max_entries=co_max_entries)


@dataclass
class _FileStats:
    rows: int = 0
    run_ids: set = field(default_factory=set)
    engines: set = field(default_factory=set)


class RunAccumulator:
    """The figures of one run, added up over slices of its records and finished into a RunResult.

    Each slice given to :meth:`add` must hold whole messages: all the records of a message carry its file, run and
    send time, so slices cut by file, run or send time do. The out-of-core path adds the slices in time order and
    calls :meth:`flush_answers` between them: the per-second answer percentiles are computed once a second can get
    no more answers, and each fire-and-forget sender's schedule carries its first send and send count from one
    slice to the next.

    ``senders`` (distinct senders per file and run, summed over the files) gives the expected interval of the
    pacing, needed before the first slice for the schedule lag.
    """

    def __init__(self, spec: RunSpec, senders: int) -> None:
        self.spec = spec
        self.senders = senders
        self.interval_us, self.interval_note = pacing.expected_interval_us(spec, senders)
        self.records = 0
        self.mixed = 0
        self.redelivered = 0  # REDELIVERED records: counted, left out of everything else
        self.mode_records = {AWAIT_REPLY: 0, FIRE_AND_FORGET: 0, UNKNOWN: 0}
        self._first_send_us: int | None = None
        self._last_send_us: int | None = None
        self._last_answer_us: int | None = None
        self._by_destination: list[pl.DataFrame] = []  # destination, status, te, n (messages)
        self._by_second: list[pl.DataFrame] = []  # epoch_s, status, n (messages by send second)
        self._failures: list[pl.DataFrame] = []  # detail, records
        self._unrecordable: dict[str, int] = {}
        self._latencies = KeyedHistograms()  # per destination code
        # per step key: a few million samples wait at most (no need to hold a slice's), and no total is wanted
        self._step_latencies = KeyedHistograms(min_pending=1 << 21, total=False) if spec.steps is not None else None
        self._destinations: dict[int, str] = {}  # destination code -> name
        self._closed: dict[str, bool] = {}  # destination -> all its records are await-reply
        self._files: dict[int, _FileStats] = {}
        self._pending_answers: list[pl.DataFrame] = []  # answer_us, latency_us
        self._answers_per_s: list[pl.DataFrame] = []  # epoch_s, answers, p50_us, p99_us
        self._schedule: dict[int, pl.DataFrame] = {}  # per file: run, sender, first, count, worst
        self._receipts = ReceiptAccumulator(MAX_LATENCY_US)
        self._lags = DistributionBuilder()
        self._lag_sends = 0
        # the books, failures, schedule lags and per-second answers of the slices are worked out on a thread of
        # their own, beside the rest (at most four of these jobs, about a slice's worth, waiting)
        self._background = Serial("accumulator", in_flight=4)

    # --- accumulation --------------------------------------------------------------------------------------

    def add(self, frames: list[tuple[int, pl.DataFrame]]) -> None:
        """Adds the records of one slice: ``(file key, reduced records of that file)`` pairs."""
        frames = [(k, f) for k, f in (self._without_redeliveries(k, f) for k, f in frames) if f.height]
        if not frames:
            return
        df = pl.concat([f for _, f in frames], how="vertical", rechunk=False) if len(frames) > 1 else frames[0][1]
        self.records += df.height
        self._add_files(frames)
        repeated = _repeated(df.get_column("h"))
        self._background.submit(self._add_messages, df, repeated)
        self._background.submit(self._add_failures, df)
        code_to_name = _category_names(df)
        self._add_latencies(df, code_to_name)
        self._receipts.add(df)
        fire_and_forget = self._add_modes(df, code_to_name)
        if self.interval_us and fire_and_forget:
            self._background.submit(self._add_schedule, frames, repeated)

    def _without_redeliveries(self, key: int, frame: pl.DataFrame) -> tuple[int, pl.DataFrame]:
        """``frame`` without its REDELIVERED records, which are counted: a message delivered again is not an answer,
        and nothing else (latency, books, per second) may see it."""
        again = frame.get_column("outcome") == "REDELIVERED"
        n = int(again.sum())
        if n == 0:
            return key, frame
        self.redelivered += n
        return key, frame.filter(~again)

    def _add_files(self, frames: list[tuple[int, pl.DataFrame]]) -> None:
        for k, f in frames:
            stats = self._files.setdefault(k, _FileStats())
            stats.rows += f.height
            stats.run_ids.update(_distinct(f.get_column("run")))
            stats.engines.update(e for e in _distinct(f.get_column("engine")) if e)

    def _add_failures(self, df: pl.DataFrame) -> None:
        self._failures.append(
            df.lazy()
            .filter(pl.col("outcome") == "FAILED")
            .group_by(pl.col("detail").cast(pl.String))
            .agg(pl.len().alias("records"))
            .collect()
        )

    def _add_messages(self, df: pl.DataFrame, repeated: pl.Series) -> None:
        """Books: the messages (one per distinct (h, run, sent_epoch_us, sender, destination)) counted by
        destination, status and test-ended, and by send second and status."""
        msgs, mixed = _messages(df, repeated)
        self.mixed += mixed
        by_destination, by_second = pl.collect_all(
            [
                msgs.group_by("destination", "status", "te").agg(pl.len().alias("n")),
                msgs.group_by("epoch_s", "status").agg(pl.len().alias("n")),
            ]
        )
        self._by_destination.append(by_destination)
        self._by_second.append(by_second)

    def _add_latencies(self, df: pl.DataFrame, code_to_name: dict[int, str]) -> None:
        """The ANSWERED records: histograms per destination, unrecordable ones counted, answers kept per second."""
        steps = self.spec.steps
        # the usual slice holds one engine's run: its answers' send times are all its steps need
        one = one_source(df) if steps is not None else None
        for_steps = ("run", "engine") if steps is not None and one is None else ()
        answered = (
            df.lazy()
            .filter(pl.col("outcome") == "ANSWERED")
            .select("destination", "sent_epoch_us", "latency_us", *for_steps)
        )
        recordable = (pl.col("latency_us") >= 0) & (pl.col("latency_us") < MAX_LATENCY_US)
        for dest, n in answered.filter(~recordable).group_by("destination").agg(pl.len()).collect().iter_rows():
            self._unrecordable[dest] = self._unrecordable.get(dest, 0) + n
        good = (
            answered.filter(recordable)
            .select(
                pl.col("destination").to_physical().alias("dest_code"),
                (pl.col("sent_epoch_us") + pl.col("latency_us")).alias("answer_us"),
                "latency_us",
                *for_steps,
                *(("sent_epoch_us",) if for_steps else ()),
            )
            .collect()
        )
        latency = good.get_column("latency_us").to_numpy()
        self._latencies.add(good.get_column("dest_code").to_numpy(), latency)
        if steps is not None:
            if one is not None:
                keys = steps.assign_sent(good.get_column("answer_us").to_numpy() - latency, one)
            else:
                keys = steps.assign(good)
            inside = keys != NO_STEP
            self._step_latencies.add(keys[inside], latency[inside])
        self._destinations.update(code_to_name)
        sent_us = df.get_column("sent_epoch_us")
        self._first_send_us = _min(self._first_send_us, int(sent_us.min()))
        self._last_send_us = _max(self._last_send_us, int(sent_us.max()))
        if good.height:
            self._last_answer_us = _max(self._last_answer_us, int(good.get_column("answer_us").max()))
            self._pending_answers.append(good.select("answer_us", "latency_us"))

    def _add_modes(self, df: pl.DataFrame, code_to_name: dict[int, str]) -> int:
        """Records per mode, and which destinations have await-reply records only; returns the slice's
        fire-and-forget records."""
        ar, ff, unknown = df.select(
            (pl.col("mode") == AWAIT_REPLY).sum().alias("ar"),
            (pl.col("mode") == FIRE_AND_FORGET).sum().alias("ff"),
            pl.col("mode").null_count().alias("unknown"),
        ).row(0)
        for m, n in ((AWAIT_REPLY, ar), (FIRE_AND_FORGET, ff), (UNKNOWN, unknown)):
            self.mode_records[m] += n
        if ff == 0 and unknown == 0:
            closed = dict.fromkeys(code_to_name.values(), True)
        elif ar == 0:
            closed = dict.fromkeys(code_to_name.values(), False)
        else:
            closed = dict(
                df.lazy()
                .group_by(pl.col("destination").cast(pl.String))
                .agg((pl.col("mode") == AWAIT_REPLY).fill_null(False).all())
                .collect()
                .iter_rows()
            )
        for dest, c in closed.items():
            self._closed[dest] = self._closed.get(dest, True) and c
        return ff

    def _add_schedule(self, frames: list[tuple[int, pl.DataFrame]], repeated: pl.Series) -> None:
        """Lag of every fire-and-forget send behind its sender's schedule (see ScheduleLag), per file.

        A sender is a (file, run, sender) triple; a message with several records (a broadcast) is one send. A
        sender seen in an earlier slice keeps its first send and counts its sends from there."""
        key = ["h", "run", "sender", "sent_epoch_us"]
        rep = repeated.unique().implode() if repeated.len() else None
        for k, f in frames:
            sent = f.lazy().filter(pl.col("mode") == FIRE_AND_FORGET).select(key)
            if rep is not None:
                is_rep = pl.col("h").is_in(rep)
                sent = pl.concat([sent.filter(~is_rep), sent.filter(is_rep).unique(subset=key)])
            sent = sent.select("run", "sender", "sent_epoch_us").collect()
            if not sent.height:
                continue
            lags, by_sender = _schedule_lags(sent, self._schedule.get(k), self.interval_us)
            self._lags.add(Distribution.from_samples(lags))
            self._lag_sends += lags.size
            self._schedule[k] = by_sender

    def flush_answers(self, before_s: int | None = None) -> None:
        """Computes the per-second answers and percentiles of the seconds before ``before_s`` (all when None): the
        caller promises that no later slice has answers in them."""
        self._receipts.flush(before_s)
        pending = take_before(self._pending_answers, "answer_us", before_s)
        if pending is not None:
            self._background.submit(lambda: self._answers_per_s.append(_answers_per_second(pending)))

    # --- the result ------------------------------------------------------------------------------------------

    def finish(self, logs: list[tuple[int, TimingLog]], *, co_max_entries: int = 5_000_000) -> RunResult:
        """The run's result; ``logs`` are its files (file key, description), in order, whether or not they had
        records in it."""
        self.flush_answers()
        self._latencies.flush()
        if self._step_latencies is not None:
            self._step_latencies.flush()
        self._background.wait()
        destinations, total = self._books()
        mode = pacing.run_mode(self.mode_records)
        interval_us = self.interval_us
        pacing.correct(
            pacing.books_to_correct(mode, interval_us, destinations, total, self._closed),
            interval_us,
            co_max_entries,
        )
        holds = pacing.holds_to_schedule(interval_us, self.mode_records)
        start_ms, end_us = self._first_send_us // 1000, _max(self._last_send_us, self._last_answer_us)
        result = RunResult(
            spec=self.spec,
            files=[self._file_info(k, log) for k, log in logs],
            records=self.records,
            start_ms=start_ms,
            last_send_ms=self._last_send_us // 1000,
            end_us=end_us,
            senders=self.senders,
            destinations=destinations,
            total=total,
            per_second=self._per_second(start_ms, end_us),
            failure_reasons=_sum_up(self._failures, ["detail"], "records").sort(
                ["records", "detail"], descending=[True, False]
            ),
            mixed_messages=self.mixed,
            redelivered=self.redelivered,
            interval_us=interval_us,
            interval_note=self.interval_note,
            mode=mode,
            mode_records=dict(self.mode_records),
            target_per_s=pacing.target_per_s(self.spec, self.senders, interval_us),
            schedule=self._schedule_lag() if holds else None,
            step_latency=self._step_latencies.result() if self._step_latencies is not None else {},
        )
        result.notes += explain.result_notes(result)
        return result

    def _books(self) -> tuple[list[Books], Books]:
        """The books of each destination (by name) and their TOTAL."""
        books: dict[str, Books] = {}

        def book(dest: str) -> Books:
            if dest not in books:
                books[dest] = Books(dest)
            return books[dest]

        for dest, st, te, n in _sum_up(self._by_destination, ["destination", "status", "te"], "n").iter_rows():
            b = book(dest)
            b.sent += n
            if st == ANSWERED:
                b.answered += n
            elif st == FAILED:
                b.failed += n
            elif st == LOST:
                b.lost += n
                if te:
                    b.lost_test_ended += n
        for dest, n in self._unrecordable.items():
            book(dest).unrecordable += n
            book(dest).replies += n
        for code, latency in self._latencies.result().items():
            b = book(self._destinations[code])
            b.latency = latency
            b.replies += b.latency.n  # replies = recordable + unrecordable ANSWERED records
        for code, receipt in self._receipts.per_destination().items():
            book(self._destinations[code]).receipt = receipt
        destinations = [books[k] for k in sorted(books)]
        total = Books(TOTAL)
        for b in destinations:
            for attr in ("sent", "answered", "lost", "lost_test_ended", "failed", "replies", "unrecordable"):
                setattr(total, attr, getattr(total, attr) + getattr(b, attr))
        total.latency = self._latencies.total()
        total.receipt = self._receipts.total()
        return destinations, total

    def _per_second(self, start_ms: int, end_us: int) -> pl.DataFrame:
        answers = (
            pl.concat(self._answers_per_s)
            if self._answers_per_s
            else _answers_per_second(pl.DataFrame(schema={"answer_us": pl.Int64, "latency_us": pl.Int64}))
        )
        per_second = _per_second(_sum_up(self._by_second, ["epoch_s", "status"], "n"), answers, start_ms, end_us)
        return self._receipts.join_per_second(per_second)

    def _file_info(self, key: int, log: TimingLog) -> FileInfo:
        stats = self._files.get(key, _FileStats())
        run_ids: tuple[int, ...] = ()
        engines: tuple[str, ...] = ()
        if stats.rows and not log.legacy:
            run_ids, engines = tuple(sorted(stats.run_ids)), tuple(sorted(stats.engines))
        return FileInfo(
            log.path,
            stats.rows + log.malformed,
            log.malformed,
            log.issues,
            log.validated_line_by_line,
            log.columns,
            log.versions,
            run_ids,
            engines,
        )

    def _schedule_lag(self) -> ScheduleLag | None:
        if not self._lag_sends:
            return None
        worst, worst_lag, senders = None, None, 0
        for k in sorted(self._schedule):
            by_sender = self._schedule[k].sort(
                pl.col("worst"), pl.col("sender").cast(pl.String), "run", descending=[True, False, False]
            )
            senders += by_sender.height
            _, name, _, _, most = by_sender.row(0)
            if worst_lag is None or most > worst_lag:
                worst, worst_lag = str(name), most
        return ScheduleLag(self.interval_us, senders, self._lag_sends, self._lags.result(), worst)


def _distinct(col: pl.Series) -> list:
    """The distinct values of ``col``, nulls left out; the usual one value (one run, one engine) without hashing."""
    if col.len() and not col.null_count() and (col == col[0]).all():
        return [col[0]]
    return [v for v in col.unique().to_list() if v is not None]


def _min(a: int | None, b: int | None) -> int | None:
    return b if a is None else a if b is None else min(a, b)


def _max(a: int | None, b: int | None) -> int | None:
    return b if a is None else a if b is None else max(a, b)


def _sum_up(parts: list[pl.DataFrame], keys: list[str], count: str) -> pl.DataFrame:
    """The partial counts of the slices added up per key (one slice: as it is)."""
    if len(parts) == 1:
        return parts[0]
    return pl.concat(parts).group_by(keys).agg(pl.col(count).sum())


def _answers_per_second(samples: pl.DataFrame) -> pl.DataFrame:
    """ANSWERED records per answer second (send time + latency), with their p50 and p99 latency."""
    return (
        samples.lazy()
        .group_by((pl.col("answer_us") // 1_000_000).alias("epoch_s"))
        .agg(
            pl.len().alias("answers"),
            pl.col("latency_us").quantile(0.5, "higher").alias("p50_us"),
            pl.col("latency_us").quantile(0.99, "higher").alias("p99_us"),
        )
        .collect()
    )


def _schedule_lags(sent: pl.DataFrame, state: pl.DataFrame | None, interval_us: int) -> tuple[np.ndarray, pl.DataFrame]:
    """The lags (µs) of ``sent`` (run, sender, sent_epoch_us: one file's sends in a slice) behind their senders'
    schedules, and each sender's first send, send count and worst lag, carried on from ``state`` (the same of the
    earlier slices). The k-th send of a sender (by send time, ties in file order) is due at its first send +
    k × ``interval_us``. Vectorised with two stable sorts (by time, then by sender: a radix sort on small codes)."""
    t = sent.get_column("sent_epoch_us").to_numpy()
    run = sent.get_column("run")
    if run.n_unique() == 1:
        group = sent.get_column("sender").to_physical().to_numpy()
        if group.max() < (1 << 16):
            group = group.astype(np.uint16)
    else:
        group = sent.select(pl.struct("run", pl.col("sender").to_physical()).rank("dense")).to_series().to_numpy()
    order = np.argsort(t, kind="stable")
    order = order[np.argsort(group[order], kind="stable")]
    ts, g = t[order], group[order]
    starts = np.flatnonzero(np.r_[True, g[1:] != g[:-1]])
    sends = np.diff(np.r_[starts, g.size])
    heads = (
        sent[order[starts]]
        .select("run", "sender")
        .with_columns(pl.Series("first", ts[starts]), pl.Series("count", sends.astype(np.int64)))
    )
    first, before = ts[starts], np.zeros(starts.size, np.int64)
    if state is not None:
        known = heads.join(state, on=["run", "sender"], how="left", maintain_order="left", nulls_equal=True)
        first = known.get_column("first_right").fill_null(known.get_column("first")).to_numpy()
        before = known.get_column("count_right").fill_null(0).to_numpy()
    rank = np.arange(g.size) - np.repeat(starts, sends)
    lags = ts - np.repeat(first + before * interval_us, sends) - rank * interval_us
    by_sender = heads.with_columns(pl.Series("worst", np.maximum.reduceat(lags, starts)))
    if state is not None:
        by_sender = (
            pl.concat([state, by_sender])
            .group_by("run", "sender")
            .agg(pl.col("first").min(), pl.col("count").sum(), pl.col("worst").max())
        )
    return lags, by_sender


def _repeated(h: pl.Series) -> pl.Series:
    """The message hashes found on more than one record of a slice (broadcasts, messages with several outcomes)."""
    hs = h.sort()
    return hs.filter(hs == hs.shift(1))


def _messages(df: pl.DataFrame, repeated: pl.Series) -> tuple[pl.LazyFrame, int]:
    """One row per message (destination, epoch_s, status, te) and how many messages have both ANSWERED and
    LOST/FAILED records. Records whose hash no other record has are messages as they are."""
    status = pl.col("outcome").to_physical().cast(pl.UInt8)
    epoch_s = (pl.col("sent_epoch_us") // 1_000_000).alias("epoch_s")
    if repeated.len() == 0:  # every record is its own message (no broadcast)
        return df.lazy().select("destination", epoch_s, status.alias("status"), "te"), 0
    is_rep = pl.col("h").is_in(repeated.unique().implode())
    single = df.lazy().filter(~is_rep).select("destination", epoch_s, status.alias("status"), "te")
    grouped = (
        df.lazy()
        .filter(is_rep)
        .group_by("h", "run", "sent_epoch_us", "sender", "destination")
        .agg(
            status.min().alias("status"),
            pl.col("te").any().alias("te"),
            (status.min() != status.max()).alias("mixed"),
        )
        .collect()
    )
    mixed = int(grouped.get_column("mixed").sum())
    return pl.concat([single, grouped.lazy().select("destination", epoch_s, "status", "te")], how="vertical"), mixed


def _category_names(df: pl.DataFrame) -> dict[int, str]:
    s = df.get_column("destination").unique()
    pairs = pl.DataFrame({"code": s.to_physical(), "name": s.cast(pl.String)})
    return dict(zip(pairs.get_column("code").to_list(), pairs.get_column("name").to_list()))


def _per_second(msg_counts: pl.DataFrame, answers: pl.DataFrame, start_ms: int, end_us: int) -> pl.DataFrame:
    sends = msg_counts.group_by("epoch_s").agg(
        pl.col("n").sum().alias("sends"),
        pl.col("n").filter(pl.col("status") == LOST).sum().alias("lost"),
        pl.col("n").filter(pl.col("status") == FAILED).sum().alias("failed"),
    )
    first_s, last_s = start_ms // 1000, end_us // 1_000_000
    if last_s - first_s + 1 <= MAX_FILLED_SECONDS:
        seconds = pl.DataFrame({"epoch_s": pl.int_range(first_s, last_s + 1, eager=True, dtype=pl.Int64)})
    else:
        seconds = pl.concat([sends.select("epoch_s"), answers.select("epoch_s")]).unique().sort("epoch_s")
    out = (
        seconds.join(sends, on="epoch_s", how="left")
        .join(answers, on="epoch_s", how="left")
        .with_columns(pl.col("sends", "answers", "lost", "failed").fill_null(0).cast(pl.Int64))
        .select(
            "epoch_s",
            (pl.col("epoch_s") - first_s).alias("t_s"),
            "sends",
            "answers",
            "lost",
            "failed",
            "p50_us",
            "p99_us",
        )
        .sort("epoch_s")
    )
    return out
