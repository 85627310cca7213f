#!/usr/bin/env bash
# The event stream's benchmarks (BENCHMARKS.md, "Live changes"), on release edugo-servers over
# the built-in catalog: the time from a write to its event on another stream (SQLite; PostgreSQL
# on one server and across two), then what 1,000 idle streams cost one server (resident memory,
# and /health throughput with wrk beside none).
#
# Usage: Benchmarks/server-bench/events.sh [changes] [wrk seconds]
#   needs wrk (apt-get install wrk) and PostgreSQL (a throwaway cluster, Scripts/postgres-cluster.sh)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
changes="${1:-200}"
seconds="${2:-10}"
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk"; exit 1; }
swift build --package-path "$root" -c release --product edugo-server >/dev/null
server="$(swift build --package-path "$root" -c release --show-bin-path)/edugo-server"
events="$root/Benchmarks/server-bench/events.py"

eval "$("$root/Scripts/postgres-cluster.sh" start)"
mkdir -p "$root/.build-bench"
work="$(mktemp -d "$root/.build-bench/events-XXXXXX")"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    "$root/Scripts/postgres-cluster.sh" stop
    rm -rf "$work"
}
trap cleanup EXIT

start_server() {  # name, arguments... (not in a subshell, so its pid is kept for the cleanup)
    local name="$1"; shift
    "$server" --port 0 --log-level warning --rate-limit 0 "$@" >"$work/$name.out" 2>"$work/$name.log" &
    pids+=($!)
    for _ in $(seq 1 600); do grep -q listening "$work/$name.out" 2>/dev/null && break; sleep 0.1; done
}
address() { sed -n 's/^EduGo server listening on //p' "$work/$1.out"; }

echo "edugo-server $(git -C "$root" rev-parse --short HEAD), $(nproc) cores, $changes changes"
start_server sqlite --data-dir "$work/sqlite"
sqlite="$(address sqlite)"
sqlite_pid="${pids[0]}"
printf 'SQLite, one server:          '; python3 "$events" latency "$sqlite" "$sqlite" "$changes"

url="${EDUGO_TEST_POSTGRES%/postgres}/edugo_events"
psql "$EDUGO_TEST_POSTGRES" -qc "CREATE DATABASE edugo_events"
start_server postgres-1 --database "$url"
start_server postgres-2 --database "$url"
first="$(address postgres-1)"
second="$(address postgres-2)"
printf 'PostgreSQL, one server:      '; python3 "$events" latency "$first" "$first" "$changes"
printf 'PostgreSQL, write on 1, stream on 2: '; python3 "$events" latency "$first" "$second" "$changes"

# 1,000 idle streams on the SQLite server: resident memory and /health beside none; then, for
# comparison, 1,000 kept-alive connections that asked /health once (on a fresh server).
rss() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }
hold() {  # mode, base, first address: holds 1,000 connections until the script ends
    python3 "$events" "$1" "$2" 1000 "$3" >"$work/$1.held" &
    pids+=($!)
    for _ in $(seq 1 600); do grep -q open "$work/$1.held" 2>/dev/null && break; sleep 0.1; done
    grep -q open "$work/$1.held" || { echo "the 1,000 connections ($1) did not open"; exit 1; }
}
summary() { awk '/Requests\/sec/ {rps = $2} $1 == "50%" {p50 = $2} $1 == "99%" {p99 = $2} END {print rps " req/s, p50 " p50 ", p99 " p99}' <<<"$1"; }
wrk -t2 -c16 -d"${seconds}s" "$sqlite/health" >/dev/null  # warm-up
before="$(rss "$sqlite_pid")"
none="$(wrk -t2 -c16 -d"${seconds}s" --latency "$sqlite/health")"
hold streams "$sqlite" 127.0.0.10
held="$(rss "$sqlite_pid")"
busy="$(wrk -t2 -c16 -d"${seconds}s" --latency "$sqlite/health")"
echo "resident memory: $((before / 1024)) MiB with no stream, $((held / 1024)) MiB with 1,000: $(((held - before) / 1000)) KiB a stream"
echo "GET /health, wrk -t2 -c16 -d${seconds}s: no stream $(summary "$none"); 1,000 streams $(summary "$busy")"
start_server idle --data-dir "$work/idle"
idle_pid="${pids[${#pids[@]} - 1]}"
wrk -t2 -c16 -d"${seconds}s" "$(address idle)/health" >/dev/null
fresh="$(rss "$idle_pid")"
hold idle "$(address idle)" 127.0.0.40
echo "for comparison, 1,000 kept-alive connections after one /health each: $(((($(rss "$idle_pid")) - fresh) / 1000)) KiB a connection"
