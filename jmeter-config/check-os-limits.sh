#!/usr/bin/env bash
# Prints the OS limits a big JMeter run of jmeter-sockjs-stomp depends on, checks them against the
# planned number of concurrent sessions, and prints the command that raises each one that is short.
# Read-only: it never changes anything (the fixes are printed for you to run as root).
#
# Usage: check-os-limits.sh [SESSIONS]     (default: the users property, else threads, else 20)
#   jmeter-config/check-os-limits.sh 5000
#   target/jmeter/bin/check-os-limits.sh 5000
#
# Budget per session, as the plugin uses them:
#   file descriptors  ~3   (the STOMP connection, plus HTTP login/xhr connections, plus slack)
#   local ports       ~2   (SockJS xhr transports use a send connection next to the receiving one;
#                           closed connections sit in TIME_WAIT for 60 s)
# Exit status: 0 when nothing is short, 1 when something is (warnings only: nothing is changed).
set -u

sessions=${1:-}
if [ -z "$sessions" ]; then
  props="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/user.properties"
  sessions=$(sed -n 's/^users=\([0-9][0-9]*\).*/\1/p' "$props" 2>/dev/null | tail -n 1)
  [ -n "$sessions" ] || sessions=$(sed -n 's/^threads=\([0-9][0-9]*\).*/\1/p' "$props" 2>/dev/null | tail -n 1)
  sessions=${sessions:-20}
fi
case "$sessions" in
  ''|*[!0-9]*) echo "usage: $0 [SESSIONS]  (a whole number)" >&2; exit 2 ;;
esac

fds_needed=$(( sessions * 3 + 1024 ))       # + JMeter's own jars, logs, result files
ports_needed=$(( sessions * 2 ))
# Accept backlog: only matters when the server under test runs on this machine too; 4096 (the
# default of current kernels) absorbs the connection bursts of a ramp-up.
backlog_needed=$(( sessions < 128 ? 128 : (sessions > 4096 ? 4096 : sessions) ))
# Heap, as a rough guide: ~256 KiB per session (socket buffers, STOMP frames, pending replies)
# + 512 MiB for JMeter itself. Measure with your own payloads.
heap_needed_mb=$(( sessions / 4 + 512 ))

short=0
ok()   { printf '  [ok]    %s\n' "$*"; }
warn() { printf '  [SHORT] %s\n' "$*"; short=1; }
fix()  { printf '          fix: %s\n' "$*"; }
info() { printf '  [info]  %s\n' "$*"; }

sysctl_get() { # prints the value of a sysctl key, or nothing
  local key=$1 path="/proc/sys/${1//.//}"
  if [ -r "$path" ]; then tr -s '\t ' '  ' < "$path"; elif command -v sysctl >/dev/null 2>&1; then sysctl -n "$key" 2>/dev/null; fi
}

echo "OS limits for $sessions concurrent sessions (kernel $(uname -sr))"

# --- open files
soft=$(ulimit -Sn); hard=$(ulimit -Hn)
echo "open files (ulimit -n): soft=$soft hard=$hard, needed ~$fds_needed"
if [ "$soft" = unlimited ] || [ "$soft" -ge "$fds_needed" ]; then
  ok "open files"
else
  warn "open files: soft limit $soft < $fds_needed"
  if [ "$hard" = unlimited ] || [ "$hard" -ge "$fds_needed" ]; then
    fix "ulimit -n $fds_needed        (in the shell that starts JMeter; hard limit allows it)"
  else
    fix "as root, for this shell: ulimit -Hn $fds_needed && ulimit -Sn $fds_needed"
  fi
  fix "permanently, in /etc/security/limits.conf (then log in again):"
  fix "    $(id -un 2>/dev/null || echo '*')  soft  nofile  $fds_needed"
  fix "    $(id -un 2>/dev/null || echo '*')  hard  nofile  $fds_needed"
  fix "under systemd: LimitNOFILE=$fds_needed in the unit, or DefaultLimitNOFILE= in /etc/systemd/system.conf"
fi
file_max=$(sysctl_get fs.file-max)
if [ -n "$file_max" ]; then
  if [ "$file_max" -ge "$fds_needed" ]; then ok "fs.file-max=$file_max"; else
    warn "fs.file-max=$file_max < $fds_needed"; fix "sysctl -w fs.file-max=$(( fds_needed * 2 ))"; fi
fi

# --- ephemeral ports
range=$(sysctl_get net.ipv4.ip_local_port_range)
if [ -n "$range" ]; then
  read -r lo hi <<< "$range"
  nports=$(( hi - lo + 1 ))
  echo "net.ipv4.ip_local_port_range: $lo-$hi = $nports ports, needed ~$ports_needed per target address"
  if [ "$nports" -ge "$ports_needed" ]; then ok "local port range"; else
    warn "local port range has $nports ports < $ports_needed"
    fix "sysctl -w net.ipv4.ip_local_port_range=\"1024 65535\""
    fix "beyond ~64000 sessions to one host:port: spread over several target or source addresses"
  fi
else
  info "net.ipv4.ip_local_port_range not readable here"
fi

# --- TIME_WAIT reuse
tw=$(sysctl_get net.ipv4.tcp_tw_reuse)
if [ -n "$tw" ]; then
  echo "net.ipv4.tcp_tw_reuse: $tw (0 off, 1 on, 2 loopback only)"
  if [ "$tw" = 1 ]; then ok "tcp_tw_reuse"
  elif [ "$tw" = 2 ]; then
    ok "tcp_tw_reuse=2: on for loopback targets (127.0.0.1)"
    info "for a remote server with many reconnects: sysctl -w net.ipv4.tcp_tw_reuse=1"
  else
    if [ "$sessions" -ge 1000 ]; then warn "tcp_tw_reuse=$tw: reconnects at this scale can run out of ports held in TIME_WAIT"; else
      info "tcp_tw_reuse=$tw: fine unless sessions reconnect often"; fi
    fix "sysctl -w net.ipv4.tcp_tw_reuse=1"
  fi
fi

# --- listen backlog (for a server on this machine)
somax=$(sysctl_get net.core.somaxconn)
if [ -n "$somax" ]; then
  echo "net.core.somaxconn: $somax (accept backlog; matters when the server under test runs on this machine)"
  if [ "$somax" -ge "$backlog_needed" ]; then ok "somaxconn"; else
    warn "somaxconn $somax < $backlog_needed: connection bursts during ramp-up may be dropped"
    fix "sysctl -w net.core.somaxconn=$backlog_needed"
    fix "sysctl -w net.ipv4.tcp_max_syn_backlog=$backlog_needed"
  fi
fi

# --- processes/threads (at most one JMeter thread per session; far fewer with many users per thread)
nproc_soft=$(ulimit -Su)
threads_needed=$(( sessions * 2 + 500 ))
echo "max user processes/threads (ulimit -u): $nproc_soft, needed ~$threads_needed"
if [ "$nproc_soft" = unlimited ] || [ "$nproc_soft" -ge "$threads_needed" ]; then ok "threads"; else
  warn "ulimit -u $nproc_soft < $threads_needed"
  fix "ulimit -u $threads_needed   or in /etc/security/limits.conf:  $(id -un 2>/dev/null || echo '*')  soft  nproc  $threads_needed"
fi
tmax=$(sysctl_get kernel.threads-max)
[ -n "$tmax" ] && { if [ "$tmax" -ge "$threads_needed" ]; then ok "kernel.threads-max=$tmax"; else
  warn "kernel.threads-max=$tmax < $threads_needed"; fix "sysctl -w kernel.threads-max=$(( threads_needed * 2 ))"; fi; }

# --- memory
if [ -r /proc/meminfo ]; then
  avail_kb=$(awk '/^MemAvailable:/ {print $2}' /proc/meminfo)
  total_kb=$(awk '/^MemTotal:/ {print $2}' /proc/meminfo)
  avail_mb=$(( avail_kb / 1024 ))
  if [ -n "${HEAP:-}" ]; then heap_src="HEAP=\"$HEAP\" from the environment"; else heap_src="HEAP from bin/setenv.sh: -Xms4g -Xmx4g"; fi
  echo "memory: total $(( total_kb / 1024 )) MiB, available $avail_mb MiB; heap for $sessions sessions ~$heap_needed_mb MiB ($heap_src)"
  heap_set_mb=4096
  if [[ "${HEAP:-}" =~ -Xmx([0-9]+)([gGmMkK]?) ]]; then
    case "${BASH_REMATCH[2]}" in
      g|G) heap_set_mb=$(( BASH_REMATCH[1] * 1024 )) ;;
      m|M) heap_set_mb=${BASH_REMATCH[1]} ;;
      k|K) heap_set_mb=$(( BASH_REMATCH[1] / 1024 )) ;;
      *)   heap_set_mb=$(( BASH_REMATCH[1] / 1048576 )) ;;
    esac
  fi
  if [ "$heap_set_mb" -lt "$heap_needed_mb" ]; then
    warn "heap ${heap_set_mb} MiB < ~${heap_needed_mb} MiB"; fix "HEAP=\"-Xms$(( (heap_needed_mb + 1023) / 1024 ))g -Xmx$(( (heap_needed_mb + 1023) / 1024 ))g\" target/jmeter/bin/jmeter ..."
  else ok "heap ${heap_set_mb} MiB"; fi
  # heap + metaspace (512m) + thread stacks (512k reserved, ~64k actually touched each) + direct buffers/code
  need_mb=$(( heap_set_mb + 512 + threads_needed / 16 + 256 ))
  if [ "$avail_mb" -ge "$need_mb" ]; then ok "available memory $avail_mb MiB >= ~$need_mb MiB for the JVM"; else
    warn "available memory $avail_mb MiB < ~$need_mb MiB for the JVM (heap + metaspace + stacks)"
    fix "lower HEAP (e.g. HEAP=\"-Xms2g -Xmx2g\"), or run fewer sessions per load generator"
  fi
fi

echo
if [ "$short" = 0 ]; then echo "nothing short for $sessions sessions"; else echo "some limits are short for $sessions sessions (see fix: lines; this script changed nothing)"; fi
exit "$short"
