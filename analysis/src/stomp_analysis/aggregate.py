"""Per-run aggregation of timing logs: books per destination, latency distributions, per-second series.

Books are kept per message (distinct msg_id within a file and run): a message is *answered* when it has at least
one ANSWERED record, otherwise *failed* when it has a FAILED record, otherwise *lost*. So
``sent = answered + lost + failed`` always holds, and ``loss % = lost / sent``. A broadcast answered by N
receivers has N ANSWERED records: one answered message, N replies, N latency samples.

Latency samples are the ANSWERED records. A latency that cannot be recorded (negative, or 2**40 µs and
more) is counted as *unrecordable* and left out of the latency figures and of the per-second answers; the
message still counts as answered.

Runs: the records of one run spec (one file, or the files of several generators) that carry several ``run`` ids
are split into separate runs by :func:`split_runs` before the analysis. Within one analysed run, a message is
still identified with its run id, so equal msg_ids of two runs are never merged.

Treatment (coordinated omission): the expected-interval correction is applied only where it is valid, i.e.
when the senders await their replies (``mode`` await-reply, a closed loop, in which a slow reply delays the
sender's next send). Fire-and-forget senders (open loop) are not held back by slow replies: their latencies are
left uncorrected and, with a pacing, the lag of every send behind its sender's schedule is reported instead.
Old logs without a mode column keep the former behaviour (corrected whenever a pacing is given), and say so.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
import polars as pl

from .stats import CoCorrected, Distribution, DistributionBuilder, co_correct
from .timing_log import ANSWERED, AWAIT_REPLY, FAILED, FIRE_AND_FORGET, LOST, TimingLog

#: Latencies at or above this many µs (~12.7 days) are not recordable (and keep the packed sort key in int64).
MAX_LATENCY_US = 1 << 40
#: Beyond this many seconds a run's per-second series lists only the seconds that had events.
MAX_FILLED_SECONDS = 1_000_000
TOTAL = "TOTAL"
#: The mode of a run whose records carry no mode (old logs), and of one whose records carry several.
UNKNOWN, MIXED = "unknown", "mixed"


@dataclass
class RunSpec:
    label: str
    paths: list[Path]
    target_rate_per_min: float | None = None  # Constant Throughput Timer target for the whole run
    expected_interval_ms: float | None = None  # per sender

    @property
    def pacing(self) -> str:
        if self.expected_interval_ms:
            return f"{number(self.expected_interval_ms)} ms/sender"
        if self.target_rate_per_min:
            return f"{number(self.target_rate_per_min)} msg/min"
        return "unthrottled"


def number(x: float) -> str:
    """A plain number without exponent: 1200000, 2.5, 0.125."""
    if float(x).is_integer():
        return str(int(x))
    return f"{x:.3f}".rstrip("0").rstrip(".")


@dataclass
class Books:
    """Figures of one destination (or the TOTAL) of one run."""

    destination: str
    sent: int = 0
    answered: int = 0
    lost: int = 0
    lost_test_ended: int = 0
    failed: int = 0
    replies: int = 0  # ANSWERED records (> answered for broadcasts)
    unrecordable: int = 0  # ANSWERED records whose latency could not be recorded
    latency: Distribution = field(default_factory=Distribution.empty)
    co: CoCorrected | None = None

    @property
    def loss_pct(self) -> float | None:
        return 100.0 * self.lost / self.sent if self.sent else None


@dataclass
class FileInfo:
    path: Path
    records: int
    malformed: int
    issues: list
    validated_line_by_line: bool
    legacy: bool = False  # old 9-column format
    versions: tuple[str, ...] = ()  # plugin versions
    run_ids: tuple[int, ...] = ()  # distinct run ids of this file's records in the run
    engines: tuple[str, ...] = ()


@dataclass
class ScheduleLag:
    """How far fire-and-forget senders fell behind their schedule.

    The k-th send (k = 0, 1, ...) of a sender (per file and run) was due at its first send + k × the expected
    interval; its lag is its actual send time (sent_epoch_us) minus that. Negative lags are sends ahead of
    schedule."""

    interval_us: int
    senders: int
    sends: int
    lag: Distribution  # µs, over every send of every sender
    worst_sender: str | None = None  # the sender with the largest lag


@dataclass
class RunResult:
    spec: RunSpec
    files: list[FileInfo]
    records: int
    start_ms: int
    last_send_ms: int
    end_us: int  # last send or last answer, µs since epoch
    senders: int
    destinations: list[Books]
    total: Books
    per_second: pl.DataFrame  # epoch_s, sends, answers, lost, failed, p50_us, p99_us
    failure_reasons: pl.DataFrame  # detail, records
    mixed_messages: int  # messages with ANSWERED and LOST/FAILED records (counted answered)
    interval_us: int | None = None  # each sender's expected interval (from the pacing), µs
    interval_note: str = ""
    notes: list[str] = field(default_factory=list)
    mode: str = UNKNOWN  # await-reply, fire-and-forget, mixed or unknown (old logs)
    mode_records: dict[str, int] = field(default_factory=dict)  # records per mode (unknown = without a mode)
    target_per_s: float | None = None  # sends per second the pacing asks for (whole run)
    schedule: ScheduleLag | None = None  # fire-and-forget sends vs their schedule (needs a pacing)
    treatment_reason: str = ""  # which CO treatment the run got and why (see treatment)
    warmup_s: float = 0.0  # the run's first seconds shown apart as its warm-up (0: none)
    is_warmup: bool = False  # this is the warm-up part of a run

    @property
    def label(self) -> str:
        return self.spec.label

    @property
    def treatment(self) -> str:
        """One sentence: the run's treatment (CO correction or not, schedule lag) and why."""
        reason = self.treatment_reason
        if self.warmup_s and not self.is_warmup:
            reason = (
                f"{reason.rstrip('.')}; the messages of its first {number(self.warmup_s)} s are shown apart as warm-up."
            )
        return f"run {self.label}: {reason}"

    @property
    def co_corrected(self) -> list[Books]:
        """The books (destinations, then TOTAL) that have CO-corrected figures."""
        return [b for b in [*self.destinations, self.total] if b.co is not None]

    @property
    def span_s(self) -> float:
        return max(0.0, (self.end_us - self.start_ms * 1000) / 1e6)

    @property
    def malformed(self) -> int:
        return sum(f.malformed for f in self.files)

    @property
    def send_window_s(self) -> float:
        return (self.last_send_ms - self.start_ms) / 1000.0

    def rate(self, count: int) -> float | None:
        """count per second over the run's span (first send to last send or reply)."""
        span = self.span_s
        return count / span if span > 0 else None

    @property
    def achieved_tps(self) -> float | None:
        """Messages sent per second over the send window (first to last send)."""
        w = self.send_window_s
        return self.total.sent / w if w > 0 else None


def expected_interval_us(spec: RunSpec, senders: int) -> tuple[int | None, str]:
    """Each sender's expected interval between sends, and how it was obtained."""
    if spec.expected_interval_ms:
        return max(1, round(spec.expected_interval_ms * 1000)), f"{number(spec.expected_interval_ms)} ms given"
    if spec.target_rate_per_min and senders:
        ms = senders * 60000.0 / spec.target_rate_per_min
        note = f"{senders} senders × 60000 / {number(spec.target_rate_per_min)} msg/min = {ms:.3f} ms"
        return max(1, round(ms * 1000)), note
    return None, ""


def group_segments(segments: list[tuple[int, int, int, int]]) -> list[tuple[int, list[tuple[int, int]]]]:
    """Groups the segments ``(start_us, end_us, file, run)`` (one per file and run id: its first and last send) into
    runs: segments whose send windows overlap are one run. Returns ``(end_us, [(file, run), ...])`` per run, in time
    order (the order of their run ids)."""
    groups: list[list] = []  # [end_us, [(file, run), ...]]
    for start, end, i, run in sorted(segments):
        if groups and start <= groups[-1][0]:
            groups[-1][0] = max(groups[-1][0], end)
            groups[-1][1].append((i, run))
        else:
            groups.append([end, [(i, run)]])
    return [(end, members) for end, members in groups]


def legacy_note(run_ids: set[int]) -> str:
    """The note of a run spec holding old-format logs, which is never split (see split_runs)."""
    if len(run_ids) <= 1:
        return ""
    return (
        f"{len(run_ids)} run ids in the new-format logs, but the old-format log(s) have none to match them "
        "with: analysed as one run (messages of different run ids are still told apart)."
    )


def run_parts(spec: RunSpec, groups: list[tuple[int, list[tuple[int, int]]]]) -> list[tuple[RunSpec, str]]:
    """The spec and note of each run of ``groups`` (see group_segments): the spec itself when there is one run,
    else ``<label>#1``, ``<label>#2``, ... with a note each."""
    if len(groups) <= 1:
        return [(spec, "")]
    out = []
    for n, (_, members) in enumerate(groups, start=1):
        ids = ", ".join(str(r) for r in sorted({r for _, r in members}))
        note = (
            f"run {n} of the {len(groups)} runs that the timing log(s) of {spec.label!r} hold, told apart by their "
            f"run column (run id(s) {ids}) and analysed apart."
        )
        out.append((replace(spec, label=f"{spec.label}#{n}"), note))
    return out


def split_runs(spec: RunSpec, logs: list[TimingLog]) -> list[tuple[RunSpec, list[TimingLog], str]]:
    """Splits a run spec whose records hold several test runs into one spec per run, with a note for each.

    Each file contributes one *segment* per distinct ``run`` id (a file may hold several runs appended one after
    the other). The engines of one distributed test write one file each and name their run by their own start
    time, so their run ids differ although they are one test: segments are therefore grouped by time, the
    segments whose send windows (first to last send) overlap forming one run. Several groups give the runs
    ``<label>#1``, ``<label>#2``, ... in time order (the order of their run ids). Files of the old format have
    no run id: a spec with one of them is never split. Malformed records of a file, which belong to no run,
    are counted in the first of its runs.
    """
    if any(log.legacy for log in logs):
        ids = {r for log in logs if not log.legacy for r in log.frame.get_column("run").unique().to_list()}
        return [(spec, logs, legacy_note(ids))]
    segments = []  # (start_us, end_us, log index, run id)
    for i, log in enumerate(logs):
        if log.frame.height:
            windows = log.frame.group_by("run").agg(
                pl.col("sent_epoch_us").min().alias("start"), pl.col("sent_epoch_us").max().alias("end")
            )
            segments += [(start, end, i, run) for run, start, end in windows.iter_rows()]
    groups = group_segments(segments)
    if len(groups) <= 1:
        return [(spec, logs, "")]
    group_of = {member: g for g, (_, members) in enumerate(groups) for member in members}
    parts: list[list[TimingLog]] = [[] for _ in groups]
    for i, log in enumerate(logs):
        mine = {g for (j, _), g in group_of.items() if j == i}
        if not mine:  # no usable record: listed with the first run
            parts[0].append(log)
            continue
        if len(mine) == 1:
            pieces = {mine.pop(): log.frame}
        else:
            pieces: dict[int, pl.DataFrame] = {}
            for (run,), frame in log.frame.partition_by("run", as_dict=True).items():
                g = group_of[(i, run)]
                pieces[g] = pl.concat([pieces[g], frame]) if g in pieces else frame
        for k, g in enumerate(sorted(pieces)):
            first = k == 0
            parts[g].append(
                TimingLog(
                    path=log.path,
                    frame=pieces[g],
                    records=pieces[g].height + (log.malformed if first else 0),
                    malformed=log.malformed if first else 0,
                    issues=log.issues if first else [],
                    validated_line_by_line=log.validated_line_by_line,
                    legacy=log.legacy,
                    versions=log.versions,
                )
            )
    return [(s, part, note) for (s, note), part in zip(run_parts(spec, groups), parts)]


def warmup_parts(spec: RunSpec, warmup_s: float) -> tuple[tuple[RunSpec, str], tuple[RunSpec, str]]:
    """The spec and note of a run's warm-up part and of its rest (see split_warmup)."""
    warm_label = f"{spec.label} warm-up"
    warm_note = (
        f"warm-up of {spec.label!r}: the messages sent in its first {number(warmup_s)} s (--warmup), shown "
        f"apart; {spec.label!r} holds the rest."
    )
    main_note = (
        f"the messages sent in the first {number(warmup_s)} s (--warmup) are left out of these figures and "
        f"shown apart as {warm_label!r}."
    )
    return (replace(spec, label=warm_label), warm_note), (spec, main_note)


def warmup_cut_us(start_us: int, warmup_s: float) -> int:
    """The first send time (µs) after a run's warm-up: messages sent before it are its warm-up."""
    return start_us + round(warmup_s * 1_000_000)


def split_warmup(
    spec: RunSpec, logs: list[TimingLog], warmup_s: float
) -> list[tuple[RunSpec, list[TimingLog], str, str | None]]:
    """Splits one run into its warm-up, the messages sent in its first ``warmup_s`` seconds (from its first
    send), and the rest; each is analysed as a run of its own, so the warm-up is shown apart, never dropped.

    All records of a message carry its send time, so a message (and its replies) falls wholly on one side and
    the books of both parts hold. Malformed records stay with the main part. A run whose sends all fall in the
    warm-up, or ``warmup_s`` of 0, is not split. Each part comes with its note and which part it is:
    ``"warm-up"``, ``"rest"``, or None for a run not split.
    """
    frames = [log.frame for log in logs if log.frame.height]
    if warmup_s <= 0 or not frames:
        return [(spec, logs, "", None)]
    cut_us = warmup_cut_us(min(f.get_column("sent_epoch_us").min() for f in frames), warmup_s)
    warm_logs, main_logs = [], []
    for log in logs:
        early = pl.col("sent_epoch_us") < cut_us
        warm, main = log.frame.filter(early), log.frame.filter(~early)
        warm_logs.append(replace(log, frame=warm, records=warm.height, malformed=0, issues=[]))
        main_logs.append(replace(log, frame=main, records=main.height + log.malformed))
    warm_n = sum(log.frame.height for log in warm_logs)
    main_n = sum(log.frame.height for log in main_logs)
    if main_n == 0 or warm_n == 0:
        return [(spec, logs, "", None)]
    (warm_spec, warm_note), (main_spec, main_note) = warmup_parts(spec, warmup_s)
    return [(warm_spec, warm_logs, warm_note, "warm-up"), (main_spec, main_logs, main_note, "rest")]


def analyze(
    spec: RunSpec, logs: list[TimingLog], *, co_max_entries: int = 5_000_000, warmup_s: float = 0.0
) -> list[RunResult]:
    """The runs of a run spec (see split_runs), each with its warm-up apart (see split_warmup), analysed."""
    results = []
    for sub_spec, sub_logs, note in split_runs(spec, logs):
        for part_spec, part_logs, warm_note, part in split_warmup(sub_spec, sub_logs, warmup_s):
            r = analyze_run(part_spec, part_logs, co_max_entries=co_max_entries)
            mark_part(r, [note, warm_note], warmup_s, part)
            results.append(r)
    return results


def mark_part(r: RunResult, notes: list[str], warmup_s: float, part: str | None) -> None:
    """Puts the notes of how a run was split first, and says whether it is a warm-up part or has one."""
    r.notes[:0] = [n for n in notes if n]
    r.warmup_s = warmup_s if part else 0.0
    r.is_warmup = part == "warm-up"


def _senders(frame: pl.DataFrame) -> int:
    """Distinct senders of one file: sender names are per generator JVM and run."""
    run = frame.get_column("run")
    if run.min() == run.max():  # one run, or none (old logs)
        return frame.get_column("sender").n_unique()
    return frame.select(pl.struct("run", "sender").n_unique()).item()


def analyze_run(spec: RunSpec, logs: list[TimingLog], *, co_max_entries: int = 5_000_000) -> RunResult:
    """Analyses the records of ``logs`` as one run (use :func:`analyze` to split a spec's runs first)."""
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
    send time, so slices cut by file, run or send time do. The in-memory path adds a run's records at once; the
    out-of-core path (spill.py) adds them one slice of send time after the other, in time order, and calls
    :meth:`flush_answers` between slices. Everything is kept exact: books and counts are sums, latency
    distributions are value->count histograms added up, the per-second answer percentiles are computed once a
    second can get no more answers, and each fire-and-forget sender's schedule carries its first send and send
    count from one slice to the next.

    ``senders`` (distinct senders per file and run, summed over the files) gives the expected interval of the
    pacing, needed before the first slice for the schedule lag.
    """

    def __init__(self, spec: RunSpec, senders: int) -> None:
        self.spec = spec
        self.senders = senders
        self.interval_us, self.interval_note = expected_interval_us(spec, senders)
        self.records = 0
        self.mixed = 0
        self.mode_records = {AWAIT_REPLY: 0, FIRE_AND_FORGET: 0, UNKNOWN: 0}
        self._first_send_us: int | None = None
        self._last_send_us: int | None = None
        self._last_answer_us: int | None = None
        self._msg_counts: list[pl.DataFrame] = []  # destination, epoch_s, status, te, n
        self._failures: list[pl.DataFrame] = []  # detail, records
        self._unrecordable: dict[str, int] = {}
        self._dists: dict[str, DistributionBuilder] = {}
        self._closed: dict[str, bool] = {}  # destination -> all its records are await-reply
        self._files: dict[int, _FileStats] = {}
        self._pending_answers: list[pl.DataFrame] = []  # answer_us, latency_us
        self._answers_per_s: list[pl.DataFrame] = []  # epoch_s, answers, p50_us, p99_us
        self._schedule: dict[int, pl.DataFrame] = {}  # per file: run, sender, first, count, worst
        self._lags = DistributionBuilder()
        self._lag_sends = 0

    def add(self, frames: list[tuple[int, pl.DataFrame]]) -> None:
        """Adds the records of one slice: ``(file key, reduced records of that file)`` pairs."""
        frames = [(k, f) for k, f in frames if f.height]
        if not frames:
            return
        df = pl.concat([f for _, f in frames], how="vertical", rechunk=False) if len(frames) > 1 else frames[0][1]
        self.records += df.height
        for k, f in frames:
            stats = self._files.setdefault(k, _FileStats())
            stats.rows += f.height
            stats.run_ids.update(r for r in f.get_column("run").unique().to_list() if r is not None)
            stats.engines.update(e for e in f.get_column("engine").unique().cast(pl.String).to_list() if e)

        # --- messages: one row per distinct (file, run, msg_id), identified by (h, run, sent_epoch_us, sender, dest.)
        status = pl.col("outcome").to_physical().cast(pl.UInt8)
        test_ended = (pl.col("detail") == "test-ended").fill_null(False)
        epoch_s = (pl.col("sent_epoch_us") // 1_000_000).alias("epoch_s")
        h = df.get_column("h")
        hs = h.sort()
        repeated = hs.filter(hs == hs.shift(1))
        if repeated.len() == 0:  # every record is its own message (no broadcast)
            msgs = df.lazy().select("destination", epoch_s, status.alias("status"), test_ended.alias("te"))
        else:
            is_rep = h.is_in(repeated.unique().implode())
            single = (
                df.lazy().filter(~is_rep).select("destination", epoch_s, status.alias("status"), test_ended.alias("te"))
            )
            grouped = (
                df.lazy()
                .filter(is_rep)
                .group_by("h", "run", "sent_epoch_us", "sender", "destination")
                .agg(
                    status.min().alias("status"),
                    (test_ended & (pl.col("outcome") == "LOST")).any().alias("te"),
                    (status.min() != status.max()).alias("mixed"),
                )
                .collect()
            )
            self.mixed += int(grouped.get_column("mixed").sum())
            grouped_msgs = grouped.lazy().select("destination", epoch_s, "status", "te")
            msgs = pl.concat([single, grouped_msgs], how="vertical")
        self._msg_counts.append(
            msgs.group_by("destination", "epoch_s", "status", "te").agg(pl.len().alias("n")).collect()
        )

        # --- latency samples --------------------------------------------------------------------------------
        answered = (
            df.lazy().filter(pl.col("outcome") == "ANSWERED").select("destination", "sent_epoch_us", "latency_us")
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
            )
            .collect()
        )
        code_to_name = _category_names(df)
        for code, dist in _distributions_by_code(good).items():
            self._dists.setdefault(code_to_name[code], DistributionBuilder()).add(dist)
        sent_us = df.get_column("sent_epoch_us")
        self._first_send_us = _min(self._first_send_us, int(sent_us.min()))
        self._last_send_us = _max(self._last_send_us, int(sent_us.max()))
        if good.height:
            self._last_answer_us = _max(self._last_answer_us, int(good.get_column("answer_us").max()))
            self._pending_answers.append(good.drop("dest_code"))
        del good
        self._failures.append(
            df.lazy()
            .filter(pl.col("outcome") == "FAILED")
            .group_by(pl.col("detail").cast(pl.String))
            .agg(pl.len().alias("records"))
            .collect()
        )

        # --- modes, and which destinations have await-reply records only ---------------------------------------
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
        if self.interval_us and ff:
            self._add_schedule(frames, repeated)

    def _add_schedule(self, frames: list[tuple[int, pl.DataFrame]], repeated: pl.Series) -> None:
        """Lag of every fire-and-forget send behind its sender's schedule (see ScheduleLag), vectorised per file.

        A sender is a (file, run, sender) triple; a message with several records (a broadcast) is one send. A
        sender seen in an earlier slice keeps its first send and counts its sends from there."""
        key = ["h", "run", "sender", "sent_epoch_us"]
        rep = repeated.unique().implode() if repeated.len() else None
        t = pl.col("sent_epoch_us")
        per_sender = ["run", "sender"]
        rank = t.rank("ordinal").over(per_sender).cast(pl.Int64) - 1
        for k, f in frames:
            sent = f.lazy().filter(pl.col("mode") == FIRE_AND_FORGET).select(key)
            if rep is not None:
                is_rep = pl.col("h").is_in(rep)
                sent = pl.concat([sent.filter(~is_rep), sent.filter(is_rep).unique(subset=key)])
            state = self._schedule.get(k)
            if state is None:
                due = t.min().over(per_sender) + rank * self.interval_us
            else:
                sent = sent.join(state.lazy().select(*per_sender, "first", "count"), on=per_sender, how="left")
                first = pl.coalesce(pl.col("first"), t.min().over(per_sender))
                due = first + (pl.col("count").fill_null(0) + rank) * self.interval_us
            lag = sent.select(*per_sender, t, (t - due).alias("lag")).collect()
            if not lag.height:
                continue
            self._lags.add(Distribution.from_samples(lag.get_column("lag").to_numpy()))
            self._lag_sends += lag.height
            by_sender = lag.group_by(per_sender).agg(
                t.min().alias("first"), pl.len().cast(pl.Int64).alias("count"), pl.col("lag").max().alias("worst")
            )
            if state is not None:
                by_sender = (
                    pl.concat([state, by_sender])
                    .group_by(per_sender)
                    .agg(pl.col("first").min(), pl.col("count").sum(), pl.col("worst").max())
                )
            self._schedule[k] = by_sender

    def flush_answers(self, before_s: int | None = None) -> None:
        """Computes the per-second answers and percentiles of the seconds before ``before_s`` (all when None): the
        caller promises that no later slice has answers in them."""
        if not self._pending_answers:
            return
        pending = pl.concat(self._pending_answers) if len(self._pending_answers) > 1 else self._pending_answers[0]
        self._pending_answers = []
        if before_s is not None:
            early = pl.col("answer_us") < before_s * 1_000_000
            rest = pending.filter(~early)
            if rest.height:
                self._pending_answers.append(rest)
            pending = pending.filter(early)
        if pending.height:
            self._answers_per_s.append(_answers_per_second(pending))

    def finish(self, logs: list[tuple[int, TimingLog]], *, co_max_entries: int = 5_000_000) -> RunResult:
        """The run's result; ``logs`` are its files (file key, description), in order, whether or not they had
        records in it."""
        spec = self.spec
        self.flush_answers()
        files = [self._file_info(k, log) for k, log in logs]
        msg_counts = _sum_up(self._msg_counts, ["destination", "epoch_s", "status", "te"], "n")
        failure_reasons = _sum_up(self._failures, ["detail"], "records").sort(
            ["records", "detail"], descending=[True, False]
        )
        per_sec_answers = (
            pl.concat(self._answers_per_s)
            if self._answers_per_s
            else _answers_per_second(pl.DataFrame(schema={"answer_us": pl.Int64, "latency_us": pl.Int64}))
        )
        start_ms, last_send_ms = self._first_send_us // 1000, self._last_send_us // 1000
        end_us = _max(self._last_send_us, self._last_answer_us)

        # --- books per destination ------------------------------------------------------------------------
        books: dict[str, Books] = {}

        def book(dest: str) -> Books:
            if dest not in books:
                books[dest] = Books(dest)
            return books[dest]

        for dest, _sec, st, te, n in msg_counts.iter_rows():
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
        for dest, builder in self._dists.items():
            b = book(dest)
            b.latency = builder.result()
            b.replies += b.latency.n  # replies = recordable + unrecordable ANSWERED records
        dest_books = [books[k] for k in sorted(books)]
        total = Books(TOTAL)
        for b in dest_books:
            for attr in ("sent", "answered", "lost", "lost_test_ended", "failed", "replies", "unrecordable"):
                setattr(total, attr, getattr(total, attr) + getattr(b, attr))
        total.latency = Distribution.merge(b.latency for b in dest_books)

        # --- treatment: CO correction where the senders awaited their replies, else the schedule lag -----------
        mode_records = dict(self.mode_records)
        modes = [m for m, n in mode_records.items() if n]
        mode = modes[0] if len(modes) == 1 else MIXED
        interval_us, interval_note = self.interval_us, self.interval_note
        target_per_s = None
        if spec.target_rate_per_min:
            target_per_s = spec.target_rate_per_min / 60.0
        elif interval_us:
            target_per_s = self.senders * 1e6 / interval_us
        if interval_us:
            if mode in (AWAIT_REPLY, UNKNOWN):
                to_correct = [*dest_books, total]
            elif mode == MIXED:
                to_correct = [b for b in dest_books if self._closed.get(b.destination)]
            else:
                to_correct = []
            for b in to_correct:
                b.co = co_correct(b.latency, interval_us, max_entries=co_max_entries)
        schedule = None
        if interval_us and mode_records[FIRE_AND_FORGET]:
            schedule = self._schedule_lag()

        per_second = _per_second(msg_counts, per_sec_answers, start_ms, end_us)
        result = RunResult(
            spec=spec,
            files=files,
            records=self.records,
            start_ms=start_ms,
            last_send_ms=last_send_ms,
            end_us=end_us,
            senders=self.senders,
            destinations=dest_books,
            total=total,
            per_second=per_second,
            failure_reasons=failure_reasons,
            mixed_messages=self.mixed,
            interval_us=interval_us,
            interval_note=interval_note,
            mode=mode,
            mode_records=mode_records,
            target_per_s=target_per_s,
            schedule=schedule,
        )
        result.treatment_reason = _treatment_reason(result)
        if self.mixed:
            result.notes.append(
                f"{self.mixed} message(s) have both ANSWERED and LOST/FAILED records; they are counted as answered."
            )
        if total.unrecordable:
            result.notes.append(
                f"{total.unrecordable} ANSWERED record(s) have a latency that cannot be recorded (negative or >= 2^40 "
                "µs): counted as answered, left out of the latency figures and of the per-second answers."
            )
        capped = next((b.co for b in reversed(result.co_corrected) if b.co.dropped), None)
        if capped:
            result.notes.append(
                f"CO correction capped: {capped.dropped} of {capped.added} synthetic samples not recorded "
                f"(--co-max-entries); CO-corrected percentiles are computed without them, the CO-corrected mean is "
                "exact."
            )
        return result

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
            log.legacy,
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


def _ms(us: float) -> str:
    return f"{us / 1000.0:.3f}"


def _treatment_reason(r: RunResult) -> str:
    """Which treatment the run got and why, in one sentence (without the leading "run <label>: ")."""
    spec = r.spec
    pacing = ""
    if r.interval_us:
        pacing = f"a pacing of {number(r.interval_us / 1000)} ms/sender"
        if spec.target_rate_per_min and not spec.expected_interval_ms:
            pacing += f" ({number(spec.target_rate_per_min)} msg/min)"
    no_interval = "unthrottled: no expected interval, so no correction."
    if r.mode == AWAIT_REPLY:
        if not r.interval_us:
            return f"await-reply (closed loop), {no_interval}"
        return (
            f"await-reply (closed loop) with {pacing}: latencies also shown corrected for coordinated omission "
            "(HdrHistogram expected interval)."
        )
    if r.mode == FIRE_AND_FORGET:
        head = "fire-and-forget (open loop)"
        why = "latencies not corrected for coordinated omission, since a slow reply delays no send"
        if not r.interval_us:
            return f"{head}, unthrottled: {why}; no pacing given, so no schedule to hold the sends to."
        lag = r.schedule.lag if r.schedule else Distribution.empty()
        achieved = f"{r.achieved_tps:.1f}" if r.achieved_tps is not None else "–"
        kept = (
            f"sends fell behind their schedule by {_ms(max(0, lag.quantile(0.99)))} ms at p99 and"
            f" {_ms(max(0, lag.max()))} ms at most; {achieved} sends/s achieved vs {r.target_per_s:.1f}/s target"
            if lag.n
            else "no send to hold to the schedule"
        )
        return f"{head} with {pacing}: {why}; {kept}."
    if r.mode == UNKNOWN:
        head = "mode unknown (a timing log of an older plugin version, without the mode column)"
        if not r.interval_us:
            return f"{head}, {no_interval}"
        return (
            f"{head} with {pacing}: latencies also shown corrected for coordinated omission as before, which holds "
            "only if the senders awaited their replies."
        )
    kinds = " and ".join(m for m in (AWAIT_REPLY, FIRE_AND_FORGET, UNKNOWN) if r.mode_records.get(m))
    head = f"mixed modes ({kinds})"
    if not r.interval_us:
        return f"{head}, {no_interval}"
    corrected = [b.destination for b in r.co_corrected]
    if not corrected:
        return (
            f"{head} with {pacing}: latencies not corrected for coordinated omission, since no destination has "
            "await-reply records only and the others' sends are not delayed by slow replies."
        )
    return (
        f"{head} with {pacing}: only {', '.join(corrected)} (await-reply records only) also shown corrected for "
        "coordinated omission; the other destinations and the TOTAL not, since not all their sends awaited a reply."
    )


def _category_names(df: pl.DataFrame) -> dict[int, str]:
    s = df.get_column("destination").unique()
    pairs = pl.DataFrame({"code": s.to_physical(), "name": s.cast(pl.String)})
    return dict(zip(pairs.get_column("code").to_list(), pairs.get_column("name").to_list()))


def _distributions_by_code(good: pl.DataFrame) -> dict[int, Distribution]:
    """Exact value->count histograms per destination code, from one sort of a packed (code, latency) key."""
    if good.height == 0:
        return {}
    codes = good.get_column("dest_code").to_numpy()
    lat = good.get_column("latency_us").to_numpy()
    cmin, cmax = int(codes.min()), int(codes.max())
    if cmin == cmax:
        return {cmin: Distribution.from_samples(lat)}
    if cmax < (1 << 22):
        key = (codes.astype(np.int64) << 40) | lat
        uk, cnt = np.unique(key, return_counts=True)
        kc = uk >> 40
        vals = uk & ((1 << 40) - 1)
        out = {}
        bounds = np.flatnonzero(np.diff(kc)) + 1
        for seg_v, seg_c, code in zip(np.split(vals, bounds), np.split(cnt, bounds), kc[np.r_[0, bounds]]):
            out[int(code)] = Distribution(seg_v.astype(np.int64), seg_c.astype(np.int64))
        return out
    vc = good.group_by("dest_code", "latency_us").agg(pl.len().alias("n")).sort("dest_code", "latency_us")
    out = {}
    for (code,), part in vc.group_by(["dest_code"], maintain_order=True):
        out[int(code)] = Distribution(
            part.get_column("latency_us").to_numpy().astype(np.int64),
            part.get_column("n").to_numpy().astype(np.int64),
        )
    return out


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
