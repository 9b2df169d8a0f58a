"""What each session held cost the server and the generator in memory, and each message the server in CPU, from the
server-figures file (``stomp-server.csv``): the figures the run's end says on the console, worked out the same way
(the Java side: ``serverside/RunCosts.java``) and said in the same words, so that the two can be compared line for
line.

Every poll round of the plugin begins with the generator's own rows (source ``generator``: ``run``, the run's id;
``sessions_held``; ``messages_sent``; this JVM's ``rss_bytes`` and ``heap_used_bytes``), then each server source's.
So the rows of the file, in its order, say for every reading the sessions held and the messages sent when it was taken:
those of the generator's rows above it. A file that runs were appended to holds each run's rows after its own ``run``
row; rows above the first (a file written before the generator had rows) give no figure.

Memory per held session, for each memory figure (a pid's ``rss_bytes``: RSS; an actuator's ``heap_used_bytes``: heap;
RabbitMQ's ``broker_memory_bytes``: node memory; the generator's RSS and heap): ``(peak - baseline) / (held at the
peak - held at the baseline)``. The baseline is its last reading before the generator's first row with a session
held, or its first reading when sessions were held already; the peak its first reading at the most sessions held at
any of its readings.

CPU per message, for each source with a CPU time (``cpu_seconds``: a pid's, an actuator's ``process.cpu.time``):
``(CPU at the end - CPU at the start) / (messages sent at the end - at the start)``, from its last reading before the
first message was sent (its first, where messages were being sent already) to its first reading at the most messages
sent. Said only where messages were sent.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, tzinfo
from pathlib import Path

import polars as pl

from . import InputError
from .server_figures import SCHEMA, check_header
from .tables import BYTES, INT, MS, RATE, TEXT, Column, Table, bytes_words

GENERATOR, RABBITMQ = "generator", "rabbitmq"
#: The memory figures, in the words of the lines.
MEMORY = {"rss_bytes": "RSS", "heap_used_bytes": "heap", "broker_memory_bytes": "node memory"}
CPU_SECONDS = "cpu_seconds"


@dataclass(frozen=True)
class Reading:
    """One reading of a figure, with what the generator's row above it counted: sessions held, or messages sent."""

    epoch_ms: int
    value: float
    count: int


@dataclass
class SessionMemory:
    """One memory figure of one source over a run, and what it grew by per session held."""

    source: str
    metric: str
    baseline: Reading | None = None
    peak: Reading | None = None

    def add(self, reading: Reading, sessions_before: bool) -> None:
        if self.baseline is None or not sessions_before:
            self.baseline = reading
        if reading.count > 0 and (self.peak is None or reading.count > self.peak.count):
            self.peak = reading

    @property
    def name(self) -> str:
        return MEMORY[self.metric]

    @property
    def has_figure(self) -> bool:
        return self.peak is not None and self.peak.count > self.baseline.count

    @property
    def per_session(self) -> float | None:
        """Bytes per session held; None without a figure."""
        if not self.has_figure:
            return None
        return (self.peak.value - self.baseline.value) / (self.peak.count - self.baseline.count)

    def none(self) -> str:
        """Why there is no figure."""
        if self.peak is None:
            return "no reading while a session was held"
        return f"no more sessions held at any reading than at its first ({self.baseline.count:,})"


@dataclass
class MessageCpu:
    """One source's CPU time over a run's messages, and what it used per message sent."""

    source: str
    start: Reading | None = None
    end: Reading | None = None

    def add(self, reading: Reading) -> None:
        if self.start is None or reading.count == 0:
            self.start = reading
        if self.end is None or reading.count > self.end.count:
            self.end = reading

    @property
    def has_figure(self) -> bool:
        return self.end.count > self.start.count

    @property
    def per_message_s(self) -> float | None:
        if not self.has_figure:
            return None
        return (self.end.value - self.start.value) / (self.end.count - self.start.count)


@dataclass
class RunCost:
    """The costs of one run of one file."""

    path: Path
    run: int
    memory: list[SessionMemory] = field(default_factory=list)
    cpu: dict[str, MessageCpu] = field(default_factory=dict)
    answered: list[str] = field(default_factory=list)  # the server's sources that answered, in order
    messages_sent: bool = False

    def lines(self, tz: tzinfo | None = None) -> list[str]:
        """The lines the run's end says on the console; times of day in ``tz`` (None: this machine's zone)."""
        out = [
            "stomp server memory per held session: " + self._memory_words(False, tz),
            "stomp generator memory per held session: " + self._memory_words(True, tz),
        ]
        if self.messages_sent:
            out.append("stomp server CPU per message: " + self._cpu_words(tz))
        return out

    def _memory_words(self, generator: bool, tz: tzinfo | None) -> str:
        said = [_memory_figure(m, tz) for m in self.memory if (m.source == GENERATOR) == generator]
        if said:
            return "; ".join(said)
        if generator:
            return "none (no reading of this JVM's memory came)"
        return "none (no server source answered)" if not self.answered else "none (no source gave a memory figure)"

    def _cpu_words(self, tz: tzinfo | None) -> str:
        if not self.answered:
            return "none (no server source answered)"
        said = []
        for source in self.answered:
            c = self.cpu.get(source)
            if c is None:
                why = (
                    "RabbitMQ's management API has no CPU figure"
                    if source == RABBITMQ
                    else "it gave no CPU time; an actuator gives it from Spring Boot 3.3"
                )
                said.append(f"none from {source} ({why})")
            elif not c.has_figure:
                said.append(f"none from {source} (no message was sent between its readings)")
            else:
                said.append(
                    f"{fixed(c.per_message_s * 1e6, 1)} us ({source}, {fixed(c.end.value - c.start.value, 2)} s of CPU"
                    f" from {time_words(c.start.epoch_ms, tz)} to {time_words(c.end.epoch_ms, tz)},"
                    f" {c.end.count - c.start.count:,} messages sent)"
                )
        return "; ".join(said)


def _memory_figure(m: SessionMemory, tz: tzinfo | None) -> str:
    if not m.has_figure:
        return f"no {m.name} ({m.source}: {m.none()})"
    b, p = m.baseline, m.peak
    return (
        f"{byte_words(m.per_session)} {m.name} ({m.source}, {byte_words(b.value)} at {time_words(b.epoch_ms, tz)}"
        f" with {b.count:,} held to {byte_words(p.value)} at {time_words(p.epoch_ms, tz)} with {p.count:,} held)"
    )


# ----------------------------------------------------------------------------------------------------------
# words: as the Java side's CostWords writes them


def _no_negative_zero(text: str) -> str:
    """Java's BigDecimal has no negative zero: -0.0 and a value rounded to 0 are written without the sign."""
    return text[1:] if text.startswith("-") and not text.strip("-0.") else text


def fixed(value: float, decimals: int) -> str:
    """``value`` with ``decimals`` decimals, rounded half to even on its exact value (Python's format does so)."""
    return _no_negative_zero(f"{value:.{decimals}f}")


def byte_words(n: float) -> str:
    """tables.bytes_words (decimal units, three significant digits), never a negative zero."""
    number, _, unit = bytes_words(n).partition(" ")
    return f"{_no_negative_zero(number)} {unit}"


def time_words(epoch_ms: int, tz: tzinfo | None = None) -> str:
    """The time of day of a reading, to the millisecond."""
    return datetime.fromtimestamp(epoch_ms // 1000, tz).strftime("%H:%M:%S") + f".{epoch_ms % 1000:03d}"


# ----------------------------------------------------------------------------------------------------------
# reading


def read_costs(paths: Sequence[Path]) -> tuple[list[RunCost], list[str]]:
    """The costs of every run of the files, in order, and notes (a file without the generator's rows); InputError
    for a file that cannot be used."""
    costs, notes = [], []
    for path in paths:
        check_header(path)
        try:
            frame = pl.read_csv(path, schema=SCHEMA, has_header=True)
        except pl.exceptions.PolarsError as e:
            text = str(e).strip().splitlines()
            raise InputError(f"{path}: a row does not parse: {text[0][:200] if text else type(e).__name__}") from None
        runs = _runs(path, frame.drop_nulls())
        if not runs and frame.height:
            notes.append(
                f"{path}: no generator rows (a file written before the plugin polled its own figures beside the "
                "server's): no memory per held session, no CPU per message"
            )
        costs += runs
    return costs, notes


def _runs(path: Path, frame: pl.DataFrame) -> list[RunCost]:
    """Each run of the file, its rows read in the file's order, as the Java side was fed them."""
    runs: list[RunCost] = []
    run = None
    memory: dict[tuple[str, str], SessionMemory] = {}
    held = sent = -1
    sessions = False
    for epoch_ms, source, metric, value in frame.iter_rows():
        generator = source == GENERATOR
        if generator and metric == "run":
            if run is None or int(value) != run.run:
                run = RunCost(path, int(value))
                runs.append(run)
                memory, held, sent, sessions = {}, -1, -1, False
            continue
        if run is None:
            continue
        if not generator and source not in run.answered:
            run.answered.append(source)
        if generator and metric == "sessions_held":
            held = int(value)
            sessions |= held > 0
        elif generator and metric == "messages_sent":
            sent = int(value)
            run.messages_sent |= sent > 0
        elif metric in MEMORY and held >= 0:
            m = memory.get((source, metric))
            if m is None:
                m = memory[(source, metric)] = SessionMemory(source, metric)
                run.memory.append(m)
            m.add(Reading(epoch_ms, value, held), sessions)
        elif metric == CPU_SECONDS and sent >= 0:
            run.cpu.setdefault(source, MessageCpu(source)).add(Reading(epoch_ms, value, sent))
    return runs


# ----------------------------------------------------------------------------------------------------------
# tables


@dataclass
class CostReport:
    """The runs' costs: their lines and their two tables."""

    runs: list[RunCost]
    notes: list[str]
    memory: Table
    cpu: Table

    def lines(self, tz: tzinfo | None = None) -> list[str]:
        """Every run's lines, each prefixed by its file and run when there are several runs."""
        several = len(self.runs) > 1
        return [f"{r.path.name} run {r.run}: {line}" if several else line for r in self.runs for line in r.lines(tz)]

    def markdown(self) -> str:
        out = ["# What the sessions cost\n\n"]
        out += [f"{n}\n\n" for n in self.notes]
        if self.runs:
            out.append("```\n" + "\n".join(self.lines()) + "\n```\n\n")
            out.append(self.memory.markdown() + "\n")
            if self.cpu.rows:
                out.append(self.cpu.markdown() + "\n")
        return "".join(out)

    def tables(self) -> list[Table]:
        return [self.memory, self.cpu] if self.cpu.rows else [self.memory]


MEMORY_NOTE = (
    "Memory per held session = (the figure at its peak reading - at its baseline) / (sessions held at the peak - at "
    "the baseline). Baseline: its last reading before the generator first held a session (its first reading when "
    "sessions were held already); peak: its first reading at the most sessions held. Sessions held are the "
    "generator's, read at the start of each poll round; the capacity line's peak may fall between two polls. Heap "
    "figures move with each GC: compare RSS, and several runs. See docs/server-figures.md."
)
CPU_NOTE = (
    "CPU per message = the source's CPU time from its last reading before the first message was sent to its first "
    "reading at the most messages sent, over the messages sent in between: everything the server did in that window "
    "(heart-beats, GC, the polls' own requests) counted."
)


def cost_report(paths: Sequence[Path], tz: tzinfo | None = None) -> CostReport:
    runs, notes = read_costs(paths)
    return CostReport(runs, notes, _memory_table(runs, tz), _cpu_table(runs, tz))


def _memory_table(runs: Sequence[RunCost], tz: tzinfo | None) -> Table:
    rows = []
    for r in runs:
        for m in r.memory:
            b, p = m.baseline, m.peak
            rows.append(
                {
                    "file": r.path.name,
                    "run": str(r.run),
                    "side": "generator" if m.source == GENERATOR else "server",
                    "source": m.source,
                    "figure": m.name,
                    "per_session_bytes": m.per_session,
                    "baseline_bytes": b.value if m.has_figure else None,
                    "baseline_at": time_words(b.epoch_ms, tz) if m.has_figure else None,
                    "baseline_held": b.count if m.has_figure else None,
                    "peak_bytes": p.value if m.has_figure else None,
                    "peak_at": time_words(p.epoch_ms, tz) if m.has_figure else None,
                    "peak_held": p.count if m.has_figure else None,
                    "baseline_epoch_ms": b.epoch_ms if m.has_figure else None,
                    "peak_epoch_ms": p.epoch_ms if m.has_figure else None,
                    "none": None if m.has_figure else m.none(),
                }
            )
    several_files = len({r.path for r in runs}) > 1
    cols = [
        Column("file", "file", TEXT, several_files),
        Column("run", "run", TEXT, len(runs) > 1),
        Column("side", "side", TEXT),
        Column("source", "source", TEXT),
        Column("figure", "figure", TEXT),
        Column("per_session_bytes", "per held session", BYTES),
        Column("baseline_bytes", "baseline", BYTES),
        Column("baseline_at", "baseline at", TEXT),
        Column("baseline_held", "held then", INT),
        Column("peak_bytes", "peak", BYTES),
        Column("peak_at", "peak at", TEXT),
        Column("peak_held", "held then", INT),
        Column("baseline_epoch_ms", "baseline epoch ms", INT, False),
        Column("peak_epoch_ms", "peak epoch ms", INT, False),
        Column("none", "no figure because", TEXT, any(row["none"] for row in rows)),
    ]
    return Table("memory_per_session", "Memory per held session", cols, rows, note=MEMORY_NOTE)


def _cpu_table(runs: Sequence[RunCost], tz: tzinfo | None) -> Table:
    rows = []
    for r in runs:
        if not r.messages_sent:
            continue
        for source in r.answered:
            c = r.cpu.get(source)
            ok = c is not None and c.has_figure
            rows.append(
                {
                    "file": r.path.name,
                    "run": str(r.run),
                    "source": source,
                    "cpu_per_message_us": c.per_message_s * 1e6 if ok else None,
                    "cpu_s": c.end.value - c.start.value if ok else None,
                    "messages": c.end.count - c.start.count if ok else None,
                    "from": time_words(c.start.epoch_ms, tz) if ok else None,
                    "to": time_words(c.end.epoch_ms, tz) if ok else None,
                    "from_epoch_ms": c.start.epoch_ms if ok else None,
                    "to_epoch_ms": c.end.epoch_ms if ok else None,
                    "none": None if ok else ("no CPU figure" if c is None else "no message sent between its readings"),
                }
            )
    cols = [
        Column("file", "file", TEXT, len({r.path for r in runs}) > 1),
        Column("run", "run", TEXT, len(runs) > 1),
        Column("source", "source", TEXT),
        Column("cpu_per_message_us", "CPU per message µs", RATE),
        Column("cpu_s", "CPU s", MS),
        Column("messages", "messages", INT),
        Column("from", "from", TEXT),
        Column("to", "to", TEXT),
        Column("from_epoch_ms", "from epoch ms", INT, False),
        Column("to_epoch_ms", "to epoch ms", INT, False),
        Column("none", "no figure because", TEXT, any(row["none"] for row in rows)),
    ]
    return Table("cpu_per_message", "Server CPU per message", cols, rows, note=CPU_NOTE)
