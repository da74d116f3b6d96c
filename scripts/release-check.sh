#!/usr/bin/env bash
# The release check: the steps .github/workflows/publish.yml runs before `npm publish --provenance`, in the
# workflow's order, and the steps .ci/run starts with. One script for both, so CI checks exactly what a
# release runs and the two cannot drift.
#   install (npm ci: the lock file as committed), lint, Prettier's check, build, unit tests, n8n's
#   verification scanner (source and packed tarball), pack (what `npm publish` would upload, listed), the size
#   budget (scripts/size-budget.mjs: the packed files unpacked, at most evolution-api's 783 kB).
# Usage: bash scripts/release-check.sh   (from any directory; Node 24 and npm 11 on PATH)
# RELEASE_CHECK_UNIT_TESTS=elsewhere: only .ci/run sets it, because its fresh-clone check runs the same
# `npm test` (the README's command, in a fresh clone) and one run of the suite per CI run is enough. The publish
# workflow never sets it: a release always runs the unit tests here.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
step() { echo "=== release check: $* ===" >&2; }
step "install (npm ci)"
npm ci --no-audit --no-fund
step "lint"
npm run lint
step "format check"
npm run format:check # Prettier, with the node-cli template's settings (.prettierrc.js)
step "build"
bash scripts/build-if-stale.sh --force # npm run build, stamped so the tests after it do not build again
if [ "${RELEASE_CHECK_UNIT_TESTS:-here}" = elsewhere ]; then
  step "unit tests: run by the caller's fresh-clone check (RELEASE_CHECK_UNIT_TESTS=elsewhere)"
else
  step "unit tests"
  npm test
fi
step "n8n verification scanner"
npm run scan
step "pack (dry run: the files npm publish uploads)"
npm pack --dry-run
step "size budget (unpacked, at most evolution-api's)"
node scripts/size-budget.mjs
