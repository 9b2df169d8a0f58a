"""What the aggregation gives: per run, its books per destination, distributions, series, and what its treatment
rests on (mode, pacing interval, CO-corrected books, schedule lag).

What the figures mean is written once, in ``explain.py`` (shown in the tables, the report and the README).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from .hold_windows import HoldWindows
from .stats import CoCorrected, Distribution

TOTAL = "TOTAL"
#: The mode of a run whose records carry no mode (old logs), and of one whose records carry several.
UNKNOWN, MIXED = "unknown", "mixed"


@dataclass
class RunSpec:
    label: str
    paths: list[Path]
    messages_per_second: float | None = None  # the target send rate of the whole run (send.jmx's messagesPerSecond)
    expected_interval_ms: float | None = None  # per sender
    steps: HoldWindows | None = None  # a stepped test's hold windows: the run's latencies are also kept per step


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
    #: send to the server's RECEIPT, one sample per message whose RECEIPT came (empty without receipts)
    receipt: Distribution = field(default_factory=Distribution.empty)

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
    columns: int = 18  # its format: 9 (old), 14, 16, 17 or 18 columns
    versions: tuple[str, ...] = ()  # plugin versions
    run_ids: tuple[int, ...] = ()  # distinct run ids of this file's records in the run
    engines: tuple[str, ...] = ()

    @property
    def legacy(self) -> bool:
        return self.columns == 9


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
    per_second: pl.DataFrame  # epoch_s, sends, answers, lost, failed, p50_us, p99_us (+ receipts.PER_SECOND)
    failure_reasons: pl.DataFrame  # detail, records
    mixed_messages: int  # messages with ANSWERED and LOST/FAILED records (counted answered)
    #: REDELIVERED records: messages answered before that a broker delivered again (not answers, not in the books)
    redelivered: int = 0
    interval_us: int | None = None  # each sender's expected interval (from the pacing), µs
    interval_note: str = ""
    notes: list[str] = field(default_factory=list)
    mode: str = UNKNOWN  # await-reply, fire-and-forget, mixed or unknown (old logs)
    mode_records: dict[str, int] = field(default_factory=dict)  # records per mode (unknown = without a mode)
    target_per_s: float | None = None  # sends per second the pacing asks for (whole run)
    schedule: ScheduleLag | None = None  # fire-and-forget sends vs their schedule (needs a pacing)
    warmup_s: float = 0.0  # the run's first seconds shown apart as its warm-up (0: none)
    is_warmup: bool = False  # this is the warm-up part of a run
    #: the latency samples sent in each step's hold window, by step key (see hold_windows.py; empty without steps)
    step_latency: dict[int, Distribution] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return self.spec.label

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
