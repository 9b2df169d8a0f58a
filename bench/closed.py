#!/usr/bin/env python3
"""The closed loop: JMeter's CPU per round trip when each user waits for its reply and pauses, ours beside the
incumbent, the floors and the lean client.

  closed  CLOSED_USERS users, each one round trip then CLOSED_PAUSE_MS ms, again. Ours: echo.jmx's loop=closed on
          its default threads (users / 1000, at least 2; CLOSED_THREADS sets them); the incumbent: a thread per user
          with a Constant Timer of the same pause (bench/plans/incumbent-echo.jmx with the timer added, in the
          results directory), ramped over CLOSED_RAMP_S. The warm-up starts once every user has connected (or after
          CLOSED_CONNECT_LIMIT_S), the run is stopped through JMeter's stop port once its window has ended. JMeter
          CPU per round trip, JVM threads, switches and CPU per round trip by thread kind, the server's CPU, latency
          p50 / p99 in the window. Sides (--closed-sides): ours, incumbent, "ours:K" (the JMeter home $HOME_K with
          $PROPS_K), floor-closed (ClosedLoopFloor on Spring's STOMP client built as ours, no JMeter, no timing log),
          floor-tomcat-closed (Tomcat's WebSocket client alone, STOMP by hand), lean (bench/lean-connect -mode echo,
          needs go), "lean:P" with a pause of P ms. With BROKER=rabbitmq, against RabbitMQ.

Examples:
  flock /tmp/bench.lock python3 bench/closed.py --rounds 2 --closed-sides "ours incumbent"
  flock /tmp/bench.lock env BROKER=rabbitmq ROUNDS=2 WARMUP_S=30 WINDOW_S=20 python3 bench/closed.py

Needs target/jmeter (make jmeter). Results: results/bench-generator-<time>/summary.md.
"""

import csv
import os
import re
import statistics
import subprocess
import sys
import time

import common
from common import (
    ENV,
    INCUMBENT_HOME,
    OURS_HOME,
    ROOT,
    Broker,
    Option,
    answered_between,
    await_connected,
    await_line,
    closed_pause_ms,
    closed_threads,
    closed_users,
    jfr_dump,
    jfr_launch,
    jfr_start,
    jmeter,
    lean_connect_binary,
    load_average,
    measure_window,
    nan,
    per_round_trip,
    samples_between,
    stop_jmeter,
    whole,
    whole_or_unset,
)
from floors import CLOSED_FLOORS, closed_floor_run

OPTIONS = [
    Option("CLOSED_SIDES", "ours incumbent", "the sides, alternating in each round"),
    Option("CLOSED_USERS", 2000, "users a side", whole),
    Option("CLOSED_PAUSE_MS", 1000, "each user's pause after its round trip, ms", whole),
    Option("CLOSED_THREADS", "", "ours' threads (else echo.jmx's default: users / 1000, at least 2)", whole_or_unset),
    Option("CLOSED_RAMP_S", 10, "the incumbent's ramp-up, and the floors' time before the warm-up", whole),
    Option(
        "CLOSED_CONNECT_LIMIT_S",
        "",
        "the longest wait for every user to connect (else 3 ramps, at least 120 s)",
        whole_or_unset,
    ),
    Option("CLOSED_REPLY_TIMEOUT_MS", "", "ours and the lean client's reply timeout (else 5000 ms)", whole_or_unset),
]


def incumbent_paced_plan(out, broker=False):
    """bench/plans/incumbent-echo.jmx with a Constant Timer of pauseMillis before each echo: the same pause as ours.
    For a
    broker, incumbent-rate.jmx (its destinations and login are properties) with that timer in place of its Constant
    Throughput Timer."""
    if broker:
        plan = out / "incumbent-rate-paced.jmx"
        text = (ROOT / "bench/plans/incumbent-rate.jmx").read_text()
        timer = (
            '<ConstantTimer guiclass="ConstantTimerGui" testclass="ConstantTimer" testname="pause">'
            '<stringProp name="ConstantTimer.delay">${__P(pauseMillis,0)}</stringProp></ConstantTimer>'
        )
        text, n = re.subn(r"<ConstantThroughputTimer .*?</ConstantThroughputTimer>", timer, text, flags=re.S)
        assert n == 1, "incumbent-rate.jmx: no Constant Throughput Timer to replace"
        plan.write_text(text)
        return plan
    plan = out / "incumbent-echo-paced.jmx"
    if not plan.exists():
        text = (ROOT / "bench/plans/incumbent-echo.jmx").read_text()
        marker = 'testname="echo">'
        at = text.index("<hashTree/>", text.index(marker))
        timer = (
            '<hashTree><ConstantTimer guiclass="ConstantTimerGui" testclass="ConstantTimer" testname="pause">'
            '<stringProp name="ConstantTimer.delay">${__P(pauseMillis,0)}</stringProp></ConstantTimer>'
            "<hashTree/></hashTree>"
        )
        plan.write_text(text[:at] + timer + text[at + len("<hashTree/>") :])
    return plan


def closed_run(side, server, out, round_no):
    """One closed-loop run: CLOSED_USERS users, each one round trip then CLOSED_PAUSE_MS ms, again. Ours: echo.jmx's
    closed loop on its default threads (min(users, max(2, ceil(users / 1000)))); the incumbent: a thread per user
    with a Constant Timer of the same pause. JMeter CPU per round trip, JVM threads, switches per round trip by kind."""
    name = f"{side.replace(':', '_')}-closed-{round_no}"
    key = side.split(":", 1)[1] if ":" in side else None  # "ours:K": another build ($HOME_K), $PROPS_K
    side = side.split(":")[0]
    users = closed_users()
    ramp = int(os.environ.get("CLOSED_RAMP_S", "10"))
    connect_limit = int(os.environ.get("CLOSED_CONNECT_LIMIT_S", max(120, 3 * ramp)))
    # an upper bound: the run is stopped once its window has ended ({stop_jmeter})
    duration = connect_limit + ENV["WARMUP_S"] + ENV["WINDOW_S"] + 30
    common = {
        "host": "127.0.0.1",
        "port": server.port,
        "endpoint": server.endpoint,
        "duration": duration,
        "pauseMillis": closed_pause_ms(),
    }
    if side == "incumbent":
        process, jtl, pid = jmeter(
            INCUMBENT_HOME,
            incumbent_paced_plan(out, isinstance(server, Broker)),
            out,
            name,
            dict(common, threads=users, rampUp=ramp, **server.incumbent()),
        )
    else:
        jvm_args = ""
        if os.environ.get("JFR") == "closed" and round_no == 1 and not key:
            jvm_args = jfr_launch(out)
        props = dict(
            common,
            users=users,
            rampUp=0,
            transport="raw",
            indexPath="none",
            pullPath="none",
            heartbeatMillis=0,
            loop="closed",
            timingLog=out / f"{name}-timing.csv",
            **server.ours(),
            **closed_threads(),
        )
        if key:
            props.update(p.split("=", 1) for p in os.environ.get("PROPS_" + key, "").split())
        home = ROOT / os.environ.get("HOME_" + key, OURS_HOME) if key else OURS_HOME  # another build: A/B of a change
        process, jtl, pid = jmeter(home, ROOT / "jmx/echo.jmx", out, name, props, jvm_args)
    # from the test's start, not the launch: a loaded machine takes many seconds to start a JVM and JMeter
    await_line(out / f"{name}.log", "Starting thread group", process)
    # the warm-up starts when every user has connected, not after a guessed ramp: 15,000 users on 15 threads
    # take longer to connect than 2,000, and a window that opens on connects measures them
    connected, connect_s = await_connected(
        jtl, "CONNECTED" if side == "incumbent" else "session", users, process, connect_limit, pid, server.port
    )
    time.sleep(ENV["WARMUP_S"])
    if side != "incumbent" and os.environ.get("JFR") == "closed" and round_no == 1 and not key:
        jfr_start(pid, out)
    window = measure_window(pid, server.pid)
    if side != "incumbent" and os.environ.get("JFR") == "closed" and round_no == 1 and not key:
        jfr_dump(pid, out / (name + ".jfr"))
    stop_jmeter(out / f"{name}.console.txt")
    process.wait(300)
    start_ms, end_ms = window["start_ms"], window["end_ms"]
    if side == "incumbent":
        done, errors = samples_between(jtl, "echo", start_ms, end_ms)
    else:
        done, errors = answered_between(out / f"{name}-timing.csv", start_ms, end_ms)
    return {
        "run": name,
        "window_ms": (start_ms, end_ms),
        "errors": errors,
        "connected": connected,
        "connect_s": connect_s,
        **per_round_trip(window, done),
    }


def window_latency(side, out, result):
    """Round-trip latency p50 / p99 (ms) of what ended in the window: ours from the timing log's ANSWERED rows,
    the incumbent from its echo samples' elapsed (its own clock: the write and read on its thread)."""
    start_ms, end_ms = result["window_ms"]
    values = []
    if side == "incumbent":
        with open(out / f"{result['run']}.jtl", newline="") as f:
            values = [
                int(r["elapsed"])
                for r in csv.DictReader(f)
                if r["label"] == "echo"
                and r["success"] == "true"
                and start_ms <= int(r["timeStamp"]) + int(r["elapsed"]) < end_ms
            ]
    else:
        with open(out / f"{result['run']}-timing.csv", newline="") as f:
            values = [
                int(row[3]) / 1000
                for row in csv.reader(f)
                if row[1] == "ANSWERED" and start_ms <= int(row[0]) + int(row[3]) // 1000 < end_ms
            ]
    return p50_p99(values)


def p50_p99(values):
    """The latencies' p50 and p99 (nearest rank: the value at len * q, rounded down), {} for none."""
    if not values:
        return {}
    values = sorted(values)
    return {"p50_ms": values[len(values) // 2], "p99_ms": values[min(len(values) - 1, int(0.99 * len(values)))]}


def lean_echo_run(side, server, out, round_no):
    """The lean client's closed loop (bench/lean-connect -mode echo): CLOSED_USERS users, each its own session and
    queue, one round trip then CLOSED_PAUSE_MS ms (a side "lean:P" pauses P ms instead, "lean:0" unthrottled);
    64 connects in flight. Its own CPU (rusage) and the broker's (/proc) per round trip over WINDOW_S after all
    connected and WARMUP_S: what the broker answers a client that does nothing else, on this machine."""
    pause = int(side[5:]) if side.startswith("lean:") else closed_pause_ms()
    name = f"lean{pause}-closed-{round_no}"
    login = {k: v for k, v in server.ours().items() if k in ("login", "passcode")}
    command = [
        str(lean_connect_binary(out)),
        "-mode",
        "echo",
        "-url",
        f"ws://127.0.0.1:{server.port}{server.endpoint}",
        "-sessions",
        str(closed_users()),
        "-in-flight",
        "64",
        "-pause",
        f"{pause}ms",
        "-reply-timeout",
        f"{os.environ.get('CLOSED_REPLY_TIMEOUT_MS', '5000')}ms",
        "-warmup",
        f"{ENV['WARMUP_S']}s",
        "-window",
        f"{ENV['WINDOW_S']}s",
        "-server-pid",
        str(server.pid),
        "-login",
        login.get("login", "guest"),
        "-passcode",
        login.get("passcode", "guest"),
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=900)
    (out / f"{name}.console.txt").write_text(done.stdout + done.stderr)
    found = dict(pair.split("=") for pair in done.stdout.split())
    return {
        "run": name,
        "per_s": float(found["per_s"]),
        "cpu_us": float(found["cpu_us_per_round_trip"]),
        "cs": nan,
        "threads": nan,
        "errors": int(found["lost"]) + int(found["failed"]) + int(found["connect_failed"]),
        "server_cpu_us": float(found["server_cpu_us_per_round_trip"]),
        "p50_ms": float(found["p50_ms"]),
        "p99_ms": float(found["p99_ms"]),
        "connect_s": float(found["connect_s"]),
        "kinds": {},
    }


def closed(server, out, _=None):
    """The closed part: CLOSED_SIDES (default "ours incumbent"), alternating, ROUNDS rounds, medians."""
    sides = os.environ.get("CLOSED_SIDES", "ours incumbent").split()
    runs = {s: [] for s in sides}
    before = load_average()
    for round_no in range(1, ENV["ROUNDS"] + 1):
        for side in sides:
            if hasattr(server, "settle"):
                server.settle()
            if side.startswith("lean"):
                runs[side].append(lean_echo_run(side, server, out, round_no))
            elif side in CLOSED_FLOORS:
                try:
                    runs[side].append(closed_floor_run(side, server, out, round_no))
                except RuntimeError as e:  # a floor that did not start: say so, keep the other sides' runs
                    print(f"{side} round {round_no} failed: {e}", flush=True)
                    runs[side].append(
                        {
                            "run": f"{side}-{round_no}",
                            "per_s": nan,
                            "cpu_us": nan,
                            "cs": nan,
                            "threads": nan,
                            "errors": 1,
                            "server_cpu_us": nan,
                            "kinds": {},
                        }
                    )
            else:
                runs[side].append(closed_run(side, server, out, round_no))
                runs[side][-1].update(window_latency(side, out, runs[side][-1]))
            print({k: v for k, v in runs[side][-1].items() if k != "kinds"}, flush=True)
    after = load_average()
    lines = [
        f"## Closed loop: {closed_users():,} users, each one round trip then a {closed_pause_ms()} ms pause",
        "",
        f"Load average (1/5/15 min) before {' '.join(before)}, after {' '.join(after)}.",
        "",
        "| side | JMeter CPU us per round trip | of it in the kernel | round trips/s | switches per round trip | "
        "JVM threads | server CPU us per round trip | errors | CPU ratio to incumbent | latency p50 / p99 ms |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    base = statistics.median(r["cpu_us"] for r in runs["incumbent"]) if runs.get("incumbent") else None
    for side, results in runs.items():
        cpu = statistics.median(r["cpu_us"] for r in results)
        lines.append(
            f"| {side} | {cpu:.1f} | {100 * statistics.median(r.get('system_share', nan) for r in results):.0f}% | "
            f"{statistics.median(r['per_s'] for r in results):,.0f} | "
            f"{statistics.median(r['cs'] for r in results):.2f} | "
            f"{statistics.median(r['threads'] for r in results):.0f} | "
            f"{statistics.median(r['server_cpu_us'] for r in results):.1f} | "
            f"{sum(r['errors'] for r in results)} | {f'{cpu / base:.2f}x' if base else ''} | "
            f"{statistics.median(r.get('p50_ms', nan) for r in results):.1f} / "
            f"{statistics.median(r.get('p99_ms', nan) for r in results):.1f} |"
        )
    lines += ["", "Switches and CPU per round trip by thread kind (first round; threads of the kind):", ""]
    for side, results in runs.items():
        if side.startswith("lean"):
            continue
        kinds = sorted(results[0]["kinds"].items(), key=lambda kv: -kv[1][1])[:6]
        lines.append(f"- {side}: " + "; ".join(f"{k} ({n}) {cs:.2f} cs, {cpu:.1f} us" for k, (n, cs, cpu) in kinds))
    lines += [
        "",
        "All runs: "
        + "; ".join(
            f"{r['run']} {r['cpu_us']:.1f} us"
            + (f" ({r['connected']:,} users connected in {r['connect_s']:.0f} s)" if "connected" in r else "")
            for rs in runs.values()
            for r in rs
        ),
        "",
    ]
    return lines


SECTIONS = [(("closed",), closed)]


if __name__ == "__main__":
    sys.exit(common.main(__doc__, SECTIONS, OPTIONS, ["closed"]))
