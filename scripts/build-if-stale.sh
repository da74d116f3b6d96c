#!/usr/bin/env bash
# Builds the package (`npm run build`) unless dist/ already holds the build of these exact sources: after a
# build, .cache/dist.stamp records the hash of every file the build reads and the hash of the bundle it made
# (outside dist/, so nothing extra is published); a changed source or a changed or missing bundle rebuilds. The e2e, queue and release
# tests call this instead of building every time, so CI builds once (in the release check) and can run them
# side by side without one rebuilding dist/ under another. A lock keeps two callers from building at once.
# --force: build whatever the stamp says (the release check: a release is always built afresh), then stamp.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
sources_hash() {
  find nodes credentials icons package.json package-lock.json tsconfig.json scripts/bundle.mjs -type f -print0 |
    sort -z | xargs -0 sha256sum | sha256sum | cut -c1-64
}
mkdir -p .cache
exec 8>.cache/build.lock
flock 8
stamp() { echo "$(sources_hash) $(sha256sum dist/botsailor.js 2>/dev/null | cut -c1-64)"; }
if [ "${1:-}" != --force ] && [ -f .cache/dist.stamp ] && [ "$(cat .cache/dist.stamp)" = "$(stamp)" ]; then
  echo "build: dist/ is the build of these sources (.cache/dist.stamp), not rebuilt" >&2
  exit 0
fi
npm run build >&2
stamp >.cache/dist.stamp
