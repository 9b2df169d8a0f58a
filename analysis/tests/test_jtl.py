from __future__ import annotations

import pytest

from stomp_analysis import InputError
from stomp_analysis.jtl import assign_to_runs, jtl_per_second, jtl_summary, max_threads, read_jtl

HEADER = (
    "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage,bytes,"
    "sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect"
)
ROWS = [
    "1700000000000,10,send,200,OK,Users 1-1,text,true,,112,98,2,2,null,10,0,0",
    '1700000000500,30,send,500,"Send failed, connection closed",Users 1-2,text,false,"Send failed, 1006",'
    "0,98,2,2,null,0,0,0",
    "1700000001200,20,send,200,OK,Users 1-1,text,true,,112,98,3,3,null,20,0,0",
    "1700000001900,40,connect,200,OK,Users 1-3,text,true,,0,0,3,3,null,40,0,5",
]


def write(tmp_path, lines, name="r.jtl"):
    p = tmp_path / name
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return p


def test_reads_default_format_with_quoted_commas(tmp_path):
    j = read_jtl(write(tmp_path, [HEADER, *ROWS]))
    assert (j.records, j.malformed) == (4, 0)
    f = j.frame
    assert f.get_column("elapsed").to_list() == [10, 30, 20, 40]
    assert f.get_column("success").to_list() == [True, False, True, True]
    assert f.get_column("label").to_list() == ["send", "send", "send", "connect"]
    assert max_threads(f) == 3
    assert (j.start_ms, j.end_ms) == (1700000000000, 1700000001940)


def test_columns_by_name_in_any_order_and_subset(tmp_path):
    lines = ["success,label,elapsed,timeStamp", "true,a,5,1000", "FALSE,a,7,2000"]
    j = read_jtl(write(tmp_path, lines))
    assert j.frame.get_column("success").to_list() == [True, False]
    assert j.frame.get_column("allThreads").to_list() == [None, None]
    assert max_threads(j.frame) is None
    j2 = read_jtl(write(tmp_path, ["elapsed,timeStamp", "5,1000"], "min.jtl"))
    assert j2.frame.get_column("label").to_list() == ["(no label)"]
    assert j2.frame.get_column("success").to_list() == [True]


def test_summary_figures(tmp_path):
    rows = jtl_summary(read_jtl(write(tmp_path, [HEADER, *ROWS])).frame)
    by = {r["label"]: r for r in rows}
    send = by["send"]
    assert (send["samples"], send["errors"]) == (3, 1)
    assert send["error_pct"] == pytest.approx(100 / 3)
    assert send["mean_ms"] == pytest.approx(20.0)
    assert (send["p90_ms"], send["p99_ms"]) == (30, 30)  # of 10 20 30, index ceil(0.9 * 2) = 2
    assert send["throughput_per_s"] == pytest.approx(3 / 1.22)  # first start 0.000 s, last end 1.220 s
    total = by["TOTAL"]
    assert (total["samples"], total["errors"]) == (4, 1)
    assert total["throughput_per_s"] == pytest.approx(4 / 1.94)
    assert [r["label"] for r in rows] == ["connect", "send", "TOTAL"]


def test_per_second(tmp_path):
    ps = jtl_per_second(read_jtl(write(tmp_path, [HEADER, *ROWS])).frame)
    assert ps.get_column("epoch_s").to_list() == [1700000000, 1700000001]
    assert ps.get_column("jmeter_samples").to_list() == [2, 2]
    assert ps.get_column("jmeter_errors").to_list() == [1, 0]
    assert ps.get_column("active_threads").to_list() == [2, 3]


def test_a_row_with_a_sample_count_stands_for_that_many_samples(tmp_path):
    """The plugin's scheduled sender: one row per tick, SampleCount messages sent, ErrorCount failed."""
    lines = [
        "timeStamp,elapsed,label,success,SampleCount,ErrorCount,allThreads",
        "1700000000000,2,send,true,8,0,2",
        "1700000000400,1,send,false,1,1,2",
        "1700000001100,3,send,true,12,0,2",
    ]
    frame = read_jtl(write(tmp_path, lines)).frame
    (send,) = jtl_summary(frame)
    assert (send["samples"], send["errors"]) == (21, 1)
    assert send["throughput_per_s"] == pytest.approx(21 / 1.103)
    ps = jtl_per_second(frame)
    assert ps.get_column("jmeter_samples").to_list() == [9, 12]
    assert ps.get_column("jmeter_errors").to_list() == [1, 0]


def test_malformed_rows_counted_with_line_numbers(tmp_path):
    lines = [
        HEADER,
        ROWS[0],
        "1700000000100,abc,send,200,OK,t,text,true,,1,1,1,1,null,1,0,0",  # line 3: elapsed not an integer
        "1700000000200,5,send",  # line 4: 3 fields
        "2024/01/01 10:00:00.000,5,send,200,OK,t,text,true,,1,1,1,1,null,1,0,0",  # line 5: date timestamps
        "1700000000300,5,send,200,OK,t,text,maybe,,1,1,1,1,null,1,0,0",  # line 6: success not a boolean
        ROWS[2],
    ]
    j = read_jtl(write(tmp_path, lines))
    assert (j.records, j.malformed) == (6, 4)
    assert [i.line for i in j.issues] == [3, 4, 5, 6]
    assert "elapsed 'abc'" in j.issues[0].reason
    assert "3 fields, expected 17" in j.issues[1].reason
    assert "timestamp_format=ms" in j.issues[2].reason
    assert "success 'maybe'" in j.issues[3].reason
    assert j.frame.get_column("elapsed").to_list() == [10, 20]


@pytest.mark.parametrize(
    ("content", "message"),
    [("", "empty file"), ("label,success\na,true\n", "no column timeStamp, elapsed"), (HEADER + "\n", "no samples")],
)
def test_unusable_jtl(tmp_path, content, message):
    p = tmp_path / "x.jtl"
    p.write_text(content)
    with pytest.raises(InputError) as e:
        read_jtl(p)
    assert message in str(e.value) and str(p) in str(e.value)


def test_assignment_to_runs(tmp_path):
    a = read_jtl(write(tmp_path, ["timeStamp,elapsed", "1000,5", "5000,5"], "a.jtl"))
    b = read_jtl(write(tmp_path, ["timeStamp,elapsed", "20000,5", "26000,5"], "b.jtl"))
    c = read_jtl(write(tmp_path, ["timeStamp,elapsed", "90000,5"], "c.jtl"))
    assert assign_to_runs([a, b], [(0, 10_000), (15_000, 30_000)]) == [0, 1]  # as many as runs: in order
    assert assign_to_runs([a, b, c], [(0, 10_000)]) == [0, 0, 0]  # one run: all of them
    # otherwise by overlap in time
    assert assign_to_runs([b, a, c], [(0, 10_000), (15_000, 30_000)]) == [1, 0, None]
