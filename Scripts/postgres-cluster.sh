#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the PostgreSQL tests: a temporary directory, a free
# loopback port, trust authentication, no fsync. PostgreSQL refuses to run as root, so as
# root it runs as the `postgres` user (which Debian's package makes). pg_stat_statements is
# preloaded but tracks nothing: a test that counts statements (PostgresOperationCostTests)
# turns it on for its own database alone, so no other test's statements crowd its out.
#
#   eval "$(Scripts/postgres-cluster.sh start)"   # exports EDUGO_TEST_POSTGRES (and _DIR)
#   swift test
#   Scripts/postgres-cluster.sh stop               # stops it and removes the directory
set -euo pipefail

bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
[ -x "$bin/initdb" ] || { echo "PostgreSQL is not installed: apt-get install postgresql" >&2; exit 1; }

as_owner() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "${1:-}" in
start)
    dir="$(mktemp -d /tmp/edugo-postgres-XXXXXX)"
    chmod 755 "$dir"
    [ "$(id -u)" = 0 ] && chown postgres "$dir"
    port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    as_owner "$bin/initdb" -D "$dir/data" -A trust -U postgres --no-locale -E UTF8 >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; exit 1; }
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -o \
        "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300 -c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track=none" \
        start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
    echo "export EDUGO_TEST_POSTGRES=postgres://postgres@127.0.0.1:$port/postgres"
    echo "export EDUGO_TEST_POSTGRES_DIR=$dir"
    ;;
stop)
    dir="${EDUGO_TEST_POSTGRES_DIR:?EDUGO_TEST_POSTGRES_DIR is not set: nothing to stop}"
    as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$dir"
    ;;
*)
    echo "usage: $0 start|stop" >&2
    exit 2
    ;;
esac
