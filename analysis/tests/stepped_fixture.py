"""A generated stepped test: a server whose latency grows past a knee, the timing logs and steps logs of its engines
(written as the plugin writes them), and the server's figures. Everything the tests check is derived here from a
few parameters, by the same rules the Java side applies (a step breaks when its p99 or its loss passes the service
level), never written down by hand."""

from __future__ import annotations

import csv
import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from stomp_analysis.server_figures import HEADER as SERVER_HEADER
from stomp_analysis.steps_log import HEADER as STEPS_HEADER
from stomp_analysis.timing_log import HEADER

T0_MS = 1_790_000_000_000


def higher(samples, q: float) -> int:
    """The q-quantile by the "higher" method (the analysis's definition), computed apart."""
    a = sorted(samples)
    return a[min(len(a) - 1, math.ceil(q * (len(a) - 1)))]


@dataclass
class Stepped:
    """A stepped rate test: ``offered`` total msg/s per step, shared evenly by ``engines``; the server holds up to
    ``capacity`` msg/s (latency about ``base_ms``), past it the latency grows with the overload and ``lost_share``
    of the messages are lost. ``generator_from``: from this step on the generator cannot keep its pace (its limit)."""

    offered: tuple[float, ...] = (100, 200, 400, 800)
    capacity: float = 500
    engines: tuple[str, ...] = ("local",)
    ramp_ms: int = 500
    hold_ms: int = 2000
    base_ms: float = 2.0
    lost_share: float = 0.05
    slo_p99_ms: float | None = 50.0  # None: no service level (unchecked)
    generator_from: int | None = None
    ramp_latency_ms: float = 900.0  # messages sent in a ramp: slow, so a ramp counted in a hold would show
    seed: int = 1
    start_ms: int = T0_MS
    # filled by write():
    samples: dict = field(default_factory=dict)  # (engine, step) -> latencies (µs) sent in the hold
    rows: dict = field(default_factory=dict)  # (engine, step) -> the steps log row (dict)

    def window(self, step: int) -> tuple[int, int, int]:
        """ramp start, hold start, end (ms) of step 1, 2, ..."""
        ramp = self.start_ms + (step - 1) * (self.ramp_ms + self.hold_ms)
        return ramp, ramp + self.ramp_ms, ramp + self.ramp_ms + self.hold_ms

    def run_id(self, engine: str) -> int:
        return self.start_ms - 1000 - 7 * self.engines.index(engine)

    def write(self, directory: Path) -> tuple[list[Path], list[Path]]:
        """Writes each engine's timing log and steps log; returns (timing logs, steps logs)."""
        rng = np.random.default_rng(self.seed)
        timing, steps = [], []
        for engine in self.engines:
            records, rows = [], []
            for number, total in enumerate(self.offered, start=1):
                records += self._step_records(engine, number, total / len(self.engines), rng)
                rows.append(self._row(engine, number, total / len(self.engines)))
            t = directory / f"timing-{engine}.csv"
            with open(t, "w", newline="") as f:
                f.write(HEADER + "\n")
                csv.writer(f, lineterminator="\n").writerows(records)
            s = directory / f"steps-{engine}.csv"
            with open(s, "w", newline="") as f:
                f.write(STEPS_HEADER + "\n")
                w = csv.DictWriter(f, STEPS_HEADER.split(","), lineterminator="\n")
                w.writerows(rows)
            timing.append(t)
            steps.append(s)
        return timing, steps

    def _latency_us(self, total: float, rng) -> int:
        over = max(0.0, total / self.capacity - 1)
        ms = self.base_ms * rng.lognormal(0, 0.3) * (1 + 400 * over * rng.random())
        return max(1, round(ms * 1000))

    def _step_records(self, engine: str, number: int, rate: float, rng) -> list[list]:
        ramp, hold, end = self.window(number)
        total = rate * len(self.engines)
        out, kept = [], []
        counts = {"sent": 0, "answered": 0, "lost": 0, "failed": 0}
        n = int(rate * (end - ramp) / 1000)
        for k in range(n):
            sent_us = ramp * 1000 + round(k * 1e6 / rate)
            in_hold = sent_us >= hold * 1000
            msg = f"{engine}-{number}-{k}"
            user = f"senders #{k % 7 + 1}"
            base = [sent_us // 1000, None, msg, None, "guest", None, "/app/echo", 100, None, "fire-and-forget"]
            tail = [self.run_id(engine), sent_us, engine, "0.2.0", user]
            lost = total > self.capacity and rng.random() < self.lost_share
            if lost:
                base[1], base[8] = "LOST", "timeout"
                out.append([*base, *tail, "", ""])
            else:
                lat = self._latency_us(total, rng) if in_hold else round(self.ramp_latency_ms * 1000)
                base[1], base[3], base[5] = "ANSWERED", lat, "guest"
                out.append([*base, *tail, user, ""])
                if in_hold:
                    kept.append(lat)
            if in_hold:
                counts["sent"] += 1
                counts["lost" if lost else "answered"] += 1
        self.samples[(engine, number)] = kept
        self.rows[(engine, number)] = counts
        return out

    def _row(self, engine: str, number: int, rate: float) -> dict:
        ramp, hold, end = self.window(number)
        c = self.rows[(engine, number)]
        lat = self.samples[(engine, number)]
        starved = self.generator_from is not None and number >= self.generator_from
        p99 = higher(lat, 0.99) if lat else None
        row = {
            "run": self.run_id(engine),
            "engine": engine,
            "step": number,
            "kind": "rate",
            "offered": rate,
            "ramp_start_epoch_ms": ramp,
            "hold_start_epoch_ms": hold,
            "end_epoch_ms": end,
            "users": 7,
            **c,
            "achieved": c["sent"] / (self.hold_ms / 1000) * (0.6 if starved else 1),
            "p50_us": higher(lat, 0.5) if lat else "",
            "p99_us": p99 if p99 is not None else "",
            "p999_us": higher(lat, 0.999) if lat else "",
            "send_lag_p99_ms": 850.0 if starved else 1.5,
            "generator_cpu": 0.97 if starved else 0.35,
            "connects": 0,
            "connect_failed": 0,
            "connect_p99_ms": "",
            "verdict": "unchecked",
            "limit": "",
            "reason": "",
        }
        if self.slo_p99_ms is not None:
            why = []
            if p99 is not None and p99 / 1000 > self.slo_p99_ms:
                why.append(f"p99 {p99 // 1000} ms > {self.slo_p99_ms:g} ms")
            if c["lost"]:
                why.append(f"lost {100 * c['lost'] / c['sent']:.1f}% > 0%")
            if starved:
                why = ["generator: send lag p99 850 ms, CPU 97% of 2 cores"]
            row["verdict"] = "broke" if why else "held"
            row["limit"] = ("generator" if starved else "server") if why else ""
            row["reason"] = "; ".join(why)
        c.update(row)
        return row

    def hold_samples(self, number: int) -> list[int]:
        return [v for e in self.engines for v in self.samples[(e, number)]]


def write_users_steps(path: Path, offered=(1000, 2000, 4000), capacity: int = 3000, engine: str = "local") -> Path:
    """A connect test's steps log: users steps, connects failing past ``capacity`` users."""
    with open(path, "w", newline="") as f:
        f.write(STEPS_HEADER + "\n")
        w = csv.DictWriter(f, STEPS_HEADER.split(","), lineterminator="\n")
        for number, users in enumerate(offered, start=1):
            ramp = T0_MS + (number - 1) * 3000
            held = min(users, capacity)
            failed = users - held
            w.writerow(
                {
                    "run": T0_MS - 1000,
                    "engine": engine,
                    "step": number,
                    "kind": "users",
                    "offered": users,
                    "ramp_start_epoch_ms": ramp,
                    "hold_start_epoch_ms": ramp + 1000,
                    "end_epoch_ms": ramp + 3000,
                    "users": held,
                    "achieved": held,
                    "send_lag_p99_ms": "",
                    "generator_cpu": 0.2,
                    "connects": users,
                    "connect_failed": failed,
                    "connect_p99_ms": 40.0 if not failed else 2300.0,
                    "verdict": "broke" if failed else "held",
                    "limit": "server" if failed else "",
                    "reason": f"connects failed {100 * failed / users:.1f}% > 0%" if failed else "",
                }
            )
    return path


def write_server_figures(path: Path, start_ms: int, end_ms: int, every_ms: int = 250) -> Path:
    """Polls of an actuator (process_cpu, heap_used_bytes) and a pid (threads) from start to end, their values a
    function of time, a missed poll now and then."""
    with open(path, "w", newline="") as f:
        f.write(SERVER_HEADER + "\n")
        for i, t in enumerate(range(start_ms, end_ms, every_ms)):
            if i % 11 == 5:  # a poll that failed wrote nothing
                continue
            f.write(f"{t},actuator,process_cpu,{(t % 1000) / 1000:.3f}\n")
            f.write(f"{t},actuator,heap_used_bytes,{(t % 7919) * 1024}\n")
            f.write(f"{t},pid,threads,{40 + (t // 1000) % 13}\n")
    return path
