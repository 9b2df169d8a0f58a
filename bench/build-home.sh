#!/usr/bin/env bash
# The JMeter home of another commit, for a side by side run ("ours-2x1000:before" with HOME_before=...):
#   bash bench/build-home.sh COMMIT [DIR]      (make bench-home COMMIT=...)
# builds the plugin at COMMIT in a temporary git worktree (its own `make jmeter`: Maven build and JMeter home) and
# copies that home to DIR (default target/bench-homes/<short commit>), with the commit's plans in DIR/jmx, so that
# PLAN_before=target/bench-homes/<commit>/jmx/send.jmx runs the plan as it was. Prints DIR. The worktree is removed
# at the end, on failure too.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
commit=${1:?usage: bash bench/build-home.sh COMMIT [DIR]}
sha=$(git -C "$root" rev-parse --short "$commit^{commit}")
dir=${2:-$root/target/bench-homes/$sha}
tree=$(mktemp -d)
cleanup() { git -C "$root" worktree remove --force "$tree" 2>/dev/null || rm -rf "$tree"; }
trap cleanup EXIT
git -C "$root" worktree add --detach "$tree" "$sha" >&2
make -C "$tree" jmeter >&2
rm -rf "$dir"
mkdir -p "$(dirname "$dir")"
cp -a "$tree/target/jmeter" "$dir"
cp -a "$tree/jmx" "$dir/jmx"
echo "$dir"
