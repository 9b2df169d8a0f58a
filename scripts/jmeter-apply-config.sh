#!/usr/bin/env bash
# Applies jmeter-config/ to a JMeter home (idempotent; safe to run again and again):
#   bin/user.properties   jmeter-config/user.properties appended between marker lines; an earlier
#                         copy of that block is removed first, the rest of the file is left alone
#   bin/log4j2.xml        replaced by jmeter-config/log4j2.xml (the stock one is kept once as log4j2.xml.orig)
#   bin/setenv.sh         jmeter-config/setenv.sh (read by bin/jmeter at start; a different existing
#                         one is kept once as setenv.sh.orig)
#   bin/check-os-limits.sh
# Usage: scripts/jmeter-apply-config.sh JMETER_HOME [CONFIG_DIR]
#   scripts/jmeter-apply-config.sh target/jmeter                 (done by scripts/jmeter-home.sh)
#   scripts/jmeter-apply-config.sh /opt/apache-jmeter-5.6.3      (a JMeter install of your own)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
home=${1:?usage: $0 JMETER_HOME [CONFIG_DIR]}
config=${2:-$here/../jmeter-config}
bin="$home/bin"

[ -d "$bin" ] || { echo "jmeter-apply-config: $bin is not a directory" >&2; exit 1; }
for f in user.properties log4j2.xml setenv.sh check-os-limits.sh; do
  [ -r "$config/$f" ] || { echo "jmeter-apply-config: missing $config/$f" >&2; exit 1; }
done

begin='# >>> jmeter-sockjs-stomp (from jmeter-config/user.properties; re-applied by scripts/jmeter-apply-config.sh)'
end='# <<< jmeter-sockjs-stomp'

props="$bin/user.properties"
touch "$props"
tmp=$(mktemp "$props.XXXXXX")
trap 'rm -f "$tmp"' EXIT
# Keep everything outside our block, then append a fresh block.
awk -v b='# >>> jmeter-sockjs-stomp' -v e="$end" '
  index($0, b) == 1 { skip = 1; next }
  skip && index($0, e) == 1 { skip = 0; next }
  !skip { print }
' "$props" > "$tmp"
# Drop trailing empty lines left by an earlier block so re-runs are byte-identical.
sed -i -e :a -e '/^\n*$/{$d;N;ba' -e '}' "$tmp"
{
  printf '\n%s\n' "$begin"
  cat "$config/user.properties"
  printf '%s\n' "$end"
} >> "$tmp"
chmod --reference="$props" "$tmp" 2>/dev/null || chmod 644 "$tmp"
mv "$tmp" "$props"
trap - EXIT

keep_orig() { # keep the file we replace once, unless it already is ours
  local target=$1 ours=$2
  if [ -f "$target" ] && [ ! -e "$target.orig" ] && ! cmp -s "$target" "$ours"; then
    cp -p "$target" "$target.orig"
  fi
}
keep_orig "$bin/log4j2.xml" "$config/log4j2.xml"
cp "$config/log4j2.xml" "$bin/log4j2.xml"
keep_orig "$bin/setenv.sh" "$config/setenv.sh"
cp "$config/setenv.sh" "$bin/setenv.sh"
cp "$config/check-os-limits.sh" "$bin/check-os-limits.sh"
chmod 755 "$bin/setenv.sh" "$bin/check-os-limits.sh"

echo "jmeter-apply-config: applied $config to $home"
