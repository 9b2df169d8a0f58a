"""Golden outputs: stdout, stderr and every file of --out (no charts) on generated logs, as the version before the
reader, the runs planning and the accumulator were restructured wrote them. Any change to the figures, the
tables or their words shows here; when one is meant, regenerate with ``GOLDEN_UPDATE=1 pytest -k golden``."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from stomp_analysis.cli import main
from stomp_analysis.timing_log import HEADER_V2

from .conftest import TINY, v2
from .test_bench_data import load_gen

GOLDEN = Path(__file__).resolve().parent / "golden"
RATES = ["--messages-per-second", "500", "--messages-per-second", "600", "--messages-per-second", "300"]
CASES = {
    "three": (["ar.csv", "ff.csv", "old.csv", "--label", "A", "--label", "F", "--label", "O", *RATES, "--warmup", "2"]),
    "mixed": (["ar.csv", "ff.csv", "--merge", "--label", "M", "--expected-interval-ms", "40"]),
    "tiny": (["tiny.csv", "--messages-per-second", "10", "--warmup", "1"]),
}


@pytest.fixture(scope="module")
def logs(tmp_path_factory) -> Path:
    """14-column await-reply and fire-and-forget logs, an old 9-column one, and a small log of two runs (broadcasts,
    a failure with a quoted reason, a malformed line)."""
    d = tmp_path_factory.mktemp("golden")
    gen = load_gen()
    gen.generate_timing_log(d / "ar.csv", records=6000, senders=20, rate_per_s=500.0, columns=14)
    ff = {"mode": "fire-and-forget", "seed": 7, "columns": 14}
    gen.generate_timing_log(d / "ff.csv", records=6000, senders=30, rate_per_s=600.0, **ff)
    gen.generate_timing_log(d / "old.csv", records=3000, senders=10, rate_per_s=300.0, mode=None, seed=3)
    later = [str(int(line.split(",", 1)[0]) + 100_000) + "," + line.split(",", 1)[1] for line in TINY]
    second = v2(later, mode="fire-and-forget", run=1_700_000_090_000, sub_us=3)
    lines = [HEADER_V2, *v2(TINY, sub_us=7), "garbage,line", *second]
    (d / "tiny.csv").write_text("\n".join(lines) + "\n")
    return d


def _masked(text: str, root: Path) -> str:
    text = text.replace(str(root), "ROOT/logs")
    return re.sub(r"Generated \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC", "Generated TIME", text)


@pytest.mark.parametrize("out_of_core", [False, True], ids=["in-memory", "out-of-core"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_outputs_are_the_golden_ones(logs, tmp_path, capsys, case, out_of_core):
    args = [str(logs / a) if a.endswith(".csv") else a for a in CASES[case]]
    out = tmp_path / "out"
    more = ["--max-in-memory", "0"] if out_of_core else []
    assert main([*args, *more, "--out", str(out), "--no-charts", "--quiet"]) == 0
    cap = capsys.readouterr()
    got = {"stdout.md": cap.out, "stderr.txt": cap.err}
    got |= {p.name: p.read_text(encoding="utf-8") for p in out.iterdir()}
    got = {name: _masked(text, logs) for name, text in got.items()}
    expected_dir = GOLDEN / case
    if os.environ.get("GOLDEN_UPDATE") and not out_of_core:
        expected_dir.mkdir(parents=True, exist_ok=True)
        for name, text in got.items():
            (expected_dir / name).write_text(text, encoding="utf-8")
    expected = {p.name: p.read_text(encoding="utf-8") for p in expected_dir.iterdir()}
    assert sorted(got) == sorted(expected)
    for name in expected:
        assert got[name] == expected[name], name
