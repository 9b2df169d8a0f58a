"""The pipeline called from Python: the command's outputs without the command, warnings handed over, nothing
printed."""

from __future__ import annotations

import pytest

from stomp_analysis import InputError
from stomp_analysis.cli import main
from stomp_analysis.pipeline import Options, Stage, analyse, write_outputs
from stomp_analysis.results import RunSpec
from stomp_analysis.timing_log import HEADER_V2

from .conftest import TINY, v2, write_log


@pytest.fixture
def two_runs(tmp_path):
    """A 14-column log of two runs, with one malformed line."""
    later = [str(int(line.split(",", 1)[0]) + 100_000) + "," + line.split(",", 1)[1] for line in TINY]
    second = v2(later, mode="fire-and-forget", run=1_700_000_090_000)
    return write_log(tmp_path / "two.csv", [*v2(TINY), "garbage,line", *second], HEADER_V2)


def test_analysis_gives_the_commands_stdout_and_files(two_runs, tmp_path, capsys):
    # No charts on either side: the files compared are the ones the pipeline writes without them (test_cli draws them)
    cli = ["--messages-per-second", "10", "--warmup", "1", "--no-charts", "--out", str(tmp_path / "cli")]
    assert main([str(two_runs), *cli]) == 0
    stdout = capsys.readouterr().out
    analysis = analyse([RunSpec("two", [two_runs], messages_per_second=10)], options=Options(warmup_s=1))
    assert analysis.markdown() == stdout
    assert capsys.readouterr() == ("", "")  # the pipeline prints nothing
    written = write_outputs(analysis, tmp_path / "py", charts=False)
    assert [p.parent for p in written] == [tmp_path / "py"] * len(written)
    for p in written:
        if p.name != "report.html":  # it says when it was generated
            assert p.read_bytes() == (tmp_path / "cli" / p.name).read_bytes(), p.name


def test_warnings_go_to_warn_in_the_order_found(two_runs):
    told = []
    analysis = analyse([RunSpec("two", [two_runs])], warn=lambda text, listed: told.append((text, list(listed))))
    (malformed, listed), *notes = told
    assert malformed == f"{two_runs}: 1 malformed record(s) out of 10 skipped; the first 1:"
    assert len(listed) == 1 and "garbage,line" in listed[0]
    assert [text for text, _ in notes] == analysis.notes and all(not lines for _, lines in notes)
    assert [r.label for r in analysis.results] == ["two#1", "two#2"]


def test_unusable_input_raises_before_the_long_work(tmp_path):
    good = write_log(tmp_path / "good.csv", v2(TINY), HEADER_V2)
    bad = write_log(tmp_path / "bad.csv", ["1,2,3"], "not,a,header")
    stage = Stage()
    with pytest.raises(InputError, match=r"bad\.csv: not a timing log"):
        analyse([RunSpec("a", [good]), RunSpec("b", [bad])], out=tmp_path / "out", stage=stage)
    assert stage.text == "checking the inputs"
    assert not (tmp_path / "out").exists()


def test_out_is_created_up_front(tmp_path):
    good = write_log(tmp_path / "good.csv", v2(TINY), HEADER_V2)
    analysis = analyse([RunSpec("a", [good])], out=tmp_path / "new" / "out")
    assert (tmp_path / "new" / "out").is_dir() and analysis.results[0].total.sent == 7
