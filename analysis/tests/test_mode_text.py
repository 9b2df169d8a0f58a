"""The comparison's mode column: the closed loop on many users per thread says so."""

import pytest

from stomp_analysis.explain import mode_text


@pytest.mark.parametrize(
    ("mode", "senders", "threads", "text"),
    [
        ("await-reply", 2000, 2, "await-reply (closed loop, 1000 users per thread)"),
        ("await-reply", 5, 2, "await-reply (closed loop, 2.5 users per thread)"),
        ("await-reply", 50, 50, "await-reply"),
        ("await-reply", 50, None, "await-reply"),
        ("fire-and-forget", 2000, 2, "fire-and-forget"),
    ],
)
def test_mode_text(mode, senders, threads, text):
    assert mode_text(mode, senders, threads) == text
