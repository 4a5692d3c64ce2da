#!/usr/bin/env bash
# End-to-end tests in real Chromium against the production build, on a fresh database
# and a fresh copy of the sample project.
set -euo pipefail
cd "$(dirname "$0")/.."
# E2E_PORT other than the default gives the run its own folders, so two runs can share a checkout
# (with NEXT_DIST_DIR naming a separate build).
suffix=""; [ "${E2E_PORT:-3210}" = 3210 ] || suffix="-$E2E_PORT"
export E2E_DATA_DIR="$PWD/.tmp/e2e-data$suffix"
export E2E_SAMPLE_DIR="$PWD/.tmp/e2e-sample$suffix"
rm -rf "$E2E_DATA_DIR" "$E2E_DATA_DIR-team" "$E2E_SAMPLE_DIR"
mkdir -p "$E2E_DATA_DIR" "$E2E_DATA_DIR-team"
node scripts/sample-project.mjs "$E2E_SAMPLE_DIR" --force
if [ ! -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then
  bash scripts/apt-install.sh "the end-to-end tests" chromium
fi
[ -f "${NEXT_DIST_DIR:-.next}/BUILD_ID" ] || npx next build
npx playwright test "$@"
