#!/usr/bin/env python3
"""Echo: JMeter's CPU per echo round trip, ours beside the incumbent (and fire-and-forget: ours per message answered).

  echo   JMeter CPU (user + system, all threads) per echo round trip in a steady window, round trips/s, context
         switches per round trip, by thread kind too. THREADS users, unthrottled, await-reply, heart-beats off on
         both sides. Sides (--sides, $SIDES): ours-raw (echo.jmx over plain WebSocket, the incumbent's endpoint),
         ours-websocket (over SockJS), incumbent (bench/plans/incumbent-echo.jmx), ours-raw-tomcatio (Tomcat's own
         I/O threads, sockjsstomp.ioThreads=0), ours-raw-closed (echo.jmx's closed loop, THREADS users on
         CLOSED_THREADS threads), ours-raw-blocking (the one-user-per-thread await-reply sample), floor-tomcat
         (RoundTripFloor tomcat: Tomcat's client on our I/O threads, no JMeter, no Spring), floor-java
         (JavaRequestFloor in bench/plans/floor-java-echo.jmx: the same round trip in a JMeter Java Request),
         floor-java:args (with echo.jmx's send-sampler arguments, unread). A side "ours-raw:K" runs the JMeter home
         $HOME_K with $PROPS_K ("name=value ..."), the plan $PLAN_K and the JVM options $JVM_K.
  fire   ours in fire-and-forget with the timing log on (send.jmx): CPU per message answered in the window; errors
         are the messages sent in it that were not answered. --fire-rate paces it with the scheduled sender.

Examples:
  flock /tmp/bench.lock python3 bench/echo.py --rounds 3 --sides "ours-raw incumbent"
  flock /tmp/bench.lock env ROUNDS=3 SIDES="floor-tomcat floor-java ours-raw incumbent" python3 bench/echo.py
  flock /tmp/bench.lock python3 bench/echo.py fire --fire-rate 10000 --fire-sessions 10

Needs target/jmeter (make jmeter); the incumbent's jar comes from Maven Central into target/jmeter-incumbent.
Results: results/bench-generator-<time>/summary.md.
"""

import os
import statistics
import sys

import common
from common import (
    ENV,
    INCUMBENT_HOME,
    OURS_HOME,
    ROOT,
    Option,
    answered_between,
    floor_plan,
    jfr_launch,
    jmeter,
    kinds_per,
    samples_between,
    steady_window,
    test_classpath,
    whole,
)
from floors import tomcat_floor_run

OPTIONS = [
    Option("THREADS", 50, "users (and JMeter threads) a side", whole),
    Option("SIDES", "ours-raw incumbent ours-websocket", "the echo sides, alternating in each round"),
    Option("FIRE_RATE", 0, "fire: messages/s in all with the scheduled sender (0: unthrottled)", whole),
    Option("FIRE_SESSIONS", 1, "fire at a rate: users a thread (THREADS / FIRE_SESSIONS threads)", whole),
    Option("CLOSED_THREADS", "", "ours-raw-closed: the threads its THREADS users share (else 2)"),
]


def fire_rate():
    return int(os.environ.get("FIRE_RATE", "0"))


def echo_run(side, server, out, round_no, fire=False):
    name = f"{side.replace(':', '_')}-{'fire' if fire else 'echo'}-{round_no}"
    key = side.split(":", 1)[1] if ":" in side else None  # a variant of ours: its JVM_K, PROPS_K and PLAN_K
    side = side.split(":")[0]
    duration = ENV["WARMUP_S"] + ENV["WINDOW_S"] + 5
    common = {"host": "127.0.0.1", "port": server.port, "threads": ENV["THREADS"], "rampUp": 0, "duration": duration}
    jvm_args = os.environ.get("JVM_" + key, "") if key else ""
    jfr = None
    if side == "floor-tomcat":
        return tomcat_floor_run(server, out, name)
    if side == "floor-java":
        # JavaRequestFloor (bench/java, compiled into target/test-classes); the plugin's jar gives it Tomcat and the
        # I/O threads.
        test_classpath()
        plan = floor_plan("bench/plans/floor-java-echo.jmx", "jmx/echo.jmx", "echo", key, out)
        process, jtl, pid = jmeter(
            OURS_HOME,
            plan,
            out,
            name,
            dict(common, endpoint="/stomp-ws", **{"user.classpath": ROOT / "target/test-classes"}),
            jvm_args,
        )
    elif side == "incumbent":
        process, jtl, pid = jmeter(
            INCUMBENT_HOME, ROOT / "bench/plans/incumbent-echo.jmx", out, name, dict(common, endpoint="/stomp-ws")
        )
    else:
        transport = side.split("-")[1]
        props = dict(
            common,
            transport=transport,
            endpoint="/stomp-ws" if transport == "raw" else "/ws",
            indexPath="none" if transport == "raw" else "/index",
            pullPath="none" if transport == "raw" else "/clientPull",
            heartbeatMillis=0,
            timingLog=out / f"{name}-timing.csv",
        )
        if side.endswith("-tomcatio"):
            props["sockjsstomp.ioThreads"] = 0
        if os.environ.get("JFR") == ("fire" if fire else "1") and round_no == 1 and not key:
            jvm_args = jfr_launch(out)
            jfr = out / (name + ".jfr")
        plan = "send.jmx" if fire else "echo.jmx"
        if fire and fire_rate():
            # At a rate the server holds, on FIRE_SESSIONS users per thread: what an answered message costs us
            # when nothing is lost to the server's overload.
            per_thread = int(os.environ.get("FIRE_SESSIONS", "1"))
            threads = max(1, ENV["THREADS"] // per_thread)
            props.update(messagesPerSecond=fire_rate(), pacing="schedule", threads=threads, users=threads * per_thread)
        elif fire:
            props.update(messagesPerSecond=0)
        else:
            props.update(pauseMillis=0)
            if "-closed" in side:
                # echo.jmx's closed loop, THREADS users on CLOSED_THREADS (2) threads: "ours-raw-closed"
                props.update(users=ENV["THREADS"], threads=os.environ.get("CLOSED_THREADS", "2"), loop="closed")
            elif "-blocking" in side:
                props.update(loop="blocking")  # the one-user-per-thread await-reply sample the closed loop replaced
        plan_path = ROOT / "jmx" / plan
        if key:
            props.update(p.split("=", 1) for p in os.environ.get("PROPS_" + key, "").split())
            plan_path = ROOT / os.environ.get("PLAN_" + key, plan_path)
        home = ROOT / os.environ.get("HOME_" + key, OURS_HOME) if key else OURS_HOME  # another build: A/B of a change
        process, jtl, pid = jmeter(home, plan_path, out, name, props, jvm_args)
    cpu, switches, start_ms, end_ms = steady_window(process, pid, jfr)
    if fire:
        # Unthrottled, the senders can outrun the server: the messages it never answered are the errors, and
        # CPU per answered message then measures the server's capacity, not ours (see the errors column).
        done, errors = answered_between(out / f"{name}-timing.csv", start_ms, end_ms)
    else:
        # ours writes a reply row per round trip (the plans' default since issue 39) and keeps its echo rows out
        done, errors = samples_between(jtl, ("echo", "reply /app/echo"), start_ms, end_ms)
    seconds = (end_ms - start_ms) / 1000
    return {
        "run": name,
        "per_s": done / seconds,
        "cpu_us": 1e6 * cpu / max(done, 1),
        "vcs": switches[0] / max(done, 1),
        "ivcs": switches[1] / max(done, 1),
        "errors": errors,
        "system_share": steady_window.system / max(cpu, 1e-9),
        "kinds": kinds_per(steady_window.kinds, done),
    }


def echo_and_fire(server, out, parts):
    """The echo section: the sides alternating in each of ROUNDS rounds (echo, fire or both), medians."""
    sides = os.environ.get("SIDES", "ours-raw incumbent ours-websocket").split()
    fire_side = "ours-raw-fire" + (
        f" at {fire_rate():,}/s, {os.environ.get('FIRE_SESSIONS', '1')} users a thread" if fire_rate() else ""
    )
    runs = {s: [] for s in [*sides, fire_side]}
    for round_no in range(1, ENV["ROUNDS"] + 1):
        if "echo" in parts:
            for side in sides:
                runs[side].append(echo_run(side, server, out, round_no))
                print(runs[side][-1], flush=True)
        if "fire" in parts:
            runs[fire_side].append(echo_run("ours-raw", server, out, round_no, fire=True))
            print(runs[fire_side][-1], flush=True)
    lines = [
        f"## Echo, {ENV['THREADS']} threads, unthrottled",
        "",
        (
            "| side | CPU us per round trip | of it in the kernel | round trips/s | voluntary / involuntary "
            "switches per round trip | errors | CPU ratio to incumbent | to the Tomcat floor |"
        ),
        "| --- | ---: | ---: | ---: | --- | ---: | ---: | ---: |",
    ]

    def median_cpu(side):
        return statistics.median(r["cpu_us"] for r in runs[side]) if runs.get(side) else None

    base, floor = median_cpu("incumbent"), median_cpu("floor-tomcat")
    for side, results in runs.items():
        if not results:
            continue
        cpu = median_cpu(side)
        ratio = f"{cpu / base:.2f}x" if base else ""
        to_floor = f"{cpu / floor:.2f}x" if floor else ""
        system = [r["system_share"] for r in results if "system_share" in r]
        lines.append(
            f"| {side} | {cpu:.1f} | "
            f"{f'{100 * statistics.median(system):.0f}%' if system else ''} | "
            f"{statistics.median(r['per_s'] for r in results):,.0f} | "
            f"{statistics.median(r['vcs'] for r in results):.2f} / "
            f"{statistics.median(r['ivcs'] for r in results):.2f} | "
            f"{sum(r['errors'] for r in results)} | {ratio} | {to_floor} |"
        )
    lines += ["", "Switches and CPU per round trip by thread kind (first round; threads of the kind):", ""]
    for side, results in runs.items():
        if results and results[0].get("kinds"):
            kinds = sorted(results[0]["kinds"].items(), key=lambda kv: -kv[1][2])[:6]
            lines.append(f"- {side}: " + "; ".join(f"{k} ({n}) {cs:.2f} cs, {c:.1f} us" for k, (n, cs, c) in kinds))
    lines += ["", "All runs: " + "; ".join(f"{r['run']} {r['cpu_us']:.1f} us" for rs in runs.values() for r in rs), ""]
    return lines


SECTIONS = [(("echo", "fire"), echo_and_fire)]


if __name__ == "__main__":
    sys.exit(common.main(__doc__, SECTIONS, OPTIONS, ["echo"]))
