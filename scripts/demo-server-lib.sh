# shellcheck shell=bash disable=SC2034  # DEMO_SERVER_PORT is read by the scripts that source this file
# Sourced by scripts that run the demo server in the background for a load run (demo.sh, bench-client.sh).
#   start_demo_server DIR LOG  -> starts it on a random loopback port; sets DEMO_SERVER_PID, DEMO_SERVER_PORT
#   stop_demo_server           -> SIGTERM, then SIGKILL after 10 s; safe to call twice (use it in a trap)
DEMO_SERVER_PID=
DEMO_SERVER_PORT=

start_demo_server() {
  local dir=$1 log=$2
  rm -f "$dir/demo.port"
  bash "$(dirname "${BASH_SOURCE[0]}")/demo-server.sh" --port 0 --port-file "$dir/demo.port" > "$log" 2>&1 &
  DEMO_SERVER_PID=$!
  # Up to 120 s: a first run compiles the test classes and resolves the classpath.
  for _ in $(seq 1 600); do
    [ -s "$dir/demo.port" ] && break
    if ! kill -0 "$DEMO_SERVER_PID" 2>/dev/null; then
      echo "the demo server died:" >&2
      tail -20 "$log" >&2
      return 1
    fi
    sleep 0.2
  done
  [ -s "$dir/demo.port" ] || { echo "the demo server did not start within 120 s (log: $log)" >&2; return 1; }
  DEMO_SERVER_PORT=$(cat "$dir/demo.port")
}

stop_demo_server() {
  if [ -n "$DEMO_SERVER_PID" ] && kill -0 "$DEMO_SERVER_PID" 2>/dev/null; then
    kill "$DEMO_SERVER_PID" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$DEMO_SERVER_PID" 2>/dev/null || break; sleep 0.2; done
    kill -9 "$DEMO_SERVER_PID" 2>/dev/null || true
  fi
  DEMO_SERVER_PID=
}
