#!/usr/bin/env bash
# Start or stop a throwaway Redis for tests (installed from Debian on first use, like PostgreSQL).
# Usage: scripts/redis-test-server.sh start DIR PORT | stop DIR
set -euo pipefail
cmd=${1:?start|stop}; dir=${2:?data dir}
case "$cmd" in
  start)
    port=${3:?port}
    if ! command -v redis-server >/dev/null || ! command -v redis-cli >/dev/null; then
      bash "$(dirname "$0")/apt-install.sh" "the several-instances tests (Redis)" redis-server
    fi
    mkdir -p "$dir"
    # Nothing is persisted: the tests' documents live in PostgreSQL.
    redis-server --port "$port" --bind 127.0.0.1 --dir "$dir" --daemonize yes --pidfile "$dir/redis.pid" \
      --logfile "$dir/log" --save "" --appendonly no
    for _ in $(seq 50); do
      [ "$(redis-cli -p "$port" ping 2>/dev/null)" = PONG ] && exit 0
      sleep 0.1
    done
    echo "redis-test-server: no answer on port $port" >&2; cat "$dir/log" >&2 || true; exit 1
    ;;
  stop)
    [ -f "$dir/redis.pid" ] || exit 0
    pid=$(cat "$dir/redis.pid")
    kill "$pid" 2>/dev/null || exit 0
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || exit 0; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
    ;;
esac
