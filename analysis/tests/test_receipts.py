"""The 17-column format: receipt latency (receipt_us) per message, beside the reply's."""

from __future__ import annotations

import csv

import polars as pl

from stomp_analysis.aggregate import RunSpec, analyze
from stomp_analysis.cli import main
from stomp_analysis.tables import per_second_frame, receipts_table
from stomp_analysis.timing_log import HEADER, HEADER_V3, read_timing_log

from .conftest import TINY, v3

#: TINY's receipts, by message: m-1 300 µs, m-2 none, m-3 (LOST: taken, never answered) 800, m-4 (FAILED) none,
#: m-5 500; b-1 (a broadcast answered three times) 400 on each of its records, b-2 none.
RECEIPTS = {"m-1": 300, "m-3": 800, "m-5": 500, "b-1": 400}


def v4(lines: list[str], **v2_args) -> list[str]:
    """The 9-column lines in the 17-column format, each with its message's receipt_us from RECEIPTS."""
    out = []
    for line in v3(lines, **v2_args):
        msg = next(csv.reader([line]))[2]
        out.append(f"{line},{RECEIPTS.get(msg, '')}")
    return out


def test_a_message_is_one_receipt_sample_whatever_its_records(log_writer):
    (r,) = analyze(RunSpec("t", []), [read_timing_log(log_writer(v4(TINY), header=HEADER))])
    by_dest = {b.destination: b for b in r.destinations}
    echo, chat = by_dest["/app/echo"].receipt, by_dest["/topic/chat"].receipt
    assert (echo.values.tolist(), echo.counts.tolist()) == ([300, 500, 800], [1, 1, 1])
    assert (chat.values.tolist(), chat.counts.tolist()) == ([400], [1])
    # "higher": the median of four is the one at index ceil(0.5 x 3)
    assert r.total.receipt.n == 4 and r.total.receipt.quantiles([0.5, 1.0]) == [500, 800]
    assert (r.total.sent, r.total.answered, r.total.lost, r.total.failed) == (7, 4, 2, 1)
    # latency figures are the replies', untouched by receipts
    assert r.total.latency.quantiles([0.0, 1.0]) == [1000, 7000]


def test_the_receipts_table_puts_the_reply_beside_the_receipt(log_writer):
    (r,) = analyze(RunSpec("t", []), [read_timing_log(log_writer(v4(TINY), header=HEADER))])
    t = receipts_table([r])
    rows = {row["destination"]: row for row in t.rows}
    echo = rows["/app/echo"]
    assert (echo["sent"], echo["receipts"], echo["receipts_pct"]) == (5, 3, 60.0)
    assert (echo["receipt_min_ms"], echo["receipt_p50_ms"], echo["receipt_max_ms"]) == (0.3, 0.5, 0.8)
    assert (echo["reply_p50_ms"], echo["reply_p99_ms"]) == (2.0, 3.0)
    assert rows["TOTAL"]["receipts"] == 4


def test_receipts_per_second_of_their_arrival(log_writer):
    (r,) = analyze(RunSpec("t", []), [read_timing_log(log_writer(v4(TINY), header=HEADER))])
    ps = per_second_frame([r], {})
    got = ps.filter(pl.col("receipts") > 0).select("t_s", "receipts", "receipt_p50_ms", "receipt_p99_ms").rows()
    # m-1 and m-3 arrive in second 0, m-5 in second 1, b-1 in second 2
    assert got == [(0, 2, 0.8, 0.8), (1, 1, 0.5, 0.5), (2, 1, 0.4, 0.4)]
    assert ps.get_column("receipts").sum() == 4


def test_logs_without_receipts_have_no_receipt_figures(log_writer, tmp_path, capsys):
    path = log_writer(v4([line for line in TINY if line.split(",")[2] not in RECEIPTS]), header=HEADER)
    assert main([str(path), "--out", str(tmp_path / "out"), "--no-charts", "--quiet"]) == 0
    assert "Receipt" not in capsys.readouterr().out
    assert not (tmp_path / "out" / "receipts.csv").exists()
    assert "receipts" not in (tmp_path / "out" / "per_second.csv").read_text().split("\n")[0]


def test_await_receipt_is_a_closed_loop_and_the_report_shows_receipts(log_writer, tmp_path, capsys):
    path = log_writer(v4(TINY, mode="await-receipt"), header=HEADER)
    out = tmp_path / "out"
    assert main([str(path), "--out", str(out), "--no-charts", "--quiet"]) == 0
    stdout = capsys.readouterr().out
    assert "mode await-reply" in stdout
    assert "## Receipt latency per run and destination (ms), beside the reply's" in stdout
    assert "Receipt latency per run and destination" in (out / "report.html").read_text()
    header, *rows = (out / "receipts.csv").read_text().splitlines()
    assert header.startswith("run,destination,sent,receipts,receipts_pct,receipt_mean_ms,receipt_min_ms")
    assert len(rows) == 3


def test_out_of_core_gives_the_same_receipt_figures(log_writer, tmp_path, capsys):
    path = log_writer(v4(TINY), header=HEADER)
    for name, more in (("mem", []), ("ooc", ["--max-in-memory", "0", "--temp-dir", str(tmp_path)])):
        assert main([str(path), "--out", str(tmp_path / name), "--no-charts", "--quiet", *more]) == 0
    capsys.readouterr()
    for name in ("receipts.csv", "per_second.csv", "summary.csv"):
        assert (tmp_path / "ooc" / name).read_bytes() == (tmp_path / "mem" / name).read_bytes(), name


def test_a_log_without_receipts_holds_no_receipt_column_in_memory(log_writer):
    """Receipts off: the 17th column, empty, costs what the 16-column log's absent one does."""
    lines = [line for line in TINY * 200 if line.split(",")[2] not in RECEIPTS]
    sixteen = read_timing_log(log_writer(v3(lines), name="v3.csv", header=HEADER_V3)).frame
    seventeen = read_timing_log(log_writer([f"{line}," for line in v3(lines)], header=HEADER)).frame
    assert seventeen.height == sixteen.height == 600
    # before anything reads the column: reading it makes polars spell the constant out
    assert seventeen.estimated_size() <= sixteen.estimated_size() + 64
    assert seventeen.get_column("receipt_us").null_count() == 600
