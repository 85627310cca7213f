# Shared by postgres.sh and mixed.sh, sourced after `root` is set: builds the release server
# and tui-bench (`bin`), makes a work folder (`work`, named by `work_prefix`) that the exit
# cleans up with every server in `pids`, and sets `url` to a PostgreSQL database holding the
# 1 M catalog: EDUGO_BENCH_POSTGRES if it names one (tui-bench --load-postgres URL), else a
# throwaway cluster loaded now (about 6 minutes), stopped on exit.
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

if [ -n "${EDUGO_BENCH_POSTGRES:-}" ]; then
    url="$EDUGO_BENCH_POSTGRES"
else
    eval "$("$root/Scripts/postgres-cluster.sh" start)"
    cluster=true
    url="${EDUGO_TEST_POSTGRES%/postgres}/edugo_bench"
    psql "$EDUGO_TEST_POSTGRES" -qc "CREATE DATABASE edugo_bench"
    "$bin/tui-bench" --sizes 1000000 --load-postgres "$url"
    psql "$url" -qc "VACUUM ANALYZE"
fi
