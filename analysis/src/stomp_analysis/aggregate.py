"""Per-run aggregation of timing logs: books per destination, latency distributions, per-second series.

Books are kept per message (distinct msg_id within a file): a message is *answered* when it has at least
one ANSWERED record, otherwise *failed* when it has a FAILED record, otherwise *lost*. So
``sent = answered + lost + failed`` always holds, and ``loss % = lost / sent``. A broadcast answered by N
receivers has N ANSWERED records: one answered message, N replies, N latency samples.

Latency samples are the ANSWERED records. A latency that cannot be recorded (negative, or 2**40 µs and
more) is counted as *unrecordable* and left out of the latency figures and of the per-second answers; the
message still counts as answered.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import polars as pl

from .stats import CoCorrected, Distribution, co_correct
from .timing_log import ANSWERED, FAILED, LOST, TimingLog

#: Latencies at or above this many µs (~12.7 days) are not recordable (and keep the packed sort key in int64).
MAX_LATENCY_US = 1 << 40
#: Beyond this many seconds a run's per-second series lists only the seconds that had events.
MAX_FILLED_SECONDS = 1_000_000
TOTAL = "TOTAL"


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
    interval_us: int | None = None
    interval_note: str = ""
    notes: list[str] = field(default_factory=list)

    @property
    def label(self) -> str:
        return self.spec.label

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


def analyze_run(spec: RunSpec, logs: list[TimingLog], *, co_max_entries: int = 5_000_000) -> RunResult:
    frames = [log.frame for log in logs if log.frame.height]
    files = [FileInfo(log.path, log.records, log.malformed, log.issues, log.validated_line_by_line) for log in logs]
    if not frames:
        raise ValueError(f"run {spec.label!r}: no usable records")
    df = pl.concat(frames, how="vertical", rechunk=False) if len(frames) > 1 else frames[0]
    records = df.height
    # sender names are per generator JVM (one file): "user-3" of two generators are two senders
    senders = sum(f.get_column("sender").n_unique() for f in frames)

    # --- messages: one row per distinct (file, msg_id), identified by (h, sent_epoch_ms, sender, destination) --
    status = pl.col("outcome").to_physical().cast(pl.UInt8)
    test_ended = (pl.col("detail") == "test-ended").fill_null(False)
    h = df.get_column("h")
    hs = h.sort()
    repeated = hs.filter(hs == hs.shift(1))
    mixed = 0
    if repeated.len() == 0:  # every record is its own message (no broadcast)
        msgs = df.lazy().select(
            "destination",
            (pl.col("sent_epoch_ms") // 1000).alias("epoch_s"),
            status.alias("status"),
            test_ended.alias("te"),
        )
    else:
        is_rep = h.is_in(repeated.unique().implode())
        single = (
            df.lazy()
            .filter(~is_rep)
            .select(
                "destination",
                (pl.col("sent_epoch_ms") // 1000).alias("epoch_s"),
                status.alias("status"),
                test_ended.alias("te"),
            )
        )
        grouped = (
            df.lazy()
            .filter(is_rep)
            .group_by("h", "sent_epoch_ms", "sender", "destination")
            .agg(
                status.min().alias("status"),
                (test_ended & (pl.col("outcome") == "LOST")).any().alias("te"),
                (status.min() != status.max()).alias("mixed"),
            )
            .collect()
        )
        mixed = int(grouped.get_column("mixed").sum())
        grouped_msgs = grouped.lazy().select(
            "destination", (pl.col("sent_epoch_ms") // 1000).alias("epoch_s"), "status", "te"
        )
        msgs = pl.concat([single, grouped_msgs], how="vertical")
    msg_counts = msgs.group_by("destination", "epoch_s", "status", "te").agg(pl.len().alias("n")).collect()

    # --- latency samples --------------------------------------------------------------------------------
    answered = df.lazy().filter(pl.col("outcome") == "ANSWERED").select("destination", "sent_epoch_ms", "latency_us")
    recordable = (pl.col("latency_us") >= 0) & (pl.col("latency_us") < MAX_LATENCY_US)
    unrec = answered.filter(~recordable).group_by("destination").agg(pl.len().alias("n")).collect()
    good = (
        answered.filter(recordable)
        .select(
            pl.col("destination").to_physical().alias("dest_code"),
            (pl.col("sent_epoch_ms") * 1000 + pl.col("latency_us")).alias("answer_us"),
            "latency_us",
        )
        .collect()
    )
    per_sec_answers = (
        good.lazy()
        .group_by((pl.col("answer_us") // 1_000_000).alias("epoch_s"))
        .agg(
            pl.len().alias("answers"),
            pl.col("latency_us").quantile(0.5, "higher").alias("p50_us"),
            pl.col("latency_us").quantile(0.99, "higher").alias("p99_us"),
        )
        .collect()
    )
    dists = _distributions_by_code(good)
    start_ms = int(df.get_column("sent_epoch_ms").min())
    last_send_ms = int(df.get_column("sent_epoch_ms").max())
    end_us = last_send_ms * 1000
    if good.height:
        end_us = max(end_us, int(good.get_column("answer_us").max()))
    del good
    failure_reasons = (
        df.lazy()
        .filter(pl.col("outcome") == "FAILED")
        .group_by(pl.col("detail").cast(pl.String))
        .agg(pl.len().alias("records"))
        .sort(["records", "detail"], descending=[True, False])
        .collect()
    )

    # --- books per destination ----------------------------------------------------------------------------
    code_to_name = _category_names(df)
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
    for dest, n in unrec.iter_rows():
        book(dest).unrecordable += n
        book(dest).replies += n
    for code, dist in dists.items():
        b = book(code_to_name[code])
        b.latency = dist
        b.replies += dist.n  # replies = recordable + unrecordable ANSWERED records
    dest_books = [books[k] for k in sorted(books)]
    total = Books(TOTAL)
    for b in dest_books:
        for attr in ("sent", "answered", "lost", "lost_test_ended", "failed", "replies", "unrecordable"):
            setattr(total, attr, getattr(total, attr) + getattr(b, attr))
    total.latency = Distribution.merge(b.latency for b in dest_books)

    interval_us, interval_note = expected_interval_us(spec, senders)
    if interval_us:
        for b in [*dest_books, total]:
            b.co = co_correct(b.latency, interval_us, max_entries=co_max_entries)

    per_second = _per_second(msg_counts, per_sec_answers, start_ms, end_us)
    result = RunResult(
        spec=spec,
        files=files,
        records=records,
        start_ms=start_ms,
        last_send_ms=last_send_ms,
        end_us=end_us,
        senders=senders,
        destinations=dest_books,
        total=total,
        per_second=per_second,
        failure_reasons=failure_reasons,
        mixed_messages=mixed,
        interval_us=interval_us,
        interval_note=interval_note,
    )
    if mixed:
        result.notes.append(
            f"{mixed} message(s) have both ANSWERED and LOST/FAILED records; they are counted as answered."
        )
    if total.unrecordable:
        result.notes.append(
            f"{total.unrecordable} ANSWERED record(s) have a latency that cannot be recorded (negative or >= 2^40 µs): "
            "counted as answered, left out of the latency figures and of the per-second answers."
        )
    if total.co and total.co.dropped:
        result.notes.append(
            f"CO correction capped: {total.co.dropped} of {total.co.added} synthetic samples not recorded "
            f"(--co-max-entries); CO-corrected percentiles are computed without them, the CO-corrected mean is exact."
        )
    return result


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
