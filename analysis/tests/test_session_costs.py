"""What each session held and each message cost, from the server-figures file: the same rule and the same words as the
run's end on the console (the Java side's RunCostsTest has the same cases), and real runs' files, whose console lines
the analysis must say again word for word (java_runs/, kept for both sides: RecordedRunTest.java reads them too, and
says how they were made)."""

from __future__ import annotations

import csv
import time
from datetime import timezone
from pathlib import Path

import pytest

from stomp_analysis import InputError
from stomp_analysis.cli import main
from stomp_analysis.pipeline import analyse, write_outputs
from stomp_analysis.session_costs import byte_words, cost_report, fixed, read_costs, time_words

from .stepped_fixture import SERVER_HEADER

JAVA_RUNS = Path(__file__).parent / "java_runs"
JAVA_RUN = JAVA_RUNS / "greetings"
#: 2026-01-01 12:00:00.000 UTC, as RunCostsTest.T0
T0 = 1_767_268_800_000
UTC = timezone.utc


class Figures:
    """A server-figures file written as the poller writes it: each round the generator's rows, then a source's."""

    def __init__(self, path: Path, run: int = T0) -> None:
        self.path, self.run, self.rows = path, run, []

    def generator(self, at: int, held: int | None = None, sent: int | None = None, memory: bool = True) -> None:
        self.rows.append((at, "generator", "run", self.run))
        if held is not None:
            self.rows.append((at, "generator", "sessions_held", held))
        if sent is not None:
            self.rows.append((at, "generator", "messages_sent", sent))
        if memory and held is not None:
            self.rows.append((at, "generator", "rss_bytes", int(400e6 + held * 20_000)))
            self.rows.append((at, "generator", "heap_used_bytes", int(100e6 + held * 8_000)))

    def round(self, second: int, held: int, sent: int, rss: float | None = None, cpu: float | None = None) -> None:
        at = T0 + second * 1000
        self.generator(at, held, sent)
        if rss is not None:
            self.rows += [
                (at + 5, "pid", "process_cpu", 0.5),
                (at + 5, "pid", "cpu_seconds", cpu),
                (at + 5, "pid", "rss_bytes", int(rss)),
                (at + 5, "pid", "threads", 40),
            ]

    def write(self) -> Path:
        with open(self.path, "w") as f:
            f.write(SERVER_HEADER + "\n")
            for row in self.rows:
                f.write(",".join(str(v) for v in row) + "\n")
        return self.path


def _lines(path: Path) -> list[str]:
    runs, _ = read_costs([path])
    assert len(runs) == 1
    return runs[0].lines(UTC)


def test_the_baseline_is_the_last_reading_before_the_first_session_and_the_peak_the_first_at_the_most_held(tmp_path):
    f = Figures(tmp_path / "s.csv")
    f.round(0, 0, 0, 300e6, 1.00)
    f.round(1, 0, 0, 310e6, 1.10)  # the baseline: the last with none held yet
    f.round(2, 500, 0, 360e6, 1.50)
    f.round(3, 1000, 0, 420e6, 2.00)  # the peak: the first at the most held
    f.round(4, 1000, 0, 430e6, 2.10)
    f.round(5, 999, 0, 440e6, 2.20)
    f.round(6, 0, 0, 250e6, 2.30)  # all closed: none held, but after sessions were
    assert _lines(f.write()) == [
        "stomp server memory per held session: 110 KB RSS (pid, 310 MB at 12:00:01.005 with 0 held to 420 MB at "
        "12:00:03.005 with 1,000 held)",
        "stomp generator memory per held session: 20.0 KB RSS (generator, 400 MB at 12:00:01.000 with 0 held to 420 MB "
        "at 12:00:03.000 with 1,000 held); 8.00 KB heap (generator, 100 MB at 12:00:01.000 with 0 held to 108 MB at "
        "12:00:03.000 with 1,000 held)",
    ]


def test_sessions_held_at_the_first_reading_make_it_the_baseline(tmp_path):
    f = Figures(tmp_path / "s.csv")
    f.round(0, 200, 0, 300e6, 1)
    f.round(1, 600, 0, 340e6, 1)
    assert _lines(f.write())[0] == (
        "stomp server memory per held session: 100 KB RSS (pid, 300 MB at 12:00:00.005 with 200 held to 340 MB at "
        "12:00:01.005 with 600 held)"
    )


def test_no_session_held_and_a_first_reading_at_the_most_held_give_no_figure(tmp_path):
    f = Figures(tmp_path / "none.csv")
    f.round(0, 0, 0, 300e6, 1)
    f.round(1, 0, 0, 301e6, 1)
    assert _lines(f.write()) == [
        "stomp server memory per held session: no RSS (pid: no reading while a session was held)",
        "stomp generator memory per held session: no RSS (generator: no reading while a session was held); no heap "
        "(generator: no reading while a session was held)",
    ]
    f = Figures(tmp_path / "first.csv")
    f.round(0, 50, 0, 300e6, 1)
    f.round(1, 20, 0, 290e6, 1)
    assert _lines(f.write())[0] == (
        "stomp server memory per held session: no RSS (pid: no more sessions held at any reading than at its first "
        "(50))"
    )


def test_the_actuators_heap_and_rabbitmqs_node_memory_are_named_as_they_are(tmp_path):
    f = Figures(tmp_path / "s.csv")
    f.generator(T0, held=0, memory=False)
    f.rows += [(T0 + 1, "actuator", "heap_used_bytes", 80e6), (T0 + 2, "rabbitmq", "broker_memory_bytes", 150e6)]
    f.generator(T0 + 1000, held=2000, memory=False)
    f.rows += [(T0 + 1001, "actuator", "heap_used_bytes", 162e6), (T0 + 1002, "rabbitmq", "broker_memory_bytes", 210e6)]
    lines = _lines(f.write())
    assert lines[0] == (
        "stomp server memory per held session: 41.0 KB heap (actuator, 80.0 MB at 12:00:00.001 with 0 held to 162 MB "
        "at 12:00:01.001 with 2,000 held); 30.0 KB node memory (rabbitmq, 150 MB at 12:00:00.002 with 0 held to 210 MB "
        "at 12:00:01.002 with 2,000 held)"
    )
    assert lines[1] == "stomp generator memory per held session: none (no reading of this JVM's memory came)"
    assert len(lines) == 2, "no message sent: no CPU line"


def test_cpu_per_message_is_from_the_last_reading_before_the_first_send_to_the_first_at_the_most_sent(tmp_path):
    f = Figures(tmp_path / "s.csv")
    f.round(0, 10, 0, 300e6, 1.00)
    f.round(1, 10, 0, 300e6, 1.20)
    f.round(2, 10, 5_000, 300e6, 1.60)
    f.round(3, 10, 10_000, 300e6, 2.00)
    f.round(4, 10, 10_000, 300e6, 2.05)
    assert _lines(f.write())[2] == (
        "stomp server CPU per message: 80.0 us (pid, 0.80 s of CPU from 12:00:01.005 to 12:00:03.005, 10,000 messages "
        "sent)"
    )


def test_sources_without_cpu_time_say_why(tmp_path):
    f = Figures(tmp_path / "s.csv")
    f.generator(T0, sent=0)
    f.rows += [
        (T0 + 1, "rabbitmq", "connections", 3),
        (T0 + 2, "actuator", "process_cpu", 0.2),
        (T0 + 3, "pid", "cpu_seconds", 4),
    ]
    f.generator(T0 + 1000, sent=100)
    assert _lines(f.write())[2] == (
        "stomp server CPU per message: none from rabbitmq (RabbitMQ's management API has no CPU figure); none from "
        "actuator (it gave no CPU time; an actuator gives it from Spring Boot 3.3); none from pid (no message was sent "
        "between its readings)"
    )


def test_no_server_source_that_answered_is_said(tmp_path):
    f = Figures(tmp_path / "s.csv")
    f.round(0, 0, 0)
    f.round(1, 5, 10)
    lines = _lines(f.write())
    assert lines[0] == "stomp server memory per held session: none (no server source answered)"
    assert lines[2] == "stomp server CPU per message: none (no server source answered)"


@pytest.mark.parametrize(
    ("n", "words"),
    [
        (0, "0 B"),
        (999.4, "999 B"),
        (-0.4, "0 B"),
        (0.5, "0 B"),
        (1.5, "2 B"),
        (1000, "1.00 KB"),
        (41000, "41.0 KB"),
        (118499, "118 KB"),
        (9999, "10.00 KB"),
        (312400000, "312 MB"),
        (1200000000, "1.20 GB"),
        (-3100, "-3.10 KB"),
        (2000000000000, "2.00 TB"),
    ],
)
def test_bytes_are_written_as_the_java_side_writes_them(n, words):
    assert byte_words(n) == words  # CostWordsTest's cases


@pytest.mark.parametrize(
    ("value", "decimals", "words"), [(0.125, 2, "0.12"), (0.375, 2, "0.38"), (2.5, 0, "2"), (-0.04, 1, "0.0")]
)
def test_fixed_rounds_the_exact_value_half_to_even(value, decimals, words):
    assert fixed(value, decimals) == words


def test_times_are_of_the_day_to_the_millisecond():
    assert time_words(1767268861250, UTC) == "12:01:01.250"


def test_runs_appended_to_one_file_are_apart_and_rows_before_any_run_give_nothing(tmp_path):
    f = Figures(tmp_path / "s.csv", run=T0)
    f.rows.append((T0 - 5000, "pid", "rss_bytes", 1))  # an older plugin's row: no run
    f.round(0, 0, 0, 300e6, 1)
    f.round(1, 100, 0, 310e6, 1)
    f.run = T0 + 60_000
    f.round(60, 0, 0, 500e6, 1)
    f.round(61, 50, 0, 505e6, 1)
    runs, notes = read_costs([f.write()])
    assert [r.run for r in runs] == [T0, T0 + 60_000] and notes == []
    assert runs[0].lines(UTC)[0].startswith("stomp server memory per held session: 100 KB RSS (pid, 300 MB")
    assert runs[1].lines(UTC)[0].startswith("stomp server memory per held session: 100 KB RSS (pid, 500 MB")
    report = cost_report([f.path], UTC)
    assert [line.split(": ")[0] for line in report.lines(UTC)][:2] == [f"s.csv run {T0}"] * 2


def test_a_file_without_generator_rows_is_said_so(tmp_path):
    old = tmp_path / "old.csv"
    old.write_text(SERVER_HEADER + f"\n{T0},pid,rss_bytes,1\n")
    runs, notes = read_costs([old])
    assert runs == [] and notes == [
        f"{old}: no generator rows (a file written before the plugin polled its own figures beside the server's): no "
        "memory per held session, no CPU per message"
    ]


@pytest.mark.parametrize(("name", "lines"), [("greetings", 3), ("connect", 2), ("connect-off", 2)])
def test_a_recorded_runs_file_gives_the_lines_its_console_said(name, lines):
    # the run's JVM wrote its times in its zone, UTC
    expected = (JAVA_RUNS / name / "console.txt").read_text().splitlines()
    assert len(expected) == lines
    assert _lines(JAVA_RUNS / name / "stomp-server.csv") == expected


def test_the_command_says_them_from_the_server_figures_alone_and_writes_their_tables(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("TZ", "UTC")  # the run's JVM wrote its times in its zone, UTC
    time.tzset()
    try:
        out = tmp_path / "out"
        assert main(["--server-figures", str(JAVA_RUN / "stomp-server.csv"), "--out", str(out), "--quiet"]) == 0
    finally:
        monkeypatch.undo()
        time.tzset()
    stdout = capsys.readouterr().out
    expected = (JAVA_RUN / "console.txt").read_text()
    assert stdout.startswith("# What the sessions cost\n\n```\n" + expected + "```\n\n## Memory per held session\n")
    assert "## Server CPU per message" in stdout
    memory = list(csv.DictReader((out / "memory_per_session.csv").open()))
    assert [(r["side"], r["source"], r["figure"]) for r in memory] == [
        ("generator", "generator", "RSS"),
        ("generator", "generator", "heap"),
        ("server", "actuator", "heap"),
        ("server", "pid", "RSS"),
    ]
    # the figure is the table's own readings' difference over their sessions
    for r in memory:
        diff = (float(r["peak_bytes"]) - float(r["baseline_bytes"])) / (int(r["peak_held"]) - int(r["baseline_held"]))
        assert abs(float(r["per_session_bytes"]) - diff) <= 1
    cpu = list(csv.DictReader((out / "cpu_per_message.csv").open()))
    assert [(r["source"], r["messages"]) for r in cpu] == [("actuator", "400"), ("pid", "400")]
    html = (out / "report.html").read_text()
    assert "<h2>What the sessions cost</h2>" in html and "<h2>Memory per held session</h2>" in html


def test_the_server_figures_beside_a_timing_log_are_read_without_steps(tmp_path, capsys):
    (tmp_path / "stomp-server.csv").write_bytes((JAVA_RUN / "stomp-server.csv").read_bytes())
    (tmp_path / "stomp-timing.csv").write_text(
        "sent_epoch_ms,outcome,msg_id,latency_us,sender,receiver,destination,bytes,detail\n"
        "1795893390000,ANSWERED,m-1,812,guest,guest,/app/hello,20,\n"
    )
    assert main([str(tmp_path / "stomp-timing.csv")]) == 0
    captured = capsys.readouterr()
    assert "reading " + str(tmp_path / "stomp-server.csv") in captured.err
    assert captured.out.startswith("# What the sessions cost\n") and "# SockJS/STOMP reply timing" in captured.out
    assert main([str(tmp_path / "stomp-timing.csv"), "--no-steps"]) == 0
    assert "What the sessions cost" not in capsys.readouterr().out


def test_a_file_that_is_not_one_is_refused(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("a,b\n1,2\n")
    with pytest.raises(InputError, match="not a server-figures file"):
        analyse([], server_paths=[bad])


def test_the_outputs_of_the_figures_alone(tmp_path):
    analysis = analyse([], server_paths=[JAVA_RUN / "stomp-server.csv"])
    names = [p.name for p in write_outputs(analysis, tmp_path, charts=False)]
    assert names == ["memory_per_session.csv", "cpu_per_message.csv", "report.html"]


DOCS = Path(__file__).parents[2] / "docs" / "server-figures.md"


def _doc_commands() -> list[str]:
    return [line for line in DOCS.read_text().splitlines() if line.startswith("sockjs-stomp-aggregate ")]


def test_the_docs_command_lines_run_on_a_connect_tests_file(tmp_path, monkeypatch, capsys):
    commands = _doc_commands()
    assert commands == ["sockjs-stomp-aggregate --server-figures stomp-server.csv --out report"]
    readme = (Path(__file__).parents[1] / "README.md").read_text()
    for command in commands:
        assert command in readme, "analysis/README.md shows it too"
        (tmp_path / "stomp-server.csv").write_bytes((JAVA_RUNS / "connect" / "stomp-server.csv").read_bytes())
        monkeypatch.chdir(tmp_path)
        assert main([*command.split()[1:], "--quiet"]) == 0
        assert capsys.readouterr().out.startswith("# What the sessions cost\n")
        assert {p.name for p in (tmp_path / "report").iterdir()} == {"memory_per_session.csv", "report.html"}
