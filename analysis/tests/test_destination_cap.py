"""The per-destination table of a run with one queue per user: the report shows the first destinations of each run
and says how many it left out; the CSV keeps every row."""

from __future__ import annotations

import csv

from stomp_analysis.results import TOTAL
from stomp_analysis.tables import INT, TEXT, Column, Table


def _table(destinations: int, shown: int) -> Table:
    cols = [Column("run", "run", TEXT), Column("destination", "destination", TEXT), Column("sent", "sent", INT)]
    t = Table("summary", "Summary", cols, destinations_shown=shown)
    for run in ("a", "b"):
        t.rows += [{"run": run, "destination": f"/queue/echo.{k}", "sent": k} for k in range(1, destinations + 1)]
        t.rows.append({"run": run, "destination": TOTAL, "sent": destinations})
    return t


def test_thousands_of_destinations_are_cut_to_the_first_with_a_line_saying_how_many_more(tmp_path):
    t = _table(8000, 20)
    md = t.markdown()
    assert md.count("/queue/echo.") == 40
    assert md.count("| … and 7,980 more destinations of a (summary.csv has every row) |") == 1
    assert "… and 7,980 more destinations of b" in md
    assert sum(line.split("|")[2].strip() == TOTAL for line in md.splitlines() if line.startswith("|")) == 2
    assert (
        md.index("/queue/echo.20 ")
        < md.index("7,980 more destinations of a")
        < md.index("/queue/echo.1 ", md.index("of a"))
    )
    html = t.html()
    assert html.count("/queue/echo.") == 40 and html.count('colspan="3"') == 2
    rows = list(csv.DictReader(t.write_csv(tmp_path).open()))
    assert len(rows) == 2 * 8001


def test_a_run_within_the_cap_is_shown_whole():
    md = _table(20, 20).markdown()
    assert md.count("/queue/echo.") == 40 and "more destinations" not in md
