#!/usr/bin/env bash
# Manual check of JMeter 5.6.3's GUI with the plugin, under Xvfb (not part of `make test`):
#   1. the Java Request panel of each sampler with its parameters and their defaults, and the classname list
#   2. jmx/echo.jmx run from the GUI as README tells a GUI user (2 users, the demo server's login steps
#      -JindexPath=/index -JpullPath=/clientPull, the demo server on a random port), with a View Results Tree and a
#      Summary Report added as the plan's first nodes (in a copy), started with Ctrl+R. FAILS unless every message of
#      that run was answered and each message's row shows what a GUI user came to see, read from the run's own
#      files: the Summary Report's results file (XML with request and response data: every sample successful, a
#      reply row per message, each with its SEND as request and the reply as response data, no echo rows), the
#      timing log (every record ANSWERED, one per reply row) and the plugin's books (sent = answered, nothing lost
#      or failed). Screenshots while running and of both listeners afterwards.
#   3. every jmx/*.jmx opened and saved by the GUI (Ctrl+S), once right after loading and once after visiting
#      every node: the second save must equal the file byte for byte; the first may only add enabled="true"
#      (JMeter 5.6.3 marks the nodes it loaded but never displayed)
# Screenshots (PNG), logs, the run's results and a summary go to target/gui-check/. Exit status 0 only when the
# run answered every message and no plan changed when saved; otherwise 1 with the reason on stderr.
#
#   scripts/gui-check.sh                      (make gui-check)
#   GUI_CHECK_BREAK=1 scripts/gui-check.sh    the run without the login steps: every handshake is refused (403),
#                                             the check must fail (a test of the check itself)
#   GUI_CHECK_STEPS="run" scripts/gui-check.sh   only some of the steps (defaults, run, save; default: all three)
#
# Needs Xvfb, xdotool and ImageMagick's import. On Debian or Ubuntu:
#   sudo apt-get install --no-install-recommends xvfb xdotool imagemagick
# (the script runs that apt-get itself when one is missing and it runs as root).
# Environment: GUI_CHECK_TIMEOUT (s, default 1500) bounds the whole script; GUI_RUN_SECONDS (default 30) the run's
# duration, the warm-up and the connects included; DISPLAY_NUMBER (default: the first free one from 91). Cleans up
# what it started (JMeter, Xvfb, demo server) however it ends.
set -euo pipefail

if [ -z "${GUI_CHECK_INNER:-}" ]; then
  exec timeout --signal=TERM --kill-after=30 "${GUI_CHECK_TIMEOUT:-1500}" env GUI_CHECK_INNER=1 bash "$0" "$@"
fi

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out="$root/target/gui-check"
run_seconds=${GUI_RUN_SECONDS:-30}
plans=(connect send greetings chat push echo)

log() { echo "gui-check: $*"; }
die() { echo "gui-check: FAIL: $*" >&2; exit 1; }

# ------------------------------------------------------------------------------------------ tools
missing=()
command -v Xvfb >/dev/null || missing+=(xvfb)
command -v xdotool >/dev/null || missing+=(xdotool)
command -v import >/dev/null || missing+=(imagemagick)
if [ ${#missing[@]} -gt 0 ]; then
  install="apt-get install --no-install-recommends ${missing[*]}"
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    die "missing ${missing[*]}: install them first (Debian/Ubuntu: sudo $install)"
  fi
  log "installing ${missing[*]} ($install)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
steps=" ${GUI_CHECK_STEPS:-defaults run save} "

# ------------------------------------------------------------------------------------------ cleanup
server_pid=
xvfb_pid=
jmeter_pid=
stop_pid() {  # pid [group]: TERM, then KILL after 10 s; a group is the one this script made with setsid
  local pid=$1 target=$1
  [ -n "$pid" ] || return 0
  [ "${2:-}" = group ] && target="-$pid"
  kill -TERM -- "$target" 2>/dev/null || return 0
  for _ in $(seq 20); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.5; done
  kill -KILL -- "$target" 2>/dev/null || true
}
# shellcheck disable=SC2329  # invoked by the EXIT trap
cleanup() {
  stop_pid "$jmeter_pid"
  stop_pid "$xvfb_pid"
  stop_pid "$server_pid" group
}
trap cleanup EXIT
trap 'exit 143' TERM INT

rm -rf "$out"
mkdir -p "$out/save-check"

# ------------------------------------------------------------------------------------------ build, JMeter home, server
cd "$root"
if ! ls target/jmeter-sockjs-stomp-*.jar >/dev/null 2>&1; then
  log "building the plugin jar"
  mvn -q -B -DskipTests package
fi
scripts/jmeter-home.sh >/dev/null
jmeter="$root/target/jmeter/bin/jmeter"

log "starting the demo server"
setsid scripts/demo-server.sh --port 0 --port-file "$out/demo.port" >"$out/demo-server.log" 2>&1 &
server_pid=$!
for _ in $(seq 240); do [ -s "$out/demo.port" ] && break; kill -0 "$server_pid" 2>/dev/null || break; sleep 0.5; done
[ -s "$out/demo.port" ] || die "demo server did not start (see $out/demo-server.log)"
port=$(cat "$out/demo.port")
log "demo server on 127.0.0.1:$port"

# ------------------------------------------------------------------------------------------ X
display=${DISPLAY_NUMBER:-}
if [ -z "$display" ]; then
  for n in $(seq 91 120); do
    [ -e "/tmp/.X$n-lock" ] || [ -e "/tmp/.X11-unix/X$n" ] || { display=$n; break; }
  done
fi
[ -n "$display" ] || die "no free X display number"
Xvfb ":$display" -screen 0 1600x1000x24 -nolisten tcp >"$out/xvfb.log" 2>&1 &
xvfb_pid=$!
export DISPLAY=":$display"
for _ in $(seq 40); do xdotool getmouselocation >/dev/null 2>&1 && break; sleep 0.25; done
xdotool getmouselocation >/dev/null 2>&1 || die "Xvfb :$display did not start"

# ------------------------------------------------------------------------------------------ GUI helpers
window=
gui_start() {  # plan.jmx log-name [jmeter args...]: starts the GUI on a plan, waits for its main window
  local plan=$1 name=$2
  shift 2
  (cd "$out" && HEAP="-Xms256m -Xmx768m" JVM_ARGS="-Dsockjsstomp.logfile=$out/$name-sockjs-stomp.log" \
    exec "$jmeter" -t "$plan" -j "$out/$name-jmeter.log" -Jjmeter.gui.action.save.backup_on_save=false "$@" \
    >"$out/$name-console.txt" 2>&1) &
  jmeter_pid=$!
  window=
  for _ in $(seq 180); do
    window=$(xdotool search --name "$(basename "$plan") .*Apache JMeter" 2>/dev/null | head -n 1 || true)
    [ -n "$window" ] && break
    kill -0 "$jmeter_pid" 2>/dev/null || die "JMeter GUI exited (see $out/$name-console.txt)"
    sleep 0.5
  done
  [ -n "$window" ] || die "no JMeter window for $plan"
  # The window comes long before the plan is loaded and shown (half a minute on a busy machine): keys sent
  # before that are lost. The log says when the plan is in.
  for _ in $(seq 240); do
    grep -q "SaveService: Loading file: $plan" "$out/$name-jmeter.log" 2>/dev/null && break
    kill -0 "$jmeter_pid" 2>/dev/null || die "JMeter GUI exited (see $out/$name-console.txt)"
    sleep 0.5
  done
  grep -q "SaveService: Loading file: $plan" "$out/$name-jmeter.log" || die "JMeter did not load $plan"
  wait_idle
  # no window manager: size it ourselves, then let Swing lay it out
  xdotool windowmove "$window" 0 0 windowsize "$window" 1600 1000
  sleep 1
  wait_idle
  tree_home
}
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$jmeter_pid/stat" 2>/dev/null || echo 0; }
wait_idle() {  # [seconds, default 2]: until JMeter's JVM has used under 0.15 s of CPU a second that long (at most 120 s)
  # A loaded GUI is still laying out and painting long after the plan is in: a key or click it gets meanwhile
  # lands elsewhere or nowhere. Idle, it handles them at once.
  local before now quiet=0
  before=$(cpu_ticks)
  for _ in $(seq 120); do
    sleep 1
    now=$(cpu_ticks)
    if [ $((now - before)) -lt 15 ]; then
      quiet=$((quiet + 1))
      [ "$quiet" -ge "${1:-2}" ] && return 0
    else
      quiet=0
    fi
    before=$now
  done
  log "JMeter's GUI still busy after 120 s; going on"
}
gui_run() {  # log-name: starts the loaded plan with Ctrl+R (the Run menu's Start) until the log says it runs
  local attempt
  # A busy machine's GUI may take a minute to handle the keys; a second press while the test runs is ignored.
  for attempt in 1 2 3; do
    xdotool mousemove --window "$window" 120 66 click 1
    sleep 0.5
    xdotool key ctrl+r
    for _ in $(seq 120); do
      grep -q 'Running the test!' "$out/$1-jmeter.log" && return 0
      sleep 0.5
    done
    log "Ctrl+R attempt $attempt did not start the test yet"
  done
  die "Ctrl+R did not start the test (see $out/$1-jmeter.log)"
}
gui_stop() {
  stop_pid "$jmeter_pid"
  jmeter_pid=
}
tree_home() {  # focuses the tree, expands every node and selects the Test Plan (row 0)
  xdotool mousemove --window "$window" 120 66 click 1
  sleep 0.5
  xdotool key ctrl+shift+minus   # Expand All
  sleep 0.5
  xdotool key Home
  wait_idle
}
tree_row() {  # selects row N of the fully expanded tree
  tree_home
  for _ in $(seq "$1"); do xdotool key Down; sleep 0.25; done
  wait_idle
}
save_and_wait() {  # file: Ctrl+S on the tree until the file is written (its mtime moves on); 3 tries, 8 s each
  local before attempt
  before=$(stat -c %Y "$1")
  for attempt in 1 2 3; do
    xdotool mousemove --window "$window" 120 66 click 1   # the tree has the focus; Test Plan selected
    sleep 0.5
    xdotool key ctrl+s
    for _ in $(seq 16); do
      sleep 0.5
      [ "$(stat -c %Y "$1")" != "$before" ] && { sleep 1; return 0; }
    done
    log "Ctrl+S attempt $attempt did not save $(basename "$1") yet"
  done
  return 1
}
shot() {
  import -window root "$out/$1.png"
  log "screenshot target/gui-check/$1.png"
}

# ------------------------------------------------------------------------------------------ plans for the GUI
python3 - "$root" "$out" <<'EOF'
import sys, pathlib
root, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])

# 1. three Java Requests without arguments: the GUI fills in each sampler's parameters and defaults
samplers = ["StompConnectSampler", "StompSendSampler", "StompReceiveSampler"]
body = "".join(
    f'<JavaSampler guiclass="JavaTestSamplerGui" testclass="JavaSampler" testname="{name}">'
    '<elementProp name="arguments" elementType="Arguments" guiclass="ArgumentsPanel" testclass="Arguments">'
    '<collectionProp name="Arguments.arguments"/></elementProp>'
    f'<stringProp name="classname">io.github.sockjsstomp.sampler.{name}</stringProp></JavaSampler><hashTree/>'
    for name in samplers)
(out / "defaults.jmx").write_text(
    '<?xml version="1.0" encoding="UTF-8"?>\n<jmeterTestPlan version="1.2" properties="5.0" jmeter="5.6.3"><hashTree>'
    '<TestPlan guiclass="TestPlanGui" testclass="TestPlan" testname="sampler defaults">'
    '<elementProp name="TestPlan.user_defined_variables" elementType="Arguments" guiclass="ArgumentsPanel" '
    'testclass="Arguments" testname="User Defined Variables"><collectionProp name="Arguments.arguments"/>'
    '</elementProp></TestPlan><hashTree>'
    '<ThreadGroup guiclass="ThreadGroupGui" testclass="ThreadGroup" testname="one user">'
    '<elementProp name="ThreadGroup.main_controller" elementType="LoopController" guiclass="LoopControlPanel" '
    'testclass="LoopController" testname="Loop Controller"><stringProp name="LoopController.loops">1</stringProp>'
    '</elementProp><stringProp name="ThreadGroup.num_threads">1</stringProp></ThreadGroup>'
    f'<hashTree>{body}</hashTree></hashTree></hashTree></jmeterTestPlan>\n')

# 2. echo.jmx with two listeners, for the GUI run only (the plans in jmx/ have none)
save_config = ("<objProp><name>saveConfig</name><value class=\"SampleSaveConfiguration\">"
               + "".join(f"<{f}>true</{f}>" for f in ["time", "latency", "timestamp", "success", "label", "code",
                                                     "message", "threadName", "dataType", "assertions",
                                                     "subresults", "fieldNames", "bytes", "sentBytes", "url",
                                                     "threadCounts", "idleTime", "connectTime"])
               + "<encoding>false</encoding><responseData>true</responseData><samplerData>true</samplerData>"
               "<xml>true</xml><responseHeaders>false</responseHeaders><requestHeaders>false</requestHeaders>"
               "<responseDataOnError>false</responseDataOnError>"
               "<saveAssertionResultsFailureMessage>true</saveAssertionResultsFailureMessage>"
               "<assertionsResultsToSave>0</assertionsResultsToSave></value></objProp>")
# The Summary Report writes the run's results file, the evidence the check reads (the View Results Tree none, so
# each sample is written once): XML, with each sample's request (sampler data) and response data, what a GUI user
# sees of a row in the View Results Tree.
listeners = "".join(
    f'<ResultCollector guiclass="{gui}" testclass="ResultCollector" testname="{name}">'
    f'<boolProp name="ResultCollector.error_logging">false</boolProp>{save_config}'
    f'<stringProp name="filename">{results}</stringProp></ResultCollector><hashTree/>'
    for gui, name, results in [("ViewResultsFullVisualizer", "View Results Tree", ""),
                               ("SummaryReport", "Summary Report", out / "echo-run-results.xml")])
echo = (root / "jmx" / "echo.jmx").read_text()
# The plan's first nodes, as rows 1 and 2 of its tree whether the thread group is expanded or not.
start = "</TestPlan>\n    <hashTree>\n"
assert echo.count(start) == 1, "unexpected start of jmx/echo.jmx"
(out / "echo-run.jmx").write_text(echo.replace(start, start + listeners + "\n"))
EOF

# ------------------------------------------------------------------------------------------ 1. sampler defaults
if [[ $steps == *" defaults "* ]]; then
  log "GUI: the three samplers' Java Request panels"
  gui_start "$out/defaults.jmx" defaults
  # rows: 0 Test Plan, 1 one user, 2 connect, 3 send, 4 receive
  tree_row 2; shot 01-connect-sampler-defaults
  tree_row 3; shot 02-send-sampler-defaults
  tree_row 4; shot 03-receive-sampler-defaults
  # the classname list: the combo's arrow, at the right end of the classname row of the panel
  xdotool mousemove --window "$window" 1576 164 click 1
  wait_idle
  shot 04-classname-list
  xdotool key Escape
  gui_stop
fi

# ------------------------------------------------------------------------------------------ 2. a run from the GUI
# How many users: `users` once the plans read the users file from `usersFile`; until then `users` is that file and
# -Jthreads alone says it.
users_args=(-Jthreads=2)
grep -q '__P(usersFile' jmx/echo.jmx && users_args+=(-Jusers=2)
login_args=(-JindexPath=/index -JpullPath=/clientPull)
if [ "${GUI_CHECK_BREAK:-0}" = 1 ]; then
  log "GUI_CHECK_BREAK=1: the run leaves out the login steps; the demo server refuses every handshake"
  login_args=()
fi
judge_run() {  # the run's own files: books, timing log, results; prints what it found, status 1 unless all answered
  python3 - "$out" <<'PY'
import csv, pathlib, re, sys
import xml.etree.ElementTree as ET
out = pathlib.Path(sys.argv[1])
problems, facts = [], []
log = out / "echo-run-sockjs-stomp.log"
books = re.search(r"STOMP timing books: sent=(\d+) answered=(\d+) lost=(\d+) failed=(\d+)",
                  log.read_text() if log.exists() else "")
if books is None:
    problems.append(f"no books line in {log.name}: the run sent nothing")
else:
    sent, answered, lost, failed_n = map(int, books.groups())
    facts.append(f"books sent={sent} answered={answered} lost={lost} failed={failed_n}")
    if sent == 0 or sent != answered:
        problems.append(f"not every message answered (sent={sent} answered={answered} lost={lost} failed={failed_n})")
timing = out / "echo-run-timing.csv"
records = [line.split(",") for line in timing.read_text().splitlines()[1:]] if timing.exists() else []
outcomes = {}
for r in records:
    outcomes[r[1]] = outcomes.get(r[1], 0) + 1
facts.append("timing log " + (", ".join(f"{n} {o}" for o, n in sorted(outcomes.items())) or "empty"))
if not records or set(outcomes) != {"ANSWERED"}:
    problems.append(f"timing log: {', '.join(f'{n} {o}' for o, n in sorted(outcomes.items())) or 'no records'}")
results = out / "echo-run-results.xml"
# The results file's top-level samples (a session's steps are nested in it), as a GUI user sees the rows.
rows = list(ET.parse(results).getroot()) if results.exists() else []
replies = [r for r in rows if r.get("lb", "").startswith("reply ")]
failed = [r for r in rows if r.get("s") != "true"]
facts.append(f"{len(rows)} samples ({len(replies)} reply rows), {len(failed)} failed")
if not replies:
    problems.append(f"no reply row in {results.name}")
elif records and len(records) != len(replies):
    problems.append(f"{len(records)} timing records for {len(replies)} reply rows")
if any(r.get("lb") == "echo" for r in rows):
    problems.append("echo rows in the listeners: they gather round trips, the reply rows are the messages")
# A message's row carries its SEND as the request and the reply as the response data (the echo of its payload,
# which names the message's id), as the View Results Tree shows them.
for r in replies:
    msg_id = re.search(r"Reply to (\S+)", r.get("rm", ""))
    request = (r.findtext("samplerData") or "")
    response = (r.findtext("responseData") or "")
    if msg_id is None or not request.startswith("SEND ") or msg_id.group(1) not in request:
        problems.append(f"a reply row without its SEND as request: {r.get('rm')!r}, request {request[:80]!r}")
        break
    if response == msg_id.group(1) or msg_id.group(1) not in response:
        problems.append(f"a reply row without the reply as response data: {r.get('rm')!r}, response {response[:80]!r}")
        break
else:
    if replies:
        facts.append("every reply row carries its SEND and its reply")
if failed:
    r = failed[0]
    problems.append(f"{len(failed)} failed samples, the first: {r.get('lb')} {r.get('rc')} {r.get('rm')}")
print("GUI run: " + "; ".join(facts))
for p in problems:
    print("GUI run: FAILED: " + p)
sys.exit(1 if problems else 0)
PY
}
if [[ $steps == *" run "* ]]; then
  log "GUI: jmx/echo.jmx (with two listeners) run with 2 users for $run_seconds s: ${users_args[*]} ${login_args[*]}"
  gui_start "$out/echo-run.jmx" echo-run "${users_args[@]}" "${login_args[@]}" -Jhost=127.0.0.1 -Jport="$port" \
    -JrampUp=0 -Jduration="$run_seconds" -JpauseMillis=500 -JreplyTimeoutMillis=3000 \
    -JtimingLog="$out/echo-run-timing.csv"
  # rows: 0 Test Plan, 1 View Results Tree, 2 Summary Report, 3 users, ...
  gui_run echo-run
  sleep 6
  tree_row 1; shot 05-echo-running-view-results-tree
  for _ in $(seq $((run_seconds * 2 + 120))); do
    grep -q 'Notifying test listeners of end of test' "$out/echo-run-jmeter.log" 2>/dev/null && break
    sleep 0.5
  done
  grep -q 'Notifying test listeners of end of test' "$out/echo-run-jmeter.log" || die "the GUI run did not end"
  wait_idle
  tree_row 1
  # the first sample in the View Results Tree's own result tree (left part of the listener panel)
  xdotool mousemove --window "$window" 520 330 click 1
  wait_idle
  shot 06-view-results-tree
  # its Response data tab: the echoed payload
  xdotool mousemove --window "$window" 858 268 click 1
  wait_idle
  shot 07-view-results-tree-response
  tree_row 2; shot 08-summary-report
  gui_stop
  judge_run | tee "$out/run-verdict.txt" || die "the GUI run of jmx/echo.jmx: $(grep 'FAILED: ' \
    "$out/run-verdict.txt" | sed -n '1p;$p' | sed 's/^GUI run: FAILED: //' | paste -sd '|' - | sed 's/|/; /') (target/gui-check/echo-run-*)"
fi

# ------------------------------------------------------------------------------------------ 3. open + save
summary="$out/summary.txt"
[ -f "$out/run-verdict.txt" ] && cat "$out/run-verdict.txt" >"$summary"
for plan in "${plans[@]}"; do
  [[ $steps == *" save "* ]] || break
  copy="$out/save-check/$plan.jmx"
  cp "jmx/$plan.jmx" "$copy"
  log "GUI: open + save jmx/$plan.jmx"
  touch -d '2000-01-01' "$copy"
  gui_start "$copy" "save-$plan"
  save_and_wait "$copy" || die "Ctrl+S did not save $copy"
  cp "$copy" "$out/save-check/$plan-first-save.jmx"
  if diff -q <(sed 's/ enabled="true"//' "$copy") "jmx/$plan.jmx" >/dev/null; then
    first="same but for enabled=\"true\" on $(grep -c ' enabled="true"' "$copy" || true) elements"
    cmp -s "$copy" "jmx/$plan.jmx" && first="byte-identical"
  else
    first="DIFFERENT"
    diff "jmx/$plan.jmx" "$copy" >"$out/save-check/$plan-first-save.diff" || true
  fi
  # visit every node (each element is followed by one hashTree), then save again
  nodes=$(( $(grep -c '<hashTree' "jmx/$plan.jmx") - 1 ))
  tree_home
  # each node's panel shown before the next key (a node passed over unshown keeps its enabled="true")
  for _ in $(seq "$nodes"); do xdotool key Down; wait_idle 1; done
  touch -d '2000-01-01' "$copy"
  save_and_wait "$copy" || die "Ctrl+S did not save $copy"
  if cmp -s "$copy" "jmx/$plan.jmx"; then
    second="byte-identical"
  else
    second="DIFFERENT"
    diff "jmx/$plan.jmx" "$copy" >"$out/save-check/$plan-second-save.diff" || true
  fi
  gui_stop
  echo "$plan: save right after open: $first; save after visiting $nodes nodes: $second" | tee -a "$summary"
done

errors=$(cat "$out"/*-jmeter.log | grep -c -E ' (ERROR|FATAL) ' || true)
echo "ERROR lines in the GUI sessions' jmeter logs: $errors (see target/gui-check/*-jmeter.log)" | tee -a "$summary"
log "done: screenshots in target/gui-check/*.png, summary in target/gui-check/summary.txt"
if grep -q DIFFERENT "$summary"; then
  die "a plan changed when saved by the GUI (diffs in target/gui-check/save-check/)"
fi
exit 0
