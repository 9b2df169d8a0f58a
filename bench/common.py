"""What the generator benchmark's parts share: the servers (the demo server, a RabbitMQ on loopback), JMeter runs,
/proc readings and what turns them into figures per message, the options every part takes, and the run of one or
more parts into one results directory (`run`).

The parts, one script each (`python3 bench/<part>.py --help`): echo.py (echo, fire), held.py (held, many),
many_rate.py (many-rate, replies-idle), connects.py, closed.py; floors.py runs the floor sides they put beside ours.
generator_efficiency.py runs any of them into one summary, as the dated commands of RESULTS.md do.

Every option's default is its environment variable's value (`--rounds` is $ROUNDS, else 3), so a command that sets
the variables runs as before; a variant's settings stay variables of their own ($HOME_K, $PLAN_K, $PROPS_K, $JVM_K,
$GC_K for a side "ours-2x1000:K"), as does OURS_HOME (our JMeter home, default target/jmeter).
"""

import argparse
import contextlib
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
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent


OURS_HOME = ROOT / os.environ.get("OURS_HOME", "target/jmeter")  # a copy: ITs may rebuild target/jmeter


INCUMBENT_HOME = ROOT / "target/jmeter-incumbent"


INCUMBENT_JAR = (
    "https://repo.maven.apache.org/maven2/net/luminis/jmeter/jmeter-websocket-samplers/1.3.1/"
    "jmeter-websocket-samplers-1.3.1.jar"
)


#: The whole-number settings every part reads (ROUNDS, WARMUP_S, ...), from the environment: `apply` refreshes
#: them once a part's options are parsed.
INT_SETTINGS = [
    ("ROUNDS", 3),
    ("THREADS", 50),
    ("WARMUP_S", 15),
    ("WINDOW_S", 20),
    ("N_SMALL", 10),
    ("N_BIG", 1000),
    ("THREADS_MANY", 15),
    ("SESSIONS_PER_THREAD", 1000),
    ("RATE_USERS", 2000),
    ("RATE_PER_USER_MIN", 60),
]


def read_env():
    return {k: int(os.environ.get(k, d)) for k, d in INT_SETTINGS}


ENV = read_env()


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
        return {
            "login": "guest",
            "passcode": "guest",
            "destination": "/queue/echo.{{userNumber}}",
            "subscribeTo": "/queue/echo.{{userNumber}}",
        }

    def incumbent(self):
        return {
            "stompHost": "/",
            "login": "guest",
            "passcode": "guest",
            "destination": "/queue/echo.${__threadNum}",
            "subscribeTo": "/queue/echo.${__threadNum}",
        }

    def settle(self, limit_s=180):
        """Waits (bounded) until the broker holds no connection and its CPU is quiet: it tears 15,000 sessions down
        for a minute after their client closed them, and a run started meanwhile measures the teardown."""
        deadline = time.time() + limit_s
        while time.time() < deadline:
            try:
                request = urllib.request.Request(
                    f"http://127.0.0.1:{self.management_port}/api/overview",
                    headers={"Authorization": "Basic Z3Vlc3Q6Z3Vlc3Q="},
                )  # guest:guest
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
        log = open(out / "demo-server.log", "w")  # noqa: SIM115 (the server's, open as long as it runs)
        env = dict(os.environ, DEMO_SERVER_JAVA_OPTS="-Xmx6g -XX:+UseG1GC -Ddemo.wsBufferSize=8192")
        self.process = subprocess.Popen(
            ["bash", str(ROOT / "scripts/demo-server.sh"), "--port", "0", "--port-file", str(self.port_file)],
            stdout=log,
            stderr=log,
            env=env,
            start_new_session=True,
        )
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


def stat_cpu_seconds(stat, tick=TICK):
    """(user + system, system) CPU seconds from a /proc/<pid>/stat text (utime and stime in clock ticks; the command
    name in parentheses may hold blanks and parentheses, so the fields are counted after its last ')')."""
    fields = stat.rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / tick, int(fields[12]) / tick


def proc_cpu_seconds(pid):
    return stat_cpu_seconds(Path(f"/proc/{pid}/stat").read_text())[0]


def proc_system_seconds(pid):
    """CPU seconds in the kernel (system calls, wake-ups): what a Java profile does not show."""
    return stat_cpu_seconds(Path(f"/proc/{pid}/stat").read_text())[1]


def status_switches(status):
    """(voluntary, involuntary) context switches from a /proc/<pid>/task/<tid>/status text."""
    voluntary = involuntary = 0
    for line in status.splitlines():
        if line.startswith("voluntary_ctxt_switches"):
            voluntary += int(line.split()[1])
        elif line.startswith("nonvoluntary_ctxt_switches"):
            involuntary += int(line.split()[1])
    return voluntary, involuntary


def proc_switches(pid):
    voluntary = involuntary = 0
    for status in Path(f"/proc/{pid}/task").glob("*/status"):
        try:
            v, i = status_switches(status.read_text())
        except OSError:
            continue
        voluntary, involuntary = voluntary + v, involuntary + i
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
            switches = sum(status_switches((task / "status").read_text()))
            # schedstat: nanoseconds on a CPU (stat's ticks are too coarse for 2,000 threads of 2 ms each)
            cpu = int((task / "schedstat").read_text().split()[0]) / 1e9
        except OSError:
            continue
        kind = thread_kind(name)
        count, total, seconds = kinds.get(kind, (0, 0, 0.0))
        kinds[kind] = (count + 1, total + switches, seconds + cpu)
    return kinds


def kinds_between(before, after):
    """Per thread kind, (threads at the end, switches, CPU seconds) between two switches_by_kind readings; a kind
    that appeared meanwhile counts from zero."""
    return {
        k: (n, total - before.get(k, (0, 0, 0.0))[1], cpu - before.get(k, (0, 0, 0.0))[2])
        for k, (n, total, cpu) in after.items()
    }


def kinds_per(kinds, done):
    """Per thread kind, (threads, switches per message, CPU us per message) for `done` messages (at least 1)."""
    n = max(done, 1)
    return {k: (count, switches / n, 1e6 * cpu / n) for k, (count, switches, cpu) in kinds.items()}


def median_of(results, key, default=float("nan")):
    """The median over rounds of a figure, over the runs that have it (`default` when none has)."""
    found = [r[key] for r in results if key in r]
    return statistics.median(found) if found else default


def kind_medians(results):
    """By thread kind, over a side's rounds: (CPU us per message, switches per message, kind, most threads), the
    median of each figure taking a round without the kind as 0; the busiest first."""
    rows = []
    for kind in {k for r in results for k in r["kinds"]}:
        per_msg = statistics.median(r["kinds"].get(kind, (0, 0.0, 0.0))[1] for r in results)
        cpu = statistics.median(r["kinds"].get(kind, (0, 0.0, 0.0))[2] for r in results)
        count = max(r["kinds"].get(kind, (0, 0, 0.0))[0] for r in results)
        rows.append((cpu, per_msg, kind, count))
    return sorted(rows, reverse=True)


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
    console = open(out / f"{name}.console.txt", "w")  # noqa: SIM115 (JMeter's, open as long as it runs)
    process = subprocess.Popen(command, stdout=console, stderr=console, env=env, cwd=out, start_new_session=True)
    try:
        return process, jtl, java_pid(str(jtl))
    except BaseException:  # no JVM found, or Ctrl-C meanwhile: the caller never gets the process to end it
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
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
    steady_window.kinds = kinds_between(kinds0, kinds1)
    process.wait(300)
    return cpu1 - cpu0, (sw1[0] - sw0[0], sw1[1] - sw0[1]), int(t0 * 1000), int(t1 * 1000)


def jfr_launch(out):
    """JVM options for a recording from the JVM's start (named "bench"): JFR is up before the window, so starting the
    window's own recording there ({jfr_start}) costs no JFR start-up in the window's CPU."""
    return (
        f"-XX:StartFlightRecording=name=bench,settings={jfr_settings(out)},maxage=1m "
        "-XX:FlightRecorderOptions=stackdepth=1024"
    )


def jfr_start(pid, out):
    """The window's recording: a new recording starts a new chunk, so it holds the window alone, not the warm-up."""
    subprocess.run(
        ["jcmd", str(pid), "JFR.start", "name=window", f"settings={jfr_settings(out)}"], capture_output=True, text=True
    )


def jfr_dump(pid, path):
    """Stops the window's recording into {path} (bench/jfr_top.py prints its top frames)."""
    done = subprocess.run(
        ["jcmd", str(pid), "JFR.stop", "name=window", f"filename={path}"], capture_output=True, text=True
    )
    print(f"JFR: {path} ({(done.stdout.strip() or done.stderr.strip()).splitlines()[-1]})", flush=True)


# RoundTripFloor's one line of output, here and in round_trip_floor.py.
FLOOR_LINE = re.compile(r"mode=([\w-]+) round_trips=(\d+) cpu_us_per_round_trip=([\d.]+) per_s=(\d+)")


ARGUMENT = re.compile(r'\s*<elementProp name="(\w+)" elementType="Argument">.*?</elementProp>', re.DOTALL)


def floor_plan(default, our_plan, sampler, key, out):
    """A floor side's plan: `default`; for the variant `args` it with our sampler's arguments (with_our_arguments);
    for another variant K the plan in $PLAN_K."""
    if key == "args":
        return with_our_arguments(default, our_plan, sampler, out)
    return ROOT / os.environ.get("PLAN_" + key, ROOT / default) if key else ROOT / default


def sampler_arguments(plan, sampler):
    """The argument elements (regex matches: name, whole element) of the Java Request `sampler` in `plan`."""
    text = (ROOT / plan).read_text()
    start = text.index(f'testname="{sampler}"')
    return list(ARGUMENT.finditer(text[start : text.index("</JavaSampler>", start)]))


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


@functools.cache
def test_classpath():
    """Our test classes and their dependencies (the floor programs, bench code never shipped); built once a run."""
    subprocess.run(
        [
            "mvn",
            "-B",
            "-ntp",
            "-q",
            "-DskipTests",
            "test-compile",
            "dependency:build-classpath",
            "-Dmdep.includeScope=test",
            "-Dmdep.outputFile=target/test-classpath.txt",
        ],
        cwd=ROOT,
        check=True,
    )
    return f"target/test-classes:target/classes:{(ROOT / 'target/test-classpath.txt').read_text().strip()}"


@functools.cache
def setenv_gc_algo():
    """The collector flags jmeter-config/setenv.sh gives JMeter: the floor runs on the same JVM settings as ours.

    Once per run: sourcing it starts `java -version`, and neither the script nor the java changes during a run."""
    # Sourced as bin/jmeter does (its flags depend on the java it finds), with GC_ALGO unset so that its default
    # is what comes out.
    env = {k: v for k, v in os.environ.items() if k != "GC_ALGO"}
    flags = subprocess.run(
        ["sh", "-c", '. "$1" && printf %s "$GC_ALGO"', "sh", str(ROOT / "jmeter-config/setenv.sh")],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    if not flags:
        sys.exit("jmeter-config/setenv.sh: no GC_ALGO default found")
    return flags


def floor_answered_between(console, start_ms, end_ms):
    """Replies counted in the window, from RateFloor's per-second totals (interpolated at both ends)."""
    return answered_in_window(console.read_text(), start_ms, end_ms)


def answered_in_window(text, start_ms, end_ms):
    """Replies in the window from a floor's lines `answered <epoch ms> <total so far>`, each end interpolated
    between the lines around it (held at the first or last line outside them); (replies, 0 errors)."""
    points = [
        (int(ms), int(total))
        for _, ms, total in (line.split() for line in text.splitlines() if line.startswith("answered "))
    ]

    def at(ms):
        before = [p for p in points if p[0] <= ms]
        after = [p for p in points if p[0] >= ms]
        if not before or not after:
            return (before or after)[-1 if before else 0][1]
        (t0, a0), (t1, a1) = before[-1], after[0]
        return a0 if t1 == t0 else a0 + (a1 - a0) * (ms - t0) / (t1 - t0)

    return int(at(end_ms) - at(start_ms)), 0


def jfr_settings(out):
    """The JDK's profile settings, or with JFR_SETTINGS=fine a copy of them sampling Java every 1 ms (20 ms)."""
    if os.environ.get("JFR_SETTINGS") != "fine":
        return "profile"
    java_home = Path(shutil.which("java")).resolve().parent.parent
    text = (java_home / "lib/jfr/profile.jfc").read_text()
    text = re.sub(
        r'(<event name="jdk.ExecutionSample">.*?<setting name="period"[^>]*>)[^<]*(</setting>)',
        r"\g<1>1 ms\2",
        text,
        flags=re.S,
    )
    (out / "fine.jfc").write_text(text)
    return out / "fine.jfc"


def load_average():
    return Path("/proc/loadavg").read_text().split()[:3]


def class_histogram(pid, path):
    """The JVM's live objects by class (jcmd GC.class_histogram: a full GC first, so only what is reachable),
    kept in `path`; bench/server_memory.py reads the server's and JMeter's with it."""
    histogram = subprocess.run(
        ["jcmd", str(pid), "GC.class_histogram"], capture_output=True, text=True, timeout=120
    ).stdout
    path.write_text(histogram)
    return histogram


def histogram_total_kb(histogram):
    """A class histogram's live bytes in all (its Total line), in KB."""
    return next(int(line.split()[2]) for line in histogram.splitlines() if line.startswith("Total")) // 1024


def by_kind_per_session(before, after, sessions):
    """CPU us per session by thread kind between two switches_by_kind readings, the busiest first."""
    spent = {kind: after[kind][2] - before.get(kind, (0, 0, 0.0))[2] for kind in after}
    return {
        kind: round(seconds / sessions * 1e6)
        for kind, seconds in sorted(spent.items(), key=lambda kv: -kv[1])
        if seconds > 0.05
    }


def lean_connect_binary(out):
    """bench/lean-connect (Go, gorilla/websocket) built once into the results directory."""
    binary = out / "lean-connect"
    if not binary.exists():
        subprocess.run(["go", "build", "-o", str(binary), "."], cwd=ROOT / "bench/lean-connect", check=True)
    return binary


def poll_cpu(pid, server_pid, seconds, by_kind=False):
    """(time, JMeter CPU s, server CPU s) every 0.25 s for that long: who was busy while sessions connected; with
    {by_kind}, JMeter's threads by kind too (switches_by_kind)."""
    polls = []
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            polls.append(
                (
                    time.time(),
                    proc_cpu_seconds(pid),
                    proc_cpu_seconds(server_pid),
                    switches_by_kind(pid) if by_kind else None,
                )
            )
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


def measure_window(pid, server_pid):
    """`pid`'s CPU, its context switches and CPU by thread kind, its kernel CPU and the server's CPU over WINDOW_S
    seconds from now; the window's bounds in epoch ms and the JVM's threads at its end."""
    cpu0, kinds0, t0 = proc_cpu_seconds(pid), switches_by_kind(pid), time.time()
    server0, sys0 = proc_cpu_seconds(server_pid), proc_system_seconds(pid)
    time.sleep(ENV["WINDOW_S"])
    cpu1, kinds1, t1 = proc_cpu_seconds(pid), switches_by_kind(pid), time.time()
    server1, sys1 = proc_cpu_seconds(server_pid), proc_system_seconds(pid)
    per_kind = kinds_between(kinds0, kinds1)
    return {
        "start_ms": int(t0 * 1000),
        "end_ms": int(t1 * 1000),
        "cpu": cpu1 - cpu0,
        "server_cpu": server1 - server0,
        "system": sys1 - sys0,
        "per_kind": per_kind,
        "threads": proc_status(pid, "Threads"),
    }


def per_round_trip(window, done):
    """A window's figures per round trip answered in it (`done`)."""
    n = max(done, 1)
    return {
        "per_s": done / ((window["end_ms"] - window["start_ms"]) / 1000),
        "cpu_us": 1e6 * window["cpu"] / n,
        "cs": sum(d for _, d, _ in window["per_kind"].values()) / n,
        "threads": window["threads"],
        "server_cpu_us": 1e6 * window["server_cpu"] / n,
        "system_share": window["system"] / max(window["cpu"], 1e-9),
        "kinds": kinds_per(window["per_kind"], done),
    }


nan = float("nan")


def established_to(pid, port):
    """The process's TCP connections to the server's port that are established (`ss -p`; as root)."""
    done = subprocess.run(
        ["ss", "-Htnp", "state", "established", f"( dport = :{port} )"], capture_output=True, text=True
    )
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
        print(
            f"{jtl.name}: {count:,} of {users:,} users connected after {seconds:.0f} s; the warm-up starts anyway",
            flush=True,
        )
    return count, seconds


def stop_jmeter(console, command=b"Shutdown"):
    """Ends a run whose window is over through JMeter's own stop port (the one its console names), as
    bin/shutdown.sh does: the run's duration is only an upper bound once the warm-up waits for the connects."""
    found = re.search(r"message on port (\d+)", console.read_text(errors="replace")) if console.exists() else None
    if found:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
            udp.sendto(command, ("127.0.0.1", int(found.group(1))))


def closed_users():
    """CLOSED_USERS: the closed part's users (2,000), for ours, the incumbent and the floors alike."""
    return int(os.environ.get("CLOSED_USERS", "2000"))


def closed_pause_ms():
    """CLOSED_PAUSE_MS: each closed-loop user's pause after its round trip (1,000 ms)."""
    return int(os.environ.get("CLOSED_PAUSE_MS", "1000"))


def closed_threads():
    """CLOSED_THREADS: ours on that many threads (else echo.jmx's default, users / 1000 and at least 2);
    CLOSED_REPLY_TIMEOUT_MS: ours and the lean client's reply timeout (else 5,000 ms, echo.jmx's default)."""
    found = {"threads": int(os.environ["CLOSED_THREADS"])} if os.environ.get("CLOSED_THREADS") else {}
    if os.environ.get("CLOSED_REPLY_TIMEOUT_MS"):
        found["replyTimeoutMillis"] = int(os.environ["CLOSED_REPLY_TIMEOUT_MS"])
    return found


def await_line(log, text, process, timeout=180):
    deadline = time.time() + timeout
    while time.time() < deadline and process.poll() is None:
        if log.exists() and text in log.read_text(errors="replace"):
            return
        time.sleep(0.2)
    raise RuntimeError(f"no '{text}' in {log}")


class Option(NamedTuple):
    """A command-line option whose default is an environment variable's value; a value given sets that variable
    for the run (the parts read their settings there, and variants by name: $HOME_K)."""

    env: str
    default: object
    help: str
    type: Callable = str

    @property
    def flag(self):
        return "--" + self.env.lower().replace("_", "-")


def whole(text):
    """An argparse type: a whole number, the bad value quoted."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None


def whole_or_unset(text):
    """An argparse type: a whole number, or empty for "not set" (the part's own default then)."""
    return None if text in ("", None) else whole(text)


#: The options of every part: rounds and windows, the server, profiling, the JVMs.
COMMON_OPTIONS = [
    Option("ROUNDS", 3, "alternating rounds; every figure is the median over them", whole),
    Option("WARMUP_S", 15, "seconds from a run's start (or its last connect) to its steady window", whole),
    Option("WINDOW_S", 20, "seconds of the steady window the figures are taken over", whole),
    Option(
        "BROKER",
        "",
        "rabbitmq: a RabbitMQ already running on loopback instead of the demo server "
        "(many, many-rate, connects, closed; bench/README.md says how to set it up)",
    ),
    Option("BROKER_PORT", 15674, "RabbitMQ's Web-STOMP port", whole),
    Option("BROKER_MANAGEMENT_PORT", 15672, "RabbitMQ's management API, asked whether it has settled", whole),
    Option("JFR", "", "record a JFR of one run's window: 1 (echo), fire, many-rate, connects, closed"),
    Option("JFR_SETTINGS", "", "fine: the JDK's profile settings sampling Java every 1 ms"),
    Option("JVM_EXTRA", "", "JVM options added to every JMeter run, both sides"),
]


def parse(doc, sections, options, default_parts, argv=None):
    """The parsed command line of a part's script: which of its parts (`sections`' names) and its options, each
    given one written to its environment variable (`apply`)."""
    names = [name for names, _ in sections for name in names]
    first, _, rest = doc.partition("\n\n")
    parser = argparse.ArgumentParser(
        description=first, epilog=rest, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "parts", nargs="*", metavar="PART", help=f"which of {', '.join(names)} (default: {' '.join(default_parts)})"
    )
    for option in COMMON_OPTIONS + options:
        parser.add_argument(
            option.flag,
            dest=option.env,
            type=option.type,
            metavar=option.env,
            default=os.environ.get(option.env, str(option.default)),
            help=f"{option.help} (default ${option.env}, else {option.default!r})",
        )
    args = parser.parse_args(argv)
    unknown = [p for p in args.parts if p not in names]
    if unknown:
        parser.error(f"unknown part {unknown[0]!r}: one of {', '.join(names)}")
    args.parts = args.parts or list(default_parts)
    apply(args, COMMON_OPTIONS + options)
    return args


def main(doc, sections, options, default_parts, argv=None):
    """A part's script: its command line (`parse`), then its chosen parts (`run`)."""
    return run(parse(doc, sections, options, default_parts, argv).parts, sections)


def apply(args, options):
    """Writes each option's value to its environment variable (an empty or unset value leaves it unset), and
    reads the whole-number settings again."""
    for option in options:
        value = getattr(args, option.env)
        if value not in ("", None):
            os.environ[option.env] = str(value)
    ENV.update(read_env())


#: The parts a broker can serve: echo, fire and held need the demo server's /app/echo.
BROKER_PARTS = {"many", "many-rate", "connects", "closed"}


def run(parts, sections):
    """Runs the chosen parts against one server into one results directory (results/bench-generator-<time>), each
    section's lines into summary.md, and prints the summary. `sections`: (names, function(server, out, chosen))."""
    if not (OURS_HOME / "bin/jmeter").exists():
        sys.exit("run 'make jmeter' first")
    broker = os.environ.get("BROKER", "")
    if broker not in ("", "rabbitmq"):
        sys.exit(f"BROKER={broker}: only rabbitmq (or unset: the demo server)")
    if broker and not set(parts) <= BROKER_PARTS:
        sys.exit(
            "BROKER=rabbitmq measures many, many-rate, connects and closed only (echo, fire and held need the "
            "demo server's /app/echo)"
        )
    if set(parts) - {"connects"}:
        incumbent_home()
    out = ROOT / "results" / time.strftime("bench-generator-%Y%m%d-%H%M%S")
    out.mkdir(parents=True)
    server = Broker(int(os.environ.get("BROKER_PORT", "15674"))) if broker else DemoServer(out)
    lines = [
        f"# Generator efficiency, {time.strftime('%Y-%m-%d %H:%M')}",
        "",
        f"{os.cpu_count()} cores; JMeter 5.6.3, heap {HEAP} on both sides; "
        f"{'RabbitMQ Web-STOMP' if broker else 'demo server'} on the same machine; "
        f"{ENV['ROUNDS']} alternating rounds, medians; steady window {ENV['WINDOW_S']} s after "
        f"{ENV['WARMUP_S']} s.",
        "",
    ]
    try:
        for names, section in sections:
            chosen = [name for name in names if name in parts]
            if chosen:
                lines += section(server, out, chosen)
    finally:
        server.stop()
    summary = "\n".join(lines)
    (out / "summary.md").write_text(summary)
    print(summary)
    print(f"results in {out}")
    return 0


def tool_connect_row(name, side, users, found, server_cpu):
    """A connects row from a tool of its own (the lean client, the connect floor): its figures line's key=value pairs
    ({found}) and the server's CPU seconds over the whole run (its 2 s hold and the closes included: an upper bound)."""
    connected = int(found["connected"])
    row = {
        "run": name,
        "in_flight": side,
        "users": users,
        "threads": "-",
        "connected": connected,
        "failed": int(found["failed"]),
        "per_s": float(found["per_s"]),
        "p50_ms": float(found["p50_ms"]),
        "cpu_us": float(found["cpu_us_per_session"]),
        "server_cpu_us": server_cpu / max(connected, 1) * 1e6,
    }
    if "cpu_us_second_half" in found:
        row["cpu_us_second_half"] = float(found["cpu_us_second_half"])
    return row
