#!/usr/bin/env bash
# End-to-end tests in real Chromium against the production build, on a fresh database
# and a fresh copy of the sample project.
set -euo pipefail
cd "$(dirname "$0")/.."
export E2E_DATA_DIR="$PWD/.tmp/e2e-data"
export E2E_SAMPLE_DIR="$PWD/.tmp/e2e-sample"
rm -rf "$E2E_DATA_DIR" "$E2E_SAMPLE_DIR"
mkdir -p "$E2E_DATA_DIR"
node scripts/sample-project.mjs "$E2E_SAMPLE_DIR" --force
[ -f .next/BUILD_ID ] || npx next build
npx playwright test "$@"
