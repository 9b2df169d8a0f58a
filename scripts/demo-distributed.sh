#!/usr/bin/env bash
# make demo-distributed: JMeter's distributed mode on one machine. Two engines (jmeter -s) on loopback ports,
# a controller that runs jmx/send.jmx on both with -G properties against the demo server, one timing log per
# engine, then the books and percentiles per engine and over both (merged data, never averaged).
#   results/distributed-<time>/ engine-1/, engine-2/ (their logs), timing-<engine>.csv, results.jtl,
#                                 analysis-per-engine/, analysis-merged/
# Overrides: DEMO_USERS virtual users per engine (10), DEMO_DURATION seconds (30), DEMO_MESSAGES_PER_SECOND messages
#            per second per engine (50). RMI runs without SSL here (server.rmi.ssl.disable): for a test on loopback
#            only.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

users=${DEMO_USERS:-${DEMO_THREADS:-10}}
duration=${DEMO_DURATION:-30}
[ -z "${DEMO_THROUGHPUT:-}" ] || {
  echo "demo-distributed: DEMO_THROUGHPUT (messages per minute) is now DEMO_MESSAGES_PER_SECOND (messages per" \
    "second: divide by 60)" >&2
  exit 2
}
rate=${DEMO_MESSAGES_PER_SECOND:-50}
out="$root/results/distributed-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out"
[ -x target/jmeter/bin/jmeter ] || { echo "demo-distributed: run 'make demo-distributed' (it builds JMeter)" >&2; exit 1; }

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# shellcheck source=scripts/demo-server-lib.sh
. scripts/demo-server-lib.sh
engine_pids=()
cleanup() {
  for pid in "${engine_pids[@]}"; do pkill -P "$pid" 2>/dev/null || true; kill "$pid" 2>/dev/null || true; done
  stop_demo_server
}
trap cleanup EXIT INT TERM

start_demo_server "$out" "$out/demo-server.log"
echo "demo-distributed: demo server on 127.0.0.1:$DEMO_SERVER_PORT"

engines=()
for n in 1 2; do
  port=$(free_port)
  mkdir -p "$out/engine-$n"
  (cd "$out/engine-$n" && HEAP="-Xms512m -Xmx512m" JVM_ARGS="-Djava.rmi.server.hostname=127.0.0.1" \
    exec "$root/target/jmeter/bin/jmeter" -s -Jserver.rmi.ssl.disable=true -Jserver_port="$port" \
    -Jserver.rmi.localport="$(free_port)" -j "$out/engine-$n/jmeter-server.log" > "$out/engine-$n/console.txt" 2>&1) &
  engine_pids+=($!)
  engines+=("127.0.0.1:$port")
done
for n in 1 2; do
  for _ in $(seq 1 600); do grep -q "Created remote object" "$out/engine-$n/console.txt" 2>/dev/null && break; sleep 0.1; done
  grep -q "Created remote object" "$out/engine-$n/console.txt" || { echo "engine $n did not start" >&2; exit 1; }
done
echo "demo-distributed: engines ${engines[*]}; $users users and $rate messages/s each, ${duration}s"

HEAP="-Xms512m -Xmx512m" timeout $((duration + 300)) target/jmeter/bin/jmeter -n -t jmx/send.jmx \
  -R "$(IFS=,; echo "${engines[*]}")" -Jserver.rmi.ssl.disable=true -l "$out/results.jtl" -j "$out/controller.log" \
  -Gport="$DEMO_SERVER_PORT" -GindexPath=/index -GpullPath=/clientPull -GtimingLog="$out/timing.csv" \
  -Gusers="$users" -GrampUp=2 \
  -Gduration="$duration" -GmessagesPerSecond="$rate" -X
cleanup
trap - EXIT INT TERM

logs=()
labels=()
for engine in "${engines[@]}"; do
  logs+=("$out/timing-${engine//:/_}.csv")
  labels+=(--label "$engine")
done
echo
echo "demo-distributed: per engine"
.venv/bin/python analysis/aggregate.py "${logs[@]}" "${labels[@]}" --messages-per-second "$rate" --no-charts \
  --out "$out/analysis-per-engine"
echo
echo "demo-distributed: both engines, merged"
.venv/bin/python analysis/aggregate.py "${logs[@]}" --merge --label "2 engines" --jtl "$out/results.jtl" \
  --messages-per-second "$(awk -v r="$rate" 'BEGIN { print 2 * r }')" --out "$out/analysis-merged"
for n in 1 2; do grep -h "STOMP timing books" "$out/engine-$n/jmeter-server.log" | sed "s/^.*INFO/engine $n books:/"; done
echo "demo-distributed: results in $out"
