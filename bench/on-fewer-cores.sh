#!/usr/bin/env bash
# Runs the bench (or any command) with the CPU time of fewer cores than the machine has, to read
# the figures as a slower machine of the same kind would: `bench/on-fewer-cores.sh 1.5` runs
# `npm run bench` in a CPU cgroup whose quota is 1.5 cores' worth of time, everything it starts
# included (the targets, their sandboxes, Chromium). Postgres, a service of the machine, stays
# outside. Needs root and a writable cgroup CPU controller (v1 `cpu` or v2 `cpu.max`).
#
#   bench/on-fewer-cores.sh 1.0                                  # npm run bench on one core's time
#   BENCH_ONLY=agents bench/on-fewer-cores.sh 1.5 npx tsx bench/index.ts
#
# A 10 ms period, not the kernel's default 100 ms: with the default a burst uses the quota up in
# the period's first part and every thread then stalls for the rest, which reads as 100 ms pauses
# rather than as a slower CPU.
set -euo pipefail
cd "$(dirname "$0")/.."

cores="${1:-}"
if ! [[ "$cores" =~ ^[0-9]+(\.[0-9]+)?$ ]] || [ "$(awk -v c="$cores" 'BEGIN { print (c > 0) }')" != 1 ]; then
  echo "usage: bench/on-fewer-cores.sh CORES [command...]   (CORES: a positive number, e.g. 1.5)" >&2
  exit 2
fi
shift
[ "$#" -gt 0 ] || set -- npm run bench

period=10000
quota="$(awk -v c="$cores" -v p="$period" 'BEGIN { printf "%d", c * p }')"
name="tandem-bench-$$"

# The group is removed once the command and everything it started have ended (or a quota the kernel
# refuses ended the script); rmdir fails while a process is still in it, which then says so rather
# than leaving it silently.
group=""
remove_group() {
  [ -n "$group" ] && [ -d "$group" ] || return 0
  for _ in $(seq 1 50); do
    rmdir "$group" 2>/dev/null && return 0
    sleep 0.2
  done
  echo "bench/on-fewer-cores.sh: $group still holds processes: $(cat "$group/cgroup.procs" | tr '\n' ' ')" >&2
}
trap remove_group EXIT

if [ -w /sys/fs/cgroup/cpu ] && [ -f /sys/fs/cgroup/cpu/cpu.cfs_quota_us ]; then
  group="/sys/fs/cgroup/cpu/$name"
  mkdir "$group"
  echo "$period" >"$group/cpu.cfs_period_us"
  echo "$quota" >"$group/cpu.cfs_quota_us"
elif [ -f /sys/fs/cgroup/cgroup.controllers ] && grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
  group="/sys/fs/cgroup/$name"
  mkdir "$group"
  echo "$quota $period" >"$group/cpu.max"
else
  echo "bench/on-fewer-cores.sh: no writable CPU cgroup controller here (needs root, cgroup v1 cpu or v2 cpu.max)" >&2
  exit 1
fi

echo "on ${cores} cores' CPU time (${quota} µs per ${period} µs, $group): $*" >&2
# A child shell joins the group and then becomes the command, so this script stays outside it.
status=0
bash -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' _ "$group" "$@" || status=$?
exit "$status"
