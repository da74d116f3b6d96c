#!/usr/bin/env bash
# Provisions a pinned n8n (N8N_VERSION, default 2.41.1) into .cache/n8n-<version>/ (git-ignored) on the
# Node.js that version accepts, and prints the directory holding its `n8n` binary. The directory
# holding that Node is recorded in .cache/n8n-<version>.node-bin (test/e2e/n8n.ts runs n8n with it).
# Idempotent: a marker file makes later runs instant.
# Why the recipe: n8n 2.41.3 does not install from this registry; linkedom 0.18.15 needs a package
# missing from it; n8n-nodes-base 1.x depends on an xlsx tarball URL that is not on it (2.x uses
# @e965/xlsx); --ignore-scripts skips heavy optional postinstalls, then only the native modules n8n
# needs (sqlite3, isolated-vm where present) are rebuilt, for the Node that will run them.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
version="${N8N_VERSION:-2.41.1}"
if ! [[ "$version" =~ ^([0-9]+)\.([0-9]+)\.([0-9]+)$ ]]; then
  echo "provision-n8n: N8N_VERSION must be an exact version such as 2.41.1, not \"$version\"" >&2
  exit 1
fi
major="${BASH_REMATCH[1]}"
minor="${BASH_REMATCH[2]}"
# n8n <= 1.94 declares engines.node "<= 22" and refuses to start on Node 24; later versions accept 24.
if [ "$major" -lt 1 ] || { [ "$major" -eq 1 ] && [ "$minor" -le 94 ]; }; then node_args="22 exact"; else node_args="24"; fi
overrides='"linkedom": "0.18.14"'
[ "$major" -ge 2 ] || overrides="$overrides, \"xlsx\": \"npm:@e965/xlsx@0.20.3\""
dir="$root/.cache/n8n-$version"
marker="$dir/.provisioned"
mkdir -p "$root/.cache"
# shellcheck disable=SC2086 # two words on purpose
node_bin="$(bash "$root/scripts/node.sh" $node_args)"
export PATH="$node_bin:$PATH"
# One provisioning at a time (demo and tests may start together); the others wait, then see the marker.
exec 9>"$root/.cache/n8n-$version.lock"
flock 9
if [ ! -f "$marker" ]; then
  started=$(date +%s)
  echo "provision-n8n: installing n8n@$version on Node $(node --version) into $dir (first run: several minutes, ~3 GB)" >&2
  rm -rf "$dir" # a half-finished install from an interrupted run is not reused
  mkdir -p "$dir"
  cat > "$dir/package.json" <<JSON
{
  "private": true,
  "dependencies": { "n8n": "$version" },
  "overrides": { $overrides }
}
JSON
  native="sqlite3"
  (cd "$dir" && npm install --ignore-scripts --no-audit --no-fund --loglevel=error >&2)
  [ -d "$dir/node_modules/isolated-vm" ] && native="$native isolated-vm"
  # shellcheck disable=SC2086 # two package names
  (cd "$dir" && npm rebuild $native --loglevel=error >&2)
  "$dir/node_modules/.bin/n8n" --version >&2
  echo "$version" > "$marker"
  echo "provision-n8n: done in $(( $(date +%s) - started ))s" >&2
fi
echo "$node_bin" > "$root/.cache/n8n-$version.node-bin"
echo "$dir/node_modules/.bin"
