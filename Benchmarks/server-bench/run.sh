#!/usr/bin/env bash
# The server under load, side by side in one run (BENCHMARKS.md, "Server"): wrk on loopback
# against a release edugo-server on a copy of tui-bench's 1 M-course database.
#
# Usage: Benchmarks/server-bench/run.sh [catalog directory] [seconds per endpoint]
#   the directory defaults to .build-bench/catalog-1000000 (made by tui-bench --sizes 1000000)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
source_dir="${1:-$root/.build-bench/catalog-1000000}"
seconds="${2:-10}"
[ -f "$source_dir/edugo.sqlite" ] || { echo "no catalog at $source_dir: run tui-bench --sizes 1000000 first"; exit 1; }
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk"; exit 1; }
# EDUGO_BUILD_PATH: a build folder of its own (`.build-release`), to keep `.build` a debug one.
build=(--package-path "$root" -c release --build-path "${EDUGO_BUILD_PATH:-$root/.build}")
swift build "${build[@]}" --product edugo-server >/dev/null
server="$(swift build "${build[@]}" --show-bin-path)/edugo-server"

work="$(mktemp -d "$root/.build-bench/server-XXXXXX")"
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -rf "$work"' EXIT
cp "$source_dir"/edugo.sqlite* "$work/"
# Written out before the server starts, so that the copy's writing out is never measured as the
# server's: on a copy still dirty in the page cache an fsync of the database took 2.1-2.3 s.
sync
# EDUGO_SERVER_ARGS: more options for the server (`--page-cache-megabytes 0`: every page read cold).
read -ra extra <<<"${EDUGO_SERVER_ARGS:-}"
"$server" --port 0 --data-dir "$work" --log-level warning "${extra[@]}" >"$work/stdout" 2>"$work/log" &
pid=$!
for _ in $(seq 1 600); do grep -q listening "$work/stdout" 2>/dev/null && break; sleep 0.1; done
base="$(sed -n 's/^EduGo server listening on //p' "$work/stdout")"
token="$(curl -sf -X POST "$base/v1/sessions" -H 'Content-Type: application/json' \
    -d '{"email": "demo@edugo.dev", "password": "edugo-demo"}' | python3 -c 'import json, sys; print(json.load(sys.stdin)["access_token"])')"
courses="$(curl -sf "$base/v1/courses?limit=1" | python3 -c 'import json, sys; d = json.load(sys.stdin); print(d["total"], d["total_is_lower_bound"])')"
echo "edugo-server $(git -C "$root" rev-parse --short HEAD) ${EDUGO_SERVER_ARGS:-}, $courses courses, wrk -t2 -c16 -d${seconds}s (writes: -t2 -c2), $(nproc) cores"
printf '%-40s %10s %9s %9s %9s %8s\n' endpoint requests/s p50 p99 max non-2xx

measure() {
    local name="$1"; shift
    local output
    output="$(wrk --latency -d "${seconds}s" "$@")"
    local rps p50 p99 max errors
    rps="$(awk '/Requests\/sec/ {print $2}' <<<"$output")"
    p50="$(awk '$1 == "50%" {print $2}' <<<"$output")"
    p99="$(awk '$1 == "99%" {print $2}' <<<"$output")"
    max="$(awk '$1 == "Latency" {print $4}' <<<"$output")"
    errors="$(awk '/Non-2xx/ {print $5}' <<<"$output")"
    printf '%-40s %10s %9s %9s %9s %8s\n' "$name" "$rps" "$p50" "$p99" "$max" "${errors:-0}"
    grep '^refused:' <<<"$output" || true  # what a script says its refusals were (enroll-pairs.lua)
}

auth="Authorization: Bearer $token"
# A learner with five courses, as a learner has (the bench database's demo learner holds the
# hundreds of enrollments tui-bench made).
learner="$(curl -sf -X POST "$base/v1/accounts" -H 'Content-Type: application/json' \
    -d "{\"name\": \"Bench Learner\", \"email\": \"bench-$$-$RANDOM@example.com\", \"password\": \"bench-password\"}" \
    | python3 -c 'import json, sys; print(json.load(sys.stdin)["access_token"])')"
for id in $(curl -sf "$base/v1/courses?limit=100&query=is:open" | python3 -c '
import json, sys
print(" ".join([c["id"] for c in json.load(sys.stdin)["courses"] if not c.get("prerequisite_id")][2:7]))'); do
    curl -sf -o /dev/null -X PUT "$base/v1/me/enrollments/$id" -H "Authorization: Bearer $learner"
done
measure "GET /health" -t2 -c16 "$base/health"
measure "GET /v1/courses (first page)" -t2 -c16 "$base/v1/courses?limit=20"
# Keys are catalog ranks; one from the middle of the catalog is a page half a million deep.
measure "GET /v1/courses (middle page)" -t2 -c16 "$base/v1/courses?limit=20&after=$((500000 * 65536))"
measure "GET /v1/courses?query=swift" -t2 -c16 "$base/v1/courses?limit=20&query=swift"
measure "GET /v1/courses?query=level:adv is:free" -t2 -c16 "$base/v1/courses?limit=20&query=level:advanced%20is:free"
measure "GET /v1/me/enrollments (5 courses)" -t2 -c16 -H "Authorization: Bearer $learner" "$base/v1/me/enrollments"
# Two open courses without a prerequisite, one per wrk thread.
open="$(curl -sf "$base/v1/courses?limit=100&query=is:open" | python3 -c '
import json, sys
print(" ".join([c["id"] for c in json.load(sys.stdin)["courses"] if not c.get("prerequisite_id")][:2]))')"
measure "PUT+DELETE enrollment pairs" -t2 -c2 -s "$root/Benchmarks/server-bench/enroll-pairs.lua" "$base" -- "$token" $open
echo "page cache: $(curl -sf "$base/metrics" | awk '/^edugo_page_cache_(hits|misses|evictions|dropped)_total / {sub("edugo_page_cache_", "", $1); printf "%s %d  ", $1, $2}')"
start=$(date +%s%N)
for _ in 1 2 3 4 5 6 7 8 9 10; do
    curl -sf -o /dev/null -X POST "$base/v1/sessions" -H 'Content-Type: application/json' -d '{"email": "demo@edugo.dev", "password": "edugo-demo"}'
done
echo "POST /v1/sessions, 10 in a row: $(( ($(date +%s%N) - start) / 10000000 )) ms each (PBKDF2-SHA256, 600,000 rounds)"
