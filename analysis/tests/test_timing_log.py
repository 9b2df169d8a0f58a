from __future__ import annotations

import polars as pl
import pytest

from stomp_analysis import InputError, timing_log
from stomp_analysis.timing_log import HEADER, HEADER_V1, HEADER_V2, read_timing_log

from .conftest import TINY, v2


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
    p.write_bytes(
        ("\ufeff" + HEADER_V1 + "\r\n" + "1,ANSWERED,a,5,u,u,/d,1,\r\n2,FAILED,b,,u,,/d,1,closed\r\n").encode()
    )
    log = read_timing_log(p)
    assert (log.records, log.malformed) == (2, 0)
    assert log.frame.get_column("detail").cast(pl.String).to_list() == [None, "closed"]


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


# --- the 14-column format (mode, run, sent_epoch_us, engine, version) -----------------------------------------


def test_both_headers_are_read(log_writer):
    old = read_timing_log(log_writer(TINY, "old.csv"))
    new = read_timing_log(log_writer(v2(TINY, "fire-and-forget", run=42, sub_us=7), "new.csv", header=HEADER_V2))
    for log in (old, new):
        assert (log.records, log.malformed, log.validated_line_by_line) == (9, 0, False)
        assert log.frame.columns == list(timing_log.KEPT)
    assert old.legacy and not new.legacy
    assert (old.versions, new.versions) == ((), ("0.1.0",))
    sent_ms = [int(line.split(",", 1)[0]) for line in TINY]
    # old logs: the newer columns are null, sent_epoch_us is the milliseconds × 1000
    o = old.frame
    assert o.get_column("sent_epoch_us").to_list() == [ms * 1000 for ms in sent_ms]
    assert o.get_column("mode").null_count() == o.get_column("run").null_count() == 9
    assert o.get_column("engine").null_count() == 9
    assert o.schema["mode"] == timing_log.MODE_DTYPE and o.schema["run"] == pl.Int64
    # new logs: the columns as written, microseconds kept
    n = new.frame
    assert n.get_column("sent_epoch_us").to_list() == [ms * 1000 + 7 for ms in sent_ms]
    assert n.get_column("mode").cast(pl.String).unique().to_list() == ["fire-and-forget"]
    assert n.get_column("run").unique().to_list() == [42]
    assert n.get_column("engine").cast(pl.String).unique().to_list() == ["local"]
    assert n.schema == o.schema  # the two formats concatenate into one run
    # the other columns are read the same way from both
    for c in ("outcome", "latency_us", "sender", "destination", "detail"):
        assert n.get_column(c).to_list() == o.get_column(c).to_list(), c


def test_new_format_crlf_bom_and_quoted_engine(tmp_path):
    p = tmp_path / "crlf.csv"
    lines = [
        '1,ANSWERED,a,5,u,u,/d,1,,await-reply,9,1000,"gen,1",0.1.0',
        "2,LOST,b,,u,,/d,1,timeout,await-reply,9,2999,g,x",
    ]
    p.write_bytes(("\ufeff" + HEADER_V2 + "\r\n" + "\r\n".join(lines) + "\r\n").encode())
    log = read_timing_log(p)
    assert (log.records, log.malformed) == (2, 0)
    assert log.frame.get_column("engine").cast(pl.String).to_list() == ["gen,1", "g"]
    assert log.versions == ("0.1.0", "x")


NEW_BAD = [
    "1,ANSWERED,a,5,u,u,/d,1,,await-reply,7,1000,local,0.1.0",  # line 2: good
    "2,ANSWERED,b,5,u,u,/d,1,",  # line 3: the old 9 fields
    "3,ANSWERED,c,5,u,u,/d,1,,wait-reply,7,3000,local,0.1.0",  # line 4: unknown mode
    "4,ANSWERED,d,5,u,u,/d,1,,await-reply,r1,4000,local,0.1.0",  # line 5: run not an integer
    "5,ANSWERED,e,5,u,u,/d,1,,await-reply,7,6000,local,0.1.0",  # line 6: µs not in the ms
    "6,ANSWERED,f,5,u,u,/d,1,,await-reply,7,6000,local,0.1.0,x",  # line 7: 15 fields
    "7,ANSWERED,g,5,u,u,/d,1,,await-reply,7,7000,local",  # line 8: 13 fields, no version
    "8,LOST,h,,u,,/d,1,timeout,fire-and-forget,7,8000,,0.1.0",  # line 9: no engine
    "9,LOST,i,,u,,/d,1,timeout,fire-and-forget,7,,local,0.1.0",  # line 10: no sent_epoch_us
    "10,LOST,j,,u,,/d,1,timeout,fire-and-forget,7,10999,local,0.1.0",  # line 11: good
]


def test_new_format_malformed_records_with_line_numbers(log_writer):
    log = read_timing_log(log_writer(NEW_BAD, header=HEADER_V2), max_issues=100)
    assert log.validated_line_by_line
    assert (log.records, log.malformed) == (10, 8)
    assert [i.line for i in log.issues] == [3, 4, 5, 6, 7, 8, 9, 10]
    reasons = [i.reason for i in log.issues]
    assert reasons[0] == "9 fields, expected 14: missing mode"
    assert reasons[1] == "unknown mode 'wait-reply'"
    assert reasons[2] == "run 'r1' is not an integer"
    assert reasons[3] == "sent_epoch_us 6000 is not in sent_epoch_ms 5"
    assert reasons[4] == "15 fields, expected 14"
    assert reasons[5] == "13 fields, expected 14: missing version"
    assert reasons[6] == "missing engine"
    assert reasons[7] == "missing sent_epoch_us"
    f = log.frame
    assert f.get_column("sent_epoch_us").to_list() == [1000, 10999]
    assert f.get_column("mode").cast(pl.String).to_list() == ["await-reply", "fire-and-forget"]


@pytest.mark.parametrize(
    ("bad", "reason"),
    [
        ("2,LOST,b,,u,,/d,1,timeout,await-reply,7,2000,local,", "missing version"),
        ('2,LOST,b,,u,,/d,1,timeout,await-reply,7,2000,"",0.1.0', "missing engine"),
        ("2,LOST,b,,u,,/d,1,timeout,await-reply,7,1999,local,0.1.0", "sent_epoch_us 1999 is not in sent_epoch_ms 2"),
    ],
)
def test_problems_polars_parses_are_still_caught(log_writer, bad, reason):
    """Records the strict parse accepts (empty or inconsistent fields) still send the file to validation."""
    lines = ["1,ANSWERED,a,5,u,u,/d,1,,await-reply,7,1000,local,0.1.0", bad]
    log = read_timing_log(log_writer(lines, header=HEADER_V2))
    assert log.malformed == 1
    assert (log.issues[0].line, log.issues[0].reason) == (3, reason)
    assert log.frame.height == 1


def test_new_records_under_the_old_header_are_malformed(log_writer):
    lines = ["1,ANSWERED,a,5,u,u,/d,1,", "2,ANSWERED,b,5,u,u,/d,1,,await-reply,7,2000,local,0.1.0"]
    log = read_timing_log(log_writer(lines))
    assert log.malformed == 1
    assert log.issues[0].reason == "14 fields, expected 9"


def test_small_blocks_new_format(log_writer, monkeypatch):
    lines = []
    for i in range(30):
        lines.append(f'{i},FAILED,q-{i},,u,,/d,1,"multi\nline, {i}",fire-and-forget,5,{i * 1000 + i},e,v')
        lines.append(f"{i},ANSWERED,a-{i},{i + 1},u,u,/d,1,,await-reply,5,{i * 1000 + 999},e,v")
    lines.append("30,ANSWERED,z,1,u,u,/d,1,,await-reply,5,31000,e,v")  # the bad one: µs of another ms
    monkeypatch.setattr(timing_log, "_BLOCK_BYTES", 64)
    log = read_timing_log(log_writer(lines, header=HEADER_V2))
    assert (log.records, log.malformed, log.frame.height) == (61, 1, 60)
    assert log.issues[0].line == 2 + 30 * 3
    assert log.versions == ("v",)
    assert sorted(log.frame.get_column("sent_epoch_us").to_list())[:3] == [0, 999, 1001]


@pytest.mark.parametrize(
    "header",
    [HEADER + ",extra", HEADER_V1 + ",mode", HEADER.replace("mode,run", "run,mode"), HEADER.upper()],
)
def test_other_headers_are_rejected(tmp_path, header):
    p = tmp_path / "h.csv"
    p.write_text(header + "\n1,ANSWERED,a,5,u,u,/d,1,\n")
    with pytest.raises(InputError, match="not a timing log") as e:
        read_timing_log(p)
    assert HEADER in str(e.value) and HEADER_V1 in str(e.value)


def test_skip_records_counts_line_ends_outside_quotes(tmp_path, monkeypatch):
    """_skip_records finds where the n-th record ends without parsing: quoted line ends and escaped quotes, blank
    lines and CRLF, across block boundaries."""
    records = ['1,"a\nb",x', '2,"say ""hi""\n, there",y', "", '3,"",z\r', "4,plain,w", '5,"\n\n",v']
    data = "\n".join(records) + "\n"
    path = tmp_path / "r.csv"
    path.write_text("head\n" + data, encoding="utf-8")
    monkeypatch.setattr(timing_log, "_BLOCK_BYTES", 3)
    start = len("head\n")
    offset = start
    for n in range(len(records) + 1):
        expected = start + len("\n".join(records[:n]) + ("\n" if n else ""))
        assert timing_log._skip_records(path, start, n) == (expected, data[: expected - start].count("\n")), n
        offset = expected
    assert offset == path.stat().st_size
    assert timing_log._skip_records(path, start, len(records) + 5)[0] == path.stat().st_size


def test_a_line_cut_short_late_in_a_big_file_keeps_what_the_fast_path_read(log_writer, monkeypatch):
    """A record that parses but lacks fields (the last line of a killed run): the fast path hands over the batches
    before it, and the validating path starts after them (not at the top), still numbering the file's lines."""
    lines = []
    for i in range(30_000):
        lines.append(
            f'{i},FAILED,q-{i},,u,,/d,1,"multi\nline, ""{i}"""' if i % 100 == 0 else f"{i},LOST,l-{i},,u,,/d,1,t"
        )
    lines.append("30000,ANSWERED,z,1,u")  # cut short
    lines += [f"{i},ANSWERED,a-{i},{i},u,u,/d,1," for i in range(10)]
    starts = []
    validating = timing_log._validating_path

    def spy(path, start, line, *args):
        starts.append((start, line))
        return validating(path, start, line, *args)

    monkeypatch.setattr(timing_log, "_validating_path", spy)
    path = log_writer(lines)
    for chunk_rows in (None, 1000):
        sink = timing_log.FrameSink()
        log = timing_log.stream_timing_log(path, 0, sink, max_issues=5, chunk_rows=chunk_rows)
        frame = sink.frame(True, 0)
        assert (log.records, log.malformed, frame.height) == (30_011, 1, 30_010)
        assert [i.line for i in log.issues] == [2 + 30_000 + 300]  # 300 records span two lines
        assert log.issues[0].reason == "5 fields, expected 9: missing destination"
        assert frame.get_column("outcome").cast(pl.String).to_list()[-10:] == ["ANSWERED"] * 10
        details = frame.filter(pl.col("outcome") == "FAILED").get_column("detail").cast(pl.String).to_list()
        assert details == [f'multi\nline, "{i}"' for i in range(0, 30_000, 100)]
    assert all(start > len(HEADER_V1) + 1 for start, _ in starts), starts  # resumed, not restarted
    with open(path, "rb") as f:
        data = f.read()
    for start, line in starts:
        assert data[:start].count(b"\n") + 1 == line


def test_a_parse_error_reads_the_file_again_from_the_top(log_writer):
    """After a parse error polars may have delivered a later batch and not an earlier one: nothing the fast path
    received is kept, every time."""
    lines = [f"{i},LOST,l-{i},,u,,/d,1,t" for i in range(20_000)]
    lines[15_000] = "oops,ANSWERED,z,1,u,u,/d,1,"
    path = log_writer(lines)
    expected = [i for i in range(20_000) if i != 15_000]
    for chunk_rows in (None, 700) * 10:
        sink = timing_log.FrameSink()
        log = timing_log.stream_timing_log(path, 0, sink, chunk_rows=chunk_rows)
        assert (log.records, log.malformed, [i.line for i in log.issues]) == (20_000, 1, [15_002])
        assert (sink.frame(True, 0).get_column("sent_epoch_us") // 1000).to_list() == expected
