"""A run's pacing and what follows from it, as policies apart from the accumulation: each sender's expected
interval and the run's target send rate; then, by the run's mode, which of its books are corrected for coordinated
omission and whether its sends are held to a schedule (together, the run's *treatment*).

The correction assumes a closed loop (a slow reply held the sender back): it is applied to await-reply records,
and to old logs without a mode (as before); fire-and-forget senders (open loop) get the schedule lag instead.
The sentence that states a run's treatment is written in explain.py (treatment_sentence).
"""

from __future__ import annotations

from .explain import number
from .results import MIXED, UNKNOWN, Books, RunSpec
from .stats import co_correct
from .timing_log import AWAIT_REPLY, FIRE_AND_FORGET


def expected_interval_us(spec: RunSpec, senders: int) -> tuple[int | None, str]:
    """Each sender's expected interval between sends, and how it was obtained."""
    if spec.expected_interval_ms:
        return max(1, round(spec.expected_interval_ms * 1000)), f"{number(spec.expected_interval_ms)} ms given"
    if spec.messages_per_second and senders:
        ms = senders * 1000.0 / spec.messages_per_second
        note = f"{senders} senders × 1000 / {number(spec.messages_per_second)} msg/s = {ms:.3f} ms"
        return max(1, round(ms * 1000)), note
    return None, ""


def run_mode(mode_records: dict[str, int]) -> str:
    """await-reply, fire-and-forget or unknown when the run's records have one mode, else mixed."""
    modes = [m for m, n in mode_records.items() if n]
    return modes[0] if len(modes) == 1 else MIXED


def target_per_s(spec: RunSpec, senders: int, interval_us: int | None) -> float | None:
    """The sends per second the pacing asks of the whole run."""
    if spec.messages_per_second:
        return spec.messages_per_second
    if interval_us:
        return senders * 1e6 / interval_us
    return None


def books_to_correct(
    mode: str, interval_us: int | None, destinations: list[Books], total: Books, closed: dict[str, bool]
) -> list[Books]:
    """The books whose latencies get the CO correction: all for await-reply (and unknown) runs with a pacing; in a
    mixed run only the destinations whose records are all await-reply (``closed``); none otherwise."""
    if not interval_us:
        return []
    if mode in (AWAIT_REPLY, UNKNOWN):
        return [*destinations, total]
    if mode == MIXED:
        return [b for b in destinations if closed.get(b.destination)]
    return []


def correct(books: list[Books], interval_us: int, co_max_entries: int) -> None:
    """Adds the CO-corrected distribution to each of ``books``."""
    for b in books:
        b.co = co_correct(b.latency, interval_us, max_entries=co_max_entries)


def holds_to_schedule(interval_us: int | None, mode_records: dict[str, int]) -> bool:
    """Whether the run's fire-and-forget sends are checked against their schedule (they need a pacing)."""
    return bool(interval_us and mode_records.get(FIRE_AND_FORGET))
