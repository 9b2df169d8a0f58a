#!/usr/bin/env python3
"""What it costs to make load: any of the generator benchmark's parts, run into one results directory and one summary.

Each part is a script of its own with its options and --help; this runs several in one go, in this order, with the
settings of the environment (each option of a part's script is its environment variable: --rounds is $ROUNDS), as
the dated commands of bench/RESULTS.md do:

  echo, fire            bench/echo.py        JMeter CPU per echo round trip; fire-and-forget per message answered
  held, many            bench/held.py        heap, RSS and threads per held session
  many-rate             bench/many_rate.py   CPU per message, many users at a modest rate
  replies-idle          bench/many_rate.py   the replies thread's wake-ups when nothing finishes
  connects              bench/connects.py    sessions/s and CPU per session while connecting
  closed                bench/closed.py      CPU per round trip of the closed loop

Usage: python3 bench/generator_efficiency.py [PART ...]   (default: echo fire held many)
  e.g. flock /tmp/bench.lock env ROUNDS=3 SIDES="ours-raw incumbent" python3 bench/generator_efficiency.py echo
"""

import sys

import closed
import common
import connects
import echo
import held
import many_rate

#: Every part, in the order one run takes them.
SECTIONS = echo.SECTIONS + held.SECTIONS + many_rate.SECTIONS + connects.SECTIONS + closed.SECTIONS
DEFAULT_PARTS = ["echo", "fire", "held", "many"]


def main(argv=None):
    args = sys.argv[1:] if argv is None else argv
    names = [name for names, _ in SECTIONS for name in names]
    if any(a in ("-h", "--help") for a in args):
        print(__doc__)
        return 0
    unknown = [a for a in args if a not in names]
    if unknown:
        print(f"unknown part {unknown[0]!r}: one of {', '.join(names)}", file=sys.stderr)
        return 2
    return common.run(args or DEFAULT_PARTS, SECTIONS)


if __name__ == "__main__":
    sys.exit(main())
