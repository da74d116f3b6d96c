#!/usr/bin/env bash
# Provisions a pinned n8n (default 2.41.1) on Node 24 into .cache/n8n-<version>/ (git-ignored) and
# prints the directory holding its `n8n` binary. Idempotent: a marker file makes later runs instant.
# Why the recipe: n8n 2.41.3 does not install from this registry; linkedom 0.18.15 needs a package
# missing from it; --ignore-scripts skips heavy optional postinstalls, then only the two native
# modules n8n needs (sqlite3, isolated-vm) are rebuilt.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
version="${N8N_VERSION:-2.41.1}"
dir="$root/.cache/n8n-$version"
marker="$dir/.provisioned"
export PATH="$(bash "$root/scripts/node24.sh"):$PATH"
mkdir -p "$root/.cache"
# One provisioning at a time (demo and tests may start together); the others wait, then see the marker.
exec 9>"$root/.cache/n8n-$version.lock"
flock 9
if [ ! -f "$marker" ]; then
  started=$(date +%s)
  echo "provision-n8n: installing n8n@$version into $dir (first run: several minutes, ~3 GB)" >&2
  rm -rf "$dir" # a half-finished install from an interrupted run is not reused
  mkdir -p "$dir"
  cat > "$dir/package.json" <<JSON
{
  "private": true,
  "dependencies": { "n8n": "$version" },
  "overrides": { "linkedom": "0.18.14" }
}
JSON
  (cd "$dir" \
    && npm install --ignore-scripts --no-audit --no-fund --loglevel=error >&2 \
    && npm rebuild sqlite3 isolated-vm --loglevel=error >&2)
  "$dir/node_modules/.bin/n8n" --version >&2
  echo "$version" > "$marker"
  echo "provision-n8n: done in $(( $(date +%s) - started ))s" >&2
fi
echo "$dir/node_modules/.bin"
