#!/usr/bin/env bash
# Runs the embedded SockJS/STOMP demo server (test code: src/test/java/io/github/sockjsstomp/demo) standalone.
#
#   scripts/demo-server.sh [--port N (default 8080, 0 = random)] [--port-file PATH]
#
# Binds 127.0.0.1 only and runs until killed (SIGINT/SIGTERM stop it cleanly). Works from any directory.
#
# Environment:
#   DEMO_SERVER_JAVA_OPTS  JVM options, default "-Xmx2g -XX:+UseG1GC". Tomcat keeps ~460 KB of heap per open
#                          WebSocket session (128 KiB text + binary message buffers, allocated eagerly): 2000
#                          sessions need ~0.9 GB live heap, so -Xmx1g is too tight for 2000 users.
#                          -Ddemo.wsBufferSize=65536 halves the per-session cost (max inbound message 64 KiB).
#   MVN_OFFLINE=1          run the (re)build steps with mvn -o.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"

mvn_flags=(-q -B)
if [[ -n "${MVN_OFFLINE:-}" ]]; then
  mvn_flags+=(-o)
fi

if [[ ! -f target/test-classes/io/github/sockjsstomp/demo/DemoServer.class ]]; then
  echo "demo-server: compiling test classes (mvn test-compile)..." >&2
  mvn "${mvn_flags[@]}" test-compile
fi
if [[ ! -s target/test-classpath.txt ]]; then
  echo "demo-server: resolving the test classpath..." >&2
  mvn "${mvn_flags[@]}" dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/test-classpath.txt
fi

# Thousands of sockets need file descriptors: raise the soft limit to the hard one when allowed.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

# shellcheck disable=SC2086  # DEMO_SERVER_JAVA_OPTS is a whitespace-separated list of options
exec java ${DEMO_SERVER_JAVA_OPTS:--Xmx2g -XX:+UseG1GC} \
  -cp "target/test-classes:$(cat target/test-classpath.txt)" \
  io.github.sockjsstomp.demo.DemoServer "$@"
