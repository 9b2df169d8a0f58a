"""bench/server_memory.py's pure parts: raw readings (RSS, live heap, histograms, client lines) into figures."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def sm():
    import server_memory  # bench/ is on the path (conftest.py)

    return server_memory


HISTOGRAM = """\
 num     #instances         #bytes  class name (module)
-------------------------------------------------------
   1:         60138        8234560  [B (java.base@17.0.15)
 537:          2000         112000  org.apache.tomcat.websocket.PerMessageDeflate
3262:             1             16  org.apache.tomcat.websocket.PerMessageDeflate$1
Total        501710       31214776
"""


def reading(rss_kb, heap_kb, deflate=0):
    return {"VmRSS": rss_kb, "RssAnon": rss_kb, "RssFile": 0, "heap_kb": heap_kb, "deflate_sessions": deflate}


def lean_run(round_no, before_kb, held_kb, sessions=2000):
    return {
        "side": "lean",
        "round": round_no,
        "sessions": sessions,
        "client_sessions": sessions,
        "client_compressed": 0,
        "server_before": reading(before_kb, 30_000),
        "server_held": reading(held_kb, 130_000),
        "commands": [],
        "notes": [],
    }


def test_per_session_is_the_growth_over_the_sessions_and_none_without_sessions(sm):
    assert sm.per_session_kb(280_000, 500_000, 2000) == 110.0
    assert sm.per_session_kb(280_000, 270_000, 1000) == -10.0  # a shrinking reading says so, not hidden
    assert sm.per_session_kb(280_000, 500_000, 0) is None
    assert sm.per_session_kb(None, 500_000, 10) is None


def test_instances_counts_the_exact_class_only(sm):
    assert sm.instances(HISTOGRAM, "org.apache.tomcat.websocket.PerMessageDeflate") == 2000
    assert sm.instances(HISTOGRAM, "java.util.zip.Deflater") == 0


def test_client_lines(sm):
    line = (
        "connected=2000 failed=0 wall_s=1.5 per_s=1333.3 cpu_s=0.4 cpu_us_per_session=200.0 p50_ms=1.0 "
        "p99_ms=9.0 compressed=2000\n"
    )
    assert sm.parse_pairs(line)["compressed"] == "2000"
    console = "summary = ...\nstomp sessions: 1998 held at peak; 2000 connects, 950 connects/s\n"
    assert sm.held_at_peak(console) == 1998
    assert sm.held_at_peak("nothing here") is None
    assert sm.compression_lines("a\npermessage-deflate agreed: 2000 of 2000\nb") == [
        "permessage-deflate agreed: 2000 of 2000"
    ]


def test_run_figures_server_and_generator(sm):
    run = lean_run(1, 280_000, 500_000)
    run["generator_base"] = {"VmRSS": 400_000, "heap_kb": 50_000, "sessions": 20}
    run["generator_held"] = {"VmRSS": 498_000, "heap_kb": 69_600, "sessions": 2000}
    figures = sm.run_figures(run)
    assert figures["server_rss_kb"] == 110.0
    assert figures["server_heap_kb"] == 50.0
    assert figures["jmeter_rss_kb"] == pytest.approx(98_000 / 1980)
    assert figures["jmeter_heap_kb"] == pytest.approx(19_600 / 1980)
    assert "jmeter_rss_kb" not in sm.run_figures(lean_run(1, 1, 2))  # no generator figures for the lean client


def test_medians_skip_missing_figures(sm):
    runs = [lean_run(1, 280_000, 500_000), lean_run(2, 280_000, 520_000), lean_run(3, 280_000, 510_000)]
    m = sm.medians(runs)
    assert m["server_rss_kb"] == 115.0
    assert m["jmeter_rss_kb"] is None
    assert sm.median_of([None, 3, 1]) == 2


def test_table_has_a_row_per_run_a_median_per_side_and_the_ratio(sm):
    compress = [
        dict(lean_run(r, 280_000, 280_000 + 2000 * kb), side="lean-compress", client_compressed=2000)
        for r, kb in ((1, 240), (2, 250))
    ]
    for r in compress:
        r["server_held"]["deflate_sessions"] = 2000
    ours = [
        dict(lean_run(r, 280_000, 280_000 + 2000 * kb), side="ours", client_compressed=None)
        for r, kb in ((1, 120), (2, 124))
    ]
    lines = sm.summary_table({"lean-compress": compress, "ours": ours})
    text = "\n".join(lines)
    assert "| lean-compress | 1 | 2,000 / 2,000 | 2,000 / 2,000 |" in text
    assert "| ours | 2 | 2,000 / 2,000 | 0 / ? |" in text
    assert "| **lean-compress** | median | | | | | **245.0** |" in text
    assert "ours / lean-compress: **0.50x** (122.0 / 245.0 KB; difference -123.0 KB)" in text
    assert sm.ratio(1.0, None) is None
