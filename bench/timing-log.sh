#!/usr/bin/env bash
# JMH: the timing log's sustained write rate (records/s to disk, end to end) and what one record costs a
# sender while the writer runs. Extra arguments go to JMH (e.g. -f 3, -prof gc, -rf json -rff out.json).
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -ntp -q -DskipTests test-compile dependency:build-classpath -Dmdep.includeScope=test \
    -Dmdep.outputFile=target/test-classpath.txt
exec java -cp "target/test-classes:target/classes:$(cat target/test-classpath.txt)" org.openjdk.jmh.Main \
    'io.github.sockjsstomp.timing.TimingLogBenchmark' "$@"
