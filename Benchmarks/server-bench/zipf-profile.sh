#!/usr/bin/env bash
# PostgreSQL's side of the Zipf read mix, profiled (BENCHMARKS.md, "A school's read mix"): one
# server with the page cache, `seconds` of the mix measured after `warm-up` seconds, and over
# the measured part the statements' time by statement (pg_stat_statements, preloaded by
# Scripts/postgres-cluster.sh and turned on for the bench's database alone for the run), the
# CPU seconds of the server and of the whole machine, and the page cache's hits and misses.
#
# PostgreSQL's own CPU is what the machine spent beyond the server and wrk: its backends and
# the parallel workers they start come and go, so they are not summed one by one.
#
# Usage: EDUGO_BENCH_POSTGRES=URL Benchmarks/server-bench/zipf-profile.sh [seconds] [warm-up]
#   URL names a database holding the 1 M catalog (tui-bench --load-postgres URL --sizes 1000000);
#   EDUGO_ZIPF_SERVER: another edugo-server binary to profile (an A/B), else the one built here.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
here="$root/Benchmarks/server-bench"
seconds="${1:-20}"
warm="${2:-60}"
url="${EDUGO_BENCH_POSTGRES:?EDUGO_BENCH_POSTGRES must name a database holding the 1 M catalog}"
source_dir="$root/.build-bench/catalog-1000000"
[ -f "$source_dir/edugo.sqlite" ] || { echo "no catalog at $source_dir: run tui-bench --sizes 1000000 first"; exit 1; }
work_prefix=zipf-profile
source "$here/postgres-setup.sh"
server="${EDUGO_ZIPF_SERVER:-$bin/edugo-server}"
cp "$source_dir"/edugo.sqlite* "$work/"
database="$(psql "$url" -qAtc "SELECT current_database()")"
psql "$url" -qc "CREATE EXTENSION IF NOT EXISTS pg_stat_statements"
# Sessions take the setting as they start: the server's, all started after this.
psql "$url" -qc "ALTER DATABASE \"$database\" SET pg_stat_statements.track = 'top'"
trap 'psql "$url" -qc "ALTER DATABASE \"$database\" RESET pg_stat_statements.track" || true; cleanup' EXIT
pids=()
"$server" --port 0 --log-level warning --database "$url" --rate-limit 0 --page-cache-megabytes 64 >"$work/server.out" 2>"$work/server.log" &
pid=$!
pids+=("$pid")
for _ in $(seq 1 600); do grep -q listening "$work/server.out" 2>/dev/null && break; sleep 0.1; done
address="$(sed -n 's/^EduGo server listening on //p' "$work/server.out")"
[ -n "$address" ] || { echo "the server did not start:" >&2; cat "$work/server.log" >&2; exit 1; }
python3 "$here/zipf-requests.py" "$address" "$work/edugo.sqlite" 12000 >"$work/requests"
wrk -t2 -c16 -d5s "$address/health" | awk '/Requests\/sec/ {print "/health: " $2 "/s"}'
wrk -t2 -c16 -d"${warm}s" -s "$here/zipf.lua" "$address" -- "$work/requests" >/dev/null
psql "$url" -qAtc "SELECT pg_stat_statements_reset(0, (SELECT oid FROM pg_database WHERE datname = current_database()), 0)" >/dev/null
ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }
machine_ticks() { awk '/^cpu / {print $2 + $3 + $4 + $7 + $8}' /proc/stat; }
counter() { curl -sf "$address/metrics" | awk -v name="$1" '$1 == name {value = $2} END {printf "%d", value}'; }
hits=$((0 - $(counter edugo_page_cache_hits_total))); misses=$((0 - $(counter edugo_page_cache_misses_total)))
server_cpu=$((0 - $(ticks "$pid"))); machine=$((0 - $(machine_ticks)))
wrk --latency -t2 -c16 -d"${seconds}s" -s "$here/zipf.lua" "$address" -- "$work/requests" | grep -E "Requests/sec|50%|99%|^zipf"
server_cpu=$((server_cpu + $(ticks "$pid"))); machine=$((machine + $(machine_ticks)))
hits=$((hits + $(counter edugo_page_cache_hits_total))); misses=$((misses + $(counter edugo_page_cache_misses_total)))
seconds_of() { awk -v ticks="$1" -v hz="$(getconf CLK_TCK)" 'BEGIN {printf "%.1f", ticks / hz}'; }
echo "CPU seconds over the run: the machine's $(seconds_of "$machine"), the server's $(seconds_of "$server_cpu"); page cache: $hits hits, $misses misses"
psql "$url" -P pager=off -c "
SELECT calls, round(total_exec_time::numeric / 1000, 2) AS total_s,
       round((100 * total_exec_time / sum(total_exec_time) OVER ())::numeric, 1) AS share,
       round(mean_exec_time::numeric, 2) AS mean_ms, round(max_exec_time::numeric, 1) AS max_ms,
       left(regexp_replace(query, '\s+', ' ', 'g'), 200) AS statement
FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
ORDER BY total_exec_time DESC LIMIT 10"
