#!/usr/bin/env bash
# Checks the assembled JMeter home end to end, without the plugin or a server:
# prepares target/jmeter (scripts/jmeter-home.sh), runs jmeter-home/smoke.jmx headless
# (Java Request / JavaTest, 2 threads x 3 loops) and builds the HTML dashboard from its results.
# Passes when the version is 5.6.3, the result file has 6 successful samples and index.html exists.
# Output under target/smoke/ (jmeter.log, smoke.jtl, report/). Bounded: TIMEOUT seconds (default 300).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out="$root/target/smoke"
limit=${TIMEOUT:-300}
# A small heap is plenty here; the environment still wins.
export HEAP="${HEAP:--Xms256m -Xmx256m}"

"$root/scripts/jmeter-home.sh"
jmeter="$root/target/jmeter/bin/jmeter"

rm -rf "$out"
mkdir -p "$out"
cd "$out"   # jmeter.log and anything else relative lands here

if ! timeout "$limit" "$jmeter" --version -j version.log 2>&1 | grep -q '5\.6\.3'; then
  echo "jmeter-smoke: FAIL: --version does not print 5.6.3" >&2
  exit 1
fi
timeout "$limit" "$jmeter" -n -t "$root/jmeter-home/smoke.jmx" -l smoke.jtl -j jmeter.log -e -o report \
  > console.txt 2>&1 || { cat console.txt >&2; echo "jmeter-smoke: FAIL: jmeter exited non-zero" >&2; exit 1; }

samples=$(( $(wc -l < "$out/smoke.jtl") - 1 ))
ok=$(awk -F, 'NR > 1 && $7 == "true"' "$out/smoke.jtl" | wc -l)
if [ "$samples" -ne 6 ] || [ "$ok" -ne 6 ] || [ ! -s "$out/report/index.html" ]; then
  cat "$out/console.txt" >&2
  echo "jmeter-smoke: FAIL: samples=$samples successful=$ok report=$(ls "$out/report/index.html" 2>/dev/null || echo missing)" >&2
  exit 1
fi
if grep -q -E ' (ERROR|FATAL) ' "$out/jmeter.log"; then
  grep -E ' (ERROR|FATAL) ' "$out/jmeter.log" >&2
  echo "jmeter-smoke: FAIL: errors in jmeter.log" >&2
  exit 1
fi
echo "jmeter-smoke: ok: JMeter 5.6.3, 6/6 samples, dashboard at ${out#"$root"/}/report/index.html"
