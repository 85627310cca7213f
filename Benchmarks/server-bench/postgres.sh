#!/usr/bin/env bash
# The server under load on PostgreSQL beside SQLite, in one run (BENCHMARKS.md, "The server on
# PostgreSQL"): the same 1 M-course catalog, the same endpoints, wrk on loopback; then two
# server processes on the one PostgreSQL database, one wrk per process at once.
#
# Usage: Benchmarks/server-bench/postgres.sh [seconds per endpoint]
#   needs .build-bench/catalog-1000000 (tui-bench --sizes 1000000) and PostgreSQL installed;
#   loads the generated catalog into a throwaway cluster (Scripts/postgres-cluster.sh).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
seconds="${1:-10}"
source_dir="$root/.build-bench/catalog-1000000"
[ -f "$source_dir/edugo.sqlite" ] || { echo "no catalog at $source_dir: run tui-bench --sizes 1000000 first"; exit 1; }
work_prefix=pg
source "$root/Benchmarks/server-bench/postgres-setup.sh"
psql "$url" -Atc "SELECT pg_size_pretty(pg_database_size(current_database())), (SELECT count(*) FROM course_term)" | sed 's/^/database size, term rows: /'

cp "$source_dir"/edugo.sqlite* "$work/" 2>/dev/null || true
# Written out before the server starts, so that the copy's writing out is never measured as the
# server's: on a copy still dirty in the page cache an fsync of the database took 2.1-2.3 s.
sync
start_server sqlite --data-dir "$work"; sqlite="$address"
start_server postgres --database "$url"; postgres="$address"
start_server second --database "$url"; second="$address"
echo "edugo-server $(git -C "$root" rev-parse --short HEAD), 1000000 courses, wrk -t2 -c16 -d${seconds}s (enroll: -t2 -c2), $(nproc) cores"
printf '%-36s %10s %9s   %10s %9s\n' endpoint "SQLite/s" p99 "Postgres/s" p99
for endpoint in "/health" "/v1/courses?limit=20" "/v1/courses?limit=20&after=$((500000 * 65536))" \
    "/v1/courses?limit=20&query=swift" "/v1/courses?limit=20&query=level:advanced%20is:free"; do
    a="$(wrk --latency -t2 -c16 -d"${seconds}s" "$sqlite$endpoint" | rate)"
    b="$(wrk --latency -t2 -c16 -d"${seconds}s" "$postgres$endpoint" | rate)"
    printf '%-36s %s   %s\n' "$endpoint" "$a" "$b"
done
for base in "$sqlite" "$postgres"; do
    token="$(token_for "$base")"
    row="$(wrk --latency -t2 -c2 -d"${seconds}s" -s "$root/Benchmarks/server-bench/enroll-pairs.lua" "$base" -- "$token" $(open_courses "$base" "$token") | rate)"
    printf '%-36s %s\n' "PUT+DELETE enrollment ($([ "$base" = "$sqlite" ] && echo SQLite || echo Postgres))" "$row"
done

echo
echo "two server processes on the one PostgreSQL database, one wrk -t1 -c8 each, at once:"
# The second server has served nothing yet: 3 s of load on each first, so its pool's
# connections are open and its statements prepared, as the first one's are by now.
wrk -t1 -c8 -d3s "$postgres/v1/courses?limit=20" >/dev/null &
other=$!
wrk -t1 -c8 -d3s "$second/v1/courses?limit=20" >/dev/null
wait "$other" || true
for endpoint in "/v1/courses?limit=20" "/v1/courses?limit=20&query=swift"; do
    wrk --latency -t1 -c8 -d"${seconds}s" "$postgres$endpoint" >"$work/a.txt" &
    other=$!  # not %1: the servers are this shell's jobs too
    wrk --latency -t1 -c8 -d"${seconds}s" "$second$endpoint" >"$work/b.txt"
    wait "$other" || true
    printf '%-36s %s | %s\n' "$endpoint" "$(rate <"$work/a.txt")" "$(rate <"$work/b.txt")"
done
token="$(token_for "$postgres")"
courses=($(open_courses "$postgres" "$token"))
wrk --latency -t1 -c1 -d"${seconds}s" -s "$root/Benchmarks/server-bench/enroll-pairs.lua" "$postgres" -- "$token" "${courses[0]}" >"$work/a.txt" &
other=$!
wrk --latency -t1 -c1 -d"${seconds}s" -s "$root/Benchmarks/server-bench/enroll-pairs.lua" "$second" -- "$(token_for "$second")" "${courses[1]}" >"$work/b.txt"
wait "$other" || true
printf '%-36s %s | %s\n' "PUT+DELETE enrollment" "$(rate <"$work/a.txt")" "$(rate <"$work/b.txt")"
