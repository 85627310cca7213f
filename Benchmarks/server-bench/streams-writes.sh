#!/usr/bin/env bash
# Writes beside event streams on two servers (BENCHMARKS.md, "Two servers on one PostgreSQL"):
# two edugo-servers on one PostgreSQL database, first a favourite toggled on server 1 and read
# off a stream on server 2 with nothing else running (the change log's polling alone), then
# 50 event streams opened on each (the demo learner's, which every enrollment's seat change
# reaches), enrollment pairs sent to both at once (wrk -t2 -c2 each, two other learners) and
# the favourite's probe again under that load: the write's rate and p99, and the write-to-event
# time. Each run on a database of its own, holding the built-in catalog.
#
# Usage: Benchmarks/server-bench/streams-writes.sh [seconds] [runs]
#   EDUGO_TEST_POSTGRES: a cluster to use (a throwaway one is started otherwise);
#   EDUGO_STREAMS: streams a server (50); EDUGO_BUILD_PATH: the release build's folder (.build).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
seconds="${1:-15}"
runs="${2:-2}"
here="$root/Benchmarks/server-bench"
# EDUGO_BUILD_PATH: a build folder of its own (`.build-release`), to keep `.build` a debug one.
build=(--package-path "$root" -c release --build-path "${EDUGO_BUILD_PATH:-$root/.build}")
swift build "${build[@]}" --product edugo-server >/dev/null
server="$(swift build "${build[@]}" --show-bin-path)/edugo-server"
cluster=false
if [ -z "${EDUGO_TEST_POSTGRES:-}" ]; then
    eval "$("$root/Scripts/postgres-cluster.sh" start)"
    cluster=true
fi
mkdir -p "$root/.build-bench"
work="$(mktemp -d "$root/.build-bench/notify-XXXXXX")"
pids=()
autogroup=/proc/sys/kernel/sched_autogroup_enabled
autogroup_was="$(cat "$autogroup" 2>/dev/null || echo 0)"
[ -w "$autogroup" ] && echo 0 >"$autogroup"
cleanup() {
    [ -w "$autogroup" ] && echo "$autogroup_was" >"$autogroup"
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    if $cluster; then "$root/Scripts/postgres-cluster.sh" stop; fi
    rm -rf "$work"
}
trap cleanup EXIT

start_server() {  # name, arguments...
    local name="$1"; shift
    "$server" --port 0 --log-level warning --rate-limit 0 --streams-per-learner 100 "$@" \
        >"$work/$name.out" 2>"$work/$name.log" &
    pids+=($!)
    for _ in $(seq 1 600); do grep -q listening "$work/$name.out" 2>/dev/null && break; sleep 0.1; done
}
address() { sed -n 's/^EduGo server listening on //p' "$work/$1.out"; }
rate() { awk '/Requests\/sec/ {rps=$2} $1 == "99%" {p99=$2} /Non-2xx/ {bad=$5} END {printf "%s/s, p99 %s, non-2xx %d", rps, p99, bad}'; }
# A learner of its own with two courses it is not enrolled in: TOKEN COURSE1 COURSE2.
pair_learner() {
    local base="$1" line token
    line="$(python3 "$here/learners.py" "$base" 1)"
    read -r token c1 c2 _ <<<"$line"
    for course in "$c1" "$c2"; do
        curl -sf -X DELETE "$base/v1/me/enrollments/$course" -H "Authorization: Bearer $token" >/dev/null
    done
    echo "$token $c1 $c2"
}

echo "edugo-server $(git -C "$root" rev-parse --short HEAD), $(nproc) cores, ${seconds}s, ${EDUGO_STREAMS:-50} streams a server"
for run in $(seq 1 "$runs"); do
    url="${EDUGO_TEST_POSTGRES%/postgres}/edugo_notify_$run"
    psql "$EDUGO_TEST_POSTGRES" -qc "DROP DATABASE IF EXISTS edugo_notify_$run" -c "CREATE DATABASE edugo_notify_$run"
    start_server "one-$run" --database "$url"
    start_server "two-$run" --database "$url"
    first="$(address "one-$run")"
    second="$(address "two-$run")"
    read -r token1 a1 b1 <<<"$(pair_learner "$first")"
    read -r token2 a2 b2 <<<"$(pair_learner "$second")"
    echo "run $run: favourite on 1 to its event on 2, nothing else running: $(python3 "$here/events.py" latency "$first" "$second" 100)"
    for side in first second; do
        [ "${EDUGO_STREAMS:-50}" -gt 0 ] || break
        base="${!side}"
        python3 "$here/events.py" streams "$base" "${EDUGO_STREAMS:-50}" "127.0.$([ "$side" = first ] && echo 10 || echo 20).1" >"$work/streams-$side-$run" &
        pids+=($!)
        for _ in $(seq 1 600); do grep -q open "$work/streams-$side-$run" 2>/dev/null && break; sleep 0.1; done
    done
    wrk --latency -t2 -c2 -d"${seconds}s" -s "$here/enroll-pairs.lua" "$first" -- "$token1" "$a1" "$b1" >"$work/a.txt" &
    one=$!
    wrk --latency -t2 -c2 -d"${seconds}s" -s "$here/enroll-pairs.lua" "$second" -- "$token2" "$a2" "$b2" >"$work/b.txt" &
    two=$!
    sleep 2
    probe="$(python3 "$here/events.py" latency "$first" "$second" 100)"
    wait "$one" "$two" || true
    echo "    pairs on 1: $(rate <"$work/a.txt"); on 2: $(rate <"$work/b.txt")"
    echo "    favourite on 1 to its event on 2, under that load: $probe"
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    pids=()
done
