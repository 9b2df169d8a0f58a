"""Imported by the command line (cli.py) before any module that imports numpy: asks numpy not to request
transparent huge pages, through numpy's documented switch, the environment variable ``NUMPY_MADVISE_HUGEPAGE``,
which numpy reads once, when it is first imported (numpy's reference, "Global state").

numpy asks for them (``madvise``) for every array of 4 MiB and more: where the kernel's THP defrag setting is
``madvise`` (a common default, and this project's machines'), the first touch of each such array may compact memory
first. The aggregation makes many short-lived arrays of a few million values: on 10 million real-shaped records,
page faults were a fifth of the CPU (perf), and fewer without.

A value already in the environment is kept (``NUMPY_MADVISE_HUGEPAGE=1`` asks for huge pages again). In a process
that imported numpy before, this changes nothing.
"""

import os

VARIABLE = "NUMPY_MADVISE_HUGEPAGE"

os.environ.setdefault(VARIABLE, "0")
