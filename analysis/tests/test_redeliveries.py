"""The 18-column format: REDELIVERED records (a message answered before that a broker delivered again) are read,
counted beside the books and left out of every other figure; 17-column logs read as before."""

from __future__ import annotations

from stomp_analysis.aggregate import RunSpec, analyze
from stomp_analysis.timing_log import HEADER, HEADER_V4, read_timing_log

from .conftest import TINY, v3


def v5(lines: list[str], again: dict[str, int] | None = None) -> list[str]:
    """The 9-column lines in the 18-column format (no receipts); after each ANSWERED record of a message in
    ``again``, a REDELIVERED record of it that many µs after that first delivery."""
    again = again or {}
    out = []
    for line in v3(lines):
        out.append(f"{line},,")
        fields = line.split(",")
        if fields[1] == "ANSWERED" and fields[2] in again:
            redelivered = fields.copy()
            redelivered[1] = "REDELIVERED"
            redelivered[3] = str(int(fields[3]) + again[fields[2]])
            out.append(",".join(redelivered) + f",,{again[fields[2]]}")
    return out


def test_redeliveries_are_counted_beside_the_books_and_nowhere_else(log_writer):
    plain = read_timing_log(log_writer(v5(TINY), name="plain.csv", header=HEADER))
    again = read_timing_log(log_writer(v5(TINY, {"m-1": 250_000, "m-5": 40_000}), name="again.csv", header=HEADER))
    assert (plain.columns, again.columns) == (18, 18)
    assert (plain.malformed, again.malformed) == (0, 0)
    assert again.records == plain.records + 2
    (p,) = analyze(RunSpec("p", []), [plain])
    (r,) = analyze(RunSpec("r", []), [again])
    assert (p.redelivered, r.redelivered) == (0, 2)
    assert (r.total.sent, r.total.answered, r.total.lost, r.total.failed) == (7, 4, 2, 1)
    assert r.total.latency.quantiles([0.0, 0.5, 1.0]) == p.total.latency.quantiles([0.0, 0.5, 1.0])
    assert r.total.replies == p.total.replies
    assert r.mixed_messages == p.mixed_messages
    assert any("2 REDELIVERED record(s)" in note for note in r.notes)
    assert not any("REDELIVERED" in note for note in p.notes)


def test_a_redelivered_record_needs_what_an_answer_needs(log_writer):
    lines = v5(TINY, {"m-1": 1000})
    broken = [line.replace(",user-1,user-1,", ",user-1,,") if ",REDELIVERED," in line else line for line in lines]
    log = read_timing_log(log_writer(broken, header=HEADER))
    assert log.malformed == 1
    assert "REDELIVERED without receiver" in str(log.issues[0])


def test_a_17_column_log_reads_as_before(log_writer):
    log = read_timing_log(log_writer([f"{line}," for line in v3(TINY)], header=HEADER_V4))
    assert (log.columns, log.malformed, log.records) == (17, 0, len(TINY))
    (r,) = analyze(RunSpec("t", []), [log])
    assert r.redelivered == 0
    assert (r.total.sent, r.total.answered) == (7, 4)
