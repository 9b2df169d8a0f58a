"""matplotlib on its Agg backend, imported when the first chart is drawn: the charts' modules (charts.py,
step_charts.py) take it from here, so that importing them costs nothing and a run without charts (``--no-charts``)
neither loads matplotlib (most of a second) nor needs it installed."""

from __future__ import annotations

from functools import cache
from types import ModuleType


@cache
def pyplot() -> ModuleType:
    """``matplotlib.pyplot``, the backend set to Agg (files only, no display) before its first import."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot

    return matplotlib.pyplot


def ticker() -> ModuleType:
    """``matplotlib.ticker``: the axes' locators and formatters (matplotlib set up by :func:`pyplot` first)."""
    pyplot()
    import matplotlib.ticker

    return matplotlib.ticker
