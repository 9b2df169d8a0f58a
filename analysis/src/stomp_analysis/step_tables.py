"""The steps table of a stepped test (Markdown, CSV ``steps.csv``, HTML) and the answer above it."""

from __future__ import annotations

from collections.abc import Sequence

from . import explain
from .server_figures import Figure
from .steps import StepTest
from .tables import BYTES, INT, MS, PCT, RATE, TEXT, Column, Table


def _column(key: str, header: str, kind: str, rows: list[dict], always: bool = False) -> Column:
    """A column shown in Markdown and HTML when some row has a value in it other than 0 (always in the CSV)."""
    return Column(key, header, kind, always or any(r.get(key) not in (None, 0) for r in rows))


def steps_table(tests: Sequence[StepTest], server: Sequence[Figure] = ()) -> Table:
    rows = []
    for t in tests:
        for s in t.steps:
            row = {
                "test": t.label,
                "step": s.number,
                "kind": s.kind,
                "engines": s.engines,
                "offered": s.offered,
                "achieved": s.achieved,
                "users": s.users,
                "sent": s.sent,
                "answered": s.answered,
                "lost": s.lost,
                "failed": s.failed,
                "loss_pct": s.loss_pct,
                "failed_pct": s.failed_pct,
                "p50_ms": None if s.p50_us is None else s.p50_us / 1000.0,
                "p99_ms": None if s.p99_us is None else s.p99_us / 1000.0,
                "p99_9_ms": None if s.p999_us is None else s.p999_us / 1000.0,
                "latency_from": s.latency_from,
                "send_lag_p99_ms": s.send_lag_p99_ms,
                "generator_cpu_pct": None if s.generator_cpu is None else 100.0 * s.generator_cpu,
                "machine_cpu_pct": None if s.machine_cpu is None else 100.0 * s.machine_cpu,
                "connects": s.connects,
                "connect_failed": s.connect_failed,
                "connect_failed_pct": s.connect_failed_pct,
                "connect_p99_ms": s.connect_p99_ms,
                "heartbeat_misses": s.heartbeat_misses or None,
                "verdict": s.verdict,
                "limit": s.limit,
                "reason": s.reason or None,
                "ramp_start_epoch_ms": s.ramp_start_ms,
                "hold_start_epoch_ms": s.hold_start_ms,
                "end_epoch_ms": s.end_ms,
            }
            row |= {f.key: s.server.get(f) for f in server}
            rows.append(row)
    several = len(tests) > 1
    cols = [
        Column("test", "test", TEXT, several),
        Column("step", "step", INT),
        Column("kind", "kind", TEXT, False),
        Column("engines", "engines", INT, any(t.runs and len(t.runs) > 1 for t in tests)),
        _column("offered", "offered", RATE, rows, always=True),
        _column("achieved", "achieved", RATE, rows),
        _column("users", "users", INT, rows),
        _column("sent", "sent", INT, rows),
        Column("answered", "answered", INT, False),
        Column("lost", "lost", INT, False),
        Column("failed", "failed", INT, False),
        _column("loss_pct", "loss %", PCT, rows, always=any(r["sent"] for r in rows)),
        _column("failed_pct", "failed %", PCT, rows),
        _column("p50_ms", "p50 ms", MS, rows),
        _column("p99_ms", "p99 ms", MS, rows),
        _column("p99_9_ms", "p99.9 ms", MS, rows),
        Column("latency_from", "latency from", TEXT, False),
        _column("send_lag_p99_ms", "send lag p99 ms", MS, rows),
        _column("generator_cpu_pct", "generator CPU %", RATE, rows),
        _column("machine_cpu_pct", "machine CPU %", RATE, rows),
        _column("connects", "connects", INT, rows),
        Column("connect_failed", "connects failed", INT, False),
        _column("connect_failed_pct", "connects failed %", PCT, rows),
        _column("connect_p99_ms", "connect p99 ms", MS, rows),
        _column("heartbeat_misses", "lost to missed heart-beats", INT, rows),
        Column("verdict", "verdict", TEXT),
        _column("limit", "whose limit", TEXT, rows),
        _column("reason", "reason", TEXT, rows),
        Column("ramp_start_epoch_ms", "ramp start", INT, False),
        Column("hold_start_epoch_ms", "hold start", INT, False),
        Column("end_epoch_ms", "end", INT, False),
        *(_column(f.key, f.header, BYTES if f.is_bytes else RATE, rows) for f in server),
    ]
    return Table("steps", "Steps", cols, rows, note=explain.STEPS_NOTE)


def answers(tests: Sequence[StepTest]) -> list[tuple[str, str]]:
    """Per test, its answer in one line (prefixed by its label when there are several) and how its engines were
    merged (empty for one engine)."""
    out = []
    for t in tests:
        prefix = f"{t.label}: " if len(tests) > 1 else ""
        note = explain.steps_engines_note(t)
        out.append((prefix + explain.steps_answer(t), prefix + note if note else ""))
    return out


def steps_markdown(tests: Sequence[StepTest], table: Table) -> str:
    """The top of stdout: the answer, then the steps table."""
    out = ["# Where it broke\n\n"]
    if not tests:
        out.append("**the steps logs hold no step (the test ended before its first step did)**\n\n")
    for answer, note in answers(tests):
        out.append(f"**{answer}**\n\n")
        if note:
            out.append(f"{note}\n\n")
    out.append(table.markdown())
    return "".join(out) + "\n"
