"""common.py's arithmetic: raw /proc texts, counters and result rows into the figures the tables print."""

import os
import subprocess
import sys

import pytest

import common

# /proc/<pid>/stat of a JVM whose command name holds blanks and a ')': utime 250 and stime 50 ticks (fields 14, 15)
STAT = "4242 (java (main) x) S 1 4242 4242 0 -1 4194560 9 0 0 0 250 50 0 0 20 0 40 0 123 456 789"

STATUS = """\
Name:\tstomp-io-1
State:\tS (sleeping)
Threads:\t1
voluntary_ctxt_switches:\t1200
nonvoluntary_ctxt_switches:\t34
"""


def test_stat_cpu_is_user_plus_system_after_the_command_names_last_parenthesis():
    assert common.stat_cpu_seconds(STAT, tick=100) == (3.0, 0.5)


def test_status_switches_are_voluntary_and_involuntary():
    assert common.status_switches(STATUS) == (1200, 34)
    assert common.status_switches("Name:\tx\n") == (0, 0)


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("senders 1-7", "senders"),
        ("stomp-io-2", "stomp-io"),
        ("C2 CompilerThre", "C2 CompilerThre"),
        ("GC Thread#3", "GC Thread"),
        ("replies", "replies"),
        ("12", "12"),
    ],
)
def test_a_threads_kind_is_its_name_without_trailing_numbers(name, kind):
    assert common.thread_kind(name) == kind


def test_kinds_between_two_readings_count_a_new_kind_from_zero():
    before = {"senders": (2, 100, 1.0), "stomp-io": (2, 50, 0.5)}
    after = {"senders": (2, 400, 2.5), "stomp-io": (2, 250, 0.75), "replies": (1, 10, 0.01)}
    assert common.kinds_between(before, after) == {
        "senders": (2, 300, 1.5),
        "stomp-io": (2, 200, 0.25),
        "replies": (1, 10, 0.01),
    }


def test_kinds_per_message_are_switches_and_cpu_microseconds_over_the_messages():
    per = common.kinds_per({"senders": (2, 300, 1.5), "stomp-io": (2, 200, 0.25)}, 10_000)
    assert per["senders"] == (2, 0.03, pytest.approx(150.0))
    assert per["stomp-io"] == (2, 0.02, pytest.approx(25.0))
    # no message in the window: per one, never a division by zero
    assert common.kinds_per({"senders": (2, 300, 1.5)}, 0)["senders"] == (2, 300.0, pytest.approx(1.5e6))


def test_the_window_per_round_trip():
    window = {
        "start_ms": 1_000,
        "end_ms": 21_000,
        "cpu": 2.0,
        "server_cpu": 1.0,
        "system": 0.5,
        "threads": 40,
        "per_kind": {"senders": (2, 30_000, 1.5), "stomp-io": (2, 10_000, 0.5)},
    }
    figures = common.per_round_trip(window, 20_000)
    assert figures["per_s"] == 1_000
    assert figures["cpu_us"] == 100
    assert figures["server_cpu_us"] == 50
    assert figures["cs"] == 2.0
    assert figures["system_share"] == 0.25
    assert figures["threads"] == 40
    assert figures["kinds"]["senders"] == (2, 1.5, pytest.approx(75.0))


def test_median_by_round_skips_the_rounds_without_the_figure():
    results = [{"cpu_us": 10.0}, {"cpu_us": 30.0}, {"cpu_us": 20.0}, {"per_s": 5}]
    assert common.median_of(results, "cpu_us") == 20.0
    missing = common.median_of(results, "missing")
    assert missing != missing  # nan


def test_kind_medians_take_a_round_without_the_kind_as_zero_and_put_the_busiest_first():
    results = [
        {"kinds": {"senders": (2, 0.5, 30.0), "stomp-io": (2, 1.0, 50.0)}},
        {"kinds": {"senders": (2, 0.7, 40.0), "stomp-io": (3, 1.2, 60.0)}},
        {"kinds": {"senders": (2, 0.6, 35.0)}},
    ]
    assert common.kind_medians(results) == [
        (50.0, 1.0, "stomp-io", 3),
        (35.0, 0.6, "senders", 2),
    ]


def test_samples_in_the_window_count_a_rows_sample_count_by_its_end(tmp_path):
    jtl = tmp_path / "run.jtl"
    jtl.write_text(
        "timeStamp,elapsed,label,success,SampleCount\n"
        "1000,10,echo,true,5\n"  # ends at 1010: in
        "1990,20,echo,false,2\n"  # ends at 2010: the window's end is out
        "1500,5,reply /app/echo,true,\n"  # in, counted once
        "1500,5,session,true,1\n"  # another label
        "900,50,echo,true,1\n"  # ends at 950: before
    )
    assert common.samples_between(jtl, ("echo", "reply /app/echo"), 1000, 2010) == (6, 0)
    assert common.samples_between(jtl, "echo", 1000, 2011) == (7, 2)


def test_answered_in_the_window_by_reply_time_and_unanswered_by_send_time(tmp_path):
    timing = tmp_path / "timing.csv"
    # sent epoch ms, outcome, ..., latency us
    timing.write_text(
        "1000,ANSWERED,x,500000\n"  # answered at 1500: in
        "1800,ANSWERED,x,300000\n"  # answered at 2100: out
        "1200,LOST,x,0\n"  # sent in the window
        "2500,FAILED,x,0\n"  # sent after
    )
    assert common.answered_between(timing, 1000, 2000) == (1, 1)


def test_a_floors_answers_in_the_window_are_interpolated_at_both_ends():
    text = "connected 100\nanswered 1000 0\nanswered 2000 100\nanswered 3000 300\n"
    # 1500: 50 by then; 2500: 200 by then
    assert common.answered_in_window(text, 1500, 2500) == (150, 0)
    # past the last line: held at the last total
    assert common.answered_in_window(text, 2000, 9000) == (200, 0)


def test_cpu_by_kind_per_session_keeps_the_kinds_that_spent_over_50_ms():
    before = {"connect": (4, 0, 1.0), "stomp-io": (2, 0, 0.5)}
    after = {"connect": (4, 0, 3.0), "stomp-io": (2, 0, 0.54), "C2 CompilerThre": (1, 0, 1.0)}
    assert common.by_kind_per_session(before, after, 1000) == {"connect": 2000, "C2 CompilerThre": 1000}


def test_cores_busy_between_two_times_from_the_polls_inside():
    polls = [(0.0, 0.0, 0.0), (1.0, 1.5, 0.5), (2.0, 3.0, 1.0), (3.0, 4.5, 1.5), (9.0, 9.0, 9.0)]
    assert common.cpu_between(polls, 1.0, 3.0) == (1.5, 0.5)
    assert common.cpu_between(polls, 5.0, 6.0) is None


def test_an_option_defaults_to_its_environment_variable_and_sets_it_when_given(monkeypatch):
    sections = [(("echo", "fire"), None)]
    options = [common.Option("THREADS", 50, "users", common.whole)]
    # the options are written to the environment: a copy of it, for this test alone
    monkeypatch.setattr(common.os, "environ", {"THREADS": "7"})
    args = common.parse("doc\n\nmore", sections, options, ["echo"], [])
    assert (args.parts, args.THREADS, args.ROUNDS) == (["echo"], 7, 3)
    assert common.ENV["THREADS"] == 7
    args = common.parse("doc", sections, options, ["echo"], ["fire", "--threads", "9", "--rounds", "2"])
    assert (args.parts, common.ENV["THREADS"], common.ENV["ROUNDS"]) == (["fire"], 9, 2)
    monkeypatch.undo()
    common.ENV.update(common.read_env())
    assert common.ENV["ROUNDS"] == int(os.environ.get("ROUNDS", "3"))


def test_a_bad_value_or_part_is_refused_with_the_value_quoted(capsys, monkeypatch):
    monkeypatch.setattr(common.os, "environ", {})
    sections = [(("echo",), None)]
    with pytest.raises(SystemExit):
        common.parse("doc", sections, [], ["echo"], ["--rounds", "three"])
    assert "not a whole number: 'three'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        common.parse("doc", sections, [], ["echo"], ["held"])
    assert "unknown part 'held'" in capsys.readouterr().err


@pytest.mark.parametrize("script", ["echo.py", "held.py", "many_rate.py", "connects.py", "closed.py"])
def test_each_parts_help_names_its_options_and_their_variables(script):
    done = subprocess.run(
        [sys.executable, str(common.ROOT / "bench" / script), "--help"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert "--rounds ROUNDS" in done.stdout
    assert "default $WINDOW_S" in done.stdout


def test_the_dispatcher_runs_the_parts_by_their_names_and_refuses_others():
    script = str(common.ROOT / "bench" / "generator_efficiency.py")
    done = subprocess.run([sys.executable, script, "--help"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    assert "bench/many_rate.py" in done.stdout
    done = subprocess.run([sys.executable, script, "echo", "bogus"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "unknown part 'bogus'" in done.stderr


def test_a_tools_figures_line_becomes_a_connects_row_with_the_servers_cpu_per_connected_session():
    found = {"connected": "400", "failed": "2", "per_s": "512.5", "p50_ms": "61", "cpu_us_per_session": "600"}
    row = common.tool_connect_row("connects-lean8-r1", "lean:8", 402, found, server_cpu=1.2)
    assert row == {
        "run": "connects-lean8-r1",
        "in_flight": "lean:8",
        "users": 402,
        "threads": "-",
        "connected": 400,
        "failed": 2,
        "per_s": 512.5,
        "p50_ms": 61.0,
        "cpu_us": 600.0,
        "server_cpu_us": 3000.0,
    }
    found["cpu_us_second_half"] = "450"
    assert common.tool_connect_row("f", "floor:8", 402, found, 0.0)["cpu_us_second_half"] == 450.0
