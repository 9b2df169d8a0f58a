#!/usr/bin/env bash
# Makes target/jmeter a ready JMeter 5.6.3 home (idempotent; cheap when already there):
#   1. assembles it from Maven Central artifacts (mvn -f jmeter-home/pom.xml package) unless the
#      stamp target/jmeter/.assembled-5.6.3 exists; a home without the stamp is removed first
#   2. copies the newest target/jmeter-sockjs-stomp-*.jar into lib/ext (older copies removed)
#   3. re-applies jmeter-config/ (scripts/jmeter-apply-config.sh)
#   4. installs bin/jmeter, the launcher (sources bin/setenv.sh)
# Then: target/jmeter/bin/jmeter -n -t jmx/send.jmx -l results.jtl
# Environment: JMETER_HOME_FORCE=1 reassembles from scratch; MVN (default mvn); MVN_TIMEOUT (s, default 900).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
version=5.6.3
home="$root/target/jmeter"
stamp="$home/.assembled-$version"
mvn=${MVN:-mvn}

if [ "${JMETER_HOME_FORCE:-0}" = 1 ]; then
  rm -f "$stamp"
fi

if [ ! -f "$stamp" ]; then
  # A partial or older home: start clean so no stale jar survives (everything under target/ is generated).
  rm -rf "$home"
  echo "jmeter-home: assembling Apache JMeter $version into $home (Maven Central) ..."
  start=$(date +%s)
  # (sed: Debian's Maven 3.8 prints bare colour-reset codes even with -B -q; pipefail keeps mvn's status)
  timeout "${MVN_TIMEOUT:-900}" "$mvn" -q -B -f "$root/jmeter-home/pom.xml" package 2>&1 \
    | sed -e 's/\x1b\[[0-9;]*m//g' -e '/^$/d'
  [ -f "$stamp" ] || { echo "jmeter-home: assembly finished without $stamp" >&2; exit 1; }
  echo "jmeter-home: assembled in $(( $(date +%s) - start )) s"
fi

# The plugin jar: the newest build, and only that one, in lib/ext.
plugin=
for jar in "$root"/target/jmeter-sockjs-stomp-*.jar; do
  case "$jar" in *-sources.jar|*-javadoc.jar|*-tests.jar) continue ;; esac
  [ -f "$jar" ] || continue
  if [ -z "$plugin" ] || [ "$jar" -nt "$plugin" ]; then plugin=$jar; fi
done
if [ -n "$plugin" ]; then
  name=$(basename "$plugin")
  for old in "$home"/lib/ext/jmeter-sockjs-stomp-*.jar; do
    [ -e "$old" ] && [ "$(basename "$old")" != "$name" ] && rm -f "$old"
  done
  if ! cmp -s "$plugin" "$home/lib/ext/$name"; then
    cp "$plugin" "$home/lib/ext/$name"
    echo "jmeter-home: installed $name into lib/ext"
  fi
else
  echo "jmeter-home: no target/jmeter-sockjs-stomp-*.jar yet (build it with mvn package); JMeter runs without the plugin" >&2
fi

"$root/scripts/jmeter-apply-config.sh" "$home" "$root/jmeter-config" >/dev/null

install -m 755 "$root/jmeter-home/bin/jmeter" "$home/bin/jmeter"

echo "jmeter-home: ready: $home/bin/jmeter"
