#!/usr/bin/env python3
"""Held sessions: live heap, RSS and JVM threads per held session, ours beside the incumbent and the floor.

  held   N_SMALL and N_BIG sessions, one per JMeter thread (connect.jmx; the incumbent's
         bench/plans/incumbent-connect.jmx): the live objects' bytes (jcmd GC.class_histogram, a full GC first; each
         run's histogram kept as <run>.histogram.txt, to diff two sizes by class), RSS and threads, the difference
         divided by the sessions added. Ours and the floors with 10 s heart-beats both ways (connect.jmx's
         default); the incumbent cannot send them between samples.
         Sides (--held-sides): ours, incumbent, floor-held (HeldSessionFloor in bench/plans/floor-held.jmx: one
         Spring STOMP session per thread built as ours, in a Java Request), cfloor-held (the same plan with a
         session of the bench's own on Spring's STOMP codec, CodecSession, on Tomcat's client sized as ours),
         floor-held:args and cfloor-held:args (with connect.jmx's session-sampler arguments, unread); "ours:K"
         runs the JMeter home $HOME_K with the plan $PLAN_K, "floor-held:K" and "cfloor-held:K" the plan $PLAN_K.
  many   ours with sessionsPerThread: THREADS_MANY x SESSIONS_PER_THREAD sessions against THREADS_MANY x 1: heap and
         RSS per session, JVM threads in all, connect rate (first connect start to last connect end).

Examples:
  flock /tmp/bench.lock python3 bench/held.py --held-sides "ours incumbent floor-held floor-held:args"
  flock /tmp/bench.lock python3 bench/held.py --held-sides "floor-held cfloor-held cfloor-held:args"
  flock /tmp/bench.lock env BROKER=rabbitmq python3 bench/held.py many

Needs target/jmeter (make jmeter). Results: results/bench-generator-<time>/summary.md.
"""

import csv
import os
import sys

import common
from common import (
    ENV,
    INCUMBENT_HOME,
    OURS_HOME,
    ROOT,
    Option,
    class_histogram,
    cpu_between,
    floor_plan,
    histogram_total_kb,
    jmeter,
    poll_cpu,
    proc_status,
    test_classpath,
    whole,
)

OPTIONS = [
    Option("N_SMALL", 10, "held: the small run's sessions", whole),
    Option("N_BIG", 1000, "held: the big run's sessions", whole),
    Option("HELD_SIDES", "ours incumbent", "held: the sides, one after the other"),
    Option("THREADS_MANY", 15, "many: JMeter threads", whole),
    Option("SESSIONS_PER_THREAD", 1000, "many: sessions a thread in the big run", whole),
    Option("MANY_SIDES", "ours", 'many: the sides ("ours:K": the build in $HOME_K)'),
]


# the held floors (a Java Request in bench/plans/floor-held.jmx): HeldSessionFloor's client for each side
HELD_FLOORS = {"floor-held": "spring", "cfloor-held": "codec"}

# every held side's heart-beats, both ways (connect.jmx's default): the incumbent alone sends none
HELD_HEARTBEAT_MS = 10000


def held_floor(side):
    """A held side's floor client ("cfloor-held:args": "codec"), or None for a side that is no held floor."""
    return HELD_FLOORS.get(side.split(":")[0])


def per_session_added(small, big):
    """Heap KB, RSS KB and JVM threads per session added from the small run to the big one."""
    n = big["sessions"] - small["sessions"]
    return {key: (big[key] - small[key]) / n for key in ("heap_kb", "rss_kb", "threads")}


def held_run(side, server, out, threads, sessions_per_thread=1):
    name = f"{side.replace(':', '_')}-held-{threads}x{sessions_per_thread}"
    key = side.split(":", 1)[1] if ":" in side else None  # a variant: its PLAN_K
    side = side.split(":")[0]
    duration = 60 if threads * sessions_per_thread > 1000 else 40
    common = {
        "host": "127.0.0.1",
        "port": server.port,
        "threads": threads,
        "rampUp": 0,
        "duration": duration,
        "aliveMillis": 5000,
    }
    if side == "incumbent":
        process, jtl, pid = jmeter(
            INCUMBENT_HOME, ROOT / "bench/plans/incumbent-connect.jmx", out, name, dict(common, endpoint="/stomp-ws")
        )
    elif held_floor(side):
        # HeldSessionFloor (bench/java, compiled into target/test-classes): Spring's STOMP session as ours builds it
        # (floor-held) or a CodecSession (cfloor-held), no plugin.
        test_classpath()
        floor = {
            k.replace("{{userNumber}}", "{n}"): v.replace("{{userNumber}}", "{n}")
            for k, v in server.ours().items()
            if k in ("login", "passcode", "subscribeTo")
        }
        plan = floor_plan("bench/plans/floor-held.jmx", "jmx/connect.jmx", "session", key, out)
        process, jtl, pid = jmeter(
            OURS_HOME,
            plan,
            out,
            name,
            dict(
                common,
                endpoint=server.endpoint,
                client=held_floor(side),
                heartbeatMillis=HELD_HEARTBEAT_MS,
                **floor,
                **{"user.classpath": ROOT / "target/test-classes"},
            ),
        )
    else:
        home = ROOT / os.environ.get("HOME_" + key, OURS_HOME) if key else OURS_HOME  # "ours:K": another build
        plan = ROOT / os.environ.get("PLAN_" + key, ROOT / "jmx/connect.jmx") if key else ROOT / "jmx/connect.jmx"
        process, jtl, pid = jmeter(
            home,
            plan,
            out,
            name,
            dict(
                common,
                transport="raw",
                endpoint=server.endpoint,
                indexPath="none",
                pullPath="none",
                heartbeatMillis=HELD_HEARTBEAT_MS,
                users=threads * sessions_per_thread,
                **{k: v for k, v in server.ours().items() if k in ("login", "passcode")},
            ),
        )
    polls = poll_cpu(pid, server.pid, duration - 12)
    # The live objects (the histogram's full GC counts only those), not G1's "used" just after GC.run, which also
    # counts what the threads allocated since: 18 KB a session above the live objects for ours, whose threads wake
    # every aliveMillis, 0.4 KB for the incumbent's, blocked in reads.
    histogram = class_histogram(pid, out / f"{name}.histogram.txt")  # diff two sizes: where a held session's heap goes
    used_kb = histogram_total_kb(histogram)
    figures = {
        "run": name,
        "sessions": threads * sessions_per_thread,
        "heap_kb": used_kb,
        "rss_kb": proc_status(pid, "VmRSS"),
        "threads": proc_status(pid, "Threads"),
    }
    process.wait(300)
    label = "session" if side != "incumbent" else "CONNECTED"
    with open(jtl, newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["label"] == label]
    ok = [r for r in rows if r["success"] == "true"]
    figures["connected"] = len(ok)
    if ok:
        first = min(int(r["timeStamp"]) for r in ok)
        last = max(int(r["timeStamp"]) + int(r["elapsed"]) for r in ok)
        figures["connects_per_s"] = len(ok) / max((last - first) / 1000, 0.001)
        figures["connect_cpu"] = cpu_between(polls, first / 1000, last / 1000)
    return figures


def held(server, out, _):
    """The held section: each side's small and big run, per session added."""
    lines = [
        "## Held sessions, one per thread",
        "",
        "| side | heap KB per session | RSS KB per session | JVM threads per session |",
        "| --- | ---: | ---: | ---: |",
    ]
    for side in os.environ.get("HELD_SIDES", "ours incumbent").split():
        small = held_run(side, server, out, ENV["N_SMALL"])
        big = held_run(side, server, out, ENV["N_BIG"])
        print(small, big, flush=True)
        added = per_session_added(small, big)
        lines.append(f"| {side} | {added['heap_kb']:.1f} | {added['rss_kb']:.1f} | {added['threads']:.3f} |")
    lines.append("")
    return lines


def many(server, out, _):
    """The many section: THREADS_MANY threads with one session each, then with SESSIONS_PER_THREAD each."""
    lines = []
    for side in os.environ.get("MANY_SIDES", "ours").split():  # "ours:K": the build in $HOME_K
        small = held_run(side, server, out, ENV["THREADS_MANY"], 1)
        big = held_run(side, server, out, ENV["THREADS_MANY"], ENV["SESSIONS_PER_THREAD"])
        print(small, big, flush=True)
        added = per_session_added(small, big)
        lines += [
            f"## Many sessions per thread: {ENV['THREADS_MANY']} threads x {ENV['SESSIONS_PER_THREAD']}"
            + (f", {side}" if side != "ours" else ""),
            "",
            f"- sessions connected: {big['connected']:,} of {big['sessions']:,}",
            f"- JVM threads in all: {big['threads']}",
            f"- live heap per session: {added['heap_kb']:.1f} KB",
            f"- RSS per session: {added['rss_kb']:.1f} KB",
            f"- connect rate: {big.get('connects_per_s', 0):,.0f} sessions/s; cores busy meanwhile "
            f"(JMeter, server): {big.get('connect_cpu')} of {os.cpu_count()}",
            "",
        ]
    return lines


SECTIONS = [(("held",), held), (("many",), many)]


if __name__ == "__main__":
    sys.exit(common.main(__doc__, SECTIONS, OPTIONS, ["held"]))
