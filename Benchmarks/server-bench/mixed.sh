#!/usr/bin/env bash
# Load that looks like learners (BENCHMARKS.md, "Mixed workload"), side by side in one run: 90 %
# catalog pages and searches, 8 % a learner's own reads, 2 % writes, by many learners with
# tokens (mixed.lua), on SQLite, on PostgreSQL with one server, and with two servers on the one
# PostgreSQL database, all on the same 1 M-course catalog, wrk on loopback.
#
# Usage: Benchmarks/server-bench/mixed.sh [seconds per configuration] [learners]
#   needs .build-bench/catalog-1000000 (tui-bench --sizes 1000000), wrk and PostgreSQL. Loads the
#   catalog into a throwaway cluster (about 6 minutes), unless EDUGO_BENCH_POSTGRES names a
#   database that holds it already (tui-bench --load-postgres URL).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
here="$root/Benchmarks/server-bench"
seconds="${1:-20}"
count="${2:-200}"
source_dir="$root/.build-bench/catalog-1000000"
[ -f "$source_dir/edugo.sqlite" ] || { echo "no catalog at $source_dir: run tui-bench --sizes 1000000 first"; exit 1; }
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk"; exit 1; }
work_prefix=mixed
source "$root/Benchmarks/server-bench/postgres-setup.sh"

# Sets `address`; called in this shell, never in `$(…)`, so the cleanup knows every server.
start_server() {  # name, arguments...
    local name="$1"; shift
    # Every simulated learner comes from one loopback address: the per-address limit on
    # account creation would stop the set-up at its tenth learner.
    "$bin/edugo-server" --port 0 --log-level warning --access-token-ttl 3600 --rate-limit 0 "$@" >"$work/$name.out" 2>"$work/$name.log" &
    pids+=($!)
    for _ in $(seq 1 600); do grep -q listening "$work/$name.out" 2>/dev/null && break; sleep 0.1; done
    address="$(sed -n 's/^EduGo server listening on //p' "$work/$name.out")"
}

cp "$source_dir"/edugo.sqlite* "$work/" 2>/dev/null || true
cp "$source_dir"/access-token.key "$work/" 2>/dev/null || true
# Written out before the server starts, so that the copy's writing out is never measured as the
# server's: on a copy still dirty in the page cache an fsync of the database took 2.1-2.3 s.
sync
start_server sqlite --data-dir "$work"; sqlite="$address"
start_server postgres --database "$url"; postgres="$address"
start_server second --database "$url"; second="$address"
python3 "$here/learners.py" "$sqlite" "$count" >"$work/sqlite.learners"
python3 "$here/learners.py" "$postgres" "$count" >"$work/postgres.learners"

mixed() {  # threads, connections, seconds, base, learners file
    wrk --latency -t"$1" -c"$2" -d"$3s" -s "$here/mixed.lua" "$4" -- "$5"
}
row() {  # label, wrk output
    awk -v label="$1" '
        /Requests\/sec/ {rps = $2}
        $1 == "50%" {p50 = $2}
        $1 == "99%" {p99 = $2}
        $1 == "Latency" && !max {max = $4}
        /^mix:/ {answers = $10 " / " $12 " / " $14}
        END {printf "%-34s %10s %9s %9s %9s   %s\n", label, rps, p50, p99, max, answers}' <<<"$2"
}

echo "edugo-server $(git -C "$root" rev-parse --short HEAD), 1000000 courses, $count learners per database, ${seconds}s per configuration after 5 s of warm-up, $(nproc) cores"
printf '%-34s %10s %9s %9s %9s   %s\n' configuration requests/s p50 p99 max "2xx / 4xx / 5xx"
mixed 2 16 5 "$sqlite" "$work/sqlite.learners" >/dev/null
row "SQLite, one server (-t2 -c16)" "$(mixed 2 16 "$seconds" "$sqlite" "$work/sqlite.learners")"
mixed 2 16 5 "$postgres" "$work/postgres.learners" >/dev/null
row "PostgreSQL, one server (-t2 -c16)" "$(mixed 2 16 "$seconds" "$postgres" "$work/postgres.learners")"
mixed 1 8 5 "$second" "$work/postgres.learners" >/dev/null
mixed 1 8 "$seconds" "$postgres" "$work/postgres.learners" >"$work/a.txt" &
other=$!  # not %1: the servers are this shell's jobs too
mixed 1 8 "$seconds" "$second" "$work/postgres.learners" >"$work/b.txt"
wait "$other" || true
row "PostgreSQL, two servers: first" "$(cat "$work/a.txt")"
row "PostgreSQL, two servers: second" "$(cat "$work/b.txt")"
awk '/Requests\/sec/ {sum += $2} END {printf "%-34s %10.2f\n", "PostgreSQL, two servers: together", sum}' "$work/a.txt" "$work/b.txt"
