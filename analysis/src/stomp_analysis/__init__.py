"""Aggregation of jmeter-sockjs-stomp reply-timing logs (and JMeter .jtl result files)."""

__version__ = "0.1.0"


class InputError(Exception):
    """An input file that cannot be used at all (missing, unreadable, empty, wrong header).

    The command line reports it as one clear line naming the file and exits with status 2.
    """
