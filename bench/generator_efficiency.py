#!/usr/bin/env python3
"""What it costs to make load: our samplers next to the incumbent JMeter WebSocket Samplers plugin, one run.

Both sides run in a real JMeter 5.6.3 (same JVM settings) against the demo server's plain WebSocket STOMP
endpoint on loopback; ours also over SockJS. Runs alternate (ours raw, incumbent, ours websocket, ...) and
each figure is the median of the rounds, so the machine's drift hits both sides alike.

  echo      JMeter CPU (user+system, all threads) per echo round trip in a steady window, round trips/s,
            context switches per round trip. Unthrottled, await-reply, heart-beats off on both sides.
  fire      ours in fire-and-forget with the timing log on: CPU per message answered.
  held      live heap (after full GCs), RSS and JVM threads per held session: N_SMALL vs N_BIG sessions, one
            per JMeter thread, heart-beats on for ours (the incumbent cannot send them between samples).
  many      ours with many users per thread: THREADS_MANY x SESSIONS_PER_THREAD sessions, heap, threads, rate.
            HELD_SIDES (default "ours incumbent") and MANY_SIDES (default "ours"): a side "ours:K" runs the build in
            $HOME_K (a copy of target/jmeter made before a change), side by side with this one.
  many-rate many users at a modest rate: RATE_USERS (2000) users x RATE_PER_USER_MIN (60) messages per minute,
            fire-and-forget; ours with the scheduled sender (send.jmx's default pacing) as 2 x 1000 and 20 x 100
            users per thread, the incumbent one thread per user with a Constant Throughput Timer
            (incumbent-rate.jmx). JMeter CPU per answered message, context switches per message by thread kind
            (/proc/<pid>/task/*/status), JVM threads. Heart-beats off on both sides.

  connects  connect.jmx's connect rate with CONNECT_IN_FLIGHT (default "1 8 32") connects under way per thread,
            alternating: CONNECT_USERS (6000) users on CONNECT_THREADS (6) threads, raw, heart-beats
            CONNECT_HEARTBEAT_MS (10000, the plan's, the floors' too; the lean client sends none: 0 compares
            like with like), no login steps; sessions/s from the results file (first start to last CONNECTED), JMeter's and the
            server's CPU per session between the two (polled every 0.25 s), JMeter's by thread kind. A value "floor:K" runs the connect floor (ConnectFloor: Tomcat's client alone, K in flight); "lean:K" runs the lean client
            bench/lean-connect (Go, gorilla/websocket: upgrade, CONNECT, CONNECTED, K in flight; needs `go`) for the
            same number of sessions: what the server gives a client that does nothing else; "jfloor:K" the floor inside
            JMeter (JavaRequestConnectFloor, bench/plans/floor-connect.jmx: Tomcat's client in a Java Request, one sample per
            session, K in flight per thread), "jfloor-args:K" the same with connect.jmx's session arguments: what
            JMeter charges per session, apart from the plugin; "sfloor:K" the same with Spring's STOMP client as the
            plugin builds it instead of Tomcat's alone (client=spring), "sfloor-args:K" that with connect.jmx's
            session arguments: the design's floor for a JMeter plugin on Spring's client. With BROKER=rabbitmq
            against RabbitMQ's Web-STOMP (guest/guest).

  replies-idle  send.jmx's replies thread when nothing finishes: IDLE_USERS (2) users, one message a minute in all;
            the replies thread's context switches per second (IDLE_SIDES, default "ours-2x1000"; a side "ours-2x1000:K"
            takes $HOME_K, $PROPS_K, $PLAN_K and $JVM_K as in many-rate).

  closed    the closed loop: CLOSED_USERS (2000) users, each one round trip then CLOSED_PAUSE_MS (1000) ms, again;
            ours echo.jmx's loop=closed on its default threads (2 for 2,000 users), the incumbent a thread per user
            with a Constant Timer of the same pause (bench/plans/incumbent-echo.jmx with a timer added, in the results
            dir); floor sides "floor-closed" (Spring's STOMP client built as ours, no JMeter, no timing log) and
            "floor-tomcat-closed" (Tomcat's WebSocket client alone, STOMP by hand): ClosedLoopFloor, the same users,
            pause and driver threads in a JVM of its own. JMeter CPU per round trip, JVM threads, context switches per round trip by thread kind; JFR=closed
            records ours' first run (its window only). CLOSED_SIDES (default "ours incumbent"; "ours:K" runs the JMeter home
            $HOME_K with $PROPS_K: another build, side by side), CLOSED_RAMP_S (10: the incumbent's
            ramp-up, and both sides' time before the warm-up). With BROKER=rabbitmq, against RabbitMQ.
  echo sides: "ours-raw-closed" is echo.jmx's closed loop with THREADS users on CLOSED_THREADS (2) threads,
            "ours-raw-blocking" the one-user-per-thread await-reply sample (loop=blocking); plain "ours-raw" is
            echo.jmx's default (closed loop) with -Jthreads=THREADS, one user per thread.

Usage: bench/generator_efficiency.py [echo] [fire] [held] [many] [many-rate] [replies-idle] [connects] [closed]
       (default: all but many-rate and replies-idle)
SIDES="ours-raw ours-raw-tomcatio" compares our I/O threads with Tomcat's own group (sockjsstomp.ioThreads=0); an echo
side "ours-raw:K" takes $HOME_K (another build), $PROPS_K, $PLAN_K and $JVM_K, e.g. SIDES="ours-raw:before ours-raw".
RATE_SIDES picks the many-rate sides (default "ours-2x1000 incumbent ours-20x100"); a side "floor-2x1000" runs the
design's floor, io.github.sockjsstomp.bench.floors.RateFloor (benchmark code in bench/java: Spring's STOMP client built as ours, no JMeter,
no timing) in a JVM of its own with the same heap and schedule; a side "ours-2x1000:K" runs with the JVM options
in $JVM_K, the JMeter properties in $PROPS_K ("name=value ..."), the plan in $PLAN_K (else jmx/send.jmx) and the
JMeter home in $HOME_K (another build of ours, e.g. a copy of target/jmeter made before a change), to
compare one setting side by side. JFR=many-rate records the first ours-2x1000 run (JFR_SIDE: another of ours;
JFR_SETTINGS=fine: the JDK's profile settings sampling Java every 1 ms, for threads that run a few percent
of the time); RATE_TICK_MILLIS (10) is our
tickMillis, RATE_RAMP_S (5) both sides' ramp-up. Against the demo server, an unmeasured run of ours
(RATE_SERVER_WARMUP_S, 60; 0: none) warms the server's JIT before the first measured side.
BROKER=rabbitmq runs many and many-rate against a RabbitMQ already running on loopback (Web-STOMP on BROKER_PORT,
15674; guest/guest; a queue per user: /queue/echo.<user>) instead of the demo server; the table gives the
server's CPU per message beside ours (both on this machine's cores). bench/README.md says how to set it up.
JVM_EXTRA adds JVM options to every JMeter run (both sides), e.g. -XX:+PrintCompilation (in <run>.console.txt).
Environment: ROUNDS (3), THREADS (50), WARMUP_S (15), WINDOW_S (20), N_SMALL (10), N_BIG (1000),
             THREADS_MANY (15), SESSIONS_PER_THREAD (1000), JFR=1 to record the first ours echo runs (JFR=fire:
             the first fire-and-forget run); bench/jfr_top.py prints a recording's top frames. FIRE_RATE (0:
             unthrottled) paces fire-and-forget with the scheduled sender at that many messages/s in all, on
             FIRE_SESSIONS (1) users a thread (THREADS / FIRE_SESSIONS threads).
Needs target/jmeter (make jmeter). The incumbent's jar comes from Maven Central into target/jmeter-incumbent,
a copy of target/jmeter without our jar; it is never bundled.
"""

import csv
import functools
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OURS_HOME = Path(os.environ.get("OURS_HOME", ROOT / "target/jmeter"))  # a copy: ITs may rebuild target/jmeter
INCUMBENT_HOME = ROOT / "target/jmeter-incumbent"
INCUMBENT_JAR = ("https://repo.maven.apache.org/maven2/net/luminis/jmeter/jmeter-websocket-samplers/1.3.1/"
                 "jmeter-websocket-samplers-1.3.1.jar")
ENV = {k: int(os.environ.get(k, d)) for k, d in [("ROUNDS", 3), ("THREADS", 50), ("WARMUP_S", 15),
                                                  ("WINDOW_S", 20), ("N_SMALL", 10), ("N_BIG", 1000),
                                                  ("THREADS_MANY", 15), ("SESSIONS_PER_THREAD", 1000),
                                                  ("RATE_USERS", 2000), ("RATE_PER_USER_MIN", 60)]}
HEAP = "-Xms2g -Xmx2g"
TICK = os.sysconf("SC_CLK_TCK")


def incumbent_home():
    jar = INCUMBENT_HOME / "lib/ext/jmeter-websocket-samplers-1.3.1.jar"
    if jar.exists():
        # Both sides run on the same JVM settings: jmeter-config/setenv.sh as installed in ours now.
        shutil.copy2(OURS_HOME / "bin/setenv.sh", INCUMBENT_HOME / "bin/setenv.sh")
        return
    shutil.rmtree(INCUMBENT_HOME, ignore_errors=True)
    shutil.copytree(OURS_HOME, INCUMBENT_HOME, symlinks=True)
    for ours in (INCUMBENT_HOME / "lib/ext").glob("jmeter-sockjs-stomp-*.jar"):
        ours.unlink()
    with urllib.request.urlopen(INCUMBENT_JAR, timeout=60) as response:
        jar.write_bytes(response.read())


class Broker:
    """A STOMP broker already running on loopback (BROKER=rabbitmq: RabbitMQ's Web-STOMP on 15674, guest/guest),
    with a queue per user; each side's plan gets the properties that point it there."""

    def __init__(self, port):
        self.port = port
        self.endpoint = "/ws"
        found = subprocess.run(["pgrep", "-o", "-f", "beam.smp"], capture_output=True, text=True).stdout.split()
        if not found:
            sys.exit("BROKER=rabbitmq: no RabbitMQ (beam.smp) is running; see bench/README.md")
        self.pid = int(found[0])  # the oldest: a rabbitmqctl run meanwhile is a beam.smp too
        self.management_port = int(os.environ.get("BROKER_MANAGEMENT_PORT", "15672"))

    def ours(self):
        return {"login": "guest", "passcode": "guest", "destination": "/queue/echo.{{userNumber}}",
                "subscribeTo": "/queue/echo.{{userNumber}}"}

    def incumbent(self):
        return {"stompHost": "/", "login": "guest", "passcode": "guest",
                "destination": "/queue/echo.${__threadNum}", "subscribeTo": "/queue/echo.${__threadNum}"}

    def settle(self, limit_s=180):
        """Waits (bounded) until the broker holds no connection and its CPU is quiet: it tears 15,000 sessions down
        for a minute after their client closed them, and a run started meanwhile measures the teardown."""
        deadline = time.time() + limit_s
        while time.time() < deadline:
            try:
                request = urllib.request.Request(f"http://127.0.0.1:{self.management_port}/api/overview",
                                                 headers={"Authorization": "Basic Z3Vlc3Q6Z3Vlc3Q="})  # guest:guest
                with urllib.request.urlopen(request, timeout=5) as response:
                    connections = json.load(response)["object_totals"]["connections"]
            except (OSError, ValueError, KeyError):
                connections = None  # no management plugin: the CPU alone says
            before = proc_cpu_seconds(self.pid)
            time.sleep(2)
            busy = (proc_cpu_seconds(self.pid) - before) / 2
            if connections in (0, None) and busy < 0.1:
                return
        print(f"RabbitMQ did not settle in {limit_s} s", flush=True)

    def stop(self):
        pass


class DemoServer:
    endpoint = "/stomp-ws"

    def __init__(self, out):
        self.port_file = out / "demo.port"
        log = open(out / "demo-server.log", "w")
        env = dict(os.environ, DEMO_SERVER_JAVA_OPTS="-Xmx6g -XX:+UseG1GC -Ddemo.wsBufferSize=8192")
        self.process = subprocess.Popen(["bash", str(ROOT / "scripts/demo-server.sh"), "--port", "0",
                                         "--port-file", str(self.port_file)], stdout=log, stderr=log, env=env,
                                        start_new_session=True)
        for _ in range(1200):
            if self.port_file.exists() and self.port_file.read_text().strip():
                self.port = int(self.port_file.read_text())
                self.pid = java_pid_of(self.process.pid)
                return
            if self.process.poll() is not None:
                sys.exit("the demo server died; see " + str(out / "demo-server.log"))
            time.sleep(0.1)
        sys.exit("the demo server did not start")

    def ours(self):
        return {}

    def incumbent(self):
        return {}

    def stop(self):
        os.killpg(self.process.pid, signal.SIGTERM)
        self.process.wait(30)


def java_pid_of(script_pid):
    """The JVM a launcher script started (its newest descendant named java), for the server's CPU."""
    found = subprocess.run(["pgrep", "-n", "-s", str(script_pid), "java"], capture_output=True, text=True)
    return int(found.stdout.split()[0]) if found.stdout.split() else script_pid


def proc_cpu_seconds(pid):
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def proc_system_seconds(pid):
    """CPU seconds in the kernel (system calls, wake-ups): what a Java profile does not show."""
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[12]) / TICK


def proc_switches(pid):
    voluntary = involuntary = 0
    for status in Path(f"/proc/{pid}/task").glob("*/status"):
        try:
            for line in status.read_text().splitlines():
                if line.startswith("voluntary_ctxt_switches"):
                    voluntary += int(line.split()[1])
                elif line.startswith("nonvoluntary_ctxt_switches"):
                    involuntary += int(line.split()[1])
        except OSError:
            pass
    return voluntary, involuntary


def thread_kind(name):
    """A thread's kind: its name without trailing numbers ("senders 1-7" -> "senders", "stomp-io-2" -> "stomp-io")."""
    return re.sub(r"[\s#-]*\d+([-#]\d+)*$", "", name).strip() or name


def switches_by_kind(pid):
    """Thread count, voluntary + involuntary context switches so far and CPU seconds so far, by thread kind
    (names from comm). A thread that ended between two readings takes its CPU and switches with it."""
    kinds = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            name = (task / "comm").read_text().strip()
            switches = 0
            for line in (task / "status").read_text().splitlines():
                if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                    switches += int(line.split()[1])
            # schedstat: nanoseconds on a CPU (stat's ticks are too coarse for 2,000 threads of 2 ms each)
            cpu = int((task / "schedstat").read_text().split()[0]) / 1e9
        except OSError:
            continue
        kind = thread_kind(name)
        count, total, seconds = kinds.get(kind, (0, 0, 0.0))
        kinds[kind] = (count + 1, total + switches, seconds + cpu)
    return kinds


def proc_status(pid, key):
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    return 0


def java_pid(marker, timeout=60):
    deadline = time.time() + timeout
    while time.time() < deadline:
        found = subprocess.run(["pgrep", "-f", f"ApacheJMeter.jar.*{marker}"], capture_output=True, text=True)
        pids = found.stdout.split()
        if pids:
            return int(pids[0])
        time.sleep(0.2)
    raise RuntimeError("no JMeter process for " + marker)


def jmeter(home, plan, out, name, props, jvm_args="", gc_algo=None):
    jtl = out / f"{name}.jtl"
    command = [str(home / "bin/jmeter"), "-n", "-t", str(plan), "-l", str(jtl), "-j", str(out / f"{name}.log")]
    command += [f"-J{k}={v}" for k, v in props.items()]
    env = dict(os.environ, HEAP=HEAP, JVM_ARGS=(jvm_args + " " + os.environ.get("JVM_EXTRA", "")).strip())
    if gc_algo:
        env["GC_ALGO"] = gc_algo  # bin/jmeter's collector flags: a second collector in JVM_ARGS would conflict
    console = open(out / f"{name}.console.txt", "w")
    process = subprocess.Popen(command, stdout=console, stderr=console, env=env, cwd=out, start_new_session=True)
    try:
        return process, jtl, java_pid(str(jtl))
    except BaseException:  # no JVM found, or Ctrl-C meanwhile: the caller never gets the process to end it
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        raise


def samples_between(jtl, label, start_ms, end_ms):
    """Samples of a label (or of any of a tuple of labels) that ended in the window, counted as JMeter's summariser
    counts them (a closed-loop row is SampleCount round trips), and the failed ones."""
    labels = (label,) if isinstance(label, str) else label
    count = errors = 0
    with open(jtl, newline="") as f:
        for row in csv.DictReader(f):
            if row["label"] not in labels:
                continue
            end = int(row["timeStamp"]) + int(row["elapsed"])
            if start_ms <= end < end_ms:
                n = int(row.get("SampleCount") or 1)
                count += n
                errors += n if row["success"] != "true" else 0
    return count, errors


def answered_between(timing, start_ms, end_ms):
    """Messages answered in the window, and messages sent in it that were not answered (LOST or FAILED)."""
    answered = unanswered = 0
    with open(timing, newline="") as f:
        for row in csv.reader(f):
            if row[1] == "ANSWERED" and start_ms <= int(row[0]) + int(row[3]) // 1000 < end_ms:
                answered += 1
            elif row[1] in ("LOST", "FAILED") and start_ms <= int(row[0]) < end_ms:
                unanswered += 1
    return answered, unanswered


def steady_window(process, pid, jfr=None):
    """CPU, switches (voluntary, involuntary) and the window's ends; with {jfr}, the window's JFR dumped there, and
    the switches and CPU by thread kind in "kinds" of the last call (read after the window)."""
    time.sleep(ENV["WARMUP_S"])
    if jfr:
        jfr_start(pid, jfr.parent)
    cpu0, sw0, kinds0, t0 = proc_cpu_seconds(pid), proc_switches(pid), switches_by_kind(pid), time.time()
    sys0 = proc_system_seconds(pid)
    time.sleep(ENV["WINDOW_S"])
    cpu1, sw1, kinds1, t1 = proc_cpu_seconds(pid), proc_switches(pid), switches_by_kind(pid), time.time()
    steady_window.system = proc_system_seconds(pid) - sys0
    if jfr:
        jfr_dump(pid, jfr)
    steady_window.kinds = {k: (n, total - kinds0.get(k, (0, 0, 0.0))[1], cpu - kinds0.get(k, (0, 0, 0.0))[2])
                           for k, (n, total, cpu) in kinds1.items()}
    process.wait(300)
    return cpu1 - cpu0, (sw1[0] - sw0[0], sw1[1] - sw0[1]), int(t0 * 1000), int(t1 * 1000)


def jfr_launch(out):
    """JVM options for a recording from the JVM's start (named "bench"): JFR is up before the window, so starting the
    window's own recording there ({jfr_start}) costs no JFR start-up in the window's CPU."""
    return (f"-XX:StartFlightRecording=name=bench,settings={jfr_settings(out)},maxage=1m "
            "-XX:FlightRecorderOptions=stackdepth=1024")


def jfr_start(pid, out):
    """The window's recording: a new recording starts a new chunk, so it holds the window alone, not the warm-up."""
    subprocess.run(["jcmd", str(pid), "JFR.start", "name=window", f"settings={jfr_settings(out)}"],
                   capture_output=True, text=True)


def jfr_dump(pid, path):
    """Stops the window's recording into {path} (bench/jfr_top.py prints its top frames)."""
    done = subprocess.run(["jcmd", str(pid), "JFR.stop", "name=window", f"filename={path}"],
                          capture_output=True, text=True)
    print(f"JFR: {path} ({(done.stdout.strip() or done.stderr.strip()).splitlines()[-1]})", flush=True)


FIRE_RATE = int(os.environ.get("FIRE_RATE", "0"))


def echo_run(side, server, out, round_no, fire=False):
    name = f"{side.replace(':', '_')}-{'fire' if fire else 'echo'}-{round_no}"
    key = side.split(":", 1)[1] if ":" in side else None  # a variant of ours: its JVM_K, PROPS_K and PLAN_K
    side = side.split(":")[0]
    duration = ENV["WARMUP_S"] + ENV["WINDOW_S"] + 5
    common = {"host": "127.0.0.1", "port": server.port, "threads": ENV["THREADS"], "rampUp": 0,
              "duration": duration}
    jvm_args = os.environ.get("JVM_" + key, "") if key else ""
    jfr = None
    if side == "floor-tomcat":
        return tomcat_floor_run(server, out, name)
    if side == "floor-java":
        # JavaRequestFloor (bench/java, compiled into target/test-classes); the plugin's jar gives it Tomcat and the I/O threads.
        test_classpath()
        plan = floor_plan("bench/plans/floor-java-echo.jmx", "jmx/echo.jmx", "echo", key, out)
        process, jtl, pid = jmeter(OURS_HOME, plan, out, name,
                                   dict(common, endpoint="/stomp-ws", **{"user.classpath": ROOT / "target/test-classes"}),
                                   jvm_args)
    elif side == "incumbent":
        process, jtl, pid = jmeter(INCUMBENT_HOME, ROOT / "bench/plans/incumbent-echo.jmx", out, name,
                                   dict(common, endpoint="/stomp-ws"))
    else:
        transport = side.split("-")[1]
        props = dict(common, transport=transport, endpoint="/stomp-ws" if transport == "raw" else "/ws",
                     indexPath="none" if transport == "raw" else "/index",
                     pullPath="none" if transport == "raw" else "/clientPull", heartbeatMillis=0,
                     timingLog=out / f"{name}-timing.csv")
        if side.endswith("-tomcatio"):
            props["sockjsstomp.ioThreads"] = 0
        if os.environ.get("JFR") == ("fire" if fire else "1") and round_no == 1 and not key:
            jvm_args = jfr_launch(out)
            jfr = out / (name + ".jfr")
        plan = "send.jmx" if fire else "echo.jmx"
        if fire and FIRE_RATE:
            # At a rate the server holds, on FIRE_SESSIONS users per thread: what an answered message costs us
            # when nothing is lost to the server's overload.
            per_thread = int(os.environ.get("FIRE_SESSIONS", "1"))
            threads = max(1, ENV["THREADS"] // per_thread)
            props.update(throughput=FIRE_RATE * 60, pacing="schedule", threads=threads, users=threads * per_thread)
        elif fire:
            props.update(throughput=0)
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
            plan_path = Path(os.environ.get("PLAN_" + key, plan_path))
        home = Path(os.environ.get("HOME_" + key, OURS_HOME)) if key else OURS_HOME  # another build: A/B of a change
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
    return {"run": name, "per_s": done / seconds, "cpu_us": 1e6 * cpu / max(done, 1),
            "vcs": switches[0] / max(done, 1), "ivcs": switches[1] / max(done, 1), "errors": errors,
            "system_share": steady_window.system / max(cpu, 1e-9),
            "kinds": {k: (n, d / max(done, 1), 1e6 * c / max(done, 1)) for k, (n, d, c) in steady_window.kinds.items()}}


# RoundTripFloor's one line of output, here and in round_trip_floor.py.
FLOOR_LINE = re.compile(r"mode=([\w-]+) round_trips=(\d+) cpu_us_per_round_trip=([\d.]+) per_s=(\d+)")
ARGUMENT = re.compile(r'\s*<elementProp name="(\w+)" elementType="Argument">.*?</elementProp>', re.DOTALL)


def floor_plan(default, our_plan, sampler, key, out):
    """A floor side's plan: `default`; for the variant `args` it with our sampler's arguments (with_our_arguments);
    for another variant K the plan in $PLAN_K."""
    if key == "args":
        return with_our_arguments(default, our_plan, sampler, out)
    return Path(os.environ.get("PLAN_" + key, ROOT / default)) if key else ROOT / default


def sampler_arguments(plan, sampler):
    """The argument elements (regex matches: name, whole element) of the Java Request `sampler` in `plan`."""
    text = (ROOT / plan).read_text()
    start = text.index(f'testname="{sampler}"')
    return list(ARGUMENT.finditer(text[start:text.index("</JavaSampler>", start)]))


def with_our_arguments(floor_plan, our_plan, sampler, out):
    """The floor plan with the arguments of our sampler `sampler` in `our_plan` that it lacks (unread by the floor):
    what JMeter's per-thread copy and per-sample restore of our argument list cost, apart from what we do."""
    plan = (ROOT / floor_plan).read_text()
    have = set(ARGUMENT.findall(plan))
    extra = "".join(m.group(0) for m in sampler_arguments(our_plan, sampler) if m.group(1) not in have)
    end = plan.index("</collectionProp>")
    path = out / (Path(floor_plan).stem + "-with-our-arguments.jmx")
    path.write_text(plan[:end] + extra + "\n" + plan[end:])
    return path


def tomcat_floor_run(server, out, name):
    """RoundTripFloor tomcat (Tomcat's client on our I/O threads, no JMeter, no Spring) as an echo side: its own
    figures for the window, the context switches from /proc over the same window."""
    command = ["java", *HEAP.split(), *setenv_gc_algo().split(), "-cp", test_classpath(), "io.github.sockjsstomp.bench.floors.RoundTripFloor",
               "tomcat", str(server.port), str(ENV["THREADS"]), str(ENV["WARMUP_S"]), str(ENV["WINDOW_S"])]
    console = out / f"{name}.console.txt"
    with open(console, "w") as sink:
        process = subprocess.Popen(command, stdout=sink, stderr=subprocess.STDOUT, cwd=ROOT, start_new_session=True)
        cpu, switches, _, _ = steady_window(process, process.pid)
    match = FLOOR_LINE.search(console.read_text())
    if not match:
        sys.exit(f"{name} failed: {console.read_text()[-3000:]}")
    trips = int(match.group(2))
    return {"run": name, "per_s": float(match.group(4)), "cpu_us": float(match.group(3)),
            "vcs": switches[0] / max(trips, 1), "ivcs": switches[1] / max(trips, 1), "errors": 0,
            "system_share": steady_window.system / max(cpu, 1e-9),
            "kinds": {k: (n, d / max(trips, 1), 1e6 * c / max(trips, 1)) for k, (n, d, c) in steady_window.kinds.items()}}


@functools.cache
def test_classpath():
    """Our test classes and their dependencies (the floor programs, bench code never shipped); built once a run."""
    subprocess.run(["mvn", "-B", "-ntp", "-q", "-DskipTests", "test-compile", "dependency:build-classpath",
                    "-Dmdep.includeScope=test", "-Dmdep.outputFile=target/test-classpath.txt"], cwd=ROOT, check=True)
    return f"target/test-classes:target/classes:{(ROOT / 'target/test-classpath.txt').read_text().strip()}"


def setenv_gc_algo():
    """The collector flags jmeter-config/setenv.sh gives JMeter: the floor runs on the same JVM settings as ours."""
    match = re.search(r'GC_ALGO="\$\{GC_ALGO:-(.*?)\}"', (ROOT / "jmeter-config/setenv.sh").read_text())
    if not match:
        sys.exit("jmeter-config/setenv.sh: no GC_ALGO default found")
    return match.group(1)


def floor_process(side, server, out, name, duration):
    """The floor side: RateFloor (Spring's STOMP client as we build it, no JMeter, no timing) in a JVM of its own
    with JMeter's heap settings; its stdout says how many replies had come each second."""
    threads = int(side.split("-")[1].split("x")[0])
    users, per_min = ENV["RATE_USERS"], ENV["RATE_PER_USER_MIN"]
    ours = server.ours()
    command = ["java", *HEAP.split(), *setenv_gc_algo().split(), "-cp", test_classpath(), "io.github.sockjsstomp.bench.floors.RateFloor",
               f"ws://127.0.0.1:{server.port}{server.endpoint}", ours.get("login", "user-{n}"), ours.get("passcode", ""),
               ours.get("destination", "/app/echo").replace("{{userNumber}}", "{n}"),
               ours.get("subscribeTo", "/user/queue/echo").replace("{{userNumber}}", "{n}"), str(users), str(threads),
               str(per_min), os.environ.get("RATE_TICK_MILLIS", "10"), str(duration)]
    console = open(out / f"{name}.console.txt", "w")
    return subprocess.Popen(command, stdout=console, stderr=subprocess.STDOUT, cwd=ROOT, start_new_session=True)


def floor_answered_between(console, start_ms, end_ms):
    """Replies counted in the window, from RateFloor's per-second totals (interpolated at both ends)."""
    points = [(int(ms), int(total)) for _, ms, total in
              (line.split() for line in console.read_text().splitlines() if line.startswith("answered "))]

    def at(ms):
        before = [p for p in points if p[0] <= ms]
        after = [p for p in points if p[0] >= ms]
        if not before or not after:
            return (before or after)[-1 if before else 0][1]
        (t0, a0), (t1, a1) = before[-1], after[0]
        return a0 if t1 == t0 else a0 + (a1 - a0) * (ms - t0) / (t1 - t0)
    return int(at(end_ms) - at(start_ms)), 0


def rate_run(side, server, out, round_no):
    """One many-rate run: RATE_USERS users at RATE_PER_USER_MIN messages per minute each, fire-and-forget."""
    name = f"{side.replace(':', '_')}-rate-{round_no}"
    users, per_min = ENV["RATE_USERS"], ENV["RATE_PER_USER_MIN"]
    duration = ENV["WARMUP_S"] + ENV["WINDOW_S"] + 5
    common = {"host": "127.0.0.1", "port": server.port, "rampUp": os.environ.get("RATE_RAMP_S", "5"),
              "duration": duration,
              "throughput": users * per_min, "endpoint": server.endpoint}
    key = side.split(":", 1)[1] if ":" in side else None  # a variant: its JVM_K, GC_K, PROPS_K and PLAN_K
    jvm_args, gc_algo = (os.environ.get("JVM_" + key, ""), os.environ.get("GC_" + key)) if key else ("", None)
    if side.startswith("floor-"):
        process = floor_process(side, server, out, name, duration)
        pid, jtl = process.pid, None
    elif side.split(":")[0] == "incumbent":
        # "incumbent:K": the plan $PLAN_K (bench/plans/incumbent-rate-deflate.jmx: the browser's compression offer added)
        plan = Path(os.environ.get("PLAN_" + key, ROOT / "bench/plans/incumbent-rate.jmx")) if key else ROOT / "bench/plans/incumbent-rate.jmx"
        process, jtl, pid = jmeter(INCUMBENT_HOME, plan, out, name,
                                   dict(common, threads=users, **server.incumbent()), jvm_args, gc_algo)
    else:
        threads = int(side.split("-")[1].split("x")[0])
        if os.environ.get("JFR") == "many-rate" and round_no == 1 and side == os.environ.get("JFR_SIDE", "ours-2x1000"):
            jvm_args += (f" -XX:StartFlightRecording=delay={ENV['WARMUP_S']}s,duration={ENV['WINDOW_S']}s,"
                         f"filename={out / (name + '.jfr')},settings={jfr_settings(out)} "
                         "-XX:FlightRecorderOptions=stackdepth=1024")
        props = dict(common, threads=threads, users=users // threads * threads, transport="raw", indexPath="none",
                     pullPath="none", heartbeatMillis=0, pacing="schedule",
                     tickMillis=os.environ.get("RATE_TICK_MILLIS", "10"), timingLog=out / f"{name}-timing.csv",
                     **server.ours())
        if key:
            props.update(p.split("=", 1) for p in os.environ.get("PROPS_" + key, "").split())
        plan = Path(os.environ.get("PLAN_" + key, ROOT / "jmx/send.jmx")) if key else ROOT / "jmx/send.jmx"
        home = Path(os.environ.get("HOME_" + key, OURS_HOME)) if key else OURS_HOME  # another build: A/B of a change
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
    if side.startswith("floor-"):
        done, errors = floor_answered_between(out / f"{name}.console.txt", start_ms, end_ms)
    elif side.split(":")[0] == "incumbent":
        done, errors = samples_between(jtl, "echo", start_ms, end_ms)
    else:
        done, errors = answered_between(out / f"{name}-timing.csv", start_ms, end_ms)
    per_kind = {k: (n, total - kinds0.get(k, (0, 0, 0.0))[1], cpu - kinds0.get(k, (0, 0, 0.0))[2])
                for k, (n, total, cpu) in kinds1.items()}
    switches = sum(d for _, d, _ in per_kind.values())
    rows = []
    if jtl:
        with open(jtl, newline="") as f:
            rows = [r for r in csv.DictReader(f) if r["label"] in ("send", "echo")]
    samples = len(rows)
    messages = sum(int(r.get("SampleCount") or 1) for r in rows)
    return {"run": name, "per_s": done / ((end_ms - start_ms) / 1000), "cpu_us": 1e6 * (cpu1 - cpu0) / max(done, 1),
            "cs": switches / max(done, 1), "threads": jvm_threads, "errors": errors,
            "server_cpu_us": 1e6 * (server1 - server0) / max(done, 1),
            "kinds": {k: (n, d / max(done, 1), 1e6 * c / max(done, 1)) for k, (n, d, c) in per_kind.items()},
            "messages_per_sample": messages / max(samples, 1)}


def idle_run(side, server, out, round_no):
    """One idle run of send.jmx with its replies thread: IDLE_USERS (2) users sending one message a minute in all,
    so what wakes the replies thread is its own waiting, not messages: its context switches per second."""
    name = f"{side.replace(':', '_')}-idle-{round_no}"
    key = side.split(":", 1)[1] if ":" in side else None
    users = int(os.environ.get("IDLE_USERS", "2"))
    props = {"host": "127.0.0.1", "port": server.port, "endpoint": server.endpoint, "rampUp": 0,
             "duration": ENV["WARMUP_S"] + ENV["WINDOW_S"] + 5, "throughput": 1, "users": users, "threads": users,
             "transport": "raw", "indexPath": "none", "pullPath": "none", "heartbeatMillis": 0, "pacing": "schedule",
             "replySamples": "true", "timingLog": out / f"{name}-timing.csv", **server.ours()}
    if key:
        props.update(p.split("=", 1) for p in os.environ.get("PROPS_" + key, "").split())
    plan = Path(os.environ.get("PLAN_" + key, ROOT / "jmx/send.jmx")) if key else ROOT / "jmx/send.jmx"
    home = Path(os.environ.get("HOME_" + key, OURS_HOME)) if key else OURS_HOME
    process, _, pid = jmeter(home, plan, out, name, props, os.environ.get("JVM_" + key, "") if key else "")
    time.sleep(ENV["WARMUP_S"])
    kinds0, t0 = switches_by_kind(pid), time.time()
    time.sleep(ENV["WINDOW_S"])
    kinds1, t1 = switches_by_kind(pid), time.time()
    process.wait(300)
    per_s = {k: (total - kinds0.get(k, (0, 0, 0.0))[1]) / (t1 - t0) for k, (_, total, _) in kinds1.items()}
    return {"run": name, "replies": per_s.get("replies", 0.0), "all": sum(per_s.values())}


def replies_idle(server, out):
    """The replies-idle section: the replies thread's wake-ups per second when nothing finishes."""
    sides = os.environ.get("IDLE_SIDES", "ours-2x1000").split()
    runs = {s: [] for s in sides}
    for round_no in range(1, ENV["ROUNDS"] + 1):
        for side in sides:
            runs[side].append(idle_run(side, server, out, round_no))
            print(runs[side][-1], flush=True)
    lines = ["## An idle run's replies thread: send.jmx, one message a minute, replySamples=true", "",
             "| side | replies thread: context switches per second | whole JVM: context switches per second |",
             "| --- | ---: | ---: |"]
    for side, results in runs.items():
        lines.append(f"| {side} | {statistics.median(r['replies'] for r in results):.1f} | "
                     f"{statistics.median(r['all'] for r in results):.1f} |")
    lines += ["", "All runs: " + "; ".join(f"{r['run']} {r['replies']:.1f}/s" for rs in runs.values() for r in rs), ""]
    return lines


def jfr_settings(out):
    """The JDK's profile settings, or with JFR_SETTINGS=fine a copy of them sampling Java every 1 ms (20 ms)."""
    if os.environ.get("JFR_SETTINGS") != "fine":
        return "profile"
    java_home = Path(shutil.which("java")).resolve().parent.parent
    text = (java_home / "lib/jfr/profile.jfc").read_text()
    text = re.sub(r'(<event name="jdk.ExecutionSample">.*?<setting name="period"[^>]*>)[^<]*(</setting>)',
                  r"\g<1>1 ms\2", text, flags=re.S)
    (out / "fine.jfc").write_text(text)
    return out / "fine.jfc"


def load_average():
    return Path("/proc/loadavg").read_text().split()[:3]


def held_run(side, server, out, threads, sessions_per_thread=1):
    name = f"{side.replace(':', '_')}-held-{threads}x{sessions_per_thread}"
    key = side.split(":", 1)[1] if ":" in side else None  # a variant: its PLAN_K
    side = side.split(":")[0]
    duration = 60 if threads * sessions_per_thread > 1000 else 40
    common = {"host": "127.0.0.1", "port": server.port, "threads": threads, "rampUp": 0, "duration": duration,
              "aliveMillis": 5000}
    if side == "incumbent":
        process, jtl, pid = jmeter(INCUMBENT_HOME, ROOT / "bench/plans/incumbent-connect.jmx", out, name,
                                   dict(common, endpoint="/stomp-ws"))
    elif side == "floor-held":
        # HeldSessionFloor (bench/java, compiled into target/test-classes): Spring's STOMP session as ours builds it, no plugin.
        test_classpath()
        floor = {k.replace("{{userNumber}}", "{n}"): v.replace("{{userNumber}}", "{n}") for k, v in server.ours().items()
                 if k in ("login", "passcode", "subscribeTo")}
        plan = floor_plan("bench/plans/floor-held.jmx", "jmx/connect.jmx", "session", key, out)
        process, jtl, pid = jmeter(OURS_HOME, plan, out, name,
                                   dict(common, endpoint=server.endpoint, **floor,
                                        **{"user.classpath": ROOT / "target/test-classes"}))
    else:
        home = Path(os.environ.get("HOME_" + key, OURS_HOME)) if key else OURS_HOME  # "ours:K": another build
        plan = Path(os.environ.get("PLAN_" + key, ROOT / "jmx/connect.jmx")) if key else ROOT / "jmx/connect.jmx"
        process, jtl, pid = jmeter(home, plan, out, name,
                                   dict(common, transport="raw", endpoint=server.endpoint, indexPath="none",
                                        pullPath="none", heartbeatMillis=10000,
                                        users=threads * sessions_per_thread,
                                        **{k: v for k, v in server.ours().items() if k in ("login", "passcode")}))
    polls = poll_cpu(pid, server.pid, duration - 12)
    # The live objects (the histogram's full GC counts only those), not G1's "used" just after GC.run, which also
    # counts what the threads allocated since: 18 KB a session above the live objects for ours, whose threads wake
    # every aliveMillis, 0.4 KB for the incumbent's, blocked in reads.
    histogram = class_histogram(pid, out / f"{name}.histogram.txt")  # diff two sizes: where a held session's heap goes
    used_kb = histogram_total_kb(histogram)
    figures = {"run": name, "sessions": threads * sessions_per_thread, "heap_kb": used_kb,
               "rss_kb": proc_status(pid, "VmRSS"), "threads": proc_status(pid, "Threads")}
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


def class_histogram(pid, path):
    """The JVM's live objects by class (jcmd GC.class_histogram: a full GC first, so only what is reachable),
    kept in `path`; bench/server_memory.py reads the server's and JMeter's with it."""
    histogram = subprocess.run(["jcmd", str(pid), "GC.class_histogram"], capture_output=True, text=True,
                               timeout=120).stdout
    path.write_text(histogram)
    return histogram


def histogram_total_kb(histogram):
    """A class histogram's live bytes in all (its Total line), in KB."""
    return next(int(line.split()[2]) for line in histogram.splitlines() if line.startswith("Total")) // 1024


def connects_run(in_flight, server, out, round_no):
    """connect.jmx with in_flight connects under way per thread: sessions/s and CPU per session while they connect."""
    users, threads = int(os.environ.get("CONNECT_USERS", "6000")), int(os.environ.get("CONNECT_THREADS", "6"))
    duration = int(os.environ.get("CONNECT_DURATION", "40"))
    name = f"connects-{str(in_flight).replace(':', '_')}-r{round_no}"
    # JFR=connects: the first run's connects recorded (from the test's start, not the JVM's, to its end)
    jfr = os.environ.get("JFR") == "connects" and round_no == 1 and str(in_flight) == first_connect_value()
    extra = {}
    if str(in_flight).startswith(("jfloor", "sfloor")):
        # "jfloor:K": JavaRequestConnectFloor, the connect floor inside a Java Request (bench/java, on JMeter's
        # user.classpath; the plugin's jar gives it Tomcat); "jfloor-args:K" with our session sampler's arguments
        kind, _, in_flight = str(in_flight).partition(":")
        key = ""
        test_classpath()
        plan = floor_plan("bench/plans/floor-connect.jmx", "jmx/connect.jmx", "session",
                          "args" if kind.endswith("-args") else "", out)
        home = OURS_HOME
        extra = {"user.classpath": ROOT / "target/test-classes", "client": "spring" if kind.startswith("sfloor") else "tomcat"}
        shown = f"{kind}:{in_flight}"
    else:
        # "8:K": the plan $PLAN_K, the build $HOME_K, the JVM options $JVM_K (A/B of a change)
        in_flight, _, key = str(in_flight).partition(":")
        plan = Path(os.environ.get("PLAN_" + key, ROOT / "jmx/connect.jmx")) if key else ROOT / "jmx/connect.jmx"
        home = Path(os.environ.get("HOME_" + key, OURS_HOME)) if key else OURS_HOME
        shown = in_flight + (f":{key}" if key else "")
    process, jtl, pid = jmeter(home, plan, out, name,
                               {"host": "127.0.0.1", "port": server.port, "transport": "raw",
                                "endpoint": server.endpoint, "indexPath": "none", "pullPath": "none",
                                "heartbeatMillis": int(os.environ.get("CONNECT_HEARTBEAT_MS", "10000")),
                                "users": users, "threads": threads, "rampUp": 0,
                                "duration": duration, "aliveMillis": 5000, "connectsInFlight": in_flight,
                                **{k: v for k, v in server.ours().items() if k in ("login", "passcode")}, **extra},
                               (jfr_launch(out) if jfr else "") + " " + os.environ.get("JVM_" + key, "") * bool(key))
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
    figures = {"run": name, "in_flight": shown, "users": users, "threads": threads,
               "connected": len(ok),
               "failed": len(rows) - len(ok)}
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
                    (held[-1][1] - held[0][1]) / (held[-1][0] - held[0][0]) / len(ok) * 1e6)
            # where a session's CPU goes, by thread kind (the kernel's share of each thread included)
            figures["cpu_us_by_kind"] = by_kind_per_session(inside[0][3], inside[-1][3], len(ok))
            if len(half) >= 2:
                figures["cpu_us_by_kind_second_half"] = by_kind_per_session(
                    half[0][3], half[-1][3], len(ends) - len(ends) // 2)
    return figures


def by_kind_per_session(before, after, sessions):
    """CPU us per session by thread kind between two switches_by_kind readings, the busiest first."""
    spent = {kind: after[kind][2] - before.get(kind, (0, 0, 0.0))[2] for kind in after}
    return {kind: round(seconds / sessions * 1e6) for kind, seconds in sorted(spent.items(), key=lambda kv: -kv[1])
            if seconds > 0.05}


def first_connect_value():
    return os.environ.get("CONNECT_IN_FLIGHT", "1 8 32").split()[0]


def lean_connect_binary(out):
    """bench/lean-connect (Go, gorilla/websocket) built once into the results directory."""
    binary = out / "lean-connect"
    if not binary.exists():
        subprocess.run(["go", "build", "-o", str(binary), "."], cwd=ROOT / "bench/lean-connect", check=True)
    return binary


def lean_connect_run(in_flight, server, out, round_no):
    """The lean client: as many sessions as connect.jmx opens, in_flight at once, raw, no heart-beats."""
    users = int(os.environ.get("CONNECT_USERS", "6000"))
    name = f"connects-lean{in_flight}-r{round_no}"
    login = {k: v for k, v in server.ours().items() if k in ("login", "passcode")}
    command = [str(lean_connect_binary(out)), "-url", f"ws://127.0.0.1:{server.port}{server.endpoint}",
               "-sessions", str(users), "-in-flight", str(in_flight), "-hold", "2s",
               "-login", login.get("login", "guest"), "-passcode", login.get("passcode", "guest")]
    server_cpu = proc_cpu_seconds(server.pid)
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    server_cpu = proc_cpu_seconds(server.pid) - server_cpu
    (out / f"{name}.console.txt").write_text(done.stdout + done.stderr)
    found = dict(pair.split("=") for pair in done.stdout.split())
    connected = int(found["connected"])
    return {"run": name, "in_flight": f"lean:{in_flight}", "users": users, "threads": "-",
            "connected": connected, "failed": int(found["failed"]), "per_s": float(found["per_s"]),
            "p50_ms": float(found["p50_ms"]), "cpu_us": float(found["cpu_us_per_session"]),
            # the server's CPU over the whole run (its 2 s hold and the closes included): an upper bound
            "server_cpu_us": server_cpu / max(connected, 1) * 1e6}


def connect_floor_run(in_flight, server, out, round_no):
    """The connect floor (ConnectFloor, benchmark code in bench/java) in a JVM of its own with JMeter's heap and
    collector flags: Tomcat's WebSocket client alone on our I/O lanes, upgrade plus a STOMP CONNECT written by hand,
    in_flight at once, as many sessions as connect.jmx opens, raw, no heart-beats, no JMeter: the design's price per
    session, which the plugin's connect path is measured against."""
    users = int(os.environ.get("CONNECT_USERS", "6000"))
    name = f"connects-floor{in_flight}-r{round_no}"
    login = {k: v for k, v in server.ours().items() if k in ("login", "passcode")}
    command = ["java", *HEAP.split(), *setenv_gc_algo().split(), "-cp", test_classpath(),
               "io.github.sockjsstomp.bench.floors.ConnectFloor", f"ws://127.0.0.1:{server.port}{server.endpoint}",
               login.get("login", "guest"), login.get("passcode", "guest"), str(users), str(in_flight), "2",
               # the plan's heart-beats, written from one scheduler: what the held sessions cost during the connects
               os.environ.get("CONNECT_HEARTBEAT_MS", "10000")]
    server_cpu = proc_cpu_seconds(server.pid)
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT)
    # its threads' CPU from its start to its figures' line (printed once the last session connected), by kind
    started = switches_by_kind(process.pid)
    figures_line = process.stdout.readline()
    connects_done = switches_by_kind(process.pid) if process.poll() is None else None
    rest, _ = process.communicate(timeout=900)
    server_cpu = proc_cpu_seconds(server.pid) - server_cpu
    (out / f"{name}.console.txt").write_text(figures_line + rest)
    found = dict(pair.split("=") for pair in figures_line.split() if "=" in pair)
    connected = int(found["connected"])
    by_kind = {"cpu_us_by_kind": by_kind_per_session(started, connects_done, connected)} if connects_done else {}
    return {**by_kind, "run": name, "in_flight": f"floor:{in_flight}", "users": users, "threads": "-",
            "connected": connected, "failed": int(found["failed"]), "per_s": float(found["per_s"]),
            "p50_ms": float(found["p50_ms"]), "cpu_us": float(found["cpu_us_per_session"]),
            "cpu_us_second_half": float(found["cpu_us_second_half"]),
            # the server's CPU over the whole run (its 2 s hold and the closes included): an upper bound
            "server_cpu_us": server_cpu / max(connected, 1) * 1e6}


def connects(server, out):
    """The connects section: connectsInFlight values (and the lean client, "lean:K") alternating, ROUNDS rounds,
    medians."""
    values = os.environ.get("CONNECT_IN_FLIGHT", "1 8 32").split()
    runs = {v: [] for v in values}
    for round_no in range(1, ENV["ROUNDS"] + 1):
        for value in values:
            if hasattr(server, "settle"):
                server.settle()
            if value.startswith("lean:"):
                runs[value].append(lean_connect_run(int(value[5:]), server, out, round_no))
            elif value.startswith("floor:"):
                runs[value].append(connect_floor_run(int(value[6:]), server, out, round_no))
            else:
                runs[value].append(connects_run(value, server, out, round_no))
            print(runs[value][-1], flush=True)
    sample = runs[values[0]][0]
    lines = [f"## Connects under way: {sample['users']:,} users on {sample['threads']} threads, connect.jmx raw", "",
             "| connectsInFlight | sessions/s | JMeter CPU us per session | second half's | server CPU us per session | "
             "connect p50 ms | connected | failed |",
             "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]

    def median(results, key):
        found = [r[key] for r in results if key in r]
        return statistics.median(found) if found else float("nan")
    for value, results in runs.items():
        lines.append(f"| {value} | {median(results, 'per_s'):,.0f} | {median(results, 'cpu_us'):,.0f} | "
                     f"{median(results, 'cpu_us_second_half'):,.0f} | "
                     f"{median(results, 'server_cpu_us'):,.0f} | {median(results, 'p50_ms'):.0f} | "
                     f"{min(r['connected'] for r in results):,} | {sum(r['failed'] for r in results)} |")
    lines += ["", "All runs: " + "; ".join(f"{r['run']} {r.get('per_s', 0):,.0f}/s {r.get('cpu_us', 0):,.0f} us"
                                          for rs in runs.values() for r in rs), ""]
    lines += [f"{r['run']} CPU us per session by thread kind: {r['cpu_us_by_kind']}; second half "
              f"{r.get('cpu_us_by_kind_second_half')}; held, per session and second: "
              f"{r.get('held_cpu_us_per_session_s', float('nan')):.2f} us"
              for rs in runs.values() for r in rs if "cpu_us_by_kind" in r] + [""]
    return lines


def poll_cpu(pid, server_pid, seconds, by_kind=False):
    """(time, JMeter CPU s, server CPU s) every 0.25 s for that long: who was busy while sessions connected; with
    {by_kind}, JMeter's threads by kind too (switches_by_kind)."""
    polls = []
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            polls.append((time.time(), proc_cpu_seconds(pid), proc_cpu_seconds(server_pid),
                           switches_by_kind(pid) if by_kind else None))
        except OSError:
            break
        time.sleep(0.25)
    return polls


def cpu_between(polls, start_s, end_s):
    """Cores busy (CPU s per wall s) of JMeter and of the server between the first and the last connect."""
    inside = [p for p in polls if start_s - 0.25 <= p[0] <= end_s + 0.25]
    if len(inside) < 2:
        return None
    wall = inside[-1][0] - inside[0][0]
    return tuple(round((inside[-1][i] - inside[0][i]) / wall, 2) for i in (1, 2))


CLOSED_USERS = int(os.environ.get("CLOSED_USERS", "2000"))
CLOSED_PAUSE_MS = int(os.environ.get("CLOSED_PAUSE_MS", "1000"))


def incumbent_paced_plan(out, broker=False):
    """bench/plans/incumbent-echo.jmx with a Constant Timer of pauseMillis before each echo: the same pause as ours. For a
    broker, incumbent-rate.jmx (its destinations and login are properties) with that timer in place of its Constant
    Throughput Timer."""
    if broker:
        plan = out / "incumbent-rate-paced.jmx"
        text = (ROOT / "bench/plans/incumbent-rate.jmx").read_text()
        timer = ('<ConstantTimer guiclass="ConstantTimerGui" testclass="ConstantTimer" testname="pause">'
                 '<stringProp name="ConstantTimer.delay">${__P(pauseMillis,0)}</stringProp></ConstantTimer>')
        text, n = re.subn(r"<ConstantThroughputTimer .*?</ConstantThroughputTimer>", timer, text, flags=re.S)
        assert n == 1, "incumbent-rate.jmx: no Constant Throughput Timer to replace"
        plan.write_text(text)
        return plan
    plan = out / "incumbent-echo-paced.jmx"
    if not plan.exists():
        text = (ROOT / "bench/plans/incumbent-echo.jmx").read_text()
        marker = 'testname="echo">'
        at = text.index("<hashTree/>", text.index(marker))
        timer = ('<hashTree><ConstantTimer guiclass="ConstantTimerGui" testclass="ConstantTimer" testname="pause">'
                 '<stringProp name="ConstantTimer.delay">${__P(pauseMillis,0)}</stringProp></ConstantTimer>'
                 "<hashTree/></hashTree>")
        plan.write_text(text[:at] + timer + text[at + len("<hashTree/>"):])
    return plan


def closed_run(side, server, out, round_no):
    """One closed-loop run: CLOSED_USERS users, each one round trip then CLOSED_PAUSE_MS ms, again. Ours: echo.jmx's
    closed loop on its default threads (min(users, max(2, ceil(users / 1000)))); the incumbent: a thread per user
    with a Constant Timer of the same pause. JMeter CPU per round trip, JVM threads, switches per round trip by kind."""
    name = f"{side.replace(':', '_')}-closed-{round_no}"
    key = side.split(":", 1)[1] if ":" in side else None  # "ours:K": another build ($HOME_K), $PROPS_K
    side = side.split(":")[0]
    users = CLOSED_USERS
    ramp = int(os.environ.get("CLOSED_RAMP_S", "10"))
    connect_limit = int(os.environ.get("CLOSED_CONNECT_LIMIT_S", max(120, 3 * ramp)))
    # an upper bound: the run is stopped once its window has ended ({stop_jmeter})
    duration = connect_limit + ENV["WARMUP_S"] + ENV["WINDOW_S"] + 30
    common = {"host": "127.0.0.1", "port": server.port, "endpoint": server.endpoint, "duration": duration,
              "pauseMillis": CLOSED_PAUSE_MS}
    if side == "incumbent":
        process, jtl, pid = jmeter(INCUMBENT_HOME, incumbent_paced_plan(out, isinstance(server, Broker)), out, name,
                                   dict(common, threads=users, rampUp=ramp, **server.incumbent()))
    else:
        jvm_args = ""
        if os.environ.get("JFR") == "closed" and round_no == 1 and not key:
            jvm_args = jfr_launch(out)
        props = dict(common, users=users, rampUp=0, transport="raw", indexPath="none", pullPath="none",
                     heartbeatMillis=0, loop="closed", timingLog=out / f"{name}-timing.csv", **server.ours(),
                     **closed_threads())
        if key:
            props.update(p.split("=", 1) for p in os.environ.get("PROPS_" + key, "").split())
        home = Path(os.environ.get("HOME_" + key, OURS_HOME)) if key else OURS_HOME  # another build: A/B of a change
        process, jtl, pid = jmeter(home, ROOT / "jmx/echo.jmx", out, name, props, jvm_args)
    # from the test's start, not the launch: a loaded machine takes many seconds to start a JVM and JMeter
    await_line(out / f"{name}.log", "Starting thread group", process)
    # the warm-up starts when every user has connected, not after a guessed ramp: 15,000 users on 15 threads
    # take longer to connect than 2,000, and a window that opens on connects measures them
    connected, connect_s = await_connected(jtl, "CONNECTED" if side == "incumbent" else "session", users, process,
                                           connect_limit, pid, server.port)
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
    return {"run": name, "window_ms": (start_ms, end_ms), "errors": errors, "connected": connected,
            "connect_s": connect_s, **per_round_trip(window, done)}


def measure_window(pid, server_pid):
    """`pid`'s CPU, its context switches and CPU by thread kind, its kernel CPU and the server's CPU over WINDOW_S
    seconds from now; the window's bounds in epoch ms and the JVM's threads at its end."""
    cpu0, kinds0, t0 = proc_cpu_seconds(pid), switches_by_kind(pid), time.time()
    server0, sys0 = proc_cpu_seconds(server_pid), proc_system_seconds(pid)
    time.sleep(ENV["WINDOW_S"])
    cpu1, kinds1, t1 = proc_cpu_seconds(pid), switches_by_kind(pid), time.time()
    server1, sys1 = proc_cpu_seconds(server_pid), proc_system_seconds(pid)
    per_kind = {k: (n, total - kinds0.get(k, (0, 0, 0.0))[1], cpu - kinds0.get(k, (0, 0, 0.0))[2])
                for k, (n, total, cpu) in kinds1.items()}
    return {"start_ms": int(t0 * 1000), "end_ms": int(t1 * 1000), "cpu": cpu1 - cpu0, "server_cpu": server1 - server0,
            "system": sys1 - sys0, "per_kind": per_kind, "threads": proc_status(pid, "Threads")}


def per_round_trip(window, done):
    """A window's figures per round trip answered in it (`done`)."""
    n = max(done, 1)
    return {"per_s": done / ((window["end_ms"] - window["start_ms"]) / 1000), "cpu_us": 1e6 * window["cpu"] / n,
            "cs": sum(d for _, d, _ in window["per_kind"].values()) / n, "threads": window["threads"],
            "server_cpu_us": 1e6 * window["server_cpu"] / n,
            "system_share": window["system"] / max(window["cpu"], 1e-9),
            "kinds": {k: (kn, d / n, 1e6 * c / n) for k, (kn, d, c) in window["per_kind"].items()}}


nan = float("nan")


def established_to(pid, port):
    """The process's TCP connections to the server's port that are established (`ss -p`; as root)."""
    done = subprocess.run(["ss", "-Htnp", "state", "established", f"( dport = :{port} )"], capture_output=True,
                          text=True)
    return sum(1 for line in done.stdout.splitlines() if f"pid={pid}," in line)


def await_connected(jtl, label, users, process, limit_s, pid=None, port=None):
    """Waits until `users` sessions have connected or limit_s has passed; (sessions connected, seconds it took).
    Connected: successful `label` rows in the .jtl (read as it grows; the rows of the loops that started first keep
    JMeter's buffered writer flushing), or, with `pid` and `port`, the process's established connections to the
    server if more: a user whose first connect failed and whom the closed loop connected later has no row (only
    a failed reconnect is one)."""
    start, count, sockets, offset, tail, columns = time.time(), 0, 0, 0, b"", None
    while max(count, sockets) < users and time.time() - start < limit_s and process.poll() is None:
        time.sleep(0.5)
        sockets = established_to(pid, port) if pid and port else 0
        if not jtl.exists():
            continue
        with open(jtl, "rb") as f:
            f.seek(offset)
            chunk = f.read()
        offset += len(chunk)
        lines = (tail + chunk).split(b"\n")
        tail = lines.pop()
        for row in csv.reader(line.decode(errors="replace") for line in lines):
            if columns is None:
                columns = (row.index("label"), row.index("success"))
            elif len(row) > columns[1] and row[columns[0]] == label and row[columns[1]] == "true":
                count += 1
    seconds, count = time.time() - start, max(count, sockets)
    if count < users:
        print(f"{jtl.name}: {count:,} of {users:,} users connected after {seconds:.0f} s; the warm-up starts anyway",
              flush=True)
    return count, seconds


def stop_jmeter(console, command=b"Shutdown"):
    """Ends a run whose window is over through JMeter's own stop port (the one its console names), as
    bin/shutdown.sh does: the run's duration is only an upper bound once the warm-up waits for the connects."""
    found = re.search(r"message on port (\d+)", console.read_text(errors="replace")) if console.exists() else None
    if found:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
            udp.sendto(command, ("127.0.0.1", int(found.group(1))))


def closed_threads():
    """CLOSED_THREADS: ours on that many threads (else echo.jmx's default, users / 1000 and at least 2);
    CLOSED_REPLY_TIMEOUT_MS: ours and the lean client's reply timeout (else 5,000 ms, echo.jmx's default)."""
    found = {"threads": int(os.environ["CLOSED_THREADS"])} if os.environ.get("CLOSED_THREADS") else {}
    if os.environ.get("CLOSED_REPLY_TIMEOUT_MS"):
        found["replyTimeoutMillis"] = int(os.environ["CLOSED_REPLY_TIMEOUT_MS"])
    return found


def window_latency(side, out, result):
    """Round-trip latency p50 / p99 (ms) of what ended in the window: ours from the timing log's ANSWERED rows,
    the incumbent from its echo samples' elapsed (its own clock: the write and read on its thread)."""
    start_ms, end_ms = result["window_ms"]
    values = []
    if side == "incumbent":
        with open(out / f"{result['run']}.jtl", newline="") as f:
            values = [int(r["elapsed"]) for r in csv.DictReader(f) if r["label"] == "echo" and r["success"] == "true"
                      and start_ms <= int(r["timeStamp"]) + int(r["elapsed"]) < end_ms]
    else:
        with open(out / f"{result['run']}-timing.csv", newline="") as f:
            values = [int(row[3]) / 1000 for row in csv.reader(f) if row[1] == "ANSWERED"
                      and start_ms <= int(row[0]) + int(row[3]) // 1000 < end_ms]
    if not values:
        return {}
    values.sort()
    return {"p50_ms": values[len(values) // 2], "p99_ms": values[min(len(values) - 1, int(0.99 * len(values)))]}


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
    command = ["java", *HEAP.split(), *setenv_gc_algo().split(), "-cp", test_classpath(),
               "io.github.sockjsstomp.bench.floors.ClosedLoopFloor", CLOSED_FLOORS[side],
               f"ws://127.0.0.1:{server.port}{server.endpoint}", ours.get("login", "user-{n}"), ours.get("passcode", ""),
               ours.get("destination", "/app/echo").replace("{{userNumber}}", "{n}"),
               ours.get("subscribeTo", "/user/queue/echo").replace("{{userNumber}}", "{n}"), str(CLOSED_USERS),
               str(threads), str(CLOSED_PAUSE_MS), "10", str(duration)]
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
    elif int(final.group(1)) - int(final.group(2)) > CLOSED_USERS:
        errors += int(final.group(1)) - int(final.group(2)) - CLOSED_USERS
    return {"run": name, "errors": errors, **per_round_trip(window, done)}


def lean_echo_run(side, server, out, round_no):
    """The lean client's closed loop (bench/lean-connect -mode echo): CLOSED_USERS users, each its own session and
    queue, one round trip then CLOSED_PAUSE_MS ms (a side "lean:P" pauses P ms instead, "lean:0" unthrottled);
    64 connects in flight. Its own CPU (rusage) and the broker's (/proc) per round trip over WINDOW_S after all
    connected and WARMUP_S: what the broker answers a client that does nothing else, on this machine."""
    pause = int(side[5:]) if side.startswith("lean:") else CLOSED_PAUSE_MS
    name = f"lean{pause}-closed-{round_no}"
    login = {k: v for k, v in server.ours().items() if k in ("login", "passcode")}
    command = [str(lean_connect_binary(out)), "-mode", "echo", "-url", f"ws://127.0.0.1:{server.port}{server.endpoint}",
               "-sessions", str(CLOSED_USERS), "-in-flight", "64", "-pause", f"{pause}ms",
               "-reply-timeout", f"{os.environ.get('CLOSED_REPLY_TIMEOUT_MS', '5000')}ms",
               "-warmup", f"{ENV['WARMUP_S']}s", "-window", f"{ENV['WINDOW_S']}s", "-server-pid", str(server.pid),
               "-login", login.get("login", "guest"), "-passcode", login.get("passcode", "guest")]
    done = subprocess.run(command, capture_output=True, text=True, timeout=900)
    (out / f"{name}.console.txt").write_text(done.stdout + done.stderr)
    found = dict(pair.split("=") for pair in done.stdout.split())
    return {"run": name, "per_s": float(found["per_s"]), "cpu_us": float(found["cpu_us_per_round_trip"]),
            "cs": nan, "threads": nan, "errors": int(found["lost"]) + int(found["failed"]) + int(found["connect_failed"]),
            "server_cpu_us": float(found["server_cpu_us_per_round_trip"]), "p50_ms": float(found["p50_ms"]),
            "p99_ms": float(found["p99_ms"]), "connect_s": float(found["connect_s"]), "kinds": {}}


def await_line(log, text, process, timeout=180):
    deadline = time.time() + timeout
    while time.time() < deadline and process.poll() is None:
        if log.exists() and text in log.read_text(errors="replace"):
            return
        time.sleep(0.2)
    raise RuntimeError(f"no '{text}' in {log}")


def closed(server, out):
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
                    runs[side].append({"run": f"{side}-{round_no}", "per_s": nan, "cpu_us": nan, "cs": nan,
                                       "threads": nan, "errors": 1, "server_cpu_us": nan, "kinds": {}})
            else:
                runs[side].append(closed_run(side, server, out, round_no))
                runs[side][-1].update(window_latency(side, out, runs[side][-1]))
            print({k: v for k, v in runs[side][-1].items() if k != "kinds"}, flush=True)
    after = load_average()
    lines = [f"## Closed loop: {CLOSED_USERS:,} users, each one round trip then a {CLOSED_PAUSE_MS} ms pause", "",
             f"Load average (1/5/15 min) before {' '.join(before)}, after {' '.join(after)}.", "",
             "| side | JMeter CPU us per round trip | of it in the kernel | round trips/s | switches per round trip | "
             "JVM threads | server CPU us per round trip | errors | CPU ratio to incumbent | latency p50 / p99 ms |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
    base = statistics.median(r["cpu_us"] for r in runs["incumbent"]) if runs.get("incumbent") else None
    for side, results in runs.items():
        cpu = statistics.median(r["cpu_us"] for r in results)
        lines.append(f"| {side} | {cpu:.1f} | {100 * statistics.median(r.get('system_share', nan) for r in results):.0f}% | "
                     f"{statistics.median(r['per_s'] for r in results):,.0f} | "
                     f"{statistics.median(r['cs'] for r in results):.2f} | "
                     f"{statistics.median(r['threads'] for r in results):.0f} | "
                     f"{statistics.median(r['server_cpu_us'] for r in results):.1f} | "
                     f"{sum(r['errors'] for r in results)} | {f'{cpu / base:.2f}x' if base else ''} | "
                     f"{statistics.median(r.get('p50_ms', nan) for r in results):.1f} / "
                     f"{statistics.median(r.get('p99_ms', nan) for r in results):.1f} |")
    lines += ["", "Switches and CPU per round trip by thread kind (first round; threads of the kind):", ""]
    for side, results in runs.items():
        if side.startswith("lean"):
            continue
        kinds = sorted(results[0]["kinds"].items(), key=lambda kv: -kv[1][1])[:6]
        lines.append(f"- {side}: " + "; ".join(f"{k} ({n}) {cs:.2f} cs, {cpu:.1f} us" for k, (n, cs, cpu) in kinds))
    lines += ["", "All runs: " + "; ".join(f"{r['run']} {r['cpu_us']:.1f} us" + (
        f" ({r['connected']:,} users connected in {r['connect_s']:.0f} s)" if "connected" in r else "")
        for rs in runs.values() for r in rs), ""]
    return lines


def main(argv):
    parts = argv or ["echo", "fire", "held", "many"]
    if "many-rate" in parts and not (ROOT / "bench/plans/incumbent-rate.jmx").exists():
        sys.exit("bench/plans/incumbent-rate.jmx is missing")
    if not (OURS_HOME / "bin/jmeter").exists():
        sys.exit("run 'make jmeter' first")
    if set(parts) - {"connects"}:
        incumbent_home()
    out = ROOT / "results" / time.strftime("bench-generator-%Y%m%d-%H%M%S")
    out.mkdir(parents=True)
    broker = os.environ.get("BROKER", "")
    if broker not in ("", "rabbitmq"):
        sys.exit(f"BROKER={broker}: only rabbitmq (or unset: the demo server)")
    if broker and not set(parts) <= {"many", "many-rate", "connects", "closed"}:
        sys.exit("BROKER=rabbitmq measures many, many-rate, connects and closed only (echo, fire and held need the "
                 "demo server's /app/echo)")
    server = Broker(int(os.environ.get("BROKER_PORT", "15674"))) if broker else DemoServer(out)
    lines = [f"# Generator efficiency, {time.strftime('%Y-%m-%d %H:%M')}", "",
             f"{os.cpu_count()} cores; JMeter 5.6.3, heap {HEAP} on both sides; {'RabbitMQ Web-STOMP' if broker else 'demo server'} on the same machine; "
             f"{ENV['ROUNDS']} alternating rounds, medians; steady window {ENV['WINDOW_S']} s after "
             f"{ENV['WARMUP_S']} s.", ""]
    try:
        if "echo" in parts or "fire" in parts:
            sides = os.environ.get("SIDES", "ours-raw incumbent ours-websocket").split()
            fire_side = "ours-raw-fire" + (f" at {FIRE_RATE:,}/s, {os.environ.get('FIRE_SESSIONS', '1')} users a thread"
                                           if FIRE_RATE else "")
            runs = {s: [] for s in sides + [fire_side]}
            for round_no in range(1, ENV["ROUNDS"] + 1):
                if "echo" in parts:
                    for side in sides:
                        runs[side].append(echo_run(side, server, out, round_no))
                        print(runs[side][-1], flush=True)
                if "fire" in parts:
                    runs[fire_side].append(echo_run("ours-raw", server, out, round_no, fire=True))
                    print(runs[fire_side][-1], flush=True)
            lines += [f"## Echo, {ENV['THREADS']} threads, unthrottled", "",
                      ("| side | CPU us per round trip | of it in the kernel | round trips/s | voluntary / involuntary "
                       "switches per round trip | errors | CPU ratio to incumbent | to the Tomcat floor |"),
                      "| --- | ---: | ---: | ---: | --- | ---: | ---: | ---: |"]

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
                lines.append(f"| {side} | {cpu:.1f} | "
                             f"{f'{100 * statistics.median(system):.0f}%' if system else ''} | "
                             f"{statistics.median(r['per_s'] for r in results):,.0f} | "
                             f"{statistics.median(r['vcs'] for r in results):.2f} / "
                             f"{statistics.median(r['ivcs'] for r in results):.2f} | "
                             f"{sum(r['errors'] for r in results)} | {ratio} | {to_floor} |")
            lines += ["", "Switches and CPU per round trip by thread kind (first round; threads of the kind):", ""]
            for side, results in runs.items():
                if results and results[0].get("kinds"):
                    kinds = sorted(results[0]["kinds"].items(), key=lambda kv: -kv[1][2])[:6]
                    lines.append(f"- {side}: " + "; ".join(f"{k} ({n}) {cs:.2f} cs, {c:.1f} us"
                                                            for k, (n, cs, c) in kinds))
            lines += ["", "All runs: " + "; ".join(f"{r['run']} {r['cpu_us']:.1f} us" for rs in runs.values()
                                                  for r in rs), ""]
        if "held" in parts:
            lines += ["## Held sessions, one per thread", "",
                      "| side | heap KB per session | RSS KB per session | JVM threads per session |",
                      "| --- | ---: | ---: | ---: |"]
            for side in os.environ.get("HELD_SIDES", "ours incumbent").split():
                small = held_run(side, server, out, ENV["N_SMALL"])
                big = held_run(side, server, out, ENV["N_BIG"])
                print(small, big, flush=True)
                n = big["sessions"] - small["sessions"]
                lines.append(f"| {side} | {(big['heap_kb'] - small['heap_kb']) / n:.1f} | "
                             f"{(big['rss_kb'] - small['rss_kb']) / n:.1f} | "
                             f"{(big['threads'] - small['threads']) / n:.3f} |")
            lines.append("")
        if "many" in parts:
            for side in os.environ.get("MANY_SIDES", "ours").split():  # "ours:K": the build in $HOME_K
                small = held_run(side, server, out, ENV["THREADS_MANY"], 1)
                big = held_run(side, server, out, ENV["THREADS_MANY"], ENV["SESSIONS_PER_THREAD"])
                print(small, big, flush=True)
                n = big["sessions"] - small["sessions"]
                lines += [f"## Many sessions per thread: {ENV['THREADS_MANY']} threads x {ENV['SESSIONS_PER_THREAD']}"
                          + (f", {side}" if side != "ours" else ""),
                          "", f"- sessions connected: {big['connected']:,} of {big['sessions']:,}",
                          f"- JVM threads in all: {big['threads']}",
                          f"- live heap per session: {(big['heap_kb'] - small['heap_kb']) / n:.1f} KB",
                          f"- RSS per session: {(big['rss_kb'] - small['rss_kb']) / n:.1f} KB",
                          f"- connect rate: {big.get('connects_per_s', 0):,.0f} sessions/s; cores busy meanwhile "
                          f"(JMeter, server): {big.get('connect_cpu')} of {os.cpu_count()}", ""]
        if "many-rate" in parts:
            lines += many_rate(server, out)
        if "replies-idle" in parts:
            lines += replies_idle(server, out)
        if "connects" in parts:
            lines += connects(server, out)
        if "closed" in parts:
            lines += closed(server, out)
    finally:
        server.stop()
    summary = "\n".join(lines)
    (out / "summary.md").write_text(summary)
    print(summary)
    print(f"results in {out}")
    return 0


def many_rate(server, out):
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
    lines = [f"## Many users at a modest rate: {users:,} users x {per_min} messages/min, fire-and-forget", "",
             f"Load average (1/5/15 min) before {' '.join(before)}, after {' '.join(after)}.", "",
             "| side | JMeter CPU us per answered message | answered/s | context switches per message | "
             "messages per sample | JVM threads | errors | CPU ratio to incumbent | server CPU us per message |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    base = statistics.median(r["cpu_us"] for r in runs["incumbent"]) if runs.get("incumbent") else None
    for side, results in runs.items():
        cpu = statistics.median(r["cpu_us"] for r in results)
        ratio = f"{cpu / base:.2f}x" if base else ""
        lines.append(f"| {side} | {cpu:.1f} | "
                     f"{statistics.median(r['per_s'] for r in results):,.0f} | "
                     f"{statistics.median(r['cs'] for r in results):.2f} | "
                     f"{statistics.median(r['messages_per_sample'] for r in results):.1f} | "
                     f"{statistics.median(r['threads'] for r in results):.0f} | "
                     f"{sum(r['errors'] for r in results)} | {ratio} | "
                     f"{statistics.median(r['server_cpu_us'] for r in results):.1f} |")
    lines += ["", "Context switches and CPU per message by thread kind (medians over rounds; threads of that kind):",
              "", "| side | thread kind | threads | switches per message | CPU us per message |",
              "| --- | --- | ---: | ---: | ---: |"]
    for side, results in runs.items():
        kinds = {k for r in results for k in r["kinds"]}
        rows = []
        for kind in kinds:
            per_msg = statistics.median(r["kinds"].get(kind, (0, 0.0, 0.0))[1] for r in results)
            cpu = statistics.median(r["kinds"].get(kind, (0, 0.0, 0.0))[2] for r in results)
            count = max(r["kinds"].get(kind, (0, 0, 0.0))[0] for r in results)
            rows.append((cpu, per_msg, kind, count))
        for cpu, per_msg, kind, count in sorted(rows, reverse=True):
            if per_msg >= 0.005 or cpu >= 0.5:
                lines.append(f"| {side} | {kind} | {count} | {per_msg:.3f} | {cpu:.1f} |")
    lines += ["", "All runs: " + "; ".join(f"{r['run']} {r['cpu_us']:.1f} us, {r['cs']:.2f} cs/msg"
                                          for rs in runs.values() for r in rs), ""]
    return lines


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
