#!/usr/bin/env python3
"""The floor of each I/O model: CPU per STOMP echo round trip with no JMeter and no Spring.

Runs io.github.sockjsstomp.bench.floors.RoundTripFloor (benchmark code in bench/java, never shipped) against the demo server's plain
WebSocket endpoint, alternating `tomcat` (Tomcat's WebSocket client on the plugin's I/O threads: the sender
writes, an I/O thread reads the reply and wakes the sender), `tomcat-own` (the same on Tomcat's own I/O group,
where a poller thread reads and hands the reply to a second thread) and `blocking` (a blocking socket read and written
on the sending thread, the incumbent plugin's model), ROUNDS times; prints the medians and their ratio.

    python3 bench/round_trip_floor.py            # THREADS=50 ROUNDS=3 WARMUP_S=10 WINDOW_S=15
    MODES="tomcat tomcat-nosyncread" python3 bench/round_trip_floor.py
"""

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # the demo server

ENV = {k: int(os.environ.get(k, d)) for k, d in [("THREADS", 50), ("ROUNDS", 3), ("WARMUP_S", 10), ("WINDOW_S", 15)]}


def classpath():
    return common.test_classpath()


def main():
    cp = classpath()
    out = common.ROOT / "results" / time.strftime("round-trip-floor-%Y%m%d-%H%M%S")
    out.mkdir(parents=True)
    server = common.DemoServer(out)
    runs = {mode: [] for mode in os.environ.get("MODES", "tomcat tomcat-own blocking").split()}
    try:
        for _ in range(ENV["ROUNDS"]):
            for mode in runs:
                # tomcat-nosyncread: without the JDK's speculative read after each completed one (it finds nothing
                # in a request-response exchange; one system call fewer per round trip).
                flags = ["-Dsun.nio.ch.disableSynchronousRead=true"] if mode.endswith("-nosyncread") else []
                result = subprocess.run(
                    ["java", "-Xms1g", "-Xmx1g", "-XX:+UseG1GC", *flags, "-cp", cp,
                     "io.github.sockjsstomp.bench.floors.RoundTripFloor", mode.removesuffix("-nosyncread"), str(server.port), str(ENV["THREADS"]), str(ENV["WARMUP_S"]), str(ENV["WINDOW_S"])],
                    cwd=common.ROOT, capture_output=True, text=True, timeout=ENV["WARMUP_S"] + ENV["WINDOW_S"] + 120)
                match = common.FLOOR_LINE.search(result.stdout)
                if not match:
                    sys.exit(f"{mode} run failed:\n{result.stdout}\n{result.stderr[-3000:]}")
                runs[mode].append((float(match.group(3)), int(match.group(4))))
                print(match.group(0), flush=True)
    finally:
        server.stop()
    lines = [f"# Round-trip floor, {time.strftime('%Y-%m-%d %H:%M')}", "",
             f"{os.cpu_count()} cores, {ENV['THREADS']} threads, unthrottled, {ENV['ROUNDS']} alternating rounds, "
             f"medians; window {ENV['WINDOW_S']} s after {ENV['WARMUP_S']} s; demo server on the same machine.", "",
             "| I/O model | CPU us per round trip | round trips/s | runs |", "| --- | ---: | ---: | --- |"]
    for mode, results in runs.items():
        lines.append(f"| {mode} | {statistics.median(r[0] for r in results):.1f} | "
                     f"{statistics.median(r[1] for r in results):,.0f} | {' / '.join(f'{r[0]:.1f}' for r in results)} |")
    if "tomcat" in runs and "blocking" in runs:
        ratio = statistics.median(r[0] for r in runs["tomcat"]) / statistics.median(r[0] for r in runs["blocking"])
        lines += ["", f"tomcat / blocking: {ratio:.2f}x"]
    (out / "summary.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines) + f"\n\nresults in {out}")


if __name__ == "__main__":
    main()
