#!/usr/bin/env bash
# The Zipf read mix (BENCHMARKS.md, "A school's read mix"): catalog pages asked as a school's
# learners ask them, over 12,000 distinct searches, filters, orders and page depths, the one
# at rank r with a weight of 1 / r (zipf-requests.py, zipf.lua), beside `/health` in the same
# run: SQLite with one server, PostgreSQL with one and with two, each with the page cache and
# without it (every page read from the database), all on the same 1 M-course catalog.
#
# Usage: Benchmarks/server-bench/zipf.sh [seconds per configuration] [distinct requests]
#   EDUGO_ZIPF_WARMUP: seconds of the mix before a run with the page cache (60; 5 without it)
#   needs .build-bench/catalog-1000000 (tui-bench --sizes 1000000), wrk and PostgreSQL; loads the
#   catalog into a throwaway cluster unless EDUGO_BENCH_POSTGRES names a database holding it;
#   EDUGO_BENCH_SQLITE_ONLY=1 measures SQLite alone.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
here="$root/Benchmarks/server-bench"
seconds="${1:-20}"
distinct="${2:-12000}"
warm="${EDUGO_ZIPF_WARMUP:-60}"  # seconds of the mix before a run with the cache
source_dir="$root/.build-bench/catalog-1000000"
[ -f "$source_dir/edugo.sqlite" ] || { echo "no catalog at $source_dir: run tui-bench --sizes 1000000 first"; exit 1; }
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk"; exit 1; }
work_prefix=zipf
source "$here/postgres-setup.sh"
cp "$source_dir"/edugo.sqlite* "$work/" 2>/dev/null || true
# Written out before the server starts, so that the copy's writing out is never measured as the
# server's: on a copy still dirty in the page cache an fsync of the database took 2.1-2.3 s.
sync

stop_servers() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
    pids=()
}
counter() {  # server, metric → its value (0 without the page cache, which has no metrics then)
    curl -sf "$1/metrics" | awk -v name="$2" '$1 == name {value = $2} END {printf "%d", value}'
}
zipf() {  # threads, connections, seconds, server, requests file
    wrk --latency -t"$1" -c"$2" -d"$3s" -s "$here/zipf.lua" "$4" -- "$5"
}
# One configuration: /health, the mix to warm up (`warm` seconds with the cache), the mix measured; on every server
# given at once (one wrk each, the connections shared out).
measure() {  # label, cache (on/off), requests file, servers...
    local label="$1" cache="$2" requests="$3"; shift 3
    local servers=("$@") count=$#
    local threads=$((2 / count)) connections=$((16 / count))
    local health=0 rps=0 p50="" p99="" hits=0 misses=0 other=0 refused=0 evictions=0
    local index warmup=5
    # A server that has run a while has asked most of the mix's pages already: with a 5 s
    # warm-up, one ask in twelve of the run was a page's first (a miss no cache can avoid).
    [ "$cache" = on ] && warmup="$warm"
    for index in "${!servers[@]}"; do
        wrk -t"$threads" -c"$connections" -d"${seconds}s" "${servers[$index]}/health" >"$work/health.$index" &
    done
    wait_all
    for index in "${!servers[@]}"; do
        zipf "$threads" "$connections" "$warmup" "${servers[$index]}" "$requests" >/dev/null &
    done
    wait_all
    for index in "${!servers[@]}"; do
        hits=$((hits - $(counter "${servers[$index]}" edugo_page_cache_hits_total)))
        misses=$((misses - $(counter "${servers[$index]}" edugo_page_cache_misses_total)))
        refused=$((refused - $(counter "${servers[$index]}" edugo_page_cache_refused_total)))
        evictions=$((evictions - $(counter "${servers[$index]}" edugo_page_cache_evictions_total)))
        zipf "$threads" "$connections" "$seconds" "${servers[$index]}" "$requests" >"$work/zipf.$index" &
    done
    wait_all
    for index in "${!servers[@]}"; do
        hits=$((hits + $(counter "${servers[$index]}" edugo_page_cache_hits_total)))
        misses=$((misses + $(counter "${servers[$index]}" edugo_page_cache_misses_total)))
        refused=$((refused + $(counter "${servers[$index]}" edugo_page_cache_refused_total)))
        evictions=$((evictions + $(counter "${servers[$index]}" edugo_page_cache_evictions_total)))
    done
    health="$(cat "$work"/health.* | awk '/Requests\/sec/ {sum += $2} END {printf "%.0f", sum}')"
    rps="$(cat "$work"/zipf.* | awk '/Requests\/sec/ {sum += $2} END {printf "%.0f", sum}')"
    # The slowest server's percentiles: what a learner there sees.
    p50="$(cat "$work"/zipf.* | awk '$1 == "50%" {print $2}' | sort -h | tail -1)"
    p99="$(cat "$work"/zipf.* | awk '$1 == "99%" {print $2}' | sort -h | tail -1)"
    other="$(cat "$work"/zipf.* | awk '/^zipf:/ {sum += $5} END {printf "%d", sum}')"
    local ratio="-"
    if [ "$cache" = on ] && [ $((hits + misses)) -gt 0 ]; then ratio="$((100 * hits / (hits + misses))) %"; fi
    printf '%-30s %-5s %9s %9s %6s %9s %9s %9s %7s\n' "$label" "$cache" "$health" "$rps" \
        "$((100 * rps / health)) %" "$p50" "$p99" "$ratio" "$other"
    if [ "$cache" = on ]; then echo "  the run's misses: $misses, of which not kept (refused): $refused; pages evicted: $evictions"; fi
    grep -h '^refused:' "$work"/zipf.* || true
    rm -f "$work"/health.* "$work"/zipf.*
}
wait_all() {  # the wrk jobs, not the servers (also this shell's jobs)
    local job
    for job in $(jobs -p); do
        case " ${pids[*]} " in *" $job "*) ;; *) wait "$job" || true ;; esac
    done
}

echo "edugo-server $(git -C "$root" rev-parse --short HEAD), 1000000 courses, $distinct distinct requests, ${seconds}s per configuration after $warm s of warm-up (5 s without the cache), wrk -t2 -c16 in all (split between two servers), $(nproc) cores"
printf '%-30s %-5s %9s %9s %6s %9s %9s %9s %7s\n' configuration cache "health/s" "pages/s" share p50 p99 "hits" "non-200"
for cache in on off; do
    megabytes=64
    [ "$cache" = off ] && megabytes=0
    start_server sqlite --data-dir "$work" --rate-limit 0 --page-cache-megabytes "$megabytes"; sqlite="$address"
    [ -f "$work/sqlite.requests" ] || python3 "$here/zipf-requests.py" "$sqlite" "$work/edugo.sqlite" "$distinct" >"$work/sqlite.requests"
    measure "SQLite, one server" "$cache" "$work/sqlite.requests" "$sqlite"
    stop_servers
    [ -n "$url" ] || continue
    start_server postgres --database "$url" --rate-limit 0 --page-cache-megabytes "$megabytes"; postgres="$address"
    start_server second --database "$url" --rate-limit 0 --page-cache-megabytes "$megabytes"; second="$address"
    # The same searches; the deeper pages' keys as this store gives them.
    [ -f "$work/postgres.requests" ] || python3 "$here/zipf-requests.py" "$postgres" "$work/edugo.sqlite" "$distinct" >"$work/postgres.requests"
    measure "PostgreSQL, one server" "$cache" "$work/postgres.requests" "$postgres"
    measure "PostgreSQL, two servers" "$cache" "$work/postgres.requests" "$postgres" "$second"
    stop_servers
done
