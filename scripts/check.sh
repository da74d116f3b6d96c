#!/usr/bin/env bash
# `npm run check`: the quick check before a commit (CONTRIBUTING.md): lint (n8n's strict rules) and the type check of
# everything (nodes, credentials, tests, scripts, bench) side by side, Prettier's check, then the unit suite on every
# core. No n8n instance, no browser. CI runs all of this and more (.ci/run).
# One test file instead of the suite: `npm test -- test/node/sends.test.ts`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
started=$(date +%s)
bash scripts/dev.sh 'true' # Node 24 and the dependencies, once, before the steps below use them
PATH="$(pwd)/node_modules/.bin:$(bash scripts/node24.sh):$PATH"
export PATH
log="$(mktemp -d "${TMPDIR:-/tmp}/botsailor-check.XXXXXX")"
trap 'rm -rf "$log"' EXIT
passed() { echo "=== check: $1 passed in $(($(date +%s) - $2)) s ===" >&2; }
failed() {
  echo "check: FAILED at \"$1\" (after $(($(date +%s) - started)) s)" >&2
  exit 1
}

since=$(date +%s)
echo "=== check: lint and type check (side by side) ===" >&2
n8n-node lint >"$log/lint" 2>&1 &
lint=$!
tsc -p tsconfig.test.json >"$log/tsc" 2>&1 &
tsc=$!
lint_ok=0 tsc_ok=0
wait "$lint" || lint_ok=$?
wait "$tsc" || tsc_ok=$?
[ "$lint_ok" = 0 ] || { cat "$log/lint" >&2; failed "lint"; }
[ "$tsc_ok" = 0 ] || { cat "$log/tsc" >&2; failed "type check"; }
passed "lint and type check" "$since"

since=$(date +%s)
echo "=== check: format check ===" >&2
npm run --silent format:check || failed "format check"
passed "format check" "$since"

since=$(date +%s)
echo "=== check: unit tests ===" >&2
# jest.config.js's workers (four at least: most test files wait on real timers).
jest --ci || failed "unit tests"
passed "unit tests" "$since"
echo "check: passed in $(($(date +%s) - started)) s" >&2
