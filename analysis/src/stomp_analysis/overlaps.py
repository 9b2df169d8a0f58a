"""Spans that overlap in time, grouped in time order: how the pieces of one test that several engines wrote (each
naming its run by its own start time) are found to be one, for the timing logs' runs (runs.py) and the steps logs'
stepped tests (steps.py)."""

from __future__ import annotations


def group_segments(segments: list[tuple[int, int, int, int]]) -> list[tuple[int, list[tuple[int, int]]]]:
    """Groups the segments ``(start_us, end_us, file, run)`` into runs: segments whose send windows overlap are one
    run. Returns ``(end_us, [(file, run), ...])`` per run, in time order (the order of their run ids)."""
    groups: list[list] = []  # [end_us, [(file, run), ...]]
    for start, end, i, run in sorted(segments):
        if groups and start <= groups[-1][0]:
            groups[-1][0] = max(groups[-1][0], end)
            groups[-1][1].append((i, run))
        else:
            groups.append([end, [(i, run)]])
    return [(end, members) for end, members in groups]
