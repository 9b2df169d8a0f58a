"""The server's own figures, polled during the run (plan property ``serverFigures``, written to
``serverFiguresLog``, default ``stomp-server.csv``), and their averages over each step's hold.

Format (fixed with the Java side), long, one row per figure per poll::

    epoch_ms,source,metric,value

``source`` is ``actuator``, ``rabbitmq`` or ``pid``; ``metric`` one of METRICS, each where its source has it. A poll
that failed wrote nothing, so an average is over the polls that came: the mean of the rows whose ``epoch_ms`` falls
in the hold window [hold_start, end).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import polars as pl

from . import InputError, read_head

#: The server-figures file's default name, next to the timing log.
SERVER_FIGURES_LOG = "stomp-server.csv"
HEADER = "epoch_ms,source,metric,value"
SCHEMA = {"epoch_ms": pl.Int64, "source": pl.String, "metric": pl.String, "value": pl.Float64}

#: metric -> (the words of its column, the factor to the unit shown, its name in steps.csv in that unit). Byte figures
#: stay bytes in steps.csv; the report's tables write them in KB, MB, GB and the chart in MB.
METRICS: dict[str, tuple[str, float, str]] = {
    "process_cpu": ("CPU %", 100.0, "process_cpu_pct"),
    "heap_used_bytes": ("heap", 1.0, "heap_used_bytes"),
    "gc_pause_ms": ("GC pause ms/poll", 1.0, "gc_pause_ms"),
    "sessions": ("sessions", 1.0, "sessions"),
    "connections": ("connections", 1.0, "connections"),
    "publish_per_s": ("publish/s", 1.0, "publish_per_s"),
    "deliver_per_s": ("deliver/s", 1.0, "deliver_per_s"),
    "queue_depth": ("queue depth", 1.0, "queue_depth"),
    "rss_bytes": ("RSS", 1.0, "rss_bytes"),
    "threads": ("threads", 1.0, "threads"),
    # RabbitMQ's /api/nodes, summed over its nodes
    "fd_used": ("file descriptors", 1.0, "fd_used"),
    "sockets_used": ("sockets", 1.0, "sockets_used"),
    "broker_memory_bytes": ("broker memory", 1.0, "broker_memory_bytes"),
    "erlang_processes": ("Erlang processes", 1.0, "erlang_processes"),
    "run_queue": ("Erlang run queue", 1.0, "run_queue"),
}


@dataclass(frozen=True)
class Figure:
    """One (source, metric) series of the file: its column in the steps table and its unit."""

    source: str
    metric: str

    @property
    def _shown(self) -> tuple[str, float, str]:
        return METRICS.get(self.metric, (self.metric, 1.0, self.metric))

    @property
    def key(self) -> str:
        """Its column in steps.csv, named in the unit shown: server_actuator_heap_used_bytes."""
        return f"server_{self.source}_{self._shown[2]}"

    @property
    def header(self) -> str:
        return f"{self.source} {self._shown[0]}"

    @property
    def factor(self) -> float:
        return self._shown[1]

    @property
    def is_bytes(self) -> bool:
        """A figure in bytes: written KB, MB, GB in the tables, MB on the chart."""
        return self.metric.endswith("_bytes")


def check_header(path: Path) -> None:
    first, _ = read_head(path, "a server-figures file")
    header = first.decode("utf-8", "replace").strip().lstrip("\ufeff")
    if header != HEADER:
        raise InputError(f"{path}: not a server-figures file (its first line is {header[:80]!r}; expected {HEADER})")


def read_server_figures(paths: list[Path]) -> pl.DataFrame:
    """Every row of the files, in time order; InputError for a file that cannot be used."""
    frames = []
    for path in paths:
        check_header(path)
        try:
            frames.append(pl.read_csv(path, schema=SCHEMA, has_header=True))
        except pl.exceptions.PolarsError as e:
            text = str(e).strip().splitlines()
            raise InputError(f"{path}: a row does not parse: {text[0][:200] if text else type(e).__name__}") from None
    if not frames:
        return pl.DataFrame(schema=SCHEMA)
    return pl.concat(frames).drop_nulls().sort("epoch_ms", "source", "metric")


def figures(frame: pl.DataFrame) -> list[Figure]:
    """The (source, metric) series the file has, metrics in METRICS' order (unknown ones after), sources by name."""
    order = {m: i for i, m in enumerate(METRICS)}
    pairs = frame.select("source", "metric").unique().iter_rows()
    return [Figure(s, m) for s, m in sorted(pairs, key=lambda p: (order.get(p[1], len(order)), p[1], p[0]))]


def averages(frame: pl.DataFrame, windows: list[tuple[int, int]]) -> list[dict[Figure, float]]:
    """Per window [start_ms, end_ms), the mean of each series' rows inside it (a series without a row there is left
    out), in the series' unit (Figure.factor)."""
    if not frame.height or not windows:
        return [{} for _ in windows]
    bounds = pl.DataFrame(
        {"w": range(len(windows)), "start": [a for a, _ in windows], "end": [b for _, b in windows]},
        schema={"w": pl.Int64, "start": pl.Int64, "end": pl.Int64},
    )
    means = (
        frame.join(bounds, how="cross")
        .filter((pl.col("epoch_ms") >= pl.col("start")) & (pl.col("epoch_ms") < pl.col("end")))
        .group_by("w", "source", "metric")
        .agg(pl.col("value").mean())
    )
    out: list[dict[Figure, float]] = [{} for _ in windows]
    for w, source, metric, value in means.iter_rows():
        f = Figure(source, metric)
        out[w][f] = value * f.factor
    return out
