#!/usr/bin/env bash
# The main job (make demo): a real load test of the embedded demo server with JMeter 5.6.3 and the plugin,
# headless, about a minute at a modest rate, then the aggregated report. Everything lands in one folder:
#   results/demo-<time>/ results.jtl, timing.csv, jmeter.log, dashboard/ (JMeter's HTML), analysis/ (ours)
# Overrides: DEMO_THREADS (20), DEMO_DURATION seconds (60), DEMO_THROUGHPUT messages/minute (6000),
#            DEMO_TRANSPORT (websocket), HEAP (-Xms1g -Xmx1g).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

threads=${DEMO_THREADS:-20}
duration=${DEMO_DURATION:-60}
throughput=${DEMO_THROUGHPUT:-6000}
transport=${DEMO_TRANSPORT:-websocket}
out="results/demo-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out"
[ -x target/jmeter/bin/jmeter ] || { echo "demo: no target/jmeter; run 'make demo' (it builds it)" >&2; exit 1; }
[ -x .venv/bin/python ] || { echo "demo: no .venv; run 'make demo' (it installs it)" >&2; exit 1; }

server_pid=
stop_server() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill "$server_pid" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.2; done
    kill -9 "$server_pid" 2>/dev/null || true
  fi
}
trap stop_server EXIT INT TERM

echo "demo: starting the demo server (log: $out/demo-server.log)"
bash scripts/demo-server.sh --port 0 --port-file "$out/demo.port" > "$out/demo-server.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 600); do
  [ -s "$out/demo.port" ] && break
  kill -0 "$server_pid" 2>/dev/null || { echo "demo: the demo server died:" >&2; tail -20 "$out/demo-server.log" >&2; exit 1; }
  sleep 0.2
done
[ -s "$out/demo.port" ] || { echo "demo: the demo server did not start within 120 s" >&2; exit 1; }
port=$(cat "$out/demo.port")
echo "demo: server on http://127.0.0.1:$port; JMeter: $threads users, $throughput messages/min, ${duration}s, $transport"

HEAP=${HEAP:--Xms1g -Xmx1g} timeout $((duration + 300)) target/jmeter/bin/jmeter -n -t jmx/send.jmx \
  -l "$out/results.jtl" -j "$out/jmeter.log" -e -o "$out/dashboard" \
  -Jhost=127.0.0.1 -Jport="$port" -Jtransport="$transport" -Jthreads="$threads" -JrampUp=5 \
  -Jduration="$duration" -Jthroughput="$throughput" -JtimingLog="$out/timing.csv"
stop_server
trap - EXIT INT TERM

echo
echo "demo: aggregating"
.venv/bin/python analysis/aggregate.py "$out/timing.csv" --jtl "$out/results.jtl" \
  --label "${threads} users @ ${throughput}/min" --target-rate "$throughput" --out "$out/analysis"
echo
grep -h "STOMP timing books" "$out/jmeter.log" | head -1 | sed 's/^.*INFO/books:/' || true
echo "demo: results in $root/$out"
echo "  JMeter dashboard: $out/dashboard/index.html"
echo "  timing log:       $out/timing.csv"
echo "  report:           $out/analysis/report.html"
