#!/usr/bin/env python3
"""Aggregates jmeter-sockjs-stomp reply-timing logs: ``python3 analysis/aggregate.py --help``.

A thin wrapper around the ``stomp_analysis`` package (``analysis/src``), usable without installing it
(its dependencies, polars/numpy/matplotlib/tqdm, must be importable).
"""

import sys
from pathlib import Path

try:
    from stomp_analysis.cli import main
except ImportError:
    sys.path.insert(0, str(Path(__file__).resolve().parent / "src"))
    from stomp_analysis.cli import main

if __name__ == "__main__":
    sys.exit(main())
