#!/usr/bin/env bash
# Start or stop a throwaway PostgreSQL 15 for tests (see shared PLATFORM.md).
# Usage: scripts/pg-test-server.sh start DIR PORT | stop DIR
set -euo pipefail
cmd=${1:?start|stop}; dir=${2:?data dir}
bin=/usr/lib/postgresql/15/bin
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
case "$cmd" in
  start)
    port=${3:?port}
    if [ ! -x "$bin/initdb" ]; then
      bash "$(dirname "$0")/apt-install.sh" "the PostgreSQL database tests" postgresql-15
    fi
    mkdir -p "$dir"; [ "$(id -u)" = 0 ] && chown postgres "$dir"
    if [ ! -f "$dir/PG_VERSION" ]; then as_pg "$bin/initdb" -D "$dir" -A trust -U postgres >/dev/null; fi
    as_pg "$bin/pg_ctl" -D "$dir" -o "-p $port -k /tmp -c listen_addresses=127.0.0.1 -c fsync=off" -l "$dir/log" -w -t 120 start >/dev/null
    ;;
  stop)
    as_pg "$bin/pg_ctl" -D "$dir" -m fast -w stop >/dev/null || true
    ;;
esac
