# shellcheck shell=sh
# jmeter-sockjs-stomp: JVM settings for big headless runs.
#
# JMeter's launcher script (bin/jmeter, both JMeter's own and the one scripts/jmeter-home.sh
# installs) sources bin/setenv.sh, then starts
#   java ... $HEAP ... $GC_ALGO ... $JVM_ARGS -jar bin/ApacheJMeter.jar "$@"
# Every value here gives way to the same variable already set in the environment, e.g.
#   HEAP="-Xms1g -Xmx1g" make demo
#   HEAP="-Xms8g -Xmx8g" target/jmeter/bin/jmeter -n -t jmx/send.jmx -l results.jtl
# POSIX sh: no bashisms, it is sourced by /bin/sh too.

# Heap: Xms = Xmx so the heap is committed up front and never resized during the run; 4 GiB holds
# thousands of sessions with their pending-reply maps and the summariser/timing buffers.
HEAP="${HEAP:--Xms4g -Xmx4g}"

# G1 with short pauses: a long pause stalls every sampler thread at once and shows up as a latency
# spike in the results; the 20 % reserve keeps to-space free for the steady churn of small messages.
# NewRatio=2, a young generation of a third of the heap (G1 otherwise keeps it near 5 %): a message
# awaiting its reply lives up to replyTimeoutMillis, long enough to be promoted by young collections
# every few seconds, and each promoted one dirties old regions for G1's refinement threads. Measured
# at 2,000 users x 1 message/s (bench/README.md): 12 % less CPU per message, one young pause a minute
# (30-34 ms) instead of ten (7-40 ms).
#
# On Java 8 to 19, also fixed refinement zones (-XX:-G1UseAdaptiveConcRefinement and the three
# G1ConcRefinement*Zone flags, counted in buffers of 256 cards): each message writes references to new
# objects into a session's objects in the old generation (Tomcat's and Spring's per-session state, the
# reply map), which dirties a few cards per message; G1's refinement threads scan a dirty card as soon as
# a few buffers are queued, and the next message dirties it again. Up to 256 buffers wait for the next
# young pause instead, where each card is scanned once however often it was written. Measured at 2,000
# users x 1 message/s (bench/RESULTS.md): the refinement threads' 10.7 us per message gone, 0.88x CPU
# per message, young pauses unchanged. Java 20 rewrote refinement (JDK-8137022) and deprecated these
# flags; Java 24 removed them (a JVM given one does not start), so they are added below 20 only.
if [ -z "${GC_ALGO:-}" ]; then
  GC_ALGO="-XX:+UseG1GC -XX:MaxGCPauseMillis=100 -XX:G1ReservePercent=20 -XX:NewRatio=2"
  # the java bin/jmeter will start (the same lookup as its launcher)
  if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then
    sockjs_stomp_java="$JAVA_HOME/bin/java"
  elif [ -n "${JRE_HOME:-}" ] && [ -x "$JRE_HOME/bin/java" ]; then
    sockjs_stomp_java="$JRE_HOME/bin/java"
  else
    sockjs_stomp_java=java
  fi
  # "1.8.0_392" -> 8, "17.0.15" -> 17, "25" -> 25; empty when there is no java (bin/jmeter says so)
  sockjs_stomp_feature=$("$sockjs_stomp_java" -version 2>&1 | sed -n 's/^[^"]*"\([^"]*\)".*/\1/p' | head -n 1)
  case "$sockjs_stomp_feature" in 1.*) sockjs_stomp_feature=${sockjs_stomp_feature#1.} ;; esac
  sockjs_stomp_feature=${sockjs_stomp_feature%%[!0-9]*}
  if [ -n "$sockjs_stomp_feature" ] && [ "$sockjs_stomp_feature" -lt 20 ]; then
    GC_ALGO="$GC_ALGO -XX:-G1UseAdaptiveConcRefinement -XX:G1ConcRefinementGreenZone=256 -XX:G1ConcRefinementYellowZone=512 -XX:G1ConcRefinementRedZone=1024"
  fi
  unset sockjs_stomp_java sockjs_stomp_feature
fi

# Added in front of any JVM_ARGS from the environment (for -XX flags the last one given wins, so
# yours override these):
#   -XX:MaxMetaspaceSize=512m   cap class metadata (JMeter + Groovy + the plugin's Spring/Tomcat
#                               classes) instead of letting a class leak grow without bound
#   -Xss512k                    half the default 1 MiB stack per thread: each session is a JMeter
#                               thread plus client I/O threads, thousands of them in a big run
#   -Djava.net.preferIPv4Stack=true
#                               resolve and connect over IPv4 only (no ::1 attempts, one address family
#                               for the ephemeral port range that check-os-limits.sh sizes)
#   -Djava.security.egd=file:/dev/urandom
#                               SecureRandom (WebSocket keys, SockJS session ids) never blocks on entropy
#   -XX:+HeapDumpOnOutOfMemoryError -XX:HeapDumpPath=$TMPDIR (default /tmp)
#                               leave a heap dump (java_pid<pid>.hprof, as big as the heap) if the heap
#                               runs out; not in the working directory, which may be a source tree
#   -XX:+ExitOnOutOfMemoryError stop instead of running on, crippled, after an OutOfMemoryError
#   -Dsun.net.inetaddr.ttl=60   re-resolve host names once a minute instead of caching them forever
if [ -z "${SOCKJS_STOMP_SETENV_APPLIED:-}" ]; then
  JVM_ARGS="-XX:MaxMetaspaceSize=512m -Xss512k -Djava.net.preferIPv4Stack=true -Djava.security.egd=file:/dev/urandom -XX:+HeapDumpOnOutOfMemoryError -XX:HeapDumpPath=${TMPDIR:-/tmp} -XX:+ExitOnOutOfMemoryError -Dsun.net.inetaddr.ttl=60${JVM_ARGS:+ $JVM_ARGS}"
  # sourced twice (e.g. a wrapper calling another wrapper) must not repeat the flags
  SOCKJS_STOMP_SETENV_APPLIED=1
fi

export HEAP GC_ALGO JVM_ARGS SOCKJS_STOMP_SETENV_APPLIED
