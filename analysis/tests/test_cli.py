from __future__ import annotations

import argparse
import csv
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from stomp_analysis.cli import build_parser, main, non_negative_int, pipeline_options, positive_int, repeated_paths

from .conftest import ANALYSIS_DIR, TINY, write_log

SCRIPT = ANALYSIS_DIR / "aggregate.py"
JTL = [
    "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage,bytes,"
    "sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect",
    "1700000000000,10,send,200,OK,Users 1-1,text,true,,112,98,2,2,null,10,0,0",
    '1700000001000,30,send,500,"Send failed, closed",Users 1-2,text,false,"Send failed, closed",0,98,4,4,null,0,0,0',
]


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_cli_subprocess_end_to_end(tmp_path):
    log = write_log(tmp_path / "run1.csv", TINY)
    jtl = tmp_path / "run1.jtl"
    jtl.write_text("\n".join(JTL) + "\n")
    out = tmp_path / "out"
    cmd = [sys.executable, str(SCRIPT), str(log), "--jtl", str(jtl), "--label", "baseline"]
    cmd += ["--messages-per-second", "1000", "--out", str(out), "--quiet"]
    proc = subprocess.run(
        cmd,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    stdout = proc.stdout
    assert "## Summary per run and destination" in stdout
    assert "| run | destination | sent | answered | lost | failed | loss % |" in stdout
    assert re.search(r"\| baseline \| /app/echo \| 5 \| 3 \| 1 \| 1 \| 20\.000 \|", stdout)
    assert re.search(r"\| baseline \| /topic/chat \| 2 \| 1 \| 1 \| 0 \| 50\.000 \|", stdout)
    assert re.search(
        r"\| baseline \| TOTAL \| 7 \| 4 \| 2 \| 1 \| 28\.571 \| 1\.3 \| 4\.000 \| 1\.000 \| 5\.000 \|", stdout
    )
    assert "## Latency: raw vs CO-corrected" in stdout
    assert re.search(r"\| baseline \| /topic/chat \| CO-corrected \| 2\.000 \| 8 \| 4\.375 \| 5\.000 \|", stdout)
    assert "## Comparison across runs" in stdout
    # concurrency from the jtl (max allThreads 4), pacing from the target rate; an old log: mode unknown
    assert re.search(
        r"\| baseline \| 4 \| jtl allThreads \| 1000 msg/s \(2 ms/sender\) \| unknown \| 7 \| 2\.3 \| 1000\.0 \|",
        stdout,
    )
    assert "- run baseline: mode unknown (a timing log of an older plugin version" in stdout
    assert "## JMeter samples (.jtl)" in stdout
    assert "SendFailed: Connection closed, 1006" in stdout

    for name in ("summary.csv", "per_second.csv", "comparison.csv", "latency_co.csv", "jtl_summary.csv"):
        assert (out / name).is_file(), name
    summary = read_csv(out / "summary.csv")
    total = next(r for r in summary if r["destination"] == "TOTAL")
    assert (total["sent"], total["answered"], total["lost"], total["failed"]) == ("7", "4", "2", "1")
    assert float(total["p50_ms"]) == 5.0
    # CO: 1 2 3 5 6 7 ms plus 3, 4, 2, 5, 3 ms -> 11 samples, index 5 of the sorted ones is 3 ms
    assert float(total["co_p50_ms"]) == 3.0 and total["co_samples_added"] == "5"
    per_second = read_csv(out / "per_second.csv")
    assert [r["sends"] for r in per_second] == ["3", "2", "1", "1"]
    assert [r["active_threads"] for r in per_second] == ["2", "4", "", ""]
    assert [r["jmeter_errors"] for r in per_second] == ["0", "1", "0", "0"]
    comparison = read_csv(out / "comparison.csv")
    assert comparison[0]["run"] == "baseline" and comparison[0]["concurrency"] == "4"

    pngs = ["throughput.png", "latency_over_time.png", "latency_percentiles.png", "latency_histogram.png"]
    for name in pngs:
        assert (out / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", name
    html = (out / "report.html").read_text(encoding="utf-8")
    assert html.count('src="data:image/png;base64,') == len(pngs)
    assert not re.search(r'(?:src|href)\s*=\s*"(?!data:)', html), "external asset referenced"
    assert "<script" not in html and "<link" not in html
    assert "Coordinated omission" in html and "baseline" in html


def test_cli_no_charts_and_two_runs(tmp_path, capsys):
    a = write_log(tmp_path / "a.csv", TINY)
    b = write_log(tmp_path / "b.csv", TINY[:3])
    out = tmp_path / "o"
    rc = main([str(a), str(b), "--label", "A", "--label", "B", "--no-charts", "--quiet", "--out", str(out)])
    assert rc == 0
    stdout = capsys.readouterr().out
    assert re.search(r"\| A \| 2 \| senders \| unthrottled \| unknown \| 7 \|", stdout)
    assert re.search(r"\| B \| 2 \| senders \| unthrottled \| unknown \| 3 \|", stdout)
    assert not list(out.glob("*.png"))
    assert "data:image/png" not in (out / "report.html").read_text()
    assert "## Latency: raw vs CO-corrected" not in stdout  # no pacing, no CO table


def test_same_label_or_merge_makes_one_run(tmp_path, capsys):
    a = write_log(tmp_path / "g1.csv", TINY)
    b = write_log(tmp_path / "g2.csv", TINY)
    assert main([str(a), str(b), "--merge", "--label", "both", "--quiet"]) == 0
    merged = capsys.readouterr().out
    assert re.search(r"\| both \| TOTAL \| 14 \| 8 \| 4 \| 2 \|", merged)
    assert main([str(a), str(b), "--label", "x", "--label", "x", "--quiet"]) == 0
    assert re.search(r"\| x \| TOTAL \| 14 \| 8 \| 4 \| 2 \|", capsys.readouterr().out)


def test_empty_file_exits_2_with_a_clear_message(tmp_path):
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    proc = subprocess.run([sys.executable, str(SCRIPT), str(empty)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2
    assert f"{empty}: empty file" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert proc.stdout == ""


def test_missing_file_and_bad_jtl_exit_2(tmp_path, capsys):
    log = write_log(tmp_path / "ok.csv", TINY)
    assert main([str(tmp_path / "missing.csv")]) == 2
    assert "missing.csv: cannot read" in capsys.readouterr().err
    bad_jtl = tmp_path / "bad.jtl"
    bad_jtl.write_text("foo,bar\n1,2\n")
    assert main([str(log), "--jtl", str(bad_jtl)]) == 2
    assert "bad.jtl: not a JMeter CSV result file" in capsys.readouterr().err


def test_malformed_lines_reported_on_stderr_and_rest_aggregated(tmp_path, capsys):
    lines = [*TINY, "not,a,record", "1700000004000,ANSWERED,z,4000,user-1,user-1,/app/echo,100,"]
    log = write_log(tmp_path / "m.csv", lines)
    assert main([str(log), "--quiet"]) == 0
    cap = capsys.readouterr()
    assert "1 malformed record(s) out of 11" in cap.err
    assert "line 11: 3 fields, expected 9" in cap.err
    assert re.search(r"\| m \| /app/echo \| 6 \| 4 \|", cap.out)
    assert "## Inputs" in cap.out


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--messages-per-second", "fast"], "invalid rate 'fast': expected a number of messages per second"),
        (["--messages-per-second", "-5"], "invalid rate '-5'"),
        (["--expected-interval-ms", "0"], "invalid interval '0'"),
        (["--max-issues", "x"], "invalid count 'x'"),
        (["--label", " "], "invalid label ' '"),
    ],
)
def test_argument_types_quote_the_bad_value(args, fragment, capsys):
    assert main(["log.csv", *args]) == 2
    assert fragment in capsys.readouterr().err


@pytest.mark.parametrize(
    ("parse", "text", "message"),
    [
        (positive_int, "0", "invalid count '0': must be > 0"),
        (positive_int, "-3", "invalid count '-3': must be > 0"),
        (positive_int, "1.5", "invalid count '1.5': expected a whole number"),
        (non_negative_int, "-1", "invalid count '-1': must be >= 0"),
        (non_negative_int, "x", "invalid count 'x': expected a whole number"),
    ],
)
def test_counts_rejected_with_the_bad_value(parse, text, message):
    with pytest.raises(argparse.ArgumentTypeError) as e:
        parse(text)
    assert str(e.value) == message


def test_counts_accepted():
    assert (positive_int("1"), non_negative_int("0"), non_negative_int("7")) == (1, 0, 7)


def test_option_counts_checked(tmp_path, capsys):
    a = write_log(tmp_path / "a.csv", TINY)
    assert main([str(a), "--label", "x", "--label", "y"]) == 2
    assert "2 --label for 1 timing log" in capsys.readouterr().err
    rates = ["--messages-per-second", "1", "--messages-per-second", "2", "--messages-per-second", "3"]
    assert main([str(a), str(a), *rates]) == 2
    assert "--messages-per-second given 3 times for 2 run(s)" in capsys.readouterr().err
    assert main([str(a), "--messages-per-second", "1", "--expected-interval-ms", "2"]) == 2


@pytest.mark.parametrize(
    ("given", "said"),
    [
        ("6000", ": --target-rate 6000 is --messages-per-second 100"),
        ("30", ": --target-rate 30 is --messages-per-second 0.5"),
        ("fast", ""),
    ],
)
def test_target_rate_per_minute_is_refused_naming_messages_per_second(tmp_path, capsys, given, said):
    a = write_log(tmp_path / "a.csv", TINY)
    assert main([str(a), "--target-rate", given, "--quiet"]) == 2
    err = capsys.readouterr().err
    assert (
        "error: --target-rate (messages per minute) is now --messages-per-second (messages per second, as send.jmx's "
        f"messagesPerSecond){said}\n"
    ) in err


def test_parser_is_separate_and_documents_options():
    p = build_parser()
    text = p.format_help()
    for opt in ("--jtl", "--label", "--merge", "--messages-per-second", "--expected-interval-ms", "--out"):
        assert opt in text
    assert "--target-rate" not in text
    ns = p.parse_args(["x.csv", "--messages-per-second", "10", "--messages-per-second", "0.5"])
    assert ns.messages_per_second == [10.0, 0.5]


def test_repeated_paths_are_the_later_mentions(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    a, b = Path("a.csv"), Path("b.csv")
    assert repeated_paths([a, b, Path("./a.csv"), tmp_path / "b.csv", a]) == [Path("./a.csv"), tmp_path / "b.csv", a]
    assert repeated_paths([a, b]) == []


def test_repeated_log_is_warned_once_per_mention(tmp_path, capsys):
    log = write_log(tmp_path / "t.csv", TINY)
    assert main([str(log), str(log), "--quiet"]) == 0
    assert capsys.readouterr().err.count("is given more than once: its messages are counted once per mention") == 1


def test_pipeline_options_from_the_arguments():
    args = build_parser().parse_args(["t.csv", "--warmup", "2", "--max-in-memory", "0", "--temp-dir", "x", "--quiet"])
    o = pipeline_options(args)
    assert (o.warmup_s, o.max_in_memory_mib, o.temp_dir, o.progress, o.max_issues) == (2.0, 0, Path("x"), False, 5)
    assert pipeline_options(build_parser().parse_args(["t.csv"])).progress is None  # on a terminal, for big inputs


#: Imports the command line, printing NUMPY_MADVISE_HUGEPAGE as it is whenever numpy is looked for, then whether
#: numpy was imported.
WATCH_NUMPY_IMPORT = """
import os, sys
class Watch:
    def find_spec(self, name, path=None, target=None):
        if name == "numpy":
            print(os.environ.get("NUMPY_MADVISE_HUGEPAGE"))
sys.meta_path.insert(0, Watch())
import stomp_analysis.cli
print("numpy" in sys.modules)
"""


@pytest.mark.parametrize(("given", "seen"), [(None, "0"), ("1", "1")])
def test_numpy_is_imported_without_huge_pages_unless_asked(given, seen):
    env = {k: v for k, v in os.environ.items() if k != "NUMPY_MADVISE_HUGEPAGE"}
    if given is not None:
        env["NUMPY_MADVISE_HUGEPAGE"] = given
    proc = subprocess.run([sys.executable, "-c", WATCH_NUMPY_IMPORT], env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    *looked_for, imported = proc.stdout.splitlines()
    assert imported == "True" and looked_for and set(looked_for) == {seen}


def test_all_records_malformed_exits_2(tmp_path, capsys):
    log = write_log(tmp_path / "bad.csv", ["x,LOST,a,,u,,/d,1,timeout", "1,NOPE,b,,u,,/d,1,timeout"])
    assert main([str(log), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "line 2: sent_epoch_ms 'x' is not an integer" in err
    assert "line 3: unknown outcome 'NOPE'" in err
    assert "no usable record (all 2 are malformed)" in err


def test_wrapper_without_polars_says_what_to_run(tmp_path):
    """A Python without the dependencies (-S: no site-packages, so neither the venv's polars nor the package)."""
    log = write_log(tmp_path / "t.csv", TINY)
    proc = subprocess.run(
        [sys.executable, "-I", "-S", str(SCRIPT), str(log)], capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("sockjs-stomp-aggregate: error: the Python module 'polars' is missing")
    assert "make venv" in lines[0] and ".venv/bin/python analysis/aggregate.py" in lines[0]
    assert "pip install ./analysis" in lines[0]
