"""The 16-column format: senders are virtual users (sender_user), not logins (sender)."""

from __future__ import annotations

import re

import pytest

from stomp_analysis.aggregate import RunSpec, analyze
from stomp_analysis.cli import main
from stomp_analysis.spill import SpillStore, analyze_spilled
from stomp_analysis.timing_log import HEADER_V2, HEADER_V3, read_timing_log

from .conftest import TINY, v3

T0 = 1_700_000_000_000
RUN = T0 - 10_000


def guest_log(users: int, sends: int, interval_ms: int, late_user: int | None = None) -> list[str]:
    """Fire-and-forget sends of ``users`` virtual users, all logged in as ``guest``: user n sends every
    ``interval_ms`` from T0 + n µs, to /queue/echo.<n>; the sends of ``late_user`` are 5 ms late from its second on."""
    lines = []
    for k in range(sends):
        for n in range(1, users + 1):
            sent_us = (T0 + k * interval_ms) * 1000 + n
            if n == late_user and k:
                sent_us += 5_000
            msg, dest = f"m-{n}-{k}", f"/queue/echo.{n}"
            lines.append(
                f"{sent_us // 1000},ANSWERED,{msg},900,guest,guest,{dest},64,,fire-and-forget,{RUN},{sent_us},"
                f"local,0.2.0,vu-{n},vu-{n}"
            )
    lines.sort(key=lambda line: int(line.split(",")[11]))
    return lines


def test_one_login_for_2000_virtual_users_counts_2000_senders(log_writer, capsys):
    """With one login for every user, grouping by sender would say "1 sender", an interval of 1000 / rate and a
    schedule lag of one sender sending 2,000 times faster than its pace."""
    users, messages_per_second = 2000, 2000.0  # 1 message/s per user
    path = log_writer(guest_log(users, 3, 1000), header=HEADER_V3)
    assert main([str(path), "--messages-per-second", str(messages_per_second), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "2000 sender(s)" in out
    assert "expected interval 2000 senders × 1000 / 2000 msg/s = 1000.000 ms" in out
    # every user keeps its schedule to the µs: no lag
    assert "sends fell behind their schedule by 0.000 ms at p99 and 0.000 ms at most" in out
    assert re.search(r"\| timing \| 2000 \| 6000 \| 1000\.000 \|", out)


def test_schedule_lag_and_most_behind_per_virtual_user(log_writer):
    path = log_writer(guest_log(50, 4, 100, late_user=17), header=HEADER_V3)
    (r,) = analyze(RunSpec("g", [path], expected_interval_ms=100), [read_timing_log(path)])
    assert r.senders == 50 and r.schedule.senders == 50
    assert r.schedule.worst_sender == "vu-17"
    assert r.schedule.lag.max() == 5_000 and r.schedule.lag.n == 200


def test_out_of_core_counts_virtual_users_too(tmp_path, log_writer):
    path = log_writer(guest_log(40, 5, 100, late_user=3), header=HEADER_V3)
    spec = RunSpec("g", [path], expected_interval_ms=100)
    (mem,) = analyze(spec, [read_timing_log(path)])
    with SpillStore(tmp_path, slice_s=1) as store:
        (ooc,) = analyze_spilled(spec, [store.read(path, 0)], store)
    assert mem.senders == ooc.senders == 40
    assert (ooc.schedule.senders, ooc.schedule.worst_sender) == (40, "vu-3")
    assert ooc.schedule.lag.quantile(0.99) == mem.schedule.lag.quantile(0.99)


def test_the_14_column_format_still_counts_logins(log_writer):
    lines = [",".join(line.split(",")[:14]) for line in guest_log(10, 2, 100)]
    (r,) = analyze(RunSpec("g", []), [read_timing_log(log_writer(lines, header=HEADER_V2))])
    assert r.senders == 1


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (
            "1700000000000,ANSWERED,a,5,guest,guest,/d,1,,await-reply,1,1700000000000000,e,1,,vu-2",
            "missing sender_user",
        ),
        (
            "1700000000000,ANSWERED,a,5,guest,guest,/d,1,,await-reply,1,1700000000000000,e,1,vu-1,",
            "ANSWERED without receiver_user",
        ),
        (
            "1700000000000,ANSWERED,a,5,guest,guest,/d,1,,await-reply,1,1700000000000000,e,1,vu-1",
            "15 fields, expected 16: ANSWERED without receiver_user",
        ),
        (
            '1700000000000,ANSWERED,a,5,guest,guest,/d,1,,await-reply,1,1700000000000000,e,1,"",vu-1',
            "missing sender_user",
        ),
    ],
)
def test_16_column_records_need_their_users(log_writer, line, reason):
    good = "1700000000001,LOST,b,,guest,,/d,1,timeout,await-reply,1,1700000000001000,e,1,vu-1,"
    log = read_timing_log(log_writer([good, line], header=HEADER_V3))
    assert (log.records, log.malformed) == (2, 1)
    assert log.issues[0].reason == reason
    assert log.frame.get_column("sender").cast(str).to_list() == ["vu-1"]


def test_tiny_in_16_columns_has_the_same_books(log_writer):
    (r,) = analyze(RunSpec("t", []), [read_timing_log(log_writer(v3(TINY), header=HEADER_V3))])
    assert (r.total.sent, r.total.answered, r.total.lost, r.total.failed, r.total.replies) == (7, 4, 2, 1, 6)
    assert r.senders == 2 and r.files[0].columns == 16
