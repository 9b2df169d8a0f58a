"""Runs told apart (the run column) and the treatment of each run: CO correction only for await-reply senders,
schedule lag for fire-and-forget senders."""

from __future__ import annotations

import re

import numpy as np
import pytest

from stomp_analysis.aggregate import RunSpec, analyze, analyze_run
from stomp_analysis.cli import main
from stomp_analysis.explain import treatment_sentence
from stomp_analysis.runs import FileScan, plan_parts, windows
from stomp_analysis.tables import co_table, per_second_frame, schedule_table, summary_table
from stomp_analysis.timing_log import HEADER_V2, read_timing_log

from .conftest import TINY, v2

T0 = 1_700_000_000_000  # ms
RUN_A, RUN_B = T0 - 5_000, T0 + 55_000


def read_all(paths):
    return [read_timing_log(p, i) for i, p in enumerate(paths)]


def analyze_files(paths, label="x", **spec):
    return analyze(RunSpec(label=label, paths=list(paths), **spec), read_all(paths))


def rec(ms, outcome, msg_id, sender, *, us=0, lat="", receiver="", dest="/app/echo", detail="", mode, run=RUN_A):
    """One 14-column record; us = the microseconds within the millisecond."""
    if outcome == "ANSWERED":
        receiver = receiver or sender
    elif not detail:
        detail = "timeout"
    return f"{ms},{outcome},{msg_id},{lat},{sender},{receiver},{dest},10,{detail},{mode},{run},{ms * 1000 + us},e,0.1.0"


def shifted(lines, ms):
    """9-column lines sent ``ms`` later."""
    return [f"{int(line.split(',', 1)[0]) + ms},{line.split(',', 1)[1]}" for line in lines]


# --- runs told apart ----------------------------------------------------------------------------------------------


def two_runs_reusing_ids():
    """Run B (a minute later) was appended after run A and reuses A's ids; its lines come first to show that
    the order is the run's, not the file's."""
    a = [
        rec(T0, "ANSWERED", "m-1", "u1", lat=1000, mode="await-reply"),
        rec(T0 + 10, "ANSWERED", "m-2", "u2", lat=2000, mode="await-reply"),
        rec(T0 + 20, "LOST", "m-3", "u1", mode="await-reply"),
    ]
    b = [
        rec(T0 + 60_000, "LOST", "m-1", "u1", mode="fire-and-forget", run=RUN_B),
        rec(T0 + 60_005, "ANSWERED", "m-2", "u1", lat=9000, mode="fire-and-forget", run=RUN_B),
    ]
    return b + a


def test_one_file_with_two_runs_is_split(log_writer):
    path = log_writer(two_runs_reusing_ids(), "runs.csv", header=HEADER_V2)
    r1, r2 = analyze_files([path], label="soak")
    assert (r1.label, r2.label) == ("soak#1", "soak#2")
    assert r1.files[0].run_ids == (RUN_A,) and r2.files[0].run_ids == (RUN_B,)
    assert (r1.total.sent, r1.total.answered, r1.total.lost) == (3, 2, 1)
    assert (r2.total.sent, r2.total.answered, r2.total.lost) == (2, 1, 1)
    assert r1.total.latency.values.tolist() == [1000, 2000]
    assert r2.total.latency.values.tolist() == [9000]
    assert (r1.senders, r2.senders) == (2, 1)
    assert (r1.mode, r2.mode) == ("await-reply", "fire-and-forget")  # each run treated on its own
    assert r1.start_ms == T0 and r2.start_ms == T0 + 60_000
    assert "run 1 of the 2 runs" in r1.notes[0] and str(RUN_A) in r1.notes[0]
    assert "run 2 of the 2 runs" in r2.notes[0] and str(RUN_B) in r2.notes[0]
    assert r1.records + r2.records == 5
    # left together, the two runs would give one 60 s run with reused ids merged
    together = analyze_run(RunSpec("all", [path]), read_all([path]))
    assert together.total.sent == 5 and together.span_s > 60


def test_malformed_records_are_counted_once_with_the_first_run(log_writer):
    path = log_writer([*two_runs_reusing_ids(), "garbage"], "runs.csv", header=HEADER_V2)
    r1, r2 = analyze_files([path])
    assert (r1.malformed, r2.malformed) == (1, 0)
    assert (r1.files[0].records, r2.files[0].records) == (4, 2)


def test_engines_of_one_test_stay_one_run(log_writer):
    # two engines started 3 ms apart: different run ids, overlapping sends, the same msg_ids (per engine)
    a = log_writer(v2(TINY, run=RUN_A), "gen1.csv", header=HEADER_V2)
    b = log_writer(v2(TINY, run=RUN_A + 3), "gen2.csv", header=HEADER_V2)
    (r,) = analyze_files([a, b], label="all engines")
    assert r.label == "all engines" and not r.notes
    assert r.total.sent == 14 and r.senders == 4
    # ... but a later test appended to one of the files is a run of its own
    c = log_writer(v2(TINY, run=RUN_A + 3) + v2(shifted(TINY, 60_000), run=RUN_B), "gen2b.csv", header=HEADER_V2)
    r1, r2 = analyze_files([a, c], label="all engines")
    assert (r1.label, r1.total.sent, r1.senders) == ("all engines#1", 14, 4)
    assert (r2.label, r2.total.sent, r2.senders) == ("all engines#2", 7, 2)
    assert [len(r.files) for r in (r1, r2)] == [2, 1]


def test_old_logs_are_never_split(log_writer):
    a = log_writer(TINY, "a.csv")
    b = log_writer(shifted(TINY, 3_600_000), "b.csv")
    scans = [FileScan(i, log, windows(log.frame), log.frame.height) for i, log in enumerate(read_all([a, b]))]
    plans, _ = plan_parts(RunSpec("x", [a, b]), scans, 0.0)
    assert len(plans) == 1 and plans[0].notes == [""]
    (r,) = analyze_files([a, b])
    assert r.total.sent == 14


def test_a_reused_id_is_another_message_in_another_run(log_writer):
    """Two runs writing one file at the same time (two JVMs) overlap and stay one run, but an id reused
    with the same send time, sender and destination is still two messages."""
    lines = [
        rec(T0, "ANSWERED", "m-1", "u1", lat=500, mode="await-reply", run=RUN_A),
        rec(T0, "LOST", "m-1", "u1", mode="await-reply", run=RUN_A + 1),
        rec(T0 + 5, "ANSWERED", "m-2", "u1", lat=500, mode="await-reply", run=RUN_A + 1),
    ]
    (r,) = analyze_files([log_writer(lines, header=HEADER_V2)])
    assert (r.total.sent, r.total.answered, r.total.lost) == (3, 2, 1)
    assert r.mixed_messages == 0
    assert r.senders == 2  # u1 of each JVM


def test_split_labels_never_collide(log_writer, capsys):
    soak = log_writer(two_runs_reusing_ids(), "soak.csv", header=HEADER_V2)
    other = log_writer(v2(TINY), "other.csv", header=HEADER_V2)
    assert main([str(soak), str(other), "--label", "soak", "--label", "soak#2", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"\| soak#1 \| TOTAL \| 3 \| 2 \| 1 \|", out)
    assert re.search(r"\| soak#2 \| TOTAL \| 2 \| 1 \| 1 \|", out)
    assert re.search(r"\| soak#2 \(2\) \| TOTAL \| 7 \| 4 \| 2 \|", out)


# --- treatment ------------------------------------------------------------------------------------------------


def tiny(log_writer, mode, name="t.csv"):
    return log_writer(v2(TINY, mode), name, header=HEADER_V2) if mode else log_writer(TINY, name)


def test_await_reply_is_corrected(log_writer):
    (r,) = analyze_files([tiny(log_writer, "await-reply")], label="echo", expected_interval_ms=2)
    assert r.mode == "await-reply"
    assert all(b.co is not None for b in [*r.destinations, r.total])
    assert r.total.co.added == 5
    assert r.schedule is None
    assert treatment_sentence(r) == (
        "run echo: await-reply (closed loop) with a pacing of 2 ms/sender: latencies also shown corrected for "
        "coordinated omission (HdrHistogram expected interval)."
    )
    assert co_table([r]) is not None


def test_fire_and_forget_is_not_corrected(log_writer):
    (r,) = analyze_files([tiny(log_writer, "fire-and-forget")], label="send", expected_interval_ms=2)
    assert r.mode == "fire-and-forget"
    assert r.interval_us == 2000  # the pacing is known...
    assert all(b.co is None for b in [*r.destinations, r.total])  # ...but not used to correct
    assert co_table([r]) is None
    row = summary_table([r]).rows[-1]
    assert row["destination"] == "TOTAL" and "co_p99_ms" not in row and row["p99_ms"] == 7.0
    assert treatment_sentence(r).startswith(
        "run send: fire-and-forget (open loop) with a pacing of 2 ms/sender: latencies not corrected for "
        "coordinated omission, since a slow reply delays no send; sends fell behind their schedule by 2896.000 ms "
        "at p99 and 2896.000 ms at most;"
    )
    assert r.schedule is not None


def test_unthrottled_runs_are_not_corrected(log_writer):
    (ar,) = analyze_files([tiny(log_writer, "await-reply", "a.csv")], label="a")
    (ff,) = analyze_files([tiny(log_writer, "fire-and-forget", "f.csv")], label="f")
    assert ar.total.co is None and ff.total.co is None and ff.schedule is None
    assert treatment_sentence(ar) == (
        "run a: await-reply (closed loop), unthrottled: no expected interval, so no correction."
    )
    assert treatment_sentence(ff) == (
        "run f: fire-and-forget (open loop), unthrottled: latencies not corrected for coordinated omission, since a "
        "slow reply delays no send; no pacing given, so no schedule to hold the sends to."
    )


def figures(r):
    rows = summary_table([r]).rows
    return [{k: v for k, v in row.items() if k != "run"} for row in rows]


def test_old_logs_keep_their_results_and_say_so(log_writer):
    (old,) = analyze_files([tiny(log_writer, None, "old.csv")], label="old", messages_per_second=1000)
    (new,) = analyze_files([tiny(log_writer, "await-reply", "new.csv")], label="new", messages_per_second=1000)
    assert old.mode == "unknown"
    assert old.total.co is not None and old.total.co.added == 5
    assert figures(old) == figures(new)  # books, raw and CO figures
    assert old.per_second.equals(new.per_second)
    assert (old.span_s, old.achieved_tps, old.interval_us) == (new.span_s, new.achieved_tps, new.interval_us)
    assert treatment_sentence(old).startswith("run old: mode unknown (a timing log of an older plugin version")
    assert "corrected for coordinated omission as before" in treatment_sentence(old)


def mixed_lines(same_destination: bool):
    chat = "/app/echo" if same_destination else "/topic/chat"
    return [
        rec(T0, "ANSWERED", "a-1", "u1", lat=9000, mode="await-reply"),
        rec(T0 + 1, "ANSWERED", "a-2", "u1", lat=1000, mode="await-reply"),
        rec(T0 + 2, "ANSWERED", "f-1", "u2", lat=8000, dest=chat, mode="fire-and-forget"),
        rec(T0 + 3, "ANSWERED", "f-2", "u2", lat=1000, dest=chat, mode="fire-and-forget"),
    ]


def test_mixed_run_corrects_only_await_reply_destinations(log_writer):
    (r,) = analyze_files([log_writer(mixed_lines(False), header=HEADER_V2)], label="m", expected_interval_ms=2)
    by = {b.destination: b for b in r.destinations}
    assert r.mode == "mixed"
    assert by["/app/echo"].co is not None and by["/app/echo"].co.added == 3  # 9000: +7000 +5000 +3000
    assert by["/topic/chat"].co is None and r.total.co is None
    assert [b.destination for b in r.co_corrected] == ["/app/echo"]
    assert "only /app/echo (await-reply records only) also shown corrected" in treatment_sentence(r)
    assert r.schedule is not None and r.schedule.senders == 1  # the fire-and-forget sender


def test_mixed_run_on_one_destination_is_not_corrected(log_writer):
    (r,) = analyze_files([log_writer(mixed_lines(True), header=HEADER_V2)], label="m", expected_interval_ms=2)
    assert r.mode == "mixed" and not r.co_corrected
    assert treatment_sentence(r).startswith(
        "run m: mixed modes (await-reply and fire-and-forget) with a pacing of 2 ms/sender: latencies not corrected"
    )


# --- schedule lag ------------------------------------------------------------------------------------------------


def schedule_log():
    """Expected interval 100 ms. u1 falls behind: sends at 0, 110, 230, 350, 700 ms (lags 0, 10, 30, 50, 300 ms).
    u2 keeps its pace to a fraction of a ms: 5, 105.2, 205.4 ms (lags 0, 0.2, 0.4 ms); its last send is a
    broadcast answered three times, still one send."""
    ff = "fire-and-forget"
    return [
        rec(T0, "ANSWERED", "m1", "u1", lat=700, mode=ff),
        rec(T0 + 5, "ANSWERED", "n1", "u2", lat=900, mode=ff),
        rec(T0 + 105, "ANSWERED", "n2", "u2", us=200, lat=800, mode=ff),
        rec(T0 + 110, "LOST", "m2", "u1", mode=ff),
        rec(T0 + 205, "ANSWERED", "n3", "u2", us=400, lat=100, receiver="u1", mode=ff),
        rec(T0 + 205, "ANSWERED", "n3", "u2", us=400, lat=200, receiver="u2", mode=ff),
        rec(T0 + 205, "ANSWERED", "n3", "u2", us=400, lat=300, receiver="u3", mode=ff),
        rec(T0 + 230, "ANSWERED", "m3", "u1", lat=600, mode=ff),
        rec(T0 + 350, "ANSWERED", "m4", "u1", lat=500, mode=ff),
        rec(T0 + 700, "FAILED", "m5", "u1", detail="SendFailed", mode=ff),
    ]


def test_schedule_lag_hand_computed(log_writer):
    (r,) = analyze_files([log_writer(schedule_log(), header=HEADER_V2)], label="send", expected_interval_ms=100)
    s = r.schedule
    assert (s.interval_us, s.senders, s.sends) == (100_000, 2, 8)
    lags = np.repeat(s.lag.values, s.lag.counts).tolist()
    assert lags == [0, 0, 200, 400, 10_000, 30_000, 50_000, 300_000]
    assert s.lag.quantile(0.5) == 10_000  # index ceil(0.5 * 7) = 4
    assert (s.lag.quantile(0.99), s.lag.max()) == (300_000, 300_000)
    assert s.worst_sender == "u1"
    assert r.target_per_s == pytest.approx(20.0)  # 2 senders every 100 ms
    assert r.achieved_tps == pytest.approx(8 / 0.7)
    assert "sends fell behind their schedule by 300.000 ms at p99 and 300.000 ms at most; " in treatment_sentence(r)
    assert "11.4 sends/s achieved vs 20.0/s target" in treatment_sentence(r)
    row = schedule_table([r]).rows[0]
    assert (row["lag_p50_ms"], row["lag_p99_ms"], row["lag_max_ms"], row["worst_sender"]) == (10.0, 300.0, 300.0, "u1")
    ps = per_second_frame([r], {})
    assert ps.get_column("target_sends").to_list() == [20.0]
    assert ps.get_column("sends").to_list() == [8]


def test_schedule_lag_from_a_target_rate(log_writer):
    # 2 senders, 20 msg/s for the test: 100 ms per sender: the same lags as above
    (r,) = analyze_files([log_writer(schedule_log(), header=HEADER_V2)], label="send", messages_per_second=20)
    assert r.interval_us == 100_000
    assert r.schedule.lag.quantile(0.99) == 300_000
    assert "with a pacing of 100 ms/sender (20 msg/s)" in treatment_sentence(r)


def test_cli_and_report_state_the_treatment_of_each_run(log_writer, tmp_path, capsys):
    echo = tiny(log_writer, "await-reply", "echo.csv")
    send = log_writer(schedule_log(), "send.csv", header=HEADER_V2)
    out = tmp_path / "out"
    pacing = ["--expected-interval-ms", "2", "--expected-interval-ms", "100"]
    assert main([str(echo), str(send), *pacing, "--out", str(out), "--quiet", "--no-charts"]) == 0
    stdout = capsys.readouterr().out
    echo_sentence = (
        "run echo: await-reply (closed loop) with a pacing of 2 ms/sender: latencies also shown corrected for "
        "coordinated omission (HdrHistogram expected interval)."
    )
    assert f"- {echo_sentence}\n" in stdout
    assert "- run send: fire-and-forget (open loop) with a pacing of 100 ms/sender: latencies not corrected" in stdout
    schedule_row = r"\| send \| 2 \| 8 \| 100\.000 \| 20\.0 \| 11\.4 \| 10\.000 \| 300\.000 \| 300\.000 \| u1 \|"
    assert re.search(schedule_row, stdout)
    # the CO table has the await-reply run only
    co = stdout[stdout.index("## Latency: raw vs CO-corrected") : stdout.index("## Comparison across runs")]
    assert "| echo |" in co and "| send |" not in co
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "<h2>Treatment per run</h2>" in html
    assert f"<li>{echo_sentence}</li>" in html
    assert "<li>run send: fire-and-forget (open loop)" in html
    comparison = (out / "comparison.csv").read_text(encoding="utf-8")
    assert "fire-and-forget" in comparison and echo_sentence in comparison
    assert (out / "schedule.csv").is_file()


def test_warmup_is_shown_apart_with_books_that_hold_on_both_sides(log_writer):
    path = log_writer(TINY)
    warm, main_run = analyze(RunSpec(label="echo", paths=[path]), read_all([path]), warmup_s=1.0)
    assert (warm.label, main_run.label) == ("echo warm-up", "echo")
    # m-1, m-2 (1 and 3 ms) and m-3 (lost) were sent in the first second; the rest after it
    t = warm.total
    assert (t.sent, t.answered, t.lost, t.failed) == (3, 2, 1, 0)
    assert np.repeat(t.latency.values, t.latency.counts).tolist() == [1000, 3000]
    t = main_run.total
    assert (t.sent, t.answered, t.lost, t.failed) == (4, 2, 1, 1)
    assert np.repeat(t.latency.values, t.latency.counts).tolist() == [2000, 5000, 6000, 7000]
    assert warm.is_warmup and not main_run.is_warmup
    assert treatment_sentence(main_run).endswith("the messages of its first 1 s are shown apart as warm-up.")
    assert any("shown apart as 'echo warm-up'" in n for n in main_run.notes)


def test_warmup_on_the_command_line_adds_a_run_and_is_never_silent(log_writer, capsys):
    path = log_writer(TINY)
    assert main([str(path), "--label", "echo", "--warmup", "1", "--quiet", "--no-charts"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"\| echo warm-up \|", out) and re.search(r"\| echo \|", out)
    assert "shown apart as warm-up" in out
    assert main([str(path), "--warmup", "-1"]) == 2
    assert "invalid duration '-1'" in capsys.readouterr().err


def test_no_warmup_split_when_every_send_is_in_it(log_writer):
    path = log_writer(TINY)
    (r,) = analyze(RunSpec(label="echo", paths=[path]), read_all([path]), warmup_s=3600)
    assert r.label == "echo" and r.total.sent == 7 and not r.warmup_s
