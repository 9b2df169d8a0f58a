#!/usr/bin/env bash
# The main job (make demo): a real load test of the embedded demo server with JMeter 5.6.3 and the plugin,
# headless, about a minute at a modest rate, then the aggregated report. Everything lands in one folder:
#   results/demo-<time>/ results.jtl, timing.csv, jmeter.log, dashboard/ (JMeter's HTML), analysis/ (ours)
# Overrides: DEMO_USERS virtual users (20, on 2 JMeter threads), DEMO_DURATION seconds (60),
#            DEMO_MESSAGES_PER_SECOND messages per second, all users together (100), DEMO_TRANSPORT (auto),
#            HEAP (-Xms1g -Xmx1g).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

[ -z "${DEMO_THREADS:-}" ] || { echo "demo: DEMO_THREADS is now DEMO_USERS (virtual users)" >&2; exit 2; }
[ -z "${DEMO_THROUGHPUT:-}" ] || {
  echo "demo: DEMO_THROUGHPUT (messages per minute) is now DEMO_MESSAGES_PER_SECOND (messages per second:" \
    "divide by 60)" >&2
  exit 2
}
users=${DEMO_USERS:-20}
duration=${DEMO_DURATION:-60}
rate=${DEMO_MESSAGES_PER_SECOND:-100}
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
echo "demo: server on http://127.0.0.1:$port; JMeter: $users users, $rate messages/s, ${duration}s, $transport"

HEAP=${HEAP:--Xms1g -Xmx1g} timeout $((duration + 300)) target/jmeter/bin/jmeter -n -t jmx/send.jmx \
  -l "$out/results.jtl" -j "$out/jmeter.log" -e -o "$out/dashboard" \
  -Jhost=127.0.0.1 -Jport="$port" -Jtransport="$transport" -JindexPath=/index -JpullPath=/clientPull \
  -Jusers="$users" -JrampUp=5 \
  -Jduration="$duration" -JmessagesPerSecond="$rate" -JtimingLog="$out/timing.csv"
stop_demo_server
trap - EXIT INT TERM

echo
echo "demo: aggregating"
.venv/bin/python analysis/aggregate.py "$out/timing.csv" --jtl "$out/results.jtl" \
  --label "${users} users @ ${rate}/s" --messages-per-second "$rate" --out "$out/analysis"
echo
# The main job ends 0 only when it delivered what it promises: JMeter's dashboard, our report, and books that
# balance with every message answered (the demo server answers all of them). CI runs it, so a run that broke
# anywhere on the way (a script error, an empty results file, lost messages) fails there, not at a user's.
books=$(grep -h "STOMP timing books" "$out/jmeter.log" | tail -1 | sed 's/^.*STOMP timing books: //' || true)
echo "books: ${books:-none in $out/jmeter.log}"
problems=()
[ -s "$out/dashboard/index.html" ] || problems+=("no JMeter dashboard ($out/dashboard/index.html)")
[ -s "$out/analysis/report.html" ] || problems+=("no report ($out/analysis/report.html)")
if [[ $books =~ sent=([0-9]+)\ answered=([0-9]+)\ lost=([0-9]+)\ failed=([0-9]+)\ pending=([0-9]+) ]]; then
  sent=${BASH_REMATCH[1]} answered=${BASH_REMATCH[2]} lost=${BASH_REMATCH[3]} failed=${BASH_REMATCH[4]}
  pending=${BASH_REMATCH[5]}
  [ "$sent" -gt 0 ] || problems+=("no message sent")
  [ "$sent" -eq $((answered + lost + failed)) ] && [ "$pending" -eq 0 ] \
    || problems+=("books that do not balance: sent=$sent answered=$answered lost=$lost failed=$failed pending=$pending")
  [ $((lost + failed)) -eq 0 ] || problems+=("$lost lost and $failed failed of $sent: the demo server answers every message")
else
  problems+=("no books line in $out/jmeter.log")
fi
echo "demo: results in $root/$out"
echo "  JMeter dashboard: $out/dashboard/index.html"
echo "  timing log:       $out/timing.csv"
echo "  report:           $out/analysis/report.html"
if [ ${#problems[@]} -gt 0 ]; then
  printf 'demo: FAILED: %s\n' "${problems[@]}" >&2
  exit 1
fi
