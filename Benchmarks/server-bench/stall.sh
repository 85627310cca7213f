#!/usr/bin/env bash
# Looks for the two-server stall (BENCHMARKS.md, "Two servers on one PostgreSQL"): two server
# processes on the one 1 M-course PostgreSQL database, warmed, then enrollment pairs on both
# (which is what brings the stall on), then first pages on both at once (wrk -t1 -c8 each)
# while stall.py probes each server every 10 ms and samples the pools, the processes and
# PostgreSQL's backends; it prints every probe slower than the threshold with what they saw.
#
# Usage: Benchmarks/server-bench/stall.sh [seconds of load] [threshold ms] [runs]
#   STALL_PERF=1: also records where each server's threads go to sleep and wake
#   (perf sched_switch with call graphs, on CLOCK_MONOTONIC) into STALL_PERF_DIR (/tmp);
#   STALL_PERF=stat: counts each server's futex calls, epoll waits and task switches;
#   STALL_PERF=futex: records where each server's futex calls come from (call graphs).
#   needs wrk and PostgreSQL; EDUGO_BENCH_POSTGRES names a database holding the catalog
#   (tui-bench --load-postgres URL), else one is loaded into a throwaway cluster (minutes).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
here="$root/Benchmarks/server-bench"
seconds="${1:-10}"
threshold="${2:-100}"
runs="${3:-3}"
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk"; exit 1; }
work_prefix=stall
source "$here/postgres-setup.sh"

echo "edugo-server $(git -C "$root" rev-parse --short HEAD), stall probe: ${seconds}s of load, stalls over ${threshold} ms, $(nproc) cores"
for run in $(seq 1 "$runs"); do
    start_server first --database "$url"; first="$address"; first_pid="$pid"
    start_server second --database "$url"; second="$address"; second_pid="$pid"
    # Warm: pools open, statements prepared.
    wrk -t1 -c8 -d3s "$first/v1/courses?limit=20" >/dev/null &
    other=$!
    wrk -t1 -c8 -d3s "$second/v1/courses?limit=20" >/dev/null
    wait "$other" || true
    # Enrollment pairs on both servers, each on an open course of its own.
    token="$(token_for "$first")"
    courses=($(open_courses "$first" "$token"))
    wrk -t1 -c1 -d10s -s "$here/enroll-pairs.lua" "$first" -- "$token" "${courses[0]}" >/dev/null &
    other=$!
    wrk -t1 -c1 -d10s -s "$here/enroll-pairs.lua" "$second" -- "$(token_for "$second")" "${courses[1]}" >/dev/null
    wait "$other" || true
    # First pages on both, watched.
    python3 "$here/stall.py" "$seconds" "$threshold" "$url" "first=$first,$first_pid" "second=$second,$second_pid" >"$work/watch.txt" &
    watcher=$!
    recorders=()
    if [ "${STALL_PERF:-}" = stat ]; then
        for name in first second; do
            server_pid=$([ $name = first ] && echo "$first_pid" || echo "$second_pid")
            perf stat -x, -e syscalls:sys_enter_futex -e syscalls:sys_enter_epoll_wait -e sched:sched_switch \
                -e syscalls:sys_enter_sched_yield -p "$server_pid" -o "$work/stat-$name.txt" -- sleep "$seconds" &
            recorders+=($!)
        done
    elif [ "${STALL_PERF:-}" = futex ]; then
        for name in first second; do
            server_pid=$([ $name = first ] && echo "$first_pid" || echo "$second_pid")
            perf record -q -e syscalls:sys_enter_futex -g -p "$server_pid" \
                -o "${STALL_PERF_DIR:-/tmp}/futex-$run-$name.perf" -- sleep "$seconds" 2>/dev/null &
            recorders+=($!)
        done
    elif [ -n "${STALL_PERF:-}" ]; then
        for name in first second; do
            server_pid=$([ $name = first ] && echo "$first_pid" || echo "$second_pid")
            perf record -q -k mono -e sched:sched_switch -e sched:sched_wakeup -g -p "$server_pid" \
                -o "${STALL_PERF_DIR:-/tmp}/stall-$run-$name.perf" -- sleep "$seconds" 2>/dev/null &
            recorders+=($!)
        done
    fi
    wrk --latency -t1 -c8 -d"${seconds}s" "$first/v1/courses?limit=20" >"$work/a.txt" &
    other=$!
    wrk --latency -t1 -c8 -d"${seconds}s" "$second/v1/courses?limit=20" >"$work/b.txt"
    wait "$other" || true
    wait "$watcher" || true
    for recorder in "${recorders[@]}"; do wait "$recorder" || true; done
    echo
    echo "run $run: first pages/s and p99, first | second: $(rate <"$work/a.txt") | $(rate <"$work/b.txt")"
    cat "$work/watch.txt"
    # The servers' own log of slow PostgreSQL calls (over 100 ms), each at its time in the watch.
    start_wall="$(sed -n 's/.*wall clock \([0-9.]*\).*/\1/p' "$work/watch.txt")"
    for name in first second; do
        python3 - "$work/$name.log" "$name" "$start_wall" <<'SLOW'
import datetime, json, sys
path, name, start = sys.argv[1], sys.argv[2], float(sys.argv[3])
calls = []
for line in open(path):
    try:
        entry = json.loads(line)
    except ValueError:
        continue
    if entry.get("message") == "slow PostgreSQL call":
        at = datetime.datetime.fromisoformat(entry["time"].replace("Z", "+00:00")).timestamp() - start
        calls.append((at, entry.get("metadata", entry)))
print("%s: %d slow PostgreSQL calls" % (name, len(calls)))
for at, fields in calls[:40]:
    print("  at %.2f s: %s" % (at, ", ".join("%s %s" % (key, fields[key]) for key in
        ("total_ms", "queued_ms", "lease_ms", "connection_ms", "return_ms") if key in fields)))
SLOW
    done
    for name in first second; do
        [ -f "$work/stat-$name.txt" ] && echo "$name: $(awk -F, '/^[0-9]/ {printf "%s %s  ", $1, $3}' "$work/stat-$name.txt")"
    done
    rm -f "$work"/stat-*.txt
    kill "$first_pid" "$second_pid"
    wait "$first_pid" "$second_pid" 2>/dev/null || true
done
