"""Aggregation of jmeter-sockjs-stomp reply-timing logs (and JMeter .jtl result files)."""

from pathlib import Path

__version__ = "0.1.0"


class InputError(Exception):
    """An input file that cannot be used at all (missing, unreadable, empty, wrong header).

    The command line reports it as one clear line naming the file and exits with status 2.
    """


def read_head(path: Path, what: str) -> tuple[bytes, bool]:
    """The first line of an input (at most 64 KiB, with its line end) and whether anything follows it; raises
    InputError naming the file when it cannot be read (``what`` it should have been: "a timing log")."""
    try:
        with open(path, "rb") as f:
            first = f.readline(64 * 1024)
            more = bool(f.read(1))
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory, not {what}") from None
    except OSError as e:
        raise InputError(f"{path}: cannot read: {e.strerror or e}") from None
    return first, more
