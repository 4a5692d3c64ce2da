#!/usr/bin/env bash
# Every test: unit and database tests (vitest) on SQLite, the database tests again on a
# real PostgreSQL started here, and end-to-end tests in real Chromium (Playwright).
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
results=.tmp/results
rm -rf "$results"; mkdir -p "$results"
status=0

node scripts/setup.mjs || exit 1

# Lint and format first: well under a minute, and they say at once what the slow part would not.
# Lint runs without its cache here: the cycle and client-module rules follow imports into
# other files, which a cached run re-checks only when the importing file itself changed.
echo "== lint and format"
t0=$SECONDS
# The format check runs beside lint (one core each).
( npm run -s format:check >"$results/format.log" 2>&1; echo $? >"$results/format.rc"; echo $((SECONDS - t0)) >"$results/format.s" ) &
format_pid=$!
npx eslint --max-warnings 0 . >"$results/lint.log" 2>&1 && lint="ok" || { cat "$results/lint.log"; lint="$(grep -E '^✖' "$results/lint.log" | tail -n 1 | sed 's/^✖ //')"; lint="${lint:-failed}"; status=1; }
lint_s=$((SECONDS - t0))
wait "$format_pid"
[ "$(cat "$results/format.rc")" = 0 ] && format="ok" || { grep -F '[warn]' "$results/format.log" | head -n 20; format="$(grep -o 'Code style issues found in [^.]*' "$results/format.log" | sed 's/Code style issues found in //') not formatted (npm run format)"; status=1; }
echo "lint: $lint (${lint_s} s); format: $format ($(cat "$results/format.s") s)"

# Chromium, PostgreSQL 15 and Redis come from Debian on first use (root and apt-get needed;
# scripts/apt-install.sh says what to install by hand where it cannot).
if [ ! -x /usr/bin/chromium ] && [ -z "${CHROMIUM_PATH:-}" ]; then
  bash scripts/apt-install.sh "the end-to-end tests (npm test)" chromium || exit 1
fi

echo "== unit and database tests (SQLite)"
npx vitest run --reporter=default --reporter=json --outputFile.json="$results/vitest-sqlite.json" || status=1

# The production build for the end-to-end tests runs beside the PostgreSQL tests, whose many
# waits on child processes and the database leave room for it; the two used to take turns.
echo "== building the app for the end-to-end tests (in the background)"
( npx next build >"$results/next-build.log" 2>&1; echo $? >"$results/next-build.rc" ) &
build_pid=$!

echo "== database tests (PostgreSQL, with Redis for the several-instances test)"
pgdir=$(mktemp -d /tmp/wb-pg-XXXXXX)
redisdir=$(mktemp -d /tmp/wb-redis-XXXXXX)
redisport=$((57000 + RANDOM % 2000))
cleanup() {
  bash "$root/scripts/pg-test-server.sh" stop "$pgdir" >/dev/null 2>&1; rm -rf "$pgdir"
  bash "$root/scripts/redis-test-server.sh" stop "$redisdir" >/dev/null 2>&1; rm -rf "$redisdir"
}
trap cleanup EXIT
bash scripts/redis-test-server.sh start "$redisdir" "$redisport" || { echo "test: Redis did not start" >&2; status=1; }
# A random port can be taken (it lies in the ephemeral range): try others, and show why.
pg_up=1
for attempt in 1 2 3; do
  pgport=$((55000 + RANDOM % 2000))
  if bash scripts/pg-test-server.sh start "$pgdir" "$pgport"; then pg_up=0; break; fi
  echo "test: PostgreSQL did not start on port $pgport (attempt $attempt of 3); the end of its log:" >&2
  tail -n 15 "$pgdir/log" >&2 || true
done
if [ "$pg_up" = 0 ]; then
  # One database per vitest worker (tests/db/setup.ts), created here rather than by two workers at once.
  for db in workbench_test workbench_test_w1 workbench_test_w2; do psql -h 127.0.0.1 -p "$pgport" -U postgres -qc "CREATE DATABASE $db" >/dev/null; done
  REDIS_TEST_URL="redis://127.0.0.1:$redisport" DATABASE_URL="postgresql://postgres@127.0.0.1:$pgport/workbench_test" \
    npx vitest run --project db --reporter=default --reporter=json --outputFile.json="$results/vitest-postgres.json" || status=1
else
  echo "test: PostgreSQL did not start" >&2
  status=1
fi
cleanup
trap - EXIT

echo "== end-to-end tests (Chromium)"
wait "$build_pid"
if [ "$(cat "$results/next-build.rc" 2>/dev/null)" = "0" ]; then
  bash scripts/e2e.sh || status=1
else
  cat "$results/next-build.log"; echo "test: the production build failed" >&2; status=1
fi

node scripts/test-summary.mjs "$results" || status=1
exit $status
