#!/usr/bin/env bash
# Client-side cost of the plugin, measured with a real JMeter 5.6.3 against the demo server on loopback:
# JMeter's CPU seconds per 1000 answered messages, its peak RSS, and the books from the timing log.
# The server shares the machine, so rates are bounded by it too; CPU per message is the figure to compare.
#
#   bench/client-cost.sh [scenario ...]     (default: paced unthrottled connect)
#     paced        send.jmx, BENCH_THREADS (20) users at BENCH_MESSAGES_PER_SECOND (2000) messages/s in all
#     unthrottled  send.jmx, BENCH_THREADS users, messagesPerSecond=0
#     connect      connect.jmx, BENCH_SESSIONS (2000) sessions ramped over BENCH_RAMP (20) s, held
#     connect-at-once  the same sessions all started at once
#   BENCH_DURATION seconds per scenario (60). Results: results/bench-<time>/summary.md
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
[ -x /usr/bin/time ] || { echo "bench: needs GNU time (apt-get install time)" >&2; exit 1; }
[ -x target/jmeter/bin/jmeter ] || { echo "bench: run 'make jmeter' first" >&2; exit 1; }

threads=${BENCH_THREADS:-20}
duration=${BENCH_DURATION:-60}
[ -z "${BENCH_THROUGHPUT:-}" ] || {
  echo "bench: BENCH_THROUGHPUT (messages per minute) is now BENCH_MESSAGES_PER_SECOND (messages per second:" \
    "divide by 60)" >&2
  exit 2
}
rate=${BENCH_MESSAGES_PER_SECOND:-2000}
sessions=${BENCH_SESSIONS:-2000}
ramp=${BENCH_RAMP:-20}
scenarios=("$@")
[ ${#scenarios[@]} -gt 0 ] || scenarios=(paced unthrottled connect)
out="results/bench-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out"
summary="$out/summary.md"

# shellcheck source=scripts/demo-server-lib.sh
. scripts/demo-server-lib.sh
trap stop_demo_server EXIT INT TERM

server_cpu_seconds() {
  local ticks
  ticks=$(awk '{print $14 + $15}' "/proc/$DEMO_SERVER_PID/stat")
  awk -v t="$ticks" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.1f", t / hz }'
}

# books FILE -> "sent answered lost failed" from a timing log
books() {
  awk -F, 'NR > 1 { if ($2 == "ANSWERED") { if (!($3 in a)) { a[$3] = 1; answered++ } } else if ($2 == "LOST") lost++;
    else if ($2 == "FAILED") failed++ }
    END { printf "%d %d %d %d\n", answered + lost + failed, answered, lost, failed }' "$1"
}

run_jmeter() { # name plan args...
  local name=$1 plan=$2
  shift 2
  HEAP="-Xms2g -Xmx2g" /usr/bin/time -f "%U %S %M %e" -o "$out/$name.time" \
    timeout $((duration + ramp + 300)) target/jmeter/bin/jmeter -n -t "jmx/$plan" -l "$out/$name.jtl" \
    -j "$out/$name-jmeter.log" -Jhost=127.0.0.1 -Jport="$port" -JindexPath=/index -JpullPath=/clientPull "$@" \
      > "$out/$name.out" 2>&1
}

{
  echo "# Client benchmark $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo
  echo "$(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB; JMeter 5.6.3 and the demo server on the same machine, loopback."
  echo
  echo "| scenario | sent | answered | lost | failed | answered/s | JMeter CPU s | JMeter CPU ms per 1000 msgs | JMeter peak RSS MB | server CPU s | jtl samples | jtl errors | sessions connected (span s) |"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
} > "$summary"

for scenario in "${scenarios[@]}"; do
  DEMO_SERVER_JAVA_OPTS="-Xms2g -Xmx2g -XX:+UseG1GC" start_demo_server "$out" "$out/demo-server-$scenario.log"
  port=$DEMO_SERVER_PORT
  echo "bench: $scenario (server port $port)"
  case "$scenario" in
    paced)
      run_jmeter "$scenario" send.jmx -Jthreads="$threads" -JrampUp=2 -Jduration="$duration" \
        -JmessagesPerSecond="$rate" -JtimingLog="$out/$scenario-timing.csv" -JheartbeatMillis=0 ;;
    unthrottled)
      run_jmeter "$scenario" send.jmx -Jthreads="$threads" -JrampUp=2 -Jduration="$duration" -JmessagesPerSecond=0 \
        -JtimingLog="$out/$scenario-timing.csv" -JheartbeatMillis=0 ;;
    connect)
      run_jmeter "$scenario" connect.jmx -Jthreads="$sessions" -JrampUp="$ramp" -Jduration="$duration" \
        -JaliveMillis=5000 ;;
    connect-at-once)
      run_jmeter "$scenario" connect.jmx -Jthreads="$sessions" -JrampUp=0 -Jduration="$duration" \
        -JaliveMillis=5000 ;;
    *) echo "bench: unknown scenario $scenario" >&2; exit 2 ;;
  esac
  server_cpu=$(server_cpu_seconds)
  stop_demo_server
  read -r user sys rss_kb _wall < "$out/$scenario.time"
  cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.1f", u + s }')
  # Response messages hold commas inside quotes: read the .jtl as CSV, not with awk.
  read -r samples errors connects span < <(python3 - "$out/$scenario.jtl" <<'PY'
import csv, sys
samples = errors = 0
connects = []
with open(sys.argv[1], newline="") as f:
    for row in csv.DictReader(f):
        samples += 1
        errors += row["success"] != "true"
        if row["label"] == "connect" and row["success"] == "true":
            connects.append(int(row["timeStamp"]) + int(row["elapsed"]))
span = (max(connects) - min(connects)) / 1000 if connects else 0
print(samples, errors, len(connects), f"{span:.1f}")
PY
)
  if [ -f "$out/$scenario-timing.csv" ]; then
    read -r sent answered lost failed < <(books "$out/$scenario-timing.csv")
    rate=$(awk -v a="$answered" -v d="$duration" 'BEGIN { printf "%.0f", a / d }')
    per1000=$(awk -v c="$cpu" -v a="$answered" 'BEGIN { if (a > 0) printf "%.0f", c * 1000000 / a; else print "-" }')
  else
    sent=- answered=- lost=- failed=- rate=- per1000=-
  fi
  printf '| %s | %s | %s | %s | %s | %s | %s | %s | %d | %s | %s | %s | %s (%s) |\n' "$scenario" "$sent" \
    "$answered" "$lost" "$failed" "$rate" "$cpu" "$per1000" $((rss_kb / 1024)) "$server_cpu" "$samples" "$errors" \
    "$connects" "$span" >> "$summary"
done

echo >> "$summary"
echo "Raw files: $out" >> "$summary"
cat "$summary"
