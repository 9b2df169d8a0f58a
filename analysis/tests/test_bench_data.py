"""The benchmark's data generator writes logs the aggregation reads without a single malformed record."""

from __future__ import annotations

import importlib.util
import re

from stomp_analysis.cli import main
from stomp_analysis.timing_log import HEADER_V1, HEADER_V2, HEADER_V3

from .conftest import ANALYSIS_DIR

#: the analysis tool's benchmark, in the project's one benchmark tree
BENCH_ANALYSIS = ANALYSIS_DIR.parent / "bench" / "analysis"


def load_gen():
    spec = importlib.util.spec_from_file_location("gen_data", BENCH_ANALYSIS / "gen_data.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _load_bench():
    spec = importlib.util.spec_from_file_location("bench_aggregate", BENCH_ANALYSIS / "bench_aggregate.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_generated_log_and_jtl_aggregate_cleanly(tmp_path, capsys):
    gen = load_gen()
    log = tmp_path / "t.csv"
    meta = gen.generate_timing_log(log, records=20_000, senders=50, rate_per_s=2_000.0)
    jtl = tmp_path / "r.jtl"
    gen.generate_jtl(jtl, rows=5_000, threads=50)
    rc = main([str(log), "--jtl", str(jtl), "--messages-per-second", str(meta["messages_per_second"]), "--quiet"])
    cap = capsys.readouterr()
    assert rc == 0
    assert "malformed" not in cap.err
    row = re.search(r"\| t \| TOTAL \| (\d+) \| (\d+) \| (\d+) \| (\d+) \| ([\d.]+) \|", cap.out)
    sent, answered, lost, failed, loss_pct = int(row[1]), int(row[2]), int(row[3]), int(row[4]), float(row[5])
    assert sent == 20_000 and sent == answered + lost + failed
    assert 0.5 < loss_pct < 1.5  # 1 % lost
    assert 0 < failed < 60  # 0.1 % failed
    assert "SendFailed: Connection closed, 1006" in cap.out
    assert re.search(r"\| t \| 50 \| virtual users \| 2000 msg/s \(25 ms/sender\) \| await-reply \| 20000 \|", cap.out)
    assert "- run t: await-reply (closed loop) with a pacing of 25 ms/sender" in cap.out
    assert "## Latency: raw vs CO-corrected" in cap.out


def test_generated_fire_and_forget_log_keeps_its_schedule(tmp_path, capsys):
    """Each generated sender sends every 25 ms, plus 0-2.999 ms of jitter: its lag stays under 3 ms."""
    gen = load_gen()
    log = tmp_path / "f.csv"
    meta = gen.generate_timing_log(log, records=20_000, senders=50, rate_per_s=2_000.0, mode="fire-and-forget")
    assert main([str(log), "--messages-per-second", str(meta["messages_per_second"]), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "## Latency: raw vs CO-corrected" not in out
    lag = re.search(r"sends fell behind their schedule by ([\d.]+) ms at p99 and ([\d.]+) ms at most", out)
    assert 0.0 < float(lag[1]) < 3.0 and float(lag[1]) <= float(lag[2]) < 3.0
    assert re.search(r"\| f \| 50 \| 20000 \| 25\.000 \| 2000\.0 \| 2000\.\d \|", out)


def test_generated_old_format_log_is_read(tmp_path, capsys):
    gen = load_gen()
    log = tmp_path / "o.csv"
    gen.generate_timing_log(log, records=2_000, senders=10, rate_per_s=1_000.0, mode=None)
    assert log.read_text().split("\n", 1)[0] == HEADER_V1
    assert main([str(log), "--quiet"]) == 0
    assert re.search(r"\| o \| TOTAL \| 2000 \|", capsys.readouterr().out)


def test_real_shape_counts_its_virtual_users(tmp_path, capsys):
    """One login for every user, a destination per user, fire-and-forget, long quoted failure reasons."""
    gen = load_gen()
    log = tmp_path / "r.csv"
    meta = gen.generate_timing_log(
        log, records=20_000, senders=200, rate_per_s=200.0, mode="fire-and-forget", shape="real"
    )
    assert log.read_text().split("\n", 1)[0] == HEADER_V3
    assert main([str(log), "--messages-per-second", str(meta["messages_per_second"]), "--quiet"]) == 0
    cap = capsys.readouterr()
    assert "malformed" not in cap.err
    assert "200 sender(s)" in cap.out and "200 senders × 1000 / 200 msg/s = 1000.000 ms" in cap.out
    # the report shows 20 of the 200 destinations and says how many more; summary.csv has them all
    assert cap.out.count("| r | /queue/echo.") == 20 and "… and 180 more destinations of r" in cap.out
    assert re.search(r"\| r \| 200 \| 20000 \| 1000\.000 \|", cap.out)


def test_replicated_log_has_unique_messages_later_in_time(tmp_path, capsys):
    gen = load_gen()
    src, rep = tmp_path / "src.csv", tmp_path / "rep.csv"
    gen.generate_timing_log(src, records=1_000, senders=10, rate_per_s=100.0, columns=14)
    meta = gen.replicate_log(src, rep, 2_500, chunk=700)
    lines = rep.read_text().splitlines()
    assert lines[0] == HEADER_V2 and len(lines) == 2_501 and meta["source_records"] == 1_000
    ids = [line.split(",")[2] for line in lines[1:]]
    assert len(set(ids)) == 2_500 and (ids[0], ids[1_000]) == ("m4k2x9a-0~0", "m4k2x9a-0~1")
    sent = [int(line.split(",")[0]) for line in lines[1:]]
    assert sent[1_000] > sent[999] and sent[2_000] > sent[1_999]
    assert main([str(rep), "--quiet"]) == 0
    assert re.search(r"\| rep \| TOTAL \| 2500 \|", capsys.readouterr().out)


def test_columns_choose_the_format(tmp_path):
    gen = load_gen()
    for columns, header in ((14, HEADER_V2), (16, HEADER_V3)):
        log = tmp_path / f"c{columns}.csv"
        gen.generate_timing_log(log, records=100, senders=5, rate_per_s=100.0, columns=columns)
        assert log.read_text().split("\n", 1)[0] == header


def test_the_benchs_steps_log_is_one_the_analysis_reads(tmp_path):
    from stomp_analysis.steps_log import HEADER, read_steps_log

    bench = _load_bench()
    assert bench.STEPS_HEADER == HEADER
    gen = load_gen()
    log = tmp_path / "t.csv"
    gen.generate_timing_log(log, records=2000, senders=10, rate_per_s=500.0)
    steps = read_steps_log(bench.write_steps_log(log, tmp_path / "steps.csv", 4))
    assert steps.get_column("step").to_list() == [1, 2, 3, 4]
    assert steps.get_column("verdict").to_list() == ["held", "held", "held", "broke"]
