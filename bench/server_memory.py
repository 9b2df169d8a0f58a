#!/usr/bin/env python3
"""What a held session costs the server, with and without the WebSocket compression extension, and what it costs us.

Browsers offer permessage-deflate (Chrome: "permessage-deflate; client_max_window_bits"); Tomcat, under every Spring
Boot app, agrees and then holds a zlib deflater and inflater per session. This measures it on the getting-started app
(GreetingApp, Spring's STOMP guide as published, test code) started as a JVM of its own (GreetingAppMain, from the
test class path, 127.0.0.1, a free port), or on the demo server (--server demo). A fresh server for every side of
every round: one side's garbage never lands on the next.

Sides, alternating in every round, medians of the rounds:
  lean           bench/lean-connect (Go, gorilla/websocket) holds N sessions, no offer; its CONNECT asks for
                 heart-beats 10000,10000 as connect.jmx's does (the getting-started app answers 0,0: none flow)
  lean-compress  the same with -compress: gorilla's offer, "permessage-deflate; server_no_context_takeover;
                 client_no_context_takeover" (not Chrome's), CONNECT written compressed and CONNECTED read compressed,
                 so the server's deflater and inflater have both worked
  ours           JMeter with the plugin (target/jmeter, `make jmeter`) running jmx/connect.jmx: N users on --threads
                 threads, compression as the plan says by default
  ours-off       the same with -Jcompression=off

Each run: the server warmed with a few lean sessions (opened and closed: its classes loaded, its JIT started), its
live heap read (jcmd GC.class_histogram, a full GC) and then its RSS (/proc/PID/status VmRSS) before any session;
the side connects its N sessions, waits --settle seconds, and the server's RSS is read while all are held, then its
live heap and the sessions whose permessage-deflate was agreed (live org.apache.tomcat.websocket.PerMessageDeflate
objects: one per such session; the lean client also counts the 101 answers that agreed). The sessions held are the
client's established connections to the server (ss), checked against the client's own count (the lean client's
connected=, the plugin's "stomp sessions: N held at peak"). Server RSS per session = (held - before) / sessions held.
For ours, the generator too: the JMeter JVM's RSS and live heap while the N are held, less the same of a run with
--base-users users on the same threads (against the same server, after), per session added (as
held.py's held and many parts do; its code is imported, not copied).

Every wait is bounded; loopback only; every process it starts is ended, on Ctrl-C and failure too.
Results: results/bench-server-memory-<time>/summary.md (and runs.json, each run's logs and histograms).
Run it under `flock /tmp/bench.lock` on a shared machine.
"""

import argparse
import json
import os
import queue
import re
import resource
import signal
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402  (the bench's shared helpers: JMeter runs, /proc, jcmd)

ROOT = common.ROOT
SIDES = ("lean", "lean-compress", "ours", "ours-off")
OFFERS = {
    "lean": "none",
    "lean-compress": "permessage-deflate; server_no_context_takeover; client_no_context_takeover (gorilla's; "
                     "Chrome offers permessage-deflate; client_max_window_bits, context kept)",
    "ours": "connect.jmx's default (compression=browser once the plugin offers it)",
    "ours-off": "-Jcompression=off",
}
SERVERS = {
    # main class or script, endpoint, default JVM options
    "greeting": ("io.github.sockjsstomp.apps.GreetingAppMain", "/gs-guide-websocket", "-Xms1g -Xmx1g -XX:+UseG1GC"),
    "demo": ("scripts/demo-server.sh", "/stomp-ws", "-Xms6g -Xmx6g -XX:+UseG1GC -Ddemo.wsBufferSize=8192"),
}
DEFLATE_CLASS = "org.apache.tomcat.websocket.PerMessageDeflate"
HELD_AT_PEAK = re.compile(r"stomp sessions: (\d+) held at peak")


# ---- pure parts: raw readings into figures (bench/tests/test_server_memory.py) ----

def per_session_kb(before_kb, held_kb, sessions):
    """KB per session between two readings of the same process; None without sessions."""
    if before_kb is None or held_kb is None or not sessions or sessions <= 0:
        return None
    return (held_kb - before_kb) / sessions


def instances(histogram, class_name):
    """Live instances of `class_name` in a jcmd GC.class_histogram text (0 when absent)."""
    for line in histogram.splitlines():
        fields = line.split()
        # " 537:            10            560  org.apache.tomcat.websocket.PerMessageDeflate"
        if len(fields) >= 4 and fields[0].endswith(":") and fields[3] == class_name:
            return int(fields[1])
    return 0


def parse_pairs(line):
    """The lean client's figures line, key=value pairs, into a dict of strings."""
    return dict(pair.split("=", 1) for pair in line.split() if "=" in pair)


def held_at_peak(console):
    """The plugin's "stomp sessions: N held at peak" from a JMeter console; None when absent."""
    found = HELD_AT_PEAK.search(console)
    return int(found.group(1)) if found else None


def compression_lines(console):
    """Lines of a JMeter console that speak of compression (the plugin's own counts, once it prints them)."""
    return [line.strip() for line in console.splitlines() if re.search(r"compress|deflate", line, re.I)]


def run_figures(run):
    """One run's per-session figures from its raw readings: the server's RSS and live heap per held session, and
    for ours the generator's RSS and live heap per session between the baseline run and the big one."""
    sessions = run["sessions"]
    before, held = run["server_before"], run["server_held"]
    figures = {"server_rss_kb": per_session_kb(before["VmRSS"], held["VmRSS"], sessions),
               "server_heap_kb": per_session_kb(before["heap_kb"], held["heap_kb"], sessions)}
    small, big = run.get("generator_base"), run.get("generator_held")
    if small and big:
        added = big["sessions"] - small["sessions"]
        figures["jmeter_rss_kb"] = per_session_kb(small["VmRSS"], big["VmRSS"], added)
        figures["jmeter_heap_kb"] = per_session_kb(small["heap_kb"], big["heap_kb"], added)
    return figures


def median_of(values):
    """The median of the values that are there (None when none is)."""
    present = [v for v in values if v is not None]
    return statistics.median(present) if present else None


def medians(runs):
    """Each figure's median over a side's runs."""
    keys = ("server_rss_kb", "server_heap_kb", "jmeter_rss_kb", "jmeter_heap_kb")
    return {k: median_of(run_figures(r).get(k) for r in runs) for k in keys}


def ratio(a, b):
    return a / b if a is not None and b else None


def fmt(value, digits=1):
    return "" if value is None else f"{value:,.{digits}f}"


def summary_table(runs_by_side):
    """The markdown table: each side's runs, then its medians; and the ratios."""
    lines = ["| side | round | sessions held (sockets / client's count) | compression agreed (server / client) | "
             "server RSS before MB | held MB | **server RSS KB per session** | server live heap KB per session | "
             "JMeter RSS KB per session | JMeter live heap KB per session |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for side, runs in runs_by_side.items():
        for r in runs:
            f = run_figures(r)
            client_compressed = r.get("client_compressed")
            lines.append(
                f"| {side} | {r['round']} | {r['sessions']:,} / {fmt(r.get('client_sessions'), 0) or '?'} | "
                f"{r['server_held']['deflate_sessions']:,} / "
                f"{'?' if client_compressed is None else f'{client_compressed:,}'} | "
                f"{r['server_before']['VmRSS'] / 1024:,.0f} | {r['server_held']['VmRSS'] / 1024:,.0f} | "
                f"{fmt(f['server_rss_kb'])} | {fmt(f['server_heap_kb'])} | {fmt(f.get('jmeter_rss_kb'))} | "
                f"{fmt(f.get('jmeter_heap_kb'))} |")
        if runs:
            m = medians(runs)
            lines.append(f"| **{side}** | median | | | | | **{fmt(m['server_rss_kb'])}** | {fmt(m['server_heap_kb'])} | "
                         f"{fmt(m['jmeter_rss_kb'])} | {fmt(m['jmeter_heap_kb'])} |")
    med = {side: medians(runs) for side, runs in runs_by_side.items() if runs}

    def rss(side):
        return med.get(side, {}).get("server_rss_kb")
    lines.append("")
    for a, b in (("ours", "lean-compress"), ("ours-off", "lean"), ("lean-compress", "lean"), ("ours", "ours-off")):
        r = ratio(rss(a), rss(b))
        if r is not None:
            lines.append(f"- server RSS per session, {a} / {b}: **{r:.2f}x** ({fmt(rss(a))} / {fmt(rss(b))} KB; "
                         f"difference {fmt(rss(a) - rss(b))} KB)")
    return lines


# ---- processes: every one started here is in a session of its own, ended by its group id ----

class Processes:
    def __init__(self):
        self.started = []

    def add(self, process):
        self.started.append(process)
        return process

    @staticmethod
    def stop(process, grace_s=15):
        """SIGTERM to the process's group, SIGKILL to what is left after grace_s."""
        try:
            os.killpg(process.pid, signal.SIGTERM)
        except ProcessLookupError:
            return
        deadline = time.time() + grace_s
        while time.time() < deadline:
            process.poll()
            try:
                os.killpg(process.pid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.2)
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            pass

    def stop_all(self):
        for process in reversed(self.started):
            self.stop(process, grace_s=5)


def interrupted(signum, frame):
    raise KeyboardInterrupt(f"signal {signum}")


def memory_kb(pid):
    return {k: common.proc_status(pid, k) for k in ("VmRSS", "RssAnon", "RssFile")}


def read_line(stream, timeout_s):
    """The next line of a child's output, waited for at most timeout_s ('' on its end or the limit)."""
    lines = queue.Queue()
    threading.Thread(target=lambda: lines.put(stream.readline()), daemon=True).start()
    try:
        return lines.get(timeout=timeout_s)
    except queue.Empty:
        return ""


class Server:
    """The server under test, a JVM of its own on 127.0.0.1 and a free port."""

    def __init__(self, kind, java_opts, out, name, procs):
        main, self.endpoint, _ = SERVERS[kind]
        port_file = out / f"{name}.port"
        if kind == "greeting":
            self.command = ["java", *java_opts.split(), "-cp", common.test_classpath(), main, "--port-file", str(port_file)]
            env = os.environ
        else:
            self.command = ["bash", str(ROOT / main), "--port", "0", "--port-file", str(port_file)]
            env = dict(os.environ, DEMO_SERVER_JAVA_OPTS=java_opts)
        with open(out / f"{name}.log", "w") as log:
            self.process = procs.add(subprocess.Popen(self.command, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT,
                                                      env=env, start_new_session=True))
        deadline = time.time() + 180
        while time.time() < deadline:
            text = port_file.read_text().strip() if port_file.exists() else ""
            if text.isdigit():
                self.port = int(text)
                self.pid = common.java_pid_of(self.process.pid)
                return
            if self.process.poll() is not None:
                raise RuntimeError(f"the server died; see {out / (name + '.log')}")
            time.sleep(0.2)
        raise RuntimeError(f"the server did not start in 180 s; see {out / (name + '.log')}")

    def url(self):
        return f"ws://127.0.0.1:{self.port}{self.endpoint}"

    def reading(self, out, name, rss_first):
        """RSS (VmRSS, RssAnon, RssFile) and, after a full GC, live heap and permessage-deflate sessions. Before
        the sessions the GC comes first (RSS read on a settled heap); while they are held, the RSS first."""
        rss = memory_kb(self.pid) if rss_first else None
        histogram = common.class_histogram(self.pid, out / f"{name}.histogram.txt")
        if not rss_first:
            time.sleep(1)
            rss = memory_kb(self.pid)
        return {**rss, "heap_kb": common.histogram_total_kb(histogram),
                "deflate_sessions": instances(histogram, DEFLATE_CLASS)}


def lean_command(args, server, sessions, compress, hold_s):
    return ([str(common.lean_connect_binary(args.out)), "-url", server.url(), "-sessions", str(sessions),
             "-in-flight", str(args.in_flight), "-hold", f"{hold_s}s"] + (["-compress"] if compress else []))


def warm(args, server, name, procs):
    """A few lean sessions opened and closed before the server's first reading: its WebSocket and STOMP classes
    loaded and its JIT started, so the reading before and while held differ by the sessions, not the first use."""
    if args.warmup_sessions <= 0:
        return
    command = lean_command(args, server, args.warmup_sessions, False, 0)
    with open(args.out / f"{name}.warmup.txt", "w") as sink:
        process = procs.add(subprocess.Popen(command, stdout=sink, stderr=subprocess.STDOUT, start_new_session=True))
        try:
            process.wait(120)
        except subprocess.TimeoutExpired:
            procs.stop(process)
    time.sleep(2)


def lean_run(side, args, server, name, procs, run):
    """The lean client holds the sessions; the server is read while it does; then it is ended."""
    hold_s = int(args.connect_limit + args.settle + 600)  # an upper bound: it is ended once read
    command = lean_command(args, server, args.sessions, side == "lean-compress", hold_s)
    run["commands"].append(" ".join(command))
    stderr = open(args.out / f"{name}.stderr.txt", "w")
    process = procs.add(subprocess.Popen(command, stdout=subprocess.PIPE, stderr=stderr, text=True,
                                         start_new_session=True))
    try:
        line = read_line(process.stdout, args.connect_limit + 60)
        (args.out / f"{name}.console.txt").write_text(line)
        if not line:
            raise RuntimeError(f"{name}: the lean client gave no figures in {args.connect_limit + 60} s")
        found = parse_pairs(line)
        run["client_sessions"] = int(found["connected"])
        run["client_compressed"] = int(found.get("compressed", 0))
        time.sleep(args.settle)
        held(run, args, server, name, process.pid)
    finally:
        procs.stop(process)
        stderr.close()
    agreed = [line for line in (args.out / f"{name}.stderr.txt").read_text().splitlines() if "agreed" in line]
    run["notes"] += agreed[:1]


def held(run, args, server, name, client_pid):
    """The server read while the client holds its sessions; the sessions it holds counted from the client side."""
    sockets = common.established_to(client_pid, server.port)
    run["server_held"] = server.reading(args.out, f"{name}-server-held", rss_first=True)
    run["sessions"] = sockets or run.get("client_sessions") or 0
    if sockets == 0:
        run["notes"].append("ss counted no established connection (not root?): the client's count is used")


def ours_jmeter(side, args, server, name, users, procs, run):
    """connect.jmx holding `users` users on args.threads threads; the figures of JMeter (and of the server, for
    the big run) once they are all connected and settled; then JMeter is stopped through its stop port."""
    props = {"host": "127.0.0.1", "port": server.port, "endpoint": server.endpoint, "transport": "raw",
             "indexPath": "none", "pullPath": "none", "users": users, "threads": min(args.threads, users),
             "rampUp": 0, "duration": int(args.connect_limit + args.settle + 300)}  # an upper bound: stopped once read
    props.update(p.split("=", 1) for p in args.props.split())
    if side == "ours-off":
        props["compression"] = "off"
    process, jtl, pid = common.jmeter(common.OURS_HOME, ROOT / "jmx/connect.jmx", args.out, name, props)
    procs.add(process)
    try:
        run["commands"].append(Path(f"/proc/{process.pid}/cmdline").read_text().replace("\0", " ").strip())
        common.await_line(args.out / f"{name}.log", "Starting thread group", process)
        common.await_connected(jtl, "session", users, process, args.connect_limit, pid, server.port)
        time.sleep(args.settle)
        if process.poll() is not None:
            raise RuntimeError(f"{name}: JMeter ended before the reading; see {args.out / (name + '.console.txt')}")
        sockets = common.established_to(pid, server.port)
        if users == args.sessions:
            held(run, args, server, name, pid)
        histogram = common.class_histogram(pid, args.out / f"{name}.histogram.txt")
        generator = {**memory_kb(pid), "heap_kb": common.histogram_total_kb(histogram), "sessions": sockets or users,
                     "threads": common.proc_status(pid, "Threads")}
        common.stop_jmeter(args.out / f"{name}.console.txt")
        try:
            process.wait(120)
        except subprocess.TimeoutExpired:
            run["notes"].append(f"{name}: JMeter did not stop in 120 s after its stop message; ended")
    finally:
        procs.stop(process)
    console = (args.out / f"{name}.console.txt").read_text(errors="replace")
    return generator, held_at_peak(console), compression_lines(console)


def ours_run(side, args, server, name, procs, run):
    generator, peak, said = ours_jmeter(side, args, server, name, args.sessions, procs, run)
    run["generator_held"] = generator
    run["client_sessions"] = peak
    run["client_compressed"] = None  # the plugin does not print its count (yet): the server's count says
    run["notes"] += [f"{name}: {line}" for line in said[:3]]
    if args.base_users > 0:
        # the generator's baseline against the same server, after the server's reading
        base, _, _ = ours_jmeter(side, args, server, name + "-base", args.base_users, procs, run)
        run["generator_base"] = base


def side_run(side, round_no, args, procs):
    name = f"{side}-{round_no}"
    run = {"side": side, "round": round_no, "commands": [], "notes": []}
    server = Server(args.server, args.server_java_opts, args.out, f"{name}-server", procs)
    try:
        run["commands"].insert(0, " ".join(server.command))
        warm(args, server, name, procs)
        run["server_before"] = server.reading(args.out, f"{name}-server-before", rss_first=False)
        if side.startswith("lean"):
            lean_run(side, args, server, name, procs, run)
        else:
            ours_run(side, args, server, name, procs, run)
    finally:
        procs.stop(server.process)
    if run["sessions"] != args.sessions:
        run["notes"].append(f"{name}: {run['sessions']:,} of {args.sessions:,} sessions held")
    return run


def shown_command(command, out):
    """A command as the summary shows it: the results directory as $OUT, the class path and JMeter's JVM options
    (bin/jmeter's, from jmeter-config/setenv.sh, with HEAP as common.py sets it) elided."""
    command = command.replace(str(out), "$OUT").replace(str(ROOT) + "/", "")
    command = re.sub(r"-cp \S+", "-cp <target/test-classes:target/classes:test class path>", command)
    return re.sub(r"^java .*?-jar (\S*)bin/ApacheJMeter\.jar", rf"HEAP='{common.HEAP}' \1bin/jmeter", command)


def write_summary(args, runs_by_side, load_before, load_after, error=None):
    lines = [f"# Server memory per held session, {time.strftime('%Y-%m-%d %H:%M')}", "",
             f"{os.cpu_count()} cores; server: {args.server} ({SERVERS[args.server][1]}, JVM `{args.server_java_opts}`), "
             f"a fresh one per side per round, warmed with {args.warmup_sessions} lean sessions; "
             f"{args.sessions:,} sessions, {args.rounds} alternating rounds, medians; settle {args.settle} s; "
             f"lean: {args.in_flight} connects in flight; ours: connect.jmx, {args.threads} threads, JMeter heap "
             f"`{common.HEAP}`, generator baseline {args.base_users} users. Load average before "
             f"{' '.join(load_before)}, after {' '.join(load_after or ['?'])}.", ""]
    if error:
        lines += [f"**Incomplete: {error}**", ""]
    lines += ["| side | offer |", "| --- | --- |"] + [f"| {s} | {OFFERS[s]} |" for s in runs_by_side] + [""]
    lines += summary_table(runs_by_side)
    lines += ["", "Compression agreed: the server's live PerMessageDeflate objects (one per session that agreed) / the "
              "client's count of 101 answers that agreed ('?': the plugin does not print one yet). Sessions held: "
              "the client's established connections to the server when the server was read / the client's own "
              "count (lean: connected=, ours: \"stomp sessions: N held at peak\"). Server RSS per session = (VmRSS "
              "while held - VmRSS before any session) / sessions held; live heap after a full GC (jcmd "
              "GC.class_histogram) likewise. JMeter per session: (the N-session run - the baseline run) / sessions "
              "added, RSS and live heap.", "", "## Commands", "", "```",
              " ".join(["python3", "bench/server_memory.py", *sys.argv[1:]])]
    for runs in runs_by_side.values():
        for r in runs[:1]:
            lines += [shown_command(c, args.out) for c in r["commands"]]
    lines += ["```", ""]
    notes = [n for runs in runs_by_side.values() for r in runs for n in r["notes"]]
    if notes:
        lines += ["## Notes", ""] + [f"- {n}" for n in dict.fromkeys(notes)] + [""]
    (args.out / "summary.md").write_text("\n".join(lines))
    (args.out / "runs.json").write_text(json.dumps(runs_by_side, indent=1, default=str))
    return "\n".join(lines)


def arguments(argv):
    env = os.environ.get
    parser = argparse.ArgumentParser(
        prog="bench/server_memory.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server", choices=SERVERS, default=env("SERVER", "greeting"),
                        help="greeting: the getting-started app (default); demo: the demo server [SERVER]")
    parser.add_argument("--sessions", "-n", type=int, default=int(env("SESSIONS", "2000")),
                        help="sessions each side holds (default 2000) [SESSIONS]")
    parser.add_argument("--rounds", type=int, default=int(env("ROUNDS", "2")), help="rounds (default 2) [ROUNDS]")
    parser.add_argument("--sides", default=env("SIDES", " ".join(SIDES)),
                        help=f"sides, space or comma separated (default: {' '.join(SIDES)}) [SIDES]")
    parser.add_argument("--settle", type=float, default=float(env("SETTLE_S", "5")),
                        help="seconds from the last session connected to the reading (default 5) [SETTLE_S]")
    parser.add_argument("--in-flight", type=int, default=int(env("IN_FLIGHT", "16")),
                        help="the lean client's connects under way (default 16: as ours, 2 threads x connect.jmx's "
                             "8) [IN_FLIGHT]")
    parser.add_argument("--threads", type=int, default=int(env("GEN_THREADS", "2")),
                        help="ours: JMeter threads the users are spread over (default 2) [GEN_THREADS]")
    parser.add_argument("--base-users", type=int, default=int(env("GEN_BASE_USERS", "20")),
                        help="ours: users of the generator's baseline run (default 20; 0: no generator figures) "
                             "[GEN_BASE_USERS]")
    parser.add_argument("--warmup-sessions", type=int, default=int(env("WARMUP_SESSIONS", "50")),
                        help="lean sessions opened and closed on each fresh server before its first reading "
                             "(default 50; 0: none) [WARMUP_SESSIONS]")
    parser.add_argument("--connect-limit", type=int, default=int(env("CONNECT_LIMIT_S", "180")),
                        help="seconds the sessions may take to connect (default 180) [CONNECT_LIMIT_S]")
    parser.add_argument("--server-java-opts", default=env("SERVER_JAVA_OPTS"),
                        help="the server's JVM options (default: greeting " + SERVERS["greeting"][2] + "; demo "
                             + SERVERS["demo"][2] + ") [SERVER_JAVA_OPTS]")
    parser.add_argument("--props", default=env("PROPS", ""),
                        help="ours: more JMeter properties, 'name=value ...' (both ours sides) [PROPS]")
    args = parser.parse_args(argv)
    args.sides = [s for s in re.split(r"[\s,]+", args.sides) if s]
    unknown = [s for s in args.sides if s not in SIDES]
    if unknown:
        parser.error(f"unknown sides {unknown}: {' '.join(SIDES)}")
    args.server_java_opts = args.server_java_opts or SERVERS[args.server][2]
    return args


def main(argv):
    args = arguments(argv)
    if any(s.startswith("ours") for s in args.sides) and not (common.OURS_HOME / "bin/jmeter").exists():
        sys.exit("run 'make jmeter' first")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # thousands of sockets; children inherit it
    signal.signal(signal.SIGTERM, interrupted)
    signal.signal(signal.SIGINT, interrupted)  # also when started in the background, where SIGINT comes ignored
    args.out = ROOT / "results" / time.strftime("bench-server-memory-%Y%m%d-%H%M%S")
    args.out.mkdir(parents=True)
    procs = Processes()
    runs = {s: [] for s in args.sides}
    load_before, load_after, error = common.load_average(), None, None
    try:
        common.lean_connect_binary(args.out)  # built once before the first run (needs go)
        if args.server == "greeting":
            common.test_classpath()
        for round_no in range(1, args.rounds + 1):
            for side in args.sides:
                run = side_run(side, round_no, args, procs)
                runs[side].append(run)
                print(json.dumps({"run": f"{side}-{round_no}", "sessions": run["sessions"],
                                  **{k: round(v, 1) for k, v in run_figures(run).items() if v is not None}}),
                      flush=True)
    except BaseException as e:
        error = f"{type(e).__name__}: {e}"
        raise
    finally:
        procs.stop_all()
        load_after = common.load_average()
        summary = write_summary(args, runs, load_before, load_after, error)
        print(summary)
        print(f"results in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
