"""A closed loop of many virtual users per JMeter thread (echo.jmx's, issue 32): await-reply or await-receipt
records, 40 users on 2 threads. The analysis counts users, never threads: the pacing interval is per user, the
concurrency is the users', and the words say "closed loop"."""

from __future__ import annotations

import pytest

from stomp_analysis.cli import main
from stomp_analysis.timing_log import HEADER

USERS, THREADS, RATE_PER_S, SECONDS = 40, 2, 200, 3
T0_MS = 1_790_000_000_000


def closed_loop_log(path, mode: str):
    """USERS users, each its own loop: a send every USERS / RATE_PER_S s, its reply 3 ms later, one slow reply."""
    lines = [HEADER]
    interval_us = USERS * 1_000_000 // RATE_PER_S
    for k in range(SECONDS * RATE_PER_S):
        user = k % USERS
        sent_us = T0_MS * 1000 + (k // USERS) * interval_us + user * 100
        latency = 900_000 if k == 401 else 3_000
        receipt = "2500" if mode == "await-receipt" else ""
        lines.append(
            f"{sent_us // 1000},ANSWERED,m-{k},{latency},guest,guest,/app/echo,64,,{mode},{T0_MS - 500},{sent_us},"
            f"local,0.2.0,echo #{user + 1},echo #{user + 1},{receipt}"
        )
    path.write_text("\n".join(lines) + "\n")
    return path


def jtl_of_threads(path):
    """JMeter's view: samples of THREADS threads (allThreads = 2)."""
    rows = ["timeStamp,elapsed,label,success,allThreads"]
    rows += [f"{T0_MS + 10 * i},3,echo,true,{THREADS}" for i in range(SECONDS * 100)]
    path.write_text("\n".join(rows) + "\n")
    return path


@pytest.mark.parametrize("mode", ["await-reply", "await-receipt"])
def test_a_closed_loop_of_many_users_per_thread_is_paced_per_user(tmp_path, capsys, mode):
    log = closed_loop_log(tmp_path / "echo.csv", mode)
    jtl = jtl_of_threads(tmp_path / "echo.jtl")
    assert main([str(log), "--jtl", str(jtl), "--messages-per-second", str(RATE_PER_S), "--quiet"]) == 0
    out = capsys.readouterr().out
    interval_ms = USERS * 1000 / RATE_PER_S  # 200 ms per user, not THREADS * 1000 / RATE_PER_S = 10 ms per thread
    assert f"- run echo: await-reply (closed loop) with a pacing of {interval_ms:g} ms/sender" in out
    assert f"| echo | {USERS} | virtual users | {RATE_PER_S} msg/s ({interval_ms:g} ms/sender) |" in out
    assert "Only closed loops are corrected" in out
    # the one slow reply (900 ms) stands for the sends its user missed while it waited: 700, 500, 300 ms at a
    # 200 ms interval per user (a per-thread interval of 10 ms would have added 89)
    added = (900 - int(interval_ms)) // int(interval_ms)
    samples = SECONDS * RATE_PER_S
    assert f"| echo | TOTAL | CO-corrected | {interval_ms:.3f} | {samples + added} |" in out
