# Shared by postgres.sh and mixed.sh, sourced after `root` is set: builds the release server
# and tui-bench (`bin`), makes a work folder (`work`, named by `work_prefix`) that the exit
# cleans up with every server in `pids`, and sets `url` to a PostgreSQL database holding the
# 1 M catalog: EDUGO_BENCH_POSTGRES if it names one (tui-bench --load-postgres URL), else a
# throwaway cluster loaded now (about 6 minutes), stopped on exit; none with
# EDUGO_BENCH_SQLITE_ONLY=1, for the scripts that can leave PostgreSQL out (zipf.sh).
# EDUGO_BUILD_PATH: a build folder of its own (`.build-release`), to keep `.build` a debug one.
build=(--package-path "$root" -c release --build-path "${EDUGO_BUILD_PATH:-$root/.build}")
swift build "${build[@]}" --product edugo-server >/dev/null
swift build "${build[@]}" --product tui-bench >/dev/null
bin="$(swift build "${build[@]}" --show-bin-path)"

work="$(mktemp -d "$root/.build-bench/${work_prefix:-bench}-XXXXXX")"
pids=()
cluster=false
# The kernel's autogroup scheduling gives each session an equal share of the CPUs, and
# PostgreSQL runs in a session of its own: with the servers, wrk and the probes all in this
# one, PostgreSQL's backends shared half the machine between them and, at times, none of them
# ran for up to 0.7 s (stall.sh; BENCHMARKS.md, "Two servers on one PostgreSQL"). Every process
# competes on its own for the run, as on a machine that runs PostgreSQL as a service.
autogroup=/proc/sys/kernel/sched_autogroup_enabled
autogroup_was=""
if [ -w "$autogroup" ] && [ "$(cat "$autogroup")" = 1 ]; then
    autogroup_was=1
    echo 0 >"$autogroup"
    echo "kernel autogroup scheduling off for the run (it was on)"
elif [ -r "$autogroup" ] && [ "$(cat "$autogroup")" = 1 ]; then
    echo "warning: kernel autogroup scheduling is on and cannot be turned off (not root): PostgreSQL gets half the CPUs at most"
fi
cleanup() {
    if [ -n "$autogroup_was" ]; then echo "$autogroup_was" >"$autogroup"; fi
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    if $cluster; then "$root/Scripts/postgres-cluster.sh" stop; fi
    rm -rf "$work"
}
trap cleanup EXIT
# A signal (timeout, Ctrl-C) ends the script through its EXIT trap too, servers included.
trap "exit 143" TERM
trap "exit 130" INT

if [ "${EDUGO_BENCH_SQLITE_ONLY:-}" = 1 ]; then
    url=""
elif [ -n "${EDUGO_BENCH_POSTGRES:-}" ]; then
    url="$EDUGO_BENCH_POSTGRES"
else
    eval "$("$root/Scripts/postgres-cluster.sh" start)"
    cluster=true
    url="${EDUGO_TEST_POSTGRES%/postgres}/edugo_bench"
    psql "$EDUGO_TEST_POSTGRES" -qc "CREATE DATABASE edugo_bench"
    "$bin/tui-bench" --sizes 1000000 --load-postgres "$url"
    psql "$url" -qc "VACUUM ANALYZE"
fi

# Shared by the scripts that source this. Sets `address` and `pid`; call it in the script's own
# shell, never in `$(…)`: a subshell's `pids` would be lost and the cleanup would leave the
# server running.
start_server() {  # name, arguments...
    local name="$1"; shift
    "$bin/edugo-server" --port 0 --log-level warning "$@" >"$work/$name.out" 2>"$work/$name.log" &
    pid=$!
    pids+=("$pid")
    for _ in $(seq 1 600); do grep -q listening "$work/$name.out" 2>/dev/null && break; sleep 0.1; done
    address="$(sed -n 's/^EduGo server listening on //p' "$work/$name.out")"
}
token_for() {  # server → the demo learner's access token
    curl -sf -X POST "$1/v1/sessions" -H 'Content-Type: application/json' -d '{"email": "demo@edugo.dev", "password": "edugo-demo"}' \
        | python3 -c 'import json, sys; print(json.load(sys.stdin)["access_token"])'
}
rate() {  # wrk output → requests/s and p99
    awk '/Requests\/sec/ {rps=$2} $1 == "99%" {p99=$2} END {printf "%10s %9s", rps, p99}'
}
open_courses() {  # server, token → two open courses without prerequisites
    curl -sf "$1/v1/courses?limit=100&query=is:open" -H "Authorization: Bearer $2" | python3 -c '
import json, sys
print(" ".join([c["id"] for c in json.load(sys.stdin)["courses"] if not c.get("prerequisite_id")][:2]))'
}
