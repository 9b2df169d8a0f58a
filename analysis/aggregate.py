#!/usr/bin/env python3
"""Aggregates jmeter-sockjs-stomp reply-timing logs: ``python3 analysis/aggregate.py --help``.

A thin wrapper around the ``stomp_analysis`` package (``analysis/src``), usable without installing it (its
dependencies, polars/numpy/matplotlib/tqdm, must be importable; when one is not, it says so in one line and
what to run, and exits with status 2).
"""

import sys
from pathlib import Path

PROG = "sockjs-stomp-aggregate"
SRC = Path(__file__).resolve().parent / "src"


def _import_main():
    try:
        from stomp_analysis.cli import main
    except ModuleNotFoundError as e:
        if e.name != "stomp_analysis":
            raise
        sys.path.insert(0, str(SRC))
        from stomp_analysis.cli import main
    return main


def missing_module_message(name: str) -> str:
    """The one line printed when a dependency cannot be imported."""
    return (
        f"{PROG}: error: the Python module {name!r} is missing (a dependency of analysis/): run 'make venv' in the "
        "repository, then '.venv/bin/python analysis/aggregate.py ...', or 'pip install ./analysis'"
    )


if __name__ == "__main__":
    try:
        main = _import_main()
    except ModuleNotFoundError as e:
        print(missing_module_message((e.name or "?").split(".")[0]), file=sys.stderr)
        sys.exit(2)
    sys.exit(main())
