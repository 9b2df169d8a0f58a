from __future__ import annotations

import polars as pl
import pytest

from stomp_analysis import InputError, timing_log
from stomp_analysis.timing_log import HEADER, read_timing_log

from .conftest import TINY


def test_reads_quoted_details_and_empty_fields(log_writer):
    path = log_writer(TINY)
    log = read_timing_log(path)
    assert log.records == len(TINY)
    assert log.malformed == 0
    assert not log.validated_line_by_line
    f = log.frame
    assert f.columns == list(timing_log.KEPT)
    failed = f.filter(pl.col("outcome") == "FAILED")
    assert failed.get_column("detail").cast(pl.String).to_list() == ["SendFailed: Connection closed, 1006"]
    lost = f.filter(pl.col("outcome") == "LOST")
    assert lost.get_column("latency_us").to_list() == [None, None]  # empty latency -> null, not 0
    answered = f.filter(pl.col("outcome") == "ANSWERED")
    assert sorted(answered.get_column("latency_us").to_list()) == [1000, 2000, 3000, 5000, 6000, 7000]
    # the three replies of the broadcast share one message hash, other ids differ
    assert f.get_column("h").n_unique() == 7


def test_quotes_escaped_quotes_and_line_ends_in_detail(log_writer):
    lines = [
        '1,FAILED,a,,u,,/d,1,"reason with ""quotes"", a comma"',
        '2,FAILED,b,,u,,/d,1,"two\nlines"',
        "3,ANSWERED,c,5,u,u,/d,1,",
    ]
    log = read_timing_log(log_writer(lines))
    assert log.malformed == 0
    details = log.frame.get_column("detail").cast(pl.String).to_list()
    assert details[:2] == ['reason with "quotes", a comma', "two\nlines"]


def test_crlf_and_bom_are_accepted(tmp_path):
    p = tmp_path / "crlf.csv"
    p.write_bytes(("\ufeff" + HEADER + "\r\n" + "1,ANSWERED,a,5,u,u,/d,1,\r\n2,LOST,b,,u,,/d,1,timeout\r\n").encode())
    log = read_timing_log(p)
    assert (log.records, log.malformed) == (2, 0)
    assert log.frame.get_column("detail").cast(pl.String).to_list() == [None, "timeout"]


BAD = [
    "1,ANSWERED,a,5,u,u,/d,1,",  # line 2: good
    "2,LOST,b,,u",  # line 3: too few fields, destination missing
    "x,LOST,c,,u,,/d,1,timeout",  # line 4: non-numeric sent_epoch_ms
    "4,WHATEVER,d,,u,,/d,1,timeout",  # line 5: unknown outcome
    "5,ANSWERED,e,1.5,u,u,/d,1,",  # line 6: non-integer latency
    "6,LOST,f,,u,,/d,1,timeout,extra",  # line 7: too many fields
    "7,ANSWERED,g,,u,u,/d,1,",  # line 8: ANSWERED without latency
    "8,LOST,h,,u,,/d,1,",  # line 9: LOST without detail
    "",  # line 10: blank
    "9,ANSWERED,i,9,u,u,/d,1,",  # line 11: good
]


def test_malformed_lines_counted_with_line_numbers(log_writer):
    log = read_timing_log(log_writer(BAD), max_issues=100)
    assert log.validated_line_by_line
    assert log.records == 10
    assert log.malformed == 8
    assert [i.line for i in log.issues] == [3, 4, 5, 6, 7, 8, 9, 10]
    reasons = [i.reason for i in log.issues]
    assert "missing destination" in reasons[0] and "5 fields" in reasons[0]
    assert "sent_epoch_ms 'x'" in reasons[1]
    assert "unknown outcome 'WHATEVER'" in reasons[2]
    assert "latency_us '1.5'" in reasons[3]
    assert "10 fields" in reasons[4]
    assert "ANSWERED without latency_us" in reasons[5]
    assert "LOST without detail" in reasons[6]
    assert reasons[7] == "blank line"
    # the good records are still there
    assert sorted(log.frame.get_column("latency_us").to_list()) == [5, 9]


def test_only_the_first_issues_are_kept_but_all_are_counted(log_writer):
    log = read_timing_log(log_writer(BAD), max_issues=2)
    assert log.malformed == 8
    assert [i.line for i in log.issues] == [3, 4]


def test_semantic_problem_alone_triggers_validation(log_writer):
    # parses fine with strict types, but an ANSWERED record has no receiver
    log = read_timing_log(log_writer(["1,ANSWERED,a,5,u,,/d,1,", "2,ANSWERED,b,5,u,u,/d,1,"]))
    assert log.malformed == 1
    assert log.issues[0].line == 2
    assert "without receiver" in log.issues[0].reason


def test_quoted_empty_required_field_is_malformed(log_writer):
    log = read_timing_log(log_writer(['1,LOST,"",,u,,/d,1,timeout', "2,LOST,b,,u,,/d,1,timeout"]))
    assert log.malformed == 1
    assert "missing msg_id" in log.issues[0].reason


def test_small_blocks_give_the_same_result_and_line_numbers(log_writer, monkeypatch):
    """The validating path cuts files into blocks: quoted line ends must never be cut."""
    lines = []
    for i in range(40):
        lines.append(f'{i},FAILED,q-{i},,u,,/d,1,"multi\nline, {i}"')
        lines.append(f"{i},ANSWERED,a-{i},{i + 1},u,u,/d,1,")
    lines.append("oops,ANSWERED,z,1,u,u,/d,1,")  # the bad one, at the end
    monkeypatch.setattr(timing_log, "_BLOCK_BYTES", 50)
    log = read_timing_log(log_writer(lines))
    assert log.records == 81
    assert log.malformed == 1
    assert log.issues[0].line == 2 + 40 * 3  # each FAILED record spans two lines
    assert log.frame.height == 80
    details = log.frame.filter(pl.col("outcome") == "FAILED").get_column("detail").cast(pl.String).to_list()
    assert details == [f"multi\nline, {i}" for i in range(40)]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "empty file"),
        (HEADER.encode() + b"\n", "no records"),
        (b"1,ANSWERED,a,5,u,u,/d,1,\n", "no header line"),
        (b"time,outcome\n1,2\n", "not a timing log"),
    ],
)
def test_unusable_files_raise_input_error_naming_the_file(tmp_path, content, message):
    p = tmp_path / "bad.csv"
    p.write_bytes(content)
    with pytest.raises(InputError) as e:
        read_timing_log(p)
    assert str(p) in str(e.value)
    assert message in str(e.value)


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(InputError, match="cannot read"):
        read_timing_log(tmp_path / "nope.csv")
    with pytest.raises(InputError, match="directory"):
        read_timing_log(tmp_path)


def test_file_index_separates_equal_ids(log_writer):
    a = read_timing_log(log_writer(["1,ANSWERED,same,5,u,u,/d,1,"], "a.csv"), 0)
    b = read_timing_log(log_writer(["1,ANSWERED,same,5,u,u,/d,1,"], "b.csv"), 1)
    assert a.frame.get_column("h").item() != b.frame.get_column("h").item()
