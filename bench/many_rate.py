#!/usr/bin/env python3
"""Many users at a modest rate: JMeter's CPU per answered message, ours beside the incumbent and the floor.

  many-rate     RATE_USERS users x RATE_PER_USER_MIN messages per minute, fire-and-forget, heart-beats off. Ours:
                send.jmx with the scheduled sender (tickMillis RATE_TICK_MILLIS) as "ours-TxU" (T threads of U
                users: ours-2x1000, ours-20x100); the incumbent: bench/plans/incumbent-rate.jmx, a thread per user,
                a Constant Throughput Timer holding the same total rate; floor-2x1000: RateFloor (Spring's STOMP
                client built as ours, no JMeter, no timing, same sessions and schedule); codecfloor-2x1000: the same
                on Spring's STOMP codec straight on Tomcat's client (CodecSession, no Spring session layer; threads
                x users as floor-TxU); "floor-2x1000:K" / "codecfloor-2x1000:K" with $JVM_K. JMeter CPU per answered
                message over the window, context switches and CPU per message by thread kind
                (/proc/<pid>/task/*/status and schedstat), JVM threads, messages per sample, load average before
                and after. A side "ours-2x1000:K" runs with $JVM_K, the collector flags $GC_K (bin/jmeter's
                GC_ALGO), the properties $PROPS_K ("name=value ..."), the plan $PLAN_K and the JMeter home $HOME_K;
                "incumbent:K" the plan $PLAN_K (bench/plans/incumbent-rate-deflate.jmx: the browser's compression
                offer). Against the demo server an unmeasured run of ours warms it first (RATE_SERVER_WARMUP_S).
  replies-idle  send.jmx's replies thread when nothing finishes: IDLE_USERS users, one message a minute in all,
                replySamples=true: the replies thread's context switches per second (IDLE_SIDES; "ours-2x1000:K"
                as above).

Examples:
  flock /tmp/bench.lock python3 bench/many_rate.py --rounds 2 --warmup-s 60 --window-s 30 \\
      --rate-sides "ours-2x1000 incumbent"
  flock /tmp/bench.lock env ROUNDS=2 RATE_SIDES="ours-2x1000 ours-2x1000:tick25" PROPS_tick25="tickMillis=25" \\
      python3 bench/many_rate.py
  flock /tmp/bench.lock env BROKER=rabbitmq python3 bench/many_rate.py --rate-sides "ours-2x1000 incumbent ours-2000x1"
  flock /tmp/bench.lock env ROUNDS=3 RATE_SIDES="floor-2x1000 codecfloor-2x1000" python3 bench/many_rate.py

Needs target/jmeter (make jmeter). Results: results/bench-generator-<time>/summary.md.
"""

import csv
import os
import statistics
import sys
import time

import common
from common import (
    ENV,
    INCUMBENT_HOME,
    OURS_HOME,
    ROOT,
    DemoServer,
    Option,
    answered_between,
    floor_answered_between,
    jfr_settings,
    jmeter,
    kind_medians,
    kinds_between,
    kinds_per,
    load_average,
    proc_cpu_seconds,
    proc_status,
    samples_between,
    switches_by_kind,
    whole,
)
from floors import floor_process, rate_floor

OPTIONS = [
    Option("RATE_USERS", 2000, "many-rate: users in all", whole),
    Option("RATE_PER_USER_MIN", 60, "many-rate: messages a user sends per minute", whole),
    Option("RATE_SIDES", "ours-2x1000 incumbent ours-20x100", "many-rate: the sides, alternating in each round"),
    Option("RATE_TICK_MILLIS", 10, "many-rate: our scheduled sender's tickMillis (and the floor's)", whole),
    Option("RATE_RAMP_S", 5, "many-rate: both sides' ramp-up, seconds", whole),
    Option("RATE_SERVER_WARMUP_S", 60, "many-rate: the demo server's unmeasured warm-up run (0: none)", whole),
    Option("JFR_SIDE", "ours-2x1000", "many-rate with --jfr many-rate: the side recorded"),
    Option("IDLE_USERS", 2, "replies-idle: users", whole),
    Option("IDLE_SIDES", "ours-2x1000", "replies-idle: the sides"),
]


def rate_run(side, server, out, round_no):
    """One many-rate run: RATE_USERS users at RATE_PER_USER_MIN messages per minute each, fire-and-forget."""
    name = f"{side.replace(':', '_')}-rate-{round_no}"
    users, per_min = ENV["RATE_USERS"], ENV["RATE_PER_USER_MIN"]
    duration = ENV["WARMUP_S"] + ENV["WINDOW_S"] + 5
    common = {
        "host": "127.0.0.1",
        "port": server.port,
        "rampUp": os.environ.get("RATE_RAMP_S", "5"),
        "duration": duration,
        "endpoint": server.endpoint,
    }
    key = side.split(":", 1)[1] if ":" in side else None  # a variant: its JVM_K, GC_K, PROPS_K and PLAN_K
    jvm_args, gc_algo = (os.environ.get("JVM_" + key, ""), os.environ.get("GC_" + key)) if key else ("", None)
    if rate_floor(side):
        process = floor_process(side, server, out, name, duration, jvm_args)
        pid, jtl = process.pid, None
    elif side.split(":")[0] == "incumbent":
        # "incumbent:K": the plan $PLAN_K (bench/plans/incumbent-rate-deflate.jmx: the browser's compression offer)
        plan = (
            ROOT / os.environ.get("PLAN_" + key, ROOT / "bench/plans/incumbent-rate.jmx")
            if key
            else ROOT / "bench/plans/incumbent-rate.jmx"
        )
        process, jtl, pid = jmeter(
            INCUMBENT_HOME,
            plan,
            out,
            name,
            # its plan's throughput: messages per minute for the whole test
            dict(common, threads=users, throughput=users * per_min, **server.incumbent()),
            jvm_args,
            gc_algo,
        )
    else:
        threads = int(side.split("-")[1].split("x")[0])
        if os.environ.get("JFR") == "many-rate" and round_no == 1 and side == os.environ.get("JFR_SIDE", "ours-2x1000"):
            jvm_args += (
                f" -XX:StartFlightRecording=delay={ENV['WARMUP_S']}s,duration={ENV['WINDOW_S']}s,"
                f"filename={out / (name + '.jfr')},settings={jfr_settings(out)} "
                "-XX:FlightRecorderOptions=stackdepth=1024"
            )
        props = dict(
            common,
            messagesPerSecond=users * per_min / 60,
            threads=threads,
            users=users // threads * threads,
            transport="raw",
            indexPath="none",
            pullPath="none",
            heartbeatMillis=0,
            pacing="schedule",
            tickMillis=os.environ.get("RATE_TICK_MILLIS", "10"),
            timingLog=out / f"{name}-timing.csv",
            **server.ours(),
        )
        if key:
            props.update(p.split("=", 1) for p in os.environ.get("PROPS_" + key, "").split())
        plan = ROOT / os.environ.get("PLAN_" + key, ROOT / "jmx/send.jmx") if key else ROOT / "jmx/send.jmx"
        home = ROOT / os.environ.get("HOME_" + key, OURS_HOME) if key else OURS_HOME  # another build: A/B of a change
        process, jtl, pid = jmeter(home, plan, out, name, props, jvm_args, gc_algo)
    time.sleep(ENV["WARMUP_S"])
    cpu0, kinds0, t0 = proc_cpu_seconds(pid), switches_by_kind(pid), time.time()
    server0 = proc_cpu_seconds(server.pid)
    time.sleep(ENV["WINDOW_S"])
    cpu1, kinds1, t1 = proc_cpu_seconds(pid), switches_by_kind(pid), time.time()
    server1 = proc_cpu_seconds(server.pid)
    jvm_threads = proc_status(pid, "Threads")
    process.wait(300)
    start_ms, end_ms = int(t0 * 1000), int(t1 * 1000)
    if rate_floor(side):
        done, errors = floor_answered_between(out / f"{name}.console.txt", start_ms, end_ms)
    elif side.split(":")[0] == "incumbent":
        done, errors = samples_between(jtl, "echo", start_ms, end_ms)
    else:
        done, errors = answered_between(out / f"{name}-timing.csv", start_ms, end_ms)
    per_kind = kinds_between(kinds0, kinds1)
    switches = sum(d for _, d, _ in per_kind.values())
    rows = []
    if jtl:
        with open(jtl, newline="") as f:
            rows = [r for r in csv.DictReader(f) if r["label"] in ("send", "echo")]
    samples = len(rows)
    messages = sum(int(r.get("SampleCount") or 1) for r in rows)
    return {
        "run": name,
        "per_s": done / ((end_ms - start_ms) / 1000),
        "cpu_us": 1e6 * (cpu1 - cpu0) / max(done, 1),
        "cs": switches / max(done, 1),
        "threads": jvm_threads,
        "errors": errors,
        "server_cpu_us": 1e6 * (server1 - server0) / max(done, 1),
        "kinds": kinds_per(per_kind, done),
        "messages_per_sample": messages / max(samples, 1),
    }


def idle_run(side, server, out, round_no):
    """One idle run of send.jmx with its replies thread: IDLE_USERS (2) users sending one message a minute in all,
    so what wakes the replies thread is its own waiting, not messages: its context switches per second."""
    name = f"{side.replace(':', '_')}-idle-{round_no}"
    key = side.split(":", 1)[1] if ":" in side else None
    users = int(os.environ.get("IDLE_USERS", "2"))
    props = {
        "host": "127.0.0.1",
        "port": server.port,
        "endpoint": server.endpoint,
        "rampUp": 0,
        "duration": ENV["WARMUP_S"] + ENV["WINDOW_S"] + 5,
        "messagesPerSecond": 1 / 60,
        "users": users,
        "threads": users,
        "transport": "raw",
        "indexPath": "none",
        "pullPath": "none",
        "heartbeatMillis": 0,
        "pacing": "schedule",
        "replySamples": "true",
        "timingLog": out / f"{name}-timing.csv",
        **server.ours(),
    }
    if key:
        props.update(p.split("=", 1) for p in os.environ.get("PROPS_" + key, "").split())
    plan = ROOT / os.environ.get("PLAN_" + key, ROOT / "jmx/send.jmx") if key else ROOT / "jmx/send.jmx"
    home = ROOT / os.environ.get("HOME_" + key, OURS_HOME) if key else OURS_HOME
    process, _, pid = jmeter(home, plan, out, name, props, os.environ.get("JVM_" + key, "") if key else "")
    time.sleep(ENV["WARMUP_S"])
    kinds0, t0 = switches_by_kind(pid), time.time()
    time.sleep(ENV["WINDOW_S"])
    kinds1, t1 = switches_by_kind(pid), time.time()
    process.wait(300)
    per_s = {k: switches / (t1 - t0) for k, (_, switches, _) in kinds_between(kinds0, kinds1).items()}
    return {"run": name, "replies": per_s.get("replies", 0.0), "all": sum(per_s.values())}


def replies_idle(server, out, _=None):
    """The replies-idle section: the replies thread's wake-ups per second when nothing finishes."""
    sides = os.environ.get("IDLE_SIDES", "ours-2x1000").split()
    runs = {s: [] for s in sides}
    for round_no in range(1, ENV["ROUNDS"] + 1):
        for side in sides:
            runs[side].append(idle_run(side, server, out, round_no))
            print(runs[side][-1], flush=True)
    lines = [
        "## An idle run's replies thread: send.jmx, one message a minute, replySamples=true",
        "",
        "| side | replies thread: context switches per second | whole JVM: context switches per second |",
        "| --- | ---: | ---: |",
    ]
    for side, results in runs.items():
        lines.append(
            f"| {side} | {statistics.median(r['replies'] for r in results):.1f} | "
            f"{statistics.median(r['all'] for r in results):.1f} |"
        )
    lines += ["", "All runs: " + "; ".join(f"{r['run']} {r['replies']:.1f}/s" for rs in runs.values() for r in rs), ""]
    return lines


def many_rate(server, out, _=None):
    """The many-rate section: alternating sides, ROUNDS rounds, medians; load average before and after."""
    sides = os.environ.get("RATE_SIDES", "ours-2x1000 incumbent ours-20x100").split()
    runs = {s: [] for s in sides}
    warm_s = int(os.environ.get("RATE_SERVER_WARMUP_S", "60"))
    if isinstance(server, DemoServer) and warm_s > 0:
        # A fresh demo server's JIT is cold: the first side measured against it fell 4-10 s behind its sends (each
        # of ours and an older build alike, whichever ran first), so one unmeasured run warms it for every side.
        saved = dict(ENV)
        ENV.update(WARMUP_S=warm_s, WINDOW_S=5)
        try:
            warm = rate_run("ours-2x1000", server, out, 0)
        finally:
            ENV.update(saved)
        print(f"server warm-up run (not measured): {warm['per_s']:,.0f} answered/s", flush=True)
    before = load_average()
    for round_no in range(1, ENV["ROUNDS"] + 1):
        for side in sides:
            runs[side].append(rate_run(side, server, out, round_no))
            print({k: v for k, v in runs[side][-1].items() if k != "kinds"}, flush=True)
    after = load_average()
    users, per_min = ENV["RATE_USERS"], ENV["RATE_PER_USER_MIN"]
    lines = [
        f"## Many users at a modest rate: {users:,} users x {per_min} messages/min, fire-and-forget",
        "",
        f"Load average (1/5/15 min) before {' '.join(before)}, after {' '.join(after)}.",
        "",
        "| side | JMeter CPU us per answered message | answered/s | context switches per message | "
        "messages per sample | JVM threads | errors | CPU ratio to incumbent | server CPU us per message |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    base = statistics.median(r["cpu_us"] for r in runs["incumbent"]) if runs.get("incumbent") else None
    for side, results in runs.items():
        cpu = statistics.median(r["cpu_us"] for r in results)
        ratio = f"{cpu / base:.2f}x" if base else ""
        lines.append(
            f"| {side} | {cpu:.1f} | "
            f"{statistics.median(r['per_s'] for r in results):,.0f} | "
            f"{statistics.median(r['cs'] for r in results):.2f} | "
            f"{statistics.median(r['messages_per_sample'] for r in results):.1f} | "
            f"{statistics.median(r['threads'] for r in results):.0f} | "
            f"{sum(r['errors'] for r in results)} | {ratio} | "
            f"{statistics.median(r['server_cpu_us'] for r in results):.1f} |"
        )
    lines += [
        "",
        "Context switches and CPU per message by thread kind (medians over rounds; threads of that kind):",
        "",
        "| side | thread kind | threads | switches per message | CPU us per message |",
        "| --- | --- | ---: | ---: | ---: |",
    ]
    for side, results in runs.items():
        for cpu, per_msg, kind, count in kind_medians(results):
            if per_msg >= 0.005 or cpu >= 0.5:
                lines.append(f"| {side} | {kind} | {count} | {per_msg:.3f} | {cpu:.1f} |")
    lines += [
        "",
        "All runs: "
        + "; ".join(f"{r['run']} {r['cpu_us']:.1f} us, {r['cs']:.2f} cs/msg" for rs in runs.values() for r in rs),
        "",
    ]
    return lines


SECTIONS = [(("many-rate",), many_rate), (("replies-idle",), replies_idle)]


if __name__ == "__main__":
    sys.exit(common.main(__doc__, SECTIONS, OPTIONS, ["many-rate"]))
