"""The words: what the figures mean and which treatment a run got, written once.

The tables' notes, the report's "How to read this report", the command's help and the sentences and notes of
each run all come from here; the code that computes the figures (aggregate.py, pacing.py, runs.py) holds no
English beyond its docstrings (and the formula of a pacing interval, pacing.expected_interval_us).

A run's *treatment* is what its mode and pacing give its latencies: corrected for coordinated omission or not, and
its sends held to their schedule or not (pacing.py decides it); treatment_sentence states it.
analysis/README.md says the same for the reader of the repository.

The table notes are the short forms of the explanations of the report (REPORT_EXPLANATIONS): both are kept, side
by side here, so that the outputs read as they did.
"""

from __future__ import annotations

from .results import UNKNOWN, RunResult, RunSpec
from .stats import Distribution
from .steps import Step, StepTest
from .steps_log import GENERATOR, MACHINE, USERS
from .timing_log import AWAIT_REPLY, FIRE_AND_FORGET

# ----------------------------------------------------------------------------------------------------------
# numbers and pacings as the words write them


def number(x: float) -> str:
    """A plain number without exponent: 1200000, 2.5, 0.125."""
    if float(x).is_integer():
        return str(int(x))
    return f"{x:.3f}".rstrip("0").rstrip(".")


def pacing_text(spec: RunSpec) -> str:
    """The pacing a run was given: "50 ms/sender", "100 msg/s" or "unthrottled"."""
    if spec.expected_interval_ms:
        return f"{number(spec.expected_interval_ms)} ms/sender"
    if spec.messages_per_second:
        return f"{number(spec.messages_per_second)} msg/s"
    return "unthrottled"


def mode_text(mode: str, senders: int, threads: int | None) -> str:
    """A run's mode as the comparison shows it: an await-reply run with more senders than JMeter threads ran the
    plugin's closed loop on many users per thread (echo.jmx's ``loop=closed``): "await-reply (closed loop, 1000
    users per thread)". Each user still waited for its reply, so the closed-loop treatment holds."""
    if mode == AWAIT_REPLY and threads and senders > threads:
        return f"{mode} (closed loop, {number(round(senders / threads, 1))} users per thread)"
    return mode


# ----------------------------------------------------------------------------------------------------------
# notes under the tables (Markdown, HTML)

SUMMARY_NOTE = (
    "Books per message (distinct msg_id per file and run): sent = answered + lost + failed; "
    "loss % = lost / sent. Throughput = answered messages / run span. "
    "Percentiles: exact, 'higher' method on the merged samples."
)
RECEIPTS_NOTE = (
    "Receipt latency: send to the server's RECEIPT frame (the timing log's receipt_us; the plugin's receipts=true "
    "or mode=await-receipt), one sample per message whose RECEIPT came within its timeout: when the server took "
    "the message, apart from the reply's round trip (reply p50/p99 beside it). receipts % = messages with a "
    "receipt / sent. Percentiles: exact, 'higher' method."
)
CO_NOTE = (
    "CO-corrected: every latency v above a sender's expected interval I also stands for the sends that "
    "sender missed while waiting, recorded as v-I, v-2I, ... while >= I (HdrHistogram's "
    "recordValueWithExpectedInterval). Raw figures only describe the messages actually sent. Only closed loops "
    "are corrected: runs (and destinations) whose senders awaited their replies or receipts (await-reply, "
    "await-receipt), each virtual user a loop of its own however many users a JMeter thread runs; a "
    "fire-and-forget send (open loop) is not delayed by a slow reply."
)
COMPARISON_NOTE = (
    "Concurrency: the virtual users that sent, where the timing logs name them (sender_user), however many "
    "users a JMeter thread runs; for older logs, max JMeter allThreads when a .jtl is given, else distinct senders. "
    "Achieved TPS = sent / send window (first to last send); target TPS = the pacing's send rate. Response time = "
    "asynchronous reply latency. CO: coordinated-omission corrected (needs a pacing and senders that await "
    "their replies; in a run mixing modes, TOTAL is not corrected). Send lag: how far fire-and-forget sends "
    "fell behind their sender's schedule."
)
SCHEDULE_NOTE = (
    "Each sender's k-th send (k = 0, 1, ...) is due at its first send + k × the expected interval; its lag "
    "is the actual send time (µs) minus that, over every fire-and-forget send of the run (negative: ahead). "
    "A growing lag means the generator could not keep the pace, so the load was lower than planned. "
    "Achieved sends/s = all sends of the run / send window."
)
JTL_NOTE = "Sampler elapsed times as JMeter measured them (ms); throughput = samples / (last end - first start)."

# ----------------------------------------------------------------------------------------------------------
# the command's help

EPILOG_COORDINATED_OMISSION = """\
coordinated omission: with a pacing, latencies are also shown corrected only for await-reply and await-receipt
senders (a closed loop: each virtual user's, however many a JMeter thread runs); for fire-and-forget senders (open
loop) the lag of their sends behind schedule is reported instead."""

# ----------------------------------------------------------------------------------------------------------
# the report's "How to read this report" (HTML)

REPORT_EXPLANATIONS = """
<h2>How to read this report</h2>
<dl>
<dt>Books</dt>
<dd>Counted per message, i.e. per distinct <code>msg_id</code> within one timing log and run. A message is
<em>answered</em> when it has at least one ANSWERED record, otherwise <em>failed</em> when it has a FAILED
record (the send itself failed), otherwise <em>lost</em> (no reply before the timeout or the end of the test).
So sent = answered + lost + failed, and loss % = lost / sent. A broadcast answered by N receivers is one
answered message with N replies, and contributes N latency samples.</dd>
<dt>Latency</dt>
<dd>The asynchronous reply time: from the send of a message to the arrival of its reply at the receiving
virtual user, in microseconds in the logs, shown in milliseconds. Percentiles are exact, computed on all the
samples of a run merged across files (never averaged across files) with the "higher" method: the q-quantile of
N sorted samples is the sample at 0-based index ceil(q&middot;(N&minus;1)).</dd>
<dt>Throughput, achieved TPS, span</dt>
<dd>The span of a run goes from its first send to its last send or reply, whichever is later. Throughput =
answered messages / span; achieved TPS = sent messages / send window (first to last send).</dd>
<dt>Per-second series</dt>
<dd>Sends, losses and failures are counted in the second the message was sent; answers and their p50/p99 in
the second the reply arrived (send time + latency). Active threads = the highest JMeter <code>allThreads</code>
seen in that second of the .jtl.</dd>
<dt>Coordinated omission (CO) and the CO-corrected figures</dt>
<dd>A paced sender that waits for something (a blocked connection, a full buffer, a stalled server) sends
nothing while it waits, so the load generator "coordinates" with the slowness it should measure: the messages
that would have been sent during the stall, and would all have been slow, are simply missing from the raw
samples. When the pacing is known (a target rate in messages per second for the whole test, giving each sender
an expected interval I = senders &times; 1000 / rate ms, or an interval given directly), every latency v
greater than I is completed with the samples the missed sends would have produced: v&minus;I, v&minus;2I, ...
down to I (HdrHistogram's <code>recordValueWithExpectedInterval</code>). The raw figures describe the messages
actually sent; the CO-corrected ones estimate what a user arriving at the planned rate would have experienced.
A large gap between the two means the generator was held back and the raw percentiles are optimistic.
The correction is only valid for a closed loop, where a sender waits for the reply before its next send
(<code>mode</code> <em>await-reply</em> in the timing log, or <em>await-receipt</em>, waiting for the server's
RECEIPT): it is applied to those runs only. A closed loop is each virtual user's, however many users a JMeter
thread runs: the expected interval is per virtual user (<code>sender_user</code>), never per thread. A
<em>fire-and-forget</em> sender (open loop) does not wait, so a slow reply delays no send and the correction
would invent a tail: its latencies stay uncorrected, and what is checked instead is whether the generator kept
the pace: the achieved send rate against the target (per second, in the throughput chart) and each send's
<em>lag</em> behind its sender's schedule (the k-th send of a sender is due at its first send + k &times; I),
reported as p50, p99 and max. A run mixing both modes is corrected only on the destinations whose records are
all await-reply. Timing logs of older plugin versions have no mode column: they are corrected as before whenever
a pacing is given, which is valid only if their senders awaited the replies.</dd>
<dt>Runs</dt>
<dd>Each record carries its test run's id (<code>run</code>: when the run started on its engine) and engine.
Runs appended to one timing log are analysed apart, labelled <em>label</em>#1, #2, ... in time order; the
files of several engines of one test (whose run ids differ) stay one run, since their sends overlap in time.
A message is identified within its file and run, so an id reused by another run is another message.</dd>
<dt>Unrecordable values, malformed records</dt>
<dd>A negative (or absurdly large) latency cannot be recorded: such records are counted, reported and left out
of the latency figures. Malformed records (unparsable, unknown outcome, missing required fields) are counted
per file and the first ones listed with their line numbers; the rest of the file is still aggregated.</dd>
</dl>
"""

# ----------------------------------------------------------------------------------------------------------
# the sentences and notes of a run


def legacy_note(run_ids: set[int]) -> str:
    """The note of a run spec holding old-format logs, which is never split (see runs.plan_parts)."""
    if len(run_ids) <= 1:
        return ""
    return (
        f"{len(run_ids)} run ids in the new-format logs, but the old-format log(s) have none to match them "
        "with: analysed as one run (messages of different run ids are still told apart)."
    )


def run_part_note(label: str, n: int, runs: int, run_ids: list[int]) -> str:
    """The note of run ``n`` of the ``runs`` that the timing log(s) of ``label`` hold."""
    ids = ", ".join(str(r) for r in run_ids)
    return (
        f"run {n} of the {runs} runs that the timing log(s) of {label!r} hold, told apart by their "
        f"run column (run id(s) {ids}) and analysed apart."
    )


def warmup_notes(label: str, warm_label: str, warmup_s: float) -> tuple[str, str]:
    """The notes of a run's warm-up part and of its rest."""
    warm_note = (
        f"warm-up of {label!r}: the messages sent in its first {number(warmup_s)} s (--warmup), shown "
        f"apart; {label!r} holds the rest."
    )
    main_note = (
        f"the messages sent in the first {number(warmup_s)} s (--warmup) are left out of these figures and "
        f"shown apart as {warm_label!r}."
    )
    return warm_note, main_note


def result_notes(r: RunResult) -> list[str]:
    """What the reader of a run's figures must know: messages both answered and not, unrecordable latencies, a
    capped CO correction."""
    notes = []
    if r.mixed_messages:
        notes.append(
            f"{r.mixed_messages} message(s) have both ANSWERED and LOST/FAILED records; they are counted as answered."
        )
    if r.redelivered:
        notes.append(
            f"{r.redelivered} REDELIVERED record(s): messages answered before that the broker delivered again (after a "
            "NACK, or a session lost with them unacknowledged); not answers, left out of every other figure."
        )
    if r.total.unrecordable:
        notes.append(
            f"{r.total.unrecordable} ANSWERED record(s) have a latency that cannot be recorded (negative or >= 2^40 "
            "µs): counted as answered, left out of the latency figures and of the per-second answers."
        )
    capped = next((b.co for b in reversed(r.co_corrected) if b.co.dropped), None)
    if capped:
        notes.append(
            f"CO correction capped: {capped.dropped} of {capped.added} synthetic samples not recorded "
            f"(--co-max-entries); CO-corrected percentiles are computed without them, the CO-corrected mean is "
            "exact."
        )
    return notes


def _ms(us: float) -> str:
    return f"{us / 1000.0:.3f}"


def treatment_sentence(r: RunResult) -> str:
    """The run's treatment (CO correction or not, schedule lag) and why, in one sentence: ``run <label>:
    <treatment clause>``, saying so when it has a warm-up (stdout, report.html, comparison.csv)."""
    clause = _treatment_clause(r)
    if r.warmup_s and not r.is_warmup:
        clause = f"{clause.rstrip('.')}; the messages of its first {number(r.warmup_s)} s are shown apart as warm-up."
    return f"run {r.label}: {clause}"


def _treatment_clause(r: RunResult) -> str:
    """Which treatment the run got and why, in one sentence (without the leading "run <label>: ")."""
    spec = r.spec
    pacing = ""
    if r.interval_us:
        pacing = f"a pacing of {number(r.interval_us / 1000)} ms/sender"
        if spec.messages_per_second and not spec.expected_interval_ms:
            pacing += f" ({number(spec.messages_per_second)} msg/s)"
    no_interval = "unthrottled: no expected interval, so no correction."
    if r.mode == AWAIT_REPLY:
        if not r.interval_us:
            return f"await-reply (closed loop), {no_interval}"
        return (
            f"await-reply (closed loop) with {pacing}: latencies also shown corrected for coordinated omission "
            "(HdrHistogram expected interval)."
        )
    if r.mode == FIRE_AND_FORGET:
        head = "fire-and-forget (open loop)"
        why = "latencies not corrected for coordinated omission, since a slow reply delays no send"
        if not r.interval_us:
            return f"{head}, unthrottled: {why}; no pacing given, so no schedule to hold the sends to."
        lag = r.schedule.lag if r.schedule else Distribution.empty()
        achieved = f"{r.achieved_tps:.1f}" if r.achieved_tps is not None else "–"
        kept = (
            f"sends fell behind their schedule by {_ms(max(0, lag.quantile(0.99)))} ms at p99 and"
            f" {_ms(max(0, lag.max()))} ms at most; {achieved} sends/s achieved vs {r.target_per_s:.1f}/s target"
            if lag.n
            else "no send to hold to the schedule"
        )
        return f"{head} with {pacing}: {why}; {kept}."
    if r.mode == UNKNOWN:
        head = "mode unknown (a timing log of an older plugin version, without the mode column)"
        if not r.interval_us:
            return f"{head}, {no_interval}"
        return (
            f"{head} with {pacing}: latencies also shown corrected for coordinated omission as before, which holds "
            "only if the senders awaited their replies."
        )
    kinds = " and ".join(m for m in (AWAIT_REPLY, FIRE_AND_FORGET, UNKNOWN) if r.mode_records.get(m))
    head = f"mixed modes ({kinds})"
    if not r.interval_us:
        return f"{head}, {no_interval}"
    corrected = [b.destination for b in r.co_corrected]
    if not corrected:
        return (
            f"{head} with {pacing}: latencies not corrected for coordinated omission, since no destination has "
            "await-reply records only and the others' sends are not delayed by slow replies."
        )
    return (
        f"{head} with {pacing}: only {', '.join(corrected)} (await-reply records only) also shown corrected for "
        "coordinated omission; the other destinations and the TOTAL not, since not all their sends awaited a reply."
    )


# ----------------------------------------------------------------------------------------------------------
# a stepped test: the answer in one line, and what its table means

STEPS_NOTE = (
    "One row per step of the stepped test; its figures are counted over the step's hold (after its ramp), from the "
    "steps log (one per JMeter engine: counts and rates summed over the engines). Latency: the reply time of the "
    "messages sent in the hold, recomputed from the timing logs where they are given (latency from: timing logs), "
    "else the steps log's own. Send lag: how far the generator's scheduled sender fell behind its schedule (p99); "
    "generator CPU: its JVM's process CPU as a share of its cores (the highest engine's). Whose limit: a step that "
    "broke where the generator could not hold the pace is the generator's limit, not the server's. Server "
    "figures: the mean of the polls inside the hold."
)


def _thousands(x: float) -> str:
    return f"{x:,.0f}" if abs(x) >= 10 or float(x).is_integer() else f"{x:.1f}"


def ms_words(us: float) -> str:
    """A latency as the answer says it: 1,240 ms, 38 ms, 3.2 ms, 0.41 ms."""
    ms = us / 1000.0
    if ms >= 10:
        return f"{ms:,.0f} ms"
    return f"{ms:.1f} ms" if ms >= 1 else f"{ms:.2f} ms"


def pct_words(pct: float) -> str:
    """A share as the answer says it: 2.1%, 0.05%."""
    return f"{pct:.1f}%" if pct >= 0.1 or pct == 0 else f"{pct:.2g}%"


def _load(step: Step) -> str:
    return f"{_thousands(step.offered)} users" if step.kind == USERS else f"{_thousands(step.offered)} msg/s"


def _held_figures(step: Step) -> str:
    if step.kind == USERS:
        parts = [f"connect p99 {_thousands(step.connect_p99_ms)} ms"] if step.connect_p99_ms is not None else []
    else:
        parts = [f"p99 {ms_words(step.p99_us)}"] if step.p99_us is not None else []
        if step.loss_pct is not None:
            parts.append("0 lost" if not step.lost else f"{pct_words(step.loss_pct)} lost")
    return f" ({', '.join(parts)})" if parts else ""


def _broke_figures(step: Step) -> str:
    parts = []
    if step.kind == USERS:
        if step.connect_failed_pct is not None:
            parts.append(f"{pct_words(step.connect_failed_pct)} of connects failed")
        if step.connect_p99_ms is not None:
            parts.append(f"connect p99 {_thousands(step.connect_p99_ms)} ms")
        if step.achieved is not None and step.achieved < step.offered:
            parts.append(f"{_thousands(step.achieved)} users held a session")
        if step.heartbeat_misses:
            parts.append(f"{_thousands(step.heartbeat_misses)} sessions lost to missed heart-beats")
    else:
        if step.p99_us is not None:
            parts.append(f"p99 {ms_words(step.p99_us)}")
        if step.loss_pct is not None:
            parts.append("0 lost" if not step.lost else f"{pct_words(step.loss_pct)} lost")
        if step.failed:
            parts.append(f"{pct_words(step.failed_pct)} failed")
        if step.achieved is not None and step.achieved < 0.95 * step.offered:
            parts.append(f"achieved {_thousands(step.achieved)} msg/s")
    return ", ".join(parts) if parts else step.reason or "no figures"


def whose_limit(step: Step) -> str:
    """Whose limit the knee is, with what showed it: "the server's limit: the generator kept its pace"."""
    if step.limit == GENERATOR:
        why = step.reason.removeprefix("generator: ") if step.engines == 1 else step.reason
        return f"the generator's limit, not the server's: {why}" if why else "the generator's limit, not the server's"
    if step.limit == MACHINE:
        marker = "machine: "
        why = step.reason[step.reason.index(marker) + len(marker) :] if marker in step.reason else step.reason
        return f"the machine's limit: {why}" if why else "the machine's limit: server and generator share it"
    return "the server's limit: the generator kept its pace"


def steps_answer(test: StepTest) -> str:
    """The answer of a stepped test in one line: what it held, where it broke and whose limit that was."""
    if not test.steps:
        return "no step was recorded"
    if not test.checked:
        return (
            f"no service level was given: {len(test.steps)} step(s) up to {_load(test.steps[-1])}, "
            "shown without a verdict"
        )
    held, knee = test.held, test.knee
    if knee is None:
        return f"held every step up to {_load(held)}{_held_figures(held)}: no knee found"
    broke = f"broke at {_load(knee)}: {_broke_figures(knee)} ({whose_limit(knee)})"
    if held is None:
        return f"{broke.replace('broke at', 'broke at the first step,', 1)}"
    return f"held {_load(held)}{_held_figures(held)}; {broke}"


def steps_engines_note(test: StepTest) -> str:
    """Said under the answer when several engines ran the test: how their verdicts were merged."""
    engines = len(test.runs)
    if engines <= 1:
        return ""
    return (
        f"{engines} engines' steps logs merged by step: counts and rates summed, latency percentiles recomputed from "
        "the timing logs where given; the service level's thresholds are not in the steps log, so the verdicts are "
        "the engines': a step broke if any engine's broke, and it is the generator's limit if any engine's "
        "generator could not hold its share."
    )
