"""The floor sides: what the design cannot go below, each in a JVM of its own with JMeter's heap and collector
flags, no JMeter and no plugin (the Java programs in bench/java, io.github.sockjsstomp.bench.floors). Each runs as a
side of the part whose figure it bounds, never alone: `floor-tomcat` in echo.py, `floor-2x1000` and
`codecfloor-2x1000` in many_rate.py, `floor:K` in connects.py, `floor-closed` and `floor-tomcat-closed` in closed.py.
The floors inside JMeter (a Java Request: `floor-java`, `floor-held`, `cfloor-held`, `jfloor:K`, `sfloor:K`,
`cfloor:K`) are JMeter runs, in their parts. round_trip_floor.py compares the I/O models' floors alone. Where a floor
is like-for-like with the side it bounds (Tomcat's buffers, connects in flight, heart-beats) and where not:
bench/README.md, "The floors beside the plugin".
"""

import os
import re
import subprocess
import sys
import time

from common import (
    ENV,
    FLOOR_LINE,
    HEAP,
    ROOT,
    await_line,
    by_kind_per_session,
    closed_pause_ms,
    closed_threads,
    closed_users,
    floor_answered_between,
    kinds_per,
    measure_window,
    per_round_trip,
    proc_cpu_seconds,
    setenv_gc_algo,
    steady_window,
    switches_by_kind,
    test_classpath,
    tool_connect_row,
)


def tomcat_floor_run(server, out, name):
    """RoundTripFloor tomcat (Tomcat's client on our I/O threads, no JMeter, no Spring) as an echo side: its own
    figures for the window, the context switches from /proc over the same window."""
    command = [
        "java",
        *HEAP.split(),
        *setenv_gc_algo().split(),
        "-cp",
        test_classpath(),
        "io.github.sockjsstomp.bench.floors.RoundTripFloor",
        "tomcat",
        str(server.port),
        str(ENV["THREADS"]),
        str(ENV["WARMUP_S"]),
        str(ENV["WINDOW_S"]),
    ]
    console = out / f"{name}.console.txt"
    with open(console, "w") as sink:
        process = subprocess.Popen(command, stdout=sink, stderr=subprocess.STDOUT, cwd=ROOT, start_new_session=True)
        cpu, switches, _, _ = steady_window(process, process.pid)
    match = FLOOR_LINE.search(console.read_text())
    if not match:
        sys.exit(f"{name} failed: {console.read_text()[-3000:]}")
    trips = int(match.group(2))
    return {
        "run": name,
        "per_s": float(match.group(4)),
        "cpu_us": float(match.group(3)),
        "vcs": switches[0] / max(trips, 1),
        "ivcs": switches[1] / max(trips, 1),
        "errors": 0,
        "system_share": steady_window.system / max(cpu, 1e-9),
        "kinds": kinds_per(steady_window.kinds, trips),
    }


# many_rate.py's floor sides: RateFloor's mode for each ("floor-TxU", "codecfloor-TxU", either with ":K")
RATE_FLOORS = {"floor": "spring", "codecfloor": "codec"}


def rate_floor(side):
    """A many-rate side's RateFloor mode and sender threads ("codecfloor-2x1000:K": ("codec", 2)), or None for a side
    that is no floor."""
    kind, _, shape = side.split(":")[0].partition("-")
    if kind not in RATE_FLOORS or "x" not in shape:
        return None
    return RATE_FLOORS[kind], int(shape.split("x")[0])


def floor_process(side, server, out, name, duration, jvm_args=""):
    """A floor side: RateFloor in a JVM of its own with JMeter's heap settings and a variant's $JVM_K (jvm_args), no
    JMeter, no timing; "floor-TxU" on Spring's STOMP client as we build it, "codecfloor-TxU" on Spring's STOMP codec
    straight on Tomcat's client (CodecSession: no Spring session layer). Its stdout says how many replies had come
    each second."""
    mode, threads = rate_floor(side)
    users, per_min = ENV["RATE_USERS"], ENV["RATE_PER_USER_MIN"]
    ours = server.ours()
    command = [
        "java",
        *HEAP.split(),
        *setenv_gc_algo().split(),
        *jvm_args.split(),
        "-cp",
        test_classpath(),
        "io.github.sockjsstomp.bench.floors.RateFloor",
        f"ws://127.0.0.1:{server.port}{server.endpoint}",
        ours.get("login", "user-{n}"),
        ours.get("passcode", ""),
        ours.get("destination", "/app/echo").replace("{{userNumber}}", "{n}"),
        ours.get("subscribeTo", "/user/queue/echo").replace("{{userNumber}}", "{n}"),
        str(users),
        str(threads),
        str(per_min),
        os.environ.get("RATE_TICK_MILLIS", "10"),
        str(duration),
        mode,
    ]
    console = open(out / f"{name}.console.txt", "w")  # noqa: SIM115 (the floor's, open as long as it runs)
    return subprocess.Popen(command, stdout=console, stderr=subprocess.STDOUT, cwd=ROOT, start_new_session=True)


def connect_floor_args(url, login, passcode, users, per_thread, threads, heartbeat_ms):
    """ConnectFloor's arguments: `per_thread` connects under way per thread of the plugin's side (connect.jmx's
    connectsInFlight and jfloor:K count so), `threads` x `per_thread` in all, on as many connect threads; the sessions
    held 2 s; the plan's heart-beats."""
    return [url, login, passcode, str(users), str(per_thread * threads), "2", str(heartbeat_ms)]


def connect_floor_run(per_thread, server, out, round_no):
    """The connect floor (ConnectFloor, benchmark code in bench/java) in a JVM of its own with JMeter's heap and
    collector flags: Tomcat's WebSocket client alone on our I/O lanes, upgrade plus a STOMP CONNECT written by hand,
    per_thread connects under way for each of CONNECT_THREADS threads (as connect.jmx's connectsInFlight), as many
    sessions as connect.jmx opens, raw, the plan's heart-beats, no JMeter: the design's price per session, which the
    plugin's connect path is measured against."""
    users = int(os.environ.get("CONNECT_USERS", "6000"))
    threads = int(os.environ.get("CONNECT_THREADS", "6"))
    name = f"connects-floor{per_thread}-r{round_no}"
    login = {k: v for k, v in server.ours().items() if k in ("login", "passcode")}
    command = [
        "java",
        *HEAP.split(),
        *setenv_gc_algo().split(),
        "-cp",
        test_classpath(),
        "io.github.sockjsstomp.bench.floors.ConnectFloor",
        *connect_floor_args(
            f"ws://127.0.0.1:{server.port}{server.endpoint}",
            login.get("login", "guest"),
            login.get("passcode", "guest"),
            users,
            per_thread,
            threads,
            # the plan's heart-beats, written from one scheduler: what the held sessions cost during the connects
            os.environ.get("CONNECT_HEARTBEAT_MS", "10000"),
        ),
    ]
    server_cpu = proc_cpu_seconds(server.pid)
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT)
    # its threads' CPU by kind from its start, from its "halfway" line (half the sessions connected) and to its
    # figures' line (printed once the last session connected)
    started, halfway = switches_by_kind(process.pid), None
    head = process.stdout.readline()
    if head.strip() == "halfway":
        halfway = switches_by_kind(process.pid) if process.poll() is None else None
        figures_line = process.stdout.readline()
    else:
        head, figures_line = "", head
    connects_done = switches_by_kind(process.pid) if process.poll() is None else None
    rest, _ = process.communicate(timeout=900)
    server_cpu = proc_cpu_seconds(server.pid) - server_cpu
    (out / f"{name}.console.txt").write_text(head + figures_line + rest)
    found = dict(pair.split("=") for pair in figures_line.split() if "=" in pair)
    row = tool_connect_row(name, f"floor:{per_thread}", users, found, server_cpu)
    row["threads"] = threads
    if connects_done:
        row.update(connect_floor_by_kind(started, halfway, connects_done, row["connected"], users))
    return row


def connect_floor_by_kind(started, halfway, done, connected, users):
    """ConnectFloor's CPU per session by thread kind (switches_by_kind readings at its start, at its "halfway" line
    or None, and once all had connected): over the whole run per session connected, and over the second half per
    session of that half (users less the first half's users // 2, as the floor counts its own second half)."""
    figures = {"cpu_us_by_kind": by_kind_per_session(started, done, connected)}
    if halfway:
        figures["cpu_us_by_kind_second_half"] = by_kind_per_session(halfway, done, users - users // 2)
    return figures


CLOSED_FLOORS = {"floor-closed": "spring", "floor-tomcat-closed": "tomcat"}


def closed_floor_run(side, server, out, round_no):
    """A closed-loop floor (ClosedLoopFloor, benchmark code in bench/java) in a JVM of its own with JMeter's heap
    and collector flags: the same users, pause, queues and driver threads as ours (CLOSED_THREADS, else 2), a driver
    tick of 10 ms as echo.jmx's tickMillis; "floor-closed" on Spring's STOMP client built as ours, "floor-tomcat-closed"
    on Tomcat's WebSocket client alone with STOMP written by hand. No JMeter, no timing log: replies counted in the
    window from its per-second totals. Its warm-up runs from when every user is connected."""
    name = f"{side}-{round_no}"
    ramp = int(os.environ.get("CLOSED_RAMP_S", "10"))
    duration = ramp + ENV["WARMUP_S"] + ENV["WINDOW_S"] + 5
    ours = server.ours()
    threads = closed_threads().get("threads", 2)
    command = [
        "java",
        *HEAP.split(),
        *setenv_gc_algo().split(),
        "-cp",
        test_classpath(),
        "io.github.sockjsstomp.bench.floors.ClosedLoopFloor",
        CLOSED_FLOORS[side],
        f"ws://127.0.0.1:{server.port}{server.endpoint}",
        ours.get("login", "user-{n}"),
        ours.get("passcode", ""),
        ours.get("destination", "/app/echo").replace("{{userNumber}}", "{n}"),
        ours.get("subscribeTo", "/user/queue/echo").replace("{{userNumber}}", "{n}"),
        str(closed_users()),
        str(threads),
        str(closed_pause_ms()),
        "10",
        str(duration),
    ]
    console = out / f"{name}.console.txt"
    with open(console, "w") as sink:
        process = subprocess.Popen(command, stdout=sink, stderr=subprocess.STDOUT, cwd=ROOT, start_new_session=True)
        await_line(console, "connected ", process)
        pid = process.pid
        time.sleep(ramp + ENV["WARMUP_S"])
        window = measure_window(pid, server.pid)
        process.wait(300)
    start_ms, end_ms = window["start_ms"], window["end_ms"]
    done, _ = floor_answered_between(console, start_ms, end_ms)
    text = console.read_text()
    final = re.search(r"^sent (\d+) answered (\d+)$", text, re.M)
    # a closed loop ends with at most one message in flight per user; more unanswered, or any failure, is an error
    errors = len(re.findall(r"^(send failed|unexpected frame)", text, re.M))
    if not final:
        errors += 1
    elif int(final.group(1)) - int(final.group(2)) > closed_users():
        errors += int(final.group(1)) - int(final.group(2)) - closed_users()
    return {"run": name, "errors": errors, **per_round_trip(window, done)}
