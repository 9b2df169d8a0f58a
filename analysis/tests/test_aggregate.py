from __future__ import annotations

import numpy as np
import pytest

from stomp_analysis.aggregate import RunSpec, analyze_run
from stomp_analysis.pacing import expected_interval_us
from stomp_analysis.stats import QUANTILES
from stomp_analysis.timing_log import read_timing_log

from .conftest import TINY

T0 = 1_700_000_000  # epoch second of the first send in TINY


def run_of(paths, **spec):
    logs = [read_timing_log(p, i) for i, p in enumerate(paths)]
    return analyze_run(RunSpec(label="r", paths=list(paths), **spec), logs)


def by_dest(result):
    return {b.destination: b for b in result.destinations}


def test_books_with_a_broadcast_answered_three_times(log_writer):
    r = run_of([log_writer(TINY)])
    echo, chat = by_dest(r)["/app/echo"], by_dest(r)["/topic/chat"]
    assert (echo.sent, echo.answered, echo.lost, echo.failed, echo.replies) == (5, 3, 1, 1, 3)
    assert echo.loss_pct == pytest.approx(20.0)
    assert (chat.sent, chat.answered, chat.lost, chat.failed, chat.replies) == (2, 1, 1, 0, 3)
    assert chat.lost_test_ended == 1
    assert chat.loss_pct == pytest.approx(50.0)
    t = r.total
    assert (t.sent, t.answered, t.lost, t.failed, t.replies) == (7, 4, 2, 1, 6)
    assert t.sent == t.answered + t.lost + t.failed
    assert t.loss_pct == pytest.approx(200 / 7)
    assert r.senders == 2
    assert r.records == 9


def test_latency_figures_hand_computed(log_writer):
    r = run_of([log_writer(TINY)])
    echo, chat = by_dest(r)["/app/echo"].latency, by_dest(r)["/topic/chat"].latency
    assert echo.quantiles((0.5, 0.9, 0.99)) == [2000, 3000, 3000]  # of 1000 2000 3000
    assert echo.mean() == 2000
    assert chat.quantiles((0.5, 0.9)) == [6000, 7000]  # of 5000 6000 7000 (3 replies of one broadcast)
    total = r.total.latency  # 1000 2000 3000 5000 6000 7000
    assert total.n == 6
    assert total.quantiles((0.5, 0.9)) == [5000, 7000]  # indexes ceil(2.5) = 3 and ceil(4.5) = 5
    assert total.mean() == 4000
    assert (total.min(), total.max()) == (1000, 7000)


def test_span_throughput_and_per_second_series(log_writer):
    r = run_of([log_writer(TINY)])
    assert r.start_ms == T0 * 1000
    assert r.span_s == pytest.approx(3.0)  # last send at +3.000 s, after the last reply at +2.007 s
    assert r.rate(r.total.answered) == pytest.approx(4 / 3)
    assert r.send_window_s == pytest.approx(3.0)
    assert r.achieved_tps == pytest.approx(7 / 3)
    ps = r.per_second
    assert ps.get_column("epoch_s").to_list() == [T0, T0 + 1, T0 + 2, T0 + 3]
    assert ps.get_column("t_s").to_list() == [0, 1, 2, 3]
    assert ps.get_column("sends").to_list() == [3, 2, 1, 1]
    assert ps.get_column("answers").to_list() == [2, 1, 3, 0]
    assert ps.get_column("lost").to_list() == [1, 0, 0, 1]
    assert ps.get_column("failed").to_list() == [0, 1, 0, 0]
    assert ps.get_column("p50_us").to_list() == [3000, 2000, 6000, None]
    assert ps.get_column("p99_us").to_list() == [3000, 2000, 7000, None]


def test_answers_are_counted_in_the_second_they_arrive(log_writer):
    # sent at .900 with 250 ms latency: send in second 0, answer in second 1
    r = run_of([log_writer([f"{T0}900,ANSWERED,a,250000,u,u,/d,1,"])])
    ps = r.per_second
    assert ps.get_column("sends").to_list() == [1, 0]
    assert ps.get_column("answers").to_list() == [0, 1]


def test_merged_files_percentiles_are_those_of_the_concatenation(log_writer):
    rng = np.random.default_rng(11)
    a = rng.integers(100, 5_000, 301)
    b = rng.integers(2_000, 90_000, 1000)
    pa = log_writer([f"{T0}000,ANSWERED,id-{i},{v},u1,u1,/d,1," for i, v in enumerate(a)], "gen1.csv")
    pb = log_writer([f"{T0}500,ANSWERED,id-{i},{v},u2,u2,/d,1," for i, v in enumerate(b)], "gen2.csv")
    r = run_of([pa, pb])
    both = np.concatenate([a, b])
    got = r.total.latency.quantiles(QUANTILES)
    assert got == [int(np.quantile(both, q, method="higher")) for q in QUANTILES]
    per_file_mean = [(np.quantile(a, q, method="higher") + np.quantile(b, q, method="higher")) / 2 for q in QUANTILES]
    assert got != per_file_mean
    # equal ids in different files (generators) are different messages
    assert r.total.sent == a.size + b.size
    assert r.total.answered == a.size + b.size
    assert len(r.files) == 2


def test_mixed_outcomes_count_as_answered_and_are_reported(log_writer):
    lines = [
        "1000,ANSWERED,m,10,u,u,/d,1,",
        "1000,LOST,m,,u,,/d,1,timeout",
        "2000,LOST,n,,u,,/d,1,timeout",
        "2000,FAILED,n,,u,,/d,1,boom",
    ]
    r = run_of([log_writer(lines)])
    assert (r.total.sent, r.total.answered, r.total.lost, r.total.failed) == (2, 1, 0, 1)
    assert r.mixed_messages == 2
    assert any("both ANSWERED" in n for n in r.notes)


def test_unrecordable_latency_is_counted_not_dropped(log_writer):
    lines = ["1000,ANSWERED,a,-5,u,u,/d,1,", "1000,ANSWERED,b,40,u,u,/d,1,"]
    r = run_of([log_writer(lines)])
    assert r.total.answered == 2
    assert r.total.unrecordable == 1
    assert r.total.latency.n == 1 and r.total.latency.min() == 40
    assert any("cannot be recorded" in n for n in r.notes)


def test_co_correction_per_destination_and_total(log_writer):
    r = run_of([log_writer(TINY)], expected_interval_ms=2)
    assert r.interval_us == 2000
    chat = by_dest(r)["/topic/chat"].co
    # 5000 -> +3000; 6000 -> +4000, +2000; 7000 -> +5000, +3000
    assert chat.added == 5
    assert np.repeat(chat.distribution.values, chat.distribution.counts).tolist() == [
        2000,
        3000,
        3000,
        4000,
        5000,
        5000,
        6000,
        7000,
    ]
    assert chat.distribution.quantile(0.5) == 5000
    assert chat.exact_mean == pytest.approx(35000 / 8)
    assert by_dest(r)["/app/echo"].co.added == 0  # 3000 // 2000 - 1 = 0
    assert r.total.co.added == 5
    assert r.total.latency.n == 6  # raw figures untouched


def test_expected_interval_from_target_rate(log_writer):
    # 2 senders sharing 1000 msg/s: each sends every 2 * 1000 / 1000 = 2 ms
    r = run_of([log_writer(TINY)], messages_per_second=1000)
    assert r.interval_us == 2000
    assert "2 senders" in r.interval_note
    assert r.total.co.added == 5
    assert expected_interval_us(RunSpec("x", [], messages_per_second=None), 5) == (None, "")
    assert expected_interval_us(RunSpec("x", [], messages_per_second=10), 5)[0] == 500_000


def test_broadcast_lines_in_several_chunks_still_one_message(log_writer):
    # replies of one broadcast far apart in the file
    lines = [f"{T0}000,ANSWERED,b,{1000 + i},u0,u{i},/topic/t,1," for i in range(5)]
    lines[2:2] = [f"{T0}001,ANSWERED,x-{i},7,u1,u1,/app/echo,1," for i in range(50)]
    r = run_of([log_writer(lines)])
    t = by_dest(r)["/topic/t"]
    assert (t.sent, t.answered, t.replies) == (1, 1, 5)
    assert by_dest(r)["/app/echo"].sent == 50


def test_senders_are_counted_per_generator_file(log_writer):
    # two generators both name their threads user-1 and user-2: four senders in the run
    a = log_writer(TINY, "gen1.csv")
    b = log_writer(TINY, "gen2.csv")
    r = run_of([a, b], messages_per_second=2000)
    assert r.senders == 4
    assert r.interval_us == 2000  # 4 * 1000 / 2000 ms
    assert r.total.sent == 14
