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
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
home="$root/target/jmeter"
archive="$home/jmeter-cds.jsa"
work="$root/target/jmeter-cds"

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

rm -rf "$work" "$archive" "$archive.plugin"
mkdir -p "$work"
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
  mv "$work/jmeter-cds.jsa" "$archive"
  echo "$plugin" > "$archive.plugin"
  echo "jmeter-cds: wrote $archive in $(( $(date +%s) - start )) s"
else
  echo "jmeter-cds: no archive (see $work/console.txt, $work/check.txt); the tests' JMeters start without one" >&2
fi
exit 0
