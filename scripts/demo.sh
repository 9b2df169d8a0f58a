#!/usr/bin/env bash
# The main job (make demo): a real load test of the embedded demo server with JMeter 5.6.3 and the plugin,
# headless, about a minute at a modest rate, then the aggregated report. Everything lands in one folder:
#   results/demo-<time>/ results.jtl, timing.csv, jmeter.log, dashboard/ (JMeter's HTML), analysis/ (ours)
# Overrides: DEMO_USERS virtual users (20, on 2 JMeter threads), DEMO_DURATION seconds (60), DEMO_THROUGHPUT
#            messages/minute (6000), DEMO_TRANSPORT (auto), HEAP (-Xms1g -Xmx1g).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

users=${DEMO_USERS:-${DEMO_THREADS:-20}}
duration=${DEMO_DURATION:-60}
throughput=${DEMO_THROUGHPUT:-6000}
transport=${DEMO_TRANSPORT:-auto}
out="results/demo-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out"
[ -x target/jmeter/bin/jmeter ] || { echo "demo: no target/jmeter; run 'make demo' (it builds it)" >&2; exit 1; }
[ -x .venv/bin/python ] || { echo "demo: no .venv; run 'make demo' (it installs it)" >&2; exit 1; }

# shellcheck source=scripts/demo-server-lib.sh
. scripts/demo-server-lib.sh
trap stop_demo_server EXIT INT TERM

echo "demo: starting the demo server (log: $out/demo-server.log)"
start_demo_server "$out" "$out/demo-server.log"
port=$DEMO_SERVER_PORT
echo "demo: server on http://127.0.0.1:$port; JMeter: $users users, $throughput messages/min, ${duration}s, $transport"

HEAP=${HEAP:--Xms1g -Xmx1g} timeout $((duration + 300)) target/jmeter/bin/jmeter -n -t jmx/send.jmx \
  -l "$out/results.jtl" -j "$out/jmeter.log" -e -o "$out/dashboard" \
  -Jhost=127.0.0.1 -Jport="$port" -Jtransport="$transport" -JindexPath=/index -JpullPath=/clientPull \
  -Jusers="$users" -JrampUp=5 \
  -Jduration="$duration" -Jthroughput="$throughput" -JtimingLog="$out/timing.csv"
stop_demo_server
trap - EXIT INT TERM

echo
echo "demo: aggregating"
.venv/bin/python analysis/aggregate.py "$out/timing.csv" --jtl "$out/results.jtl" \
  --label "${users} users @ ${throughput}/min" --target-rate "$throughput" --out "$out/analysis"
echo
grep -h "STOMP timing books" "$out/jmeter.log" | head -1 | sed 's/^.*INFO/books:/' || true
echo "demo: results in $root/$out"
echo "  JMeter dashboard: $out/dashboard/index.html"
echo "  timing log:       $out/timing.csv"
echo "  report:           $out/analysis/report.html"
