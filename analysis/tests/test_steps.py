"""A stepped capacity test: the knee, whose limit it is, engines merged, the server's figures aligned, the charts and
the command line end to end, on generated tests (stepped_fixture.py)."""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

import pytest

from stomp_analysis import InputError
from stomp_analysis.cli import main
from stomp_analysis.pipeline import Options, analyse, write_outputs
from stomp_analysis.results import RunSpec
from stomp_analysis.steps import FROM_TIMING_LOGS, MAX_OF_ENGINES

from .conftest import ANALYSIS_DIR
from .stepped_fixture import T0_MS, Stepped, higher, write_server_figures, write_users_steps


def _analyse(tmp_path: Path, test: Stepped, *, timing: bool = True, server: list[Path] = (), **options):
    logs, steps = test.write(tmp_path)
    specs = [RunSpec("stepped", logs)] if timing else []
    return analyse(specs, options=Options(**options), steps_paths=steps, server_paths=list(server))


def test_the_knee_is_the_first_step_past_the_servers_capacity(tmp_path):
    test = Stepped(offered=(100, 200, 400, 800, 1600), capacity=500)
    (t,) = _analyse(tmp_path, test).steps.tests
    assert [s.verdict for s in t.steps] == ["held", "held", "held", "broke", "broke"]
    assert t.knee.number == 4 and t.knee.limit == "server"
    assert t.held.number == 3
    answer = _analyse(tmp_path, test).markdown().splitlines()[2]
    p99_held = higher(test.hold_samples(3), 0.99) / 1000
    assert answer.startswith(f"**held 400 msg/s (p99 {p99_held:.1f} ms, 0 lost); broke at 800 msg/s: p99 ")
    lost = test.rows[("local", 4)]["lost"] / test.rows[("local", 4)]["sent"] * 100
    assert f", {lost:.1f}% lost (the server's limit: the generator kept its pace)**" in answer


@pytest.mark.parametrize("capacity, knee", [(150, 2), (50, 1), (300, 3)])
def test_the_knee_follows_the_capacity(tmp_path, capacity, knee):
    (t,) = _analyse(tmp_path, Stepped(offered=(100, 200, 400), capacity=capacity)).steps.tests
    assert t.knee.number == knee
    if knee == 1:
        assert t.held is None
        assert "broke at the first step, 100 msg/s: " in _answer(t)


def _answer(t) -> str:
    from stomp_analysis.explain import steps_answer

    return steps_answer(t)


def test_a_starved_generator_is_the_generators_limit(tmp_path):
    test = Stepped(offered=(100, 200, 400), capacity=10_000, generator_from=3)
    analysis = _analyse(tmp_path, test)
    (t,) = analysis.steps.tests
    assert (t.knee.number, t.knee.limit) == (3, "generator")
    assert _answer(t).endswith("(the generator's limit, not the server's: send lag p99 850 ms, CPU 97% of 2 cores)"), (
        _answer(t)
    )
    row = next(r for r in analysis.steps.table.rows if r["step"] == 3)
    assert (row["limit"], row["send_lag_p99_ms"], row["generator_cpu_pct"]) == ("generator", 850.0, 97.0)


@pytest.mark.parametrize("out_of_core", [False, True], ids=["in-memory", "out-of-core"])
def test_two_engines_merge_by_step_with_the_p99_recomputed_from_the_timing_logs(tmp_path, out_of_core):
    test = Stepped(engines=("127.0.0.1_1099", "127.0.0.1_1100"), offered=(200, 400, 800), capacity=500)
    analysis = _analyse(tmp_path, test, max_in_memory_mib=0 if out_of_core else 512)
    (t,) = analysis.steps.tests
    assert len(t.runs) == 2
    for s in t.steps:
        rows = [test.rows[(e, s.number)] for e in test.engines]
        assert (s.engines, s.offered) == (2, sum(r["offered"] for r in rows))
        for col in ("sent", "answered", "lost", "failed"):
            assert getattr(s, col) == sum(r[col] for r in rows), col
        samples = test.hold_samples(s.number)  # sent in each engine's own hold: the ramps' slow replies left out
        assert s.latency_from == FROM_TIMING_LOGS
        assert (s.p50_us, s.p99_us, s.p999_us) == tuple(higher(samples, q) for q in (0.5, 0.99, 0.999))
    knee = t.knee
    per_engine_max = max(test.rows[(e, knee.number)]["p99_us"] for e in test.engines)
    assert knee.p99_us != per_engine_max  # the merged p99 is not the worst engine's
    assert "2 engines' steps logs merged by step" in analysis.markdown()


def test_without_timing_logs_several_engines_give_the_highest_p99_and_say_so(tmp_path):
    test = Stepped(engines=("a", "b"), offered=(100, 200))
    (t,) = _analyse(tmp_path, test, timing=False).steps.tests
    s = t.steps[0]
    assert s.latency_from == MAX_OF_ENGINES
    assert s.p99_us == max(test.rows[(e, 1)]["p99_us"] for e in ("a", "b"))


def test_no_knee(tmp_path):
    analysis = _analyse(tmp_path, Stepped(offered=(100, 200, 400), capacity=10_000))
    (t,) = analysis.steps.tests
    assert t.knee is None and t.held.number == 3
    assert _answer(t).startswith("held every step up to 400 msg/s (p99 ")
    assert _answer(t).endswith(", 0 lost): no knee found")


def test_unchecked_gives_the_table_only(tmp_path):
    analysis = _analyse(tmp_path, Stepped(offered=(100, 200, 400), slo_p99_ms=None))
    (t,) = analysis.steps.tests
    assert not t.checked and t.knee is None
    assert _answer(t) == "no service level was given: 3 step(s) up to 400 msg/s, shown without a verdict"
    assert [r["verdict"] for r in analysis.steps.table.rows] == ["unchecked"] * 3
    assert "whose limit" not in analysis.steps.table.markdown()


def test_server_figures_are_averaged_over_each_hold(tmp_path):
    test = Stepped(offered=(100, 200, 400))
    server = write_server_figures(tmp_path / "server.csv", T0_MS - 3000, T0_MS + 10_000)
    analysis = _analyse(tmp_path, test, server=[server])
    polls = list(csv.DictReader(server.open()))
    for s in analysis.steps.tests[0].steps:
        _, hold, end = test.window(s.number)
        inside = [p for p in polls if hold <= int(p["epoch_ms"]) < end]
        by = {(f.source, f.metric): v for f, v in s.server.items()}
        for source, metric, factor in (("actuator", "process_cpu", 100), ("pid", "threads", 1)):
            values = [float(p["value"]) for p in inside if (p["source"], p["metric"]) == (source, metric)]
            assert by[(source, metric)] == pytest.approx(factor * sum(values) / len(values))
    header = analysis.steps.table.markdown().splitlines()[2]
    assert "actuator CPU %" in header and "actuator heap" in header and "pid threads" in header


def test_the_charts_and_files_are_written(tmp_path):
    test = Stepped(offered=(100, 200, 400, 800))
    server = write_server_figures(tmp_path / "server.csv", T0_MS, T0_MS + 10_000)
    analysis = _analyse(tmp_path, test, server=[server])
    written = write_outputs(analysis, tmp_path / "out")
    names = [p.name for p in written]
    assert names[0] == "steps.csv" and "steps.png" in names and "server.png" in names
    for name in ("steps.png", "server.png"):
        assert (tmp_path / "out" / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    html = (tmp_path / "out" / "report.html").read_text()
    answer = _answer(analysis.steps.tests[0]).replace("'", "&#x27;")
    assert html.index(answer) < html.index("<h2>Steps</h2>") < html.index("Treatment per run")
    assert html.count("data:image/png;base64,") == len([n for n in names if n.endswith(".png")])
    rows = list(csv.DictReader((tmp_path / "out" / "steps.csv").open()))
    assert [int(r["step"]) for r in rows] == [1, 2, 3, 4]
    assert [r["verdict"] for r in rows] == [s.verdict for s in analysis.steps.tests[0].steps]
    assert rows[3]["limit"] == "server" and rows[0]["server_actuator_process_cpu_pct"] != ""


def test_a_users_step_test_without_timing_logs(tmp_path, capsys):
    steps = write_users_steps(tmp_path / "steps.csv", offered=(1000, 2000, 4000, 8000), capacity=3000)
    assert main(["--steps", str(steps), "--out", str(tmp_path / "out"), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[2] == (
        "**held 2,000 users (connect p99 40 ms); broke at 4,000 users: 25.0% of connects failed, connect p99 "
        "2,300 ms, 3,000 users held a session (the server's limit: the generator kept its pace)**"
    )
    assert "# SockJS/STOMP reply timing" not in out
    assert (tmp_path / "out" / "steps.png").exists() and not (tmp_path / "out" / "summary.csv").exists()


def test_a_bad_steps_log_is_refused_naming_it(tmp_path, capsys):
    bad = tmp_path / "stomp-steps.csv"
    bad.write_text("run,engine,step\n1,local,1\n")
    assert main(["--steps", str(bad)]) == 2
    assert f"{bad}: not a steps log" in capsys.readouterr().err
    good = write_users_steps(tmp_path / "good.csv")
    good.write_text(good.read_text().replace(",1,users,", ",1,clients,", 1))
    with pytest.raises(InputError, match=r"good\.csv: row 1: kind 'clients' is not one of rate, users"):
        analyse([], steps_paths=[good])


def test_the_command_finds_the_steps_and_server_files_next_to_the_timing_log(tmp_path):
    test = Stepped(offered=(100, 200, 400, 800))
    (log,), (steps,) = test.write(tmp_path)
    steps.rename(tmp_path / "stomp-steps.csv")
    write_server_figures(tmp_path / "stomp-server.csv", T0_MS, T0_MS + 10_000)
    out = tmp_path / "out"
    done = subprocess.run(
        [sys.executable, str(ANALYSIS_DIR / "aggregate.py"), str(log), "--out", str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "# Where it broke"
    assert done.stdout.splitlines()[2].startswith("**held 400 msg/s (p99 ")
    assert f"reading {tmp_path / 'stomp-steps.csv'}, found next to the timing log" in done.stderr
    assert {"steps.csv", "steps.png", "server.png", "summary.csv", "report.html"} <= {p.name for p in out.iterdir()}
    off = subprocess.run(
        [sys.executable, str(ANALYSIS_DIR / "aggregate.py"), str(log), "--no-steps", "--quiet"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert off.returncode == 0 and "Where it broke" not in off.stdout


def test_a_record_is_in_its_own_engines_hold_start_included_end_excluded():
    import polars as pl

    from stomp_analysis.hold_windows import NO_STEP, HoldWindows

    rows = pl.DataFrame(
        {
            "run": [1, 1, 2],
            "engine": ["a", "a", "b"],
            "key": [11, 12, 11],
            "hold_start_epoch_ms": [1000, 3000, 1500],
            "end_epoch_ms": [2000, 4000, 2500],
        }
    )
    windows = HoldWindows.of(rows)
    records = pl.DataFrame(
        {
            "run": [1, 1, 1, 1, 2, 2, 1, None],
            "engine": ["a", "a", "a", "a", "b", "a", "b", "a"],
            "sent_epoch_us": [999_999, 1_000_000, 1_999_999, 2_000_000, 2_400_000, 1_500_000, 1_500_000, 1_500_000],
        },
        schema={"run": pl.Int64, "engine": pl.Categorical, "sent_epoch_us": pl.Int64},
    )
    keys = windows.assign(records).tolist()
    assert keys == [NO_STEP, 11, 11, NO_STEP, 11, NO_STEP, NO_STEP, NO_STEP]


def test_two_stepped_tests_appended_to_one_steps_log_are_told_apart(tmp_path):
    first = Stepped(offered=(100, 200), capacity=150)
    second = Stepped(offered=(100, 200, 400), capacity=1000, start_ms=T0_MS + 60_000)
    (tmp_path / "1").mkdir()
    (tmp_path / "2").mkdir()
    (log1,), (steps1,) = first.write(tmp_path / "1")
    (log2,), (steps2,) = second.write(tmp_path / "2")
    steps = tmp_path / "stomp-steps.csv"
    steps.write_text(steps1.read_text() + "".join(steps2.read_text().splitlines(keepends=True)[1:]))
    analysis = analyse([RunSpec("both", [log1, log2])], steps_paths=[steps])
    a, b = analysis.steps.tests
    assert (a.label, len(a.steps), a.knee.number) == ("steps#1", 2, 2)
    assert (b.label, len(b.steps), b.knee) == ("steps#2", 3, None)
    assert all(s.latency_from == FROM_TIMING_LOGS for s in [*a.steps, *b.steps])
    assert b.steps[2].p99_us == higher(second.hold_samples(3), 0.99)
    lines = analysis.markdown().splitlines()
    assert lines[2].startswith("**steps#1: held 100 msg/s") and lines[4].startswith("**steps#2: held every step")


def test_a_slice_of_one_engines_run_finds_its_steps_as_a_mixed_one_does():
    import numpy as np
    import polars as pl

    from stomp_analysis.hold_windows import HoldWindows

    rows = pl.DataFrame(
        {
            "run": [1, 1, 2],
            "engine": ["a", "a", "b"],
            "key": [11, 12, 11],
            "hold_start_epoch_ms": [1000, 3000, 1500],
            "end_epoch_ms": [2000, 4000, 2500],
        }
    )
    windows = HoldWindows.of(rows)
    sent = np.arange(0, 5_000_000, 997, dtype=np.int64)
    schema = {"run": pl.Int64, "engine": pl.Categorical, "sent_epoch_us": pl.Int64}
    for run, engine in ((1, "a"), (2, "b"), (3, "a")):
        alone = pl.DataFrame({"run": run, "engine": engine, "sent_epoch_us": sent}, schema=schema)
        other = pl.DataFrame({"run": [9], "engine": ["z"], "sent_epoch_us": [0]}, schema=schema)
        mixed = windows.assign(pl.concat([alone, other]))[:-1]
        assert windows.assign(alone).tolist() == mixed.tolist()
        holds = {1: [(1_000_000, 2_000_000), (3_000_000, 4_000_000)], 2: [(1_500_000, 2_500_000)], 3: []}[run]
        assert (mixed != -1).sum() == sum(int(((sent >= a) & (sent < b)).sum()) for a, b in holds)


def test_a_steps_log_without_a_step_says_so(tmp_path, capsys):
    from stomp_analysis.steps_log import HEADER

    empty = tmp_path / "stomp-steps.csv"
    empty.write_text(HEADER + "\n")
    assert main(["--steps", str(empty), "--out", str(tmp_path / "out"), "--quiet"]) == 0
    assert "**the steps logs hold no step" in capsys.readouterr().out
    assert (tmp_path / "out" / "steps.csv").read_text().startswith("test,step,kind,")


@pytest.mark.parametrize("out_of_core", [False, True], ids=["in-memory", "out-of-core"])
def test_the_steps_change_no_figure_of_the_runs(tmp_path, out_of_core):
    test = Stepped(engines=("a", "b"), offered=(100, 200, 400, 800))
    logs, steps = test.write(tmp_path)
    options = Options(max_in_memory_mib=0 if out_of_core else 512, warmup_s=1)
    plain = analyse([RunSpec("r", logs)], options=options)
    stepped = analyse([RunSpec("r", logs)], options=options, steps_paths=steps)
    assert stepped.markdown().endswith(plain.markdown())
    assert [t.to_polars().equals(u.to_polars()) for t, u in zip(plain.tables, stepped.tables)] == [True] * len(
        plain.tables
    )
    # the warm-up's and the rest's samples of a step are merged: every step has all its hold's samples
    for s in stepped.steps.tests[0].steps:
        assert s.p99_us == higher(test.hold_samples(s.number), 0.99)


def test_the_command_asks_for_what_it_cannot_do_without(capsys):
    assert main([]) == 2
    assert (
        "give the timing log(s), a stepped test's steps log(s) with --steps, or the server's figures with "
        "--server-figures" in capsys.readouterr().err
    )


def test_the_generators_rows_are_not_the_servers_figures_of_the_steps(tmp_path):
    test = Stepped(capacity=300)
    server = write_server_figures(tmp_path / "server.csv", T0_MS, T0_MS + 10_000)
    with open(server, "a") as f:
        f.write(f"{T0_MS + 100},generator,sessions_held,3\n{T0_MS + 100},generator,rss_bytes,1000\n")
    analysis = _analyse(tmp_path, test, server=[server])
    assert {f.source for f in analysis.steps.series} == {"actuator", "pid"}
    assert not [c.key for c in analysis.steps.table.columns if c.key.startswith("server_generator")]
    assert analysis.costs is not None, "what the sessions cost: from the same file"


@pytest.mark.parametrize("capacity", [50, 150])
def test_the_knee_label_is_clear_of_the_legend_and_inside_the_picture(tmp_path, capacity):
    # capacity 50: the knee on the first step, at the left edge, where the legend covered it
    from stomp_analysis.step_charts import knee_figure

    (t,) = _analyse(tmp_path, Stepped(offered=(100, 200, 400), capacity=capacity)).steps.tests
    fig, legend, label = knee_figure(t)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    box, legend_box, picture = label.get_window_extent(renderer), legend.get_window_extent(renderer), fig.bbox
    assert not box.overlaps(legend_box)
    assert picture.x0 <= box.x0 and box.x1 <= picture.x1 and picture.y0 <= box.y0 and box.y1 <= picture.y1
    assert picture.y0 <= legend_box.y0


def test_heart_beat_misses_and_a_saturated_machine_are_in_the_table_and_the_answer(tmp_path):
    steps = write_users_steps(tmp_path / "steps.csv", offered=(10, 20), capacity=20)
    rows = list(csv.DictReader(steps.open()))
    rows[1] |= {"heartbeat_misses": "12", "machine_cpu": "0.98", "verdict": "broke", "limit": "machine"}
    rows[1]["reason"] = (
        "12 sessions lost to missed heart-beats > 0; machine: 98% of 2 cores busy, the generator 20%: server and "
        "generator share it"
    )
    with open(steps, "w", newline="") as f:
        w = csv.DictWriter(f, rows[0].keys(), lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    analysis = analyse([], steps_paths=[steps])
    t = analysis.steps.tests[0]
    assert t.knee.number == 2 and t.knee.limit == "machine"
    assert _answer(t) == (
        "held 10 users (connect p99 40 ms); broke at 20 users: 0.0% of connects failed, connect p99 40 ms, 12 "
        "sessions lost to missed heart-beats (the machine's limit: 98% of 2 cores busy, the generator 20%: server "
        "and generator share it)"
    )
    table = analysis.steps.table
    assert [r["heartbeat_misses"] for r in table.rows] == [None, 12]
    assert [r["machine_cpu_pct"] for r in table.rows] == [None, pytest.approx(98.0)]
    header = table.markdown().splitlines()[2]
    assert "machine CPU %" in header and "lost to missed heart-beats" in header


def test_a_steps_log_written_before_the_machine_and_heart_beat_columns_is_read(tmp_path):
    steps = write_users_steps(tmp_path / "steps.csv", offered=(1000, 2000, 4000), capacity=3000)
    rows = list(csv.DictReader(steps.open()))
    old = [c for c in rows[0] if c not in ("machine_cpu", "heartbeat_misses")]
    with open(steps, "w", newline="") as f:
        w = csv.DictWriter(f, old, extrasaction="ignore", lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    t = analyse([], steps_paths=[steps]).steps.tests[0]
    assert t.knee.number == 3 and t.knee.limit == "server"
    assert [s.heartbeat_misses for s in t.steps] == [None] * 3 and [s.machine_cpu for s in t.steps] == [None] * 3


def test_rabbitmqs_node_figures_go_by_their_names_and_bytes_in_kb_mb_gb(tmp_path):
    test = Stepped(offered=(100, 200, 400))
    server = tmp_path / "server.csv"
    with open(server, "w") as f:
        f.write("epoch_ms,source,metric,value\n")
        for t in range(T0_MS - 1000, T0_MS + 10_000, 250):
            f.write(f"{t},rabbitmq,fd_used,{1000 + (t - T0_MS) // 100}\n")
            f.write(f"{t},rabbitmq,broker_memory_bytes,1530000000\n")
            f.write(f"{t},rabbitmq,run_queue,3\n")
            f.write(f"{t},actuator,heap_used_bytes,23400000\n")
    analysis = _analyse(tmp_path, test, server=[server])
    table = analysis.steps.table
    header = table.markdown().splitlines()[2]
    for name in ("actuator heap", "rabbitmq file descriptors", "rabbitmq broker memory", "rabbitmq Erlang run queue"):
        assert name in header
    body = table.markdown().splitlines()[4]
    assert "| 1.53 GB |" in body and "| 23.4 MB |" in body
    # steps.csv keeps the bytes as numbers
    assert table.rows[0]["server_rabbitmq_broker_memory_bytes"] == pytest.approx(1.53e9)
    written = write_outputs(analysis, tmp_path / "out")
    assert "server.png" in [p.name for p in written]


@pytest.mark.parametrize(
    "n, words",
    [(0, "0 B"), (512, "512 B"), (1500, "1.50 KB"), (23_400_000, "23.4 MB"), (1.2e9, "1.20 GB"), (5e11, "500 GB")],
)
def test_bytes_are_written_in_kb_mb_gb(n, words):
    from stomp_analysis.tables import bytes_words

    assert bytes_words(n) == words
