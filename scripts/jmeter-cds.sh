#!/usr/bin/env bash
# Writes target/jmeter/jmeter-cds.jsa, a class data sharing archive of the classes a JMeter run of ours loads
# (JMeter's, its libraries', the plugin's), for the JMeters the integration tests start: each loads ~6,500 classes
# in a run of seconds, and mapping 3,600 of them from the archive instead of parsing and verifying them saves
# ~0.7 of its ~3.8 CPU-s (18 %, measured on 2 cores at load 10). The tests pass
# -XX:SharedArchiveFile=<it> -Xlog:cds*=off in JMETER_OPTS (pom.xml): a JVM that finds no archive, or one made
# for another JDK or another ApacheJMeter.jar, runs without it and says nothing.
#
# Made by one run of echo.jmx with its warm-up (which drives the plugin's client code against an in-process
# peer, so no server is needed) against a closed port, with -XX:ArchiveClassesAtExit; again when
# ApacheJMeter.jar is newer than the archive or the plugin jar's contents changed (every build writes a new jar:
# its entries' checksum, not its time, says whether it changed). The archive is written under another name and
# only renamed once a JVM has mapped it (a truncated archive crashes the JVM that maps it). Never fails: without
# an archive the tests run as before, only slower.
#
#   jmeter-cds.sh               writes it, then returns
#   jmeter-cds.sh --background  returns at once and writes it beside what follows (the build's integration tests:
#                               their first JMeters start without it, the rest with it); the lock file
#                               target/jmeter-cds.lock is held until it is written
#   jmeter-cds.sh --wait        waits for a --background run to end and prints what it said
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
home="$root/target/jmeter"
archive="$home/jmeter-cds.jsa"
work="$root/target/jmeter-cds"
lock="$root/target/jmeter-cds.lock"
said="$root/target/jmeter-cds.out"
mode=${1:-}
command -v flock > /dev/null || mode=

if [ "$mode" = --wait ]; then
  [ -f "$lock" ] && flock "$lock" true
  if [ -f "$said" ]; then
    cat "$said"
    rm -f "$said"
  fi
  exit 0
fi

if [ "$mode" = --background ]; then
  # (a dump an earlier build left running ends before this one looks at the archive)
  exec 9> "$lock"
  flock 9
fi

plugin=none
# (unzip -p: the entries' contents, not the jar's own bytes, which hold each entry's time)
for jar in "$home"/lib/ext/jmeter-sockjs-stomp-*.jar; do
  [ -f "$jar" ] && plugin=$(unzip -p "$jar" | sha1sum)
done
fresh=1
[ -f "$archive" ] || fresh=0
[ "$home/bin/ApacheJMeter.jar" -nt "$archive" ] && fresh=0
[ "$(cat "$archive.plugin" 2>/dev/null)" = "$plugin" ] || fresh=0
if [ "$fresh" = 1 ]; then
  echo "jmeter-cds: $archive is up to date"
  exit 0
fi

dump() {
  rm -rf "$work" "$archive" "$archive.plugin"
  mkdir -p "$work"
  local start
  start=$(date +%s)
  # The same heap, collector and compiler settings as the tests' JMeters (pom.xml's failsafe environment).
  (cd "$work" && HEAP="-Xms256m -Xmx768m" GC_ALGO=-XX:+UseSerialGC \
    JMETER_OPTS="-XX:TieredStopAtLevel=1 -XX:-UsePerfData -XX:ArchiveClassesAtExit=$work/jmeter-cds.jsa -Xlog:cds*=off" \
    JVM_ARGS="-Djava.io.tmpdir=$work" timeout 120 "$home/bin/jmeter" -n -t "$root/jmx/echo.jmx" -l "$work/echo.jtl" \
    -j "$work/jmeter.log" -Jport=1 -Jusers=1 -Jthreads=1 -Jduration=1 -JrampUp=0 -JtimingLog="$work/timing.csv" \
    > "$work/console.txt" 2>&1)
  if [ -s "$work/jmeter-cds.jsa" ] \
    && "${JAVA_HOME:+$JAVA_HOME/bin/}java" -Xshare:on -XX:SharedArchiveFile="$work/jmeter-cds.jsa" -Xlog:cds*=off \
      -cp "$home/bin/ApacheJMeter.jar" org.apache.jmeter.NewDriver --version > "$work/check.txt" 2>&1; then
    # (a rename: a JVM that opens the archive finds it whole or not at all)
    mv "$work/jmeter-cds.jsa" "$archive"
    echo "$plugin" > "$archive.plugin"
    echo "jmeter-cds: wrote $archive in $(( $(date +%s) - start )) s"
  else
    echo "jmeter-cds: no archive (see $work/console.txt, $work/check.txt); the tests' JMeters start without one" >&2
  fi
}

if [ "$mode" = --background ]; then
  # Its own output file (Maven's exec waits for the end of the output it reads), the lock held by the inherited
  # descriptor 9 until the dump ends.
  rm -f "$said"
  dump > "$said" 2>&1 < /dev/null &
  echo "jmeter-cds: writing $archive beside the integration tests (their JMeters use it once it is there)"
else
  dump
fi
exit 0
