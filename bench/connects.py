#!/usr/bin/env python3
"""Connects: connect.jmx's connect rate and JMeter's CPU per session, beside the lean client and the floors.

  connects  connect.jmx with CONNECT_IN_FLIGHT values (default "1 8 32") of connects under way per thread,
            alternating: CONNECT_USERS users on CONNECT_THREADS threads, raw, heart-beats CONNECT_HEARTBEAT_MS both
            ways (the plan's 10000; the floors' and the lean client's too), no login steps.
            Sessions/s from the results file (first start to last CONNECTED), JMeter's and the server's CPU per
            session between the two (polled every 0.25 s), its second half's (the sessions after the first half:
            the JIT's work mostly done; every side's, the floors' and the lean client's too), and by thread kind
            (ours and the floors, the whole and the second half).
            A value "K:V" runs ours with K in flight, the plan $PLAN_V, the build $HOME_V, the JVM options $JVM_V,
            the properties $PROPS_V ("name=value ...");
            "floor:K" the connect floor (ConnectFloor: Tomcat's client alone, K in flight per thread as ours,
            K x CONNECT_THREADS in all, on as many connect threads);
            "lean:K" the lean client bench/lean-connect (Go, gorilla/websocket; needs go), the same sessions, K in
            flight in all, heart-beats CONNECT_HEARTBEAT_MS both ways written by one ticker; "lean-nohb:K" the same
            asking for none (heart-beat:0,0, the lean client's CONNECT before issue 50);
            "jfloor:K" the floor inside JMeter (JavaRequestConnectFloor, bench/plans/floor-connect.jmx: one sample per
            session, K in flight per thread), "jfloor-args:K" that with connect.jmx's session arguments;
            "sfloor:K" / "sfloor-args:K" the same with Spring's STOMP client as the plugin builds it;
            "cfloor:K" / "cfloor-args:K" the same with Spring's STOMP codec straight on Tomcat's client
            (CodecSession: Spring's frames without Spring's session layer).
            With BROKER=rabbitmq against RabbitMQ's Web-STOMP (guest/guest), each run after the broker settled.

Examples:
  flock /tmp/bench.lock python3 bench/connects.py --connect-in-flight "1 8 32"
  flock /tmp/bench.lock env BROKER=rabbitmq ROUNDS=2 CONNECT_IN_FLIGHT="8 1 lean:64" CONNECT_USERS=15000 \\
      CONNECT_THREADS=15 CONNECT_DURATION=45 python3 bench/connects.py

Needs target/jmeter (make jmeter). Results: results/bench-generator-<time>/summary.md.
"""

import csv
import os
import statistics
import subprocess
import sys

import common
from common import (
    ENV,
    OURS_HOME,
    ROOT,
    Option,
    await_line,
    by_kind_per_session,
    floor_plan,
    jfr_dump,
    jfr_launch,
    jfr_start,
    jmeter,
    lean_connect_binary,
    median_of,
    poll_cpu,
    proc_cpu_seconds,
    test_classpath,
    tool_connect_row,
    whole,
)
from floors import connect_floor_run

OPTIONS = [
    Option("CONNECT_IN_FLIGHT", "1 8 32", "the values run, alternating (K, K:V, floor:K, lean:K, jfloor:K, ...)"),
    Option("CONNECT_USERS", 6000, "users (sessions) a run", whole),
    Option("CONNECT_THREADS", 6, "JMeter threads the users share", whole),
    Option("CONNECT_DURATION", 40, "seconds a JMeter run lasts (an upper bound)", whole),
    Option("CONNECT_HEARTBEAT_MS", 10000, "heart-beats of ours, the floors and lean:K, both ways (0: none)", whole),
]


def connects_run(in_flight, server, out, round_no):
    """connect.jmx with in_flight connects under way per thread: sessions/s and CPU per session while they connect."""
    users, threads = int(os.environ.get("CONNECT_USERS", "6000")), int(os.environ.get("CONNECT_THREADS", "6"))
    duration = int(os.environ.get("CONNECT_DURATION", "40"))
    name = f"connects-{str(in_flight).replace(':', '_')}-r{round_no}"
    # JFR=connects: the first run's connects recorded (from the test's start, not the JVM's, to its end)
    jfr = os.environ.get("JFR") == "connects" and round_no == 1 and str(in_flight) == first_connect_value()
    extra = {}
    floor = java_request_floor(str(in_flight))
    if floor:
        # "jfloor:K": JavaRequestConnectFloor, the connect floor inside a Java Request (bench/java, on JMeter's
        # user.classpath; the plugin's jar gives it Tomcat and Spring); "jfloor-args:K" with our session sampler's
        # arguments; "sfloor" and "cfloor" the same on another client
        kind, _, in_flight = str(in_flight).partition(":")
        key = ""
        test_classpath()
        plan = floor_plan(
            "bench/plans/floor-connect.jmx", "jmx/connect.jmx", "session", "args" if floor[1] else "", out
        )
        home = OURS_HOME
        extra = {"user.classpath": ROOT / "target/test-classes", "client": floor[0]}
        shown = f"{kind}:{in_flight}"
    else:
        # "8:K": the plan $PLAN_K, the build $HOME_K, the JVM options $JVM_K, the properties $PROPS_K (A/B of a change)
        in_flight, _, key = str(in_flight).partition(":")
        extra = dict(p.split("=", 1) for p in os.environ.get("PROPS_" + key, "").split()) if key else {}
        plan = ROOT / os.environ.get("PLAN_" + key, ROOT / "jmx/connect.jmx") if key else ROOT / "jmx/connect.jmx"
        home = ROOT / os.environ.get("HOME_" + key, OURS_HOME) if key else OURS_HOME
        shown = in_flight + (f":{key}" if key else "")
    process, jtl, pid = jmeter(
        home,
        plan,
        out,
        name,
        {
            "host": "127.0.0.1",
            "port": server.port,
            "transport": "raw",
            "endpoint": server.endpoint,
            "indexPath": "none",
            "pullPath": "none",
            "heartbeatMillis": int(os.environ.get("CONNECT_HEARTBEAT_MS", "10000")),
            "users": users,
            "threads": threads,
            "rampUp": 0,
            "duration": duration,
            "aliveMillis": 5000,
            "connectsInFlight": in_flight,
            **{k: v for k, v in server.ours().items() if k in ("login", "passcode")},
            **extra,
        },
        (jfr_launch(out) if jfr else "") + " " + os.environ.get("JVM_" + key, "") * bool(key),
    )
    if jfr:
        await_line(out / f"{name}.log", "Starting thread group", process)
        jfr_start(pid, out)
    polls = poll_cpu(pid, server.pid, duration, by_kind=True)
    if jfr:
        jfr_dump(pid, out / f"{name}.jfr")
    process.wait(300)
    with open(jtl, newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["label"] == "session"]
    ok = [r for r in rows if r["success"] == "true"]
    figures = {
        "run": name,
        "in_flight": shown,
        "users": users,
        "threads": threads,
        "connected": len(ok),
        "failed": len(rows) - len(ok),
    }
    figures.update(connect_window(ok, polls))
    return figures


# the connect floors inside JMeter: JavaRequestConnectFloor's client for each side ("jfloor:K", "jfloor-args:K", ...)
JAVA_REQUEST_FLOORS = {"jfloor": "tomcat", "sfloor": "spring", "cfloor": "codec"}


def java_request_floor(value):
    """A CONNECT_IN_FLIGHT value's Java Request floor: its client and whether it carries connect.jmx's arguments
    ("cfloor-args:8": ("codec", True)), or None for a value that is no such floor."""
    kind, colon, _ = value.partition(":")
    base = kind.removesuffix("-args")
    if not colon or base not in JAVA_REQUEST_FLOORS:
        return None
    return JAVA_REQUEST_FLOORS[base], kind != base


def first_connect_value():
    return os.environ.get("CONNECT_IN_FLIGHT", "1 8 32").split()[0]


# the lean client's sides: "lean:K" asks for the plan's heart-beats, "lean-nohb:K" for none
LEAN_SIDES = ("lean", "lean-nohb")


def lean_side(value):
    """A CONNECT_IN_FLIGHT value's lean client run: (connects in flight in all, its CONNECT's heart-beat header), or
    None for a value that is no lean side ("lean:64": (64, "10000,10000") with CONNECT_HEARTBEAT_MS 10000)."""
    kind, colon, in_flight = value.partition(":")
    if not colon or kind not in LEAN_SIDES:
        return None
    heartbeat_ms = 0 if kind == "lean-nohb" else int(os.environ.get("CONNECT_HEARTBEAT_MS", "10000"))
    return int(in_flight), f"{heartbeat_ms},{heartbeat_ms}"


def lean_connect_run(value, server, out, round_no):
    """The lean client: as many sessions as connect.jmx opens, K in flight at once, raw, the heart-beats lean_side
    gives the value (written by one ticker where the server agrees; the server's are not read)."""
    in_flight, heart_beat = lean_side(value)
    users = int(os.environ.get("CONNECT_USERS", "6000"))
    name = f"connects-{value.partition(':')[0]}{in_flight}-r{round_no}"
    login = {k: v for k, v in server.ours().items() if k in ("login", "passcode")}
    command = [
        str(lean_connect_binary(out)),
        "-url",
        f"ws://127.0.0.1:{server.port}{server.endpoint}",
        "-sessions",
        str(users),
        "-in-flight",
        str(in_flight),
        "-hold",
        "2s",
        "-login",
        login.get("login", "guest"),
        "-passcode",
        login.get("passcode", "guest"),
        "-heart-beat",
        heart_beat,
    ]
    server_cpu = proc_cpu_seconds(server.pid)
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    server_cpu = proc_cpu_seconds(server.pid) - server_cpu
    (out / f"{name}.console.txt").write_text(done.stdout + done.stderr)
    found = dict(pair.split("=") for pair in done.stdout.split())
    return tool_connect_row(name, value, users, found, server_cpu)


def connects(server, out, _=None):
    """The connects section: connectsInFlight values (and the lean client, "lean:K") alternating, ROUNDS rounds,
    medians."""
    values = os.environ.get("CONNECT_IN_FLIGHT", "1 8 32").split()
    runs = {v: [] for v in values}
    for round_no in range(1, ENV["ROUNDS"] + 1):
        for value in values:
            if hasattr(server, "settle"):
                server.settle()
            if lean_side(value):
                runs[value].append(lean_connect_run(value, server, out, round_no))
            elif value.startswith("floor:"):
                runs[value].append(connect_floor_run(int(value[6:]), server, out, round_no))
            else:
                runs[value].append(connects_run(value, server, out, round_no))
            print(runs[value][-1], flush=True)
    sample = runs[values[0]][0]
    lines = [
        f"## Connects under way: {sample['users']:,} users on {sample['threads']} threads, connect.jmx raw",
        "",
        "| connectsInFlight | sessions/s | JMeter CPU us per session | second half's | server CPU us per session | "
        "connect p50 ms | connected | failed |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]

    def median(results, key):
        return median_of(results, key)

    for value, results in runs.items():
        lines.append(
            f"| {value} | {median(results, 'per_s'):,.0f} | {median(results, 'cpu_us'):,.0f} | "
            f"{median(results, 'cpu_us_second_half'):,.0f} | "
            f"{median(results, 'server_cpu_us'):,.0f} | {median(results, 'p50_ms'):.0f} | "
            f"{min(r['connected'] for r in results):,} | {sum(r['failed'] for r in results)} |"
        )
    lines += [
        "",
        "All runs: "
        + "; ".join(
            f"{r['run']} {r.get('per_s', 0):,.0f}/s {r.get('cpu_us', 0):,.0f} us" for rs in runs.values() for r in rs
        ),
        "",
    ]
    lines += [
        f"{r['run']} CPU us per session by thread kind: {r['cpu_us_by_kind']}; second half "
        f"{r.get('cpu_us_by_kind_second_half')}; held, per session and second: "
        f"{r.get('held_cpu_us_per_session_s', float('nan')):.2f} us"
        for rs in runs.values()
        for r in rs
        if "cpu_us_by_kind" in r
    ] + [""]
    return lines


def connect_window(ok, polls):
    """What the successful `session` rows (`ok`, .jtl rows) and the CPU polls (poll_cpu with by_kind: time, JMeter
    CPU s, server CPU s, switches_by_kind) say about the connects: sessions/s from the first start to the last
    CONNECTED, connect p50, JMeter's and the server's CPU per session over the polls inside that span (a poll's
    0.25 s either side), over its second half (the sessions that ended after the median end: the JIT's fixed cost
    mostly paid), once all were connected (per session and second, from 8 polls on), and by thread kind."""
    figures = {}
    if len(ok) > 1:
        first = min(int(r["timeStamp"]) for r in ok) / 1000
        last = max(int(r["timeStamp"]) + int(r["elapsed"]) for r in ok) / 1000
        inside = [p for p in polls if first - 0.25 <= p[0] <= last + 0.25]
        figures["per_s"] = len(ok) / max(last - first, 0.001)
        figures["p50_ms"] = statistics.median(int(r["elapsed"]) for r in ok)
        if len(inside) >= 2:
            figures["cpu_us"] = (inside[-1][1] - inside[0][1]) / len(ok) * 1e6
            figures["server_cpu_us"] = (inside[-1][2] - inside[0][2]) / len(ok) * 1e6
            # the second half of the sessions, once most of the JIT's work is done (the floor says the same)
            ends = sorted(int(r["timeStamp"]) + int(r["elapsed"]) for r in ok)
            half = [p for p in inside if p[0] >= ends[len(ends) // 2] / 1000]
            if len(half) >= 2:
                figures["cpu_us_second_half"] = (half[-1][1] - half[0][1]) / (len(ends) - len(ends) // 2) * 1e6
            # once all are connected: what holding them costs (heart-beats), per session and second
            held = [p for p in polls if p[0] >= last + 1]
            if len(held) >= 8:
                figures["held_cpu_us_per_session_s"] = (
                    (held[-1][1] - held[0][1]) / (held[-1][0] - held[0][0]) / len(ok) * 1e6
                )
            # where a session's CPU goes, by thread kind (the kernel's share of each thread included)
            figures["cpu_us_by_kind"] = by_kind_per_session(inside[0][3], inside[-1][3], len(ok))
            if len(half) >= 2:
                figures["cpu_us_by_kind_second_half"] = by_kind_per_session(
                    half[0][3], half[-1][3], len(ends) - len(ends) // 2
                )
    return figures


SECTIONS = [(("connects",), connects)]


if __name__ == "__main__":
    sys.exit(common.main(__doc__, SECTIONS, OPTIONS, ["connects"]))
