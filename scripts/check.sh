#!/usr/bin/env bash
# `npm run check`: the quick check before a commit (CONTRIBUTING.md): lint (n8n's strict rules), Prettier's
# check, the type check of everything (nodes, credentials, tests, scripts, bench) and the unit suite. No n8n
# instance, no browser: a few minutes on 2 cores. CI runs all of this and more (.ci/run).
# One test file instead of the suite: `npm test -- test/node/sends.test.ts`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
started=$(date +%s)
step() {
  local name="$1" since
  shift
  since=$(date +%s)
  echo "=== check: $name ===" >&2
  "$@" || { echo "check: FAILED at \"$name\" (after $(($(date +%s) - started)) s)" >&2; exit 1; }
  echo "=== check: $name passed in $(($(date +%s) - since)) s ===" >&2
}
step "lint" bash scripts/dev.sh 'n8n-node lint'
step "format check" npm run --silent format:check
step "type check" bash scripts/dev.sh 'tsc -p tsconfig.test.json'
step "unit tests" bash scripts/dev.sh 'jest --ci'
echo "check: passed in $(($(date +%s) - started)) s" >&2
