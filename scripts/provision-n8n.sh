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
# Progress on stderr every 5 s while a phase runs (a first install is silent for minutes otherwise):
# elapsed time, the phase, and for the install how many packages are unpacked so far.
ticker_pid=""
progress() { # progress "<phase>": (re)starts the ticker
  stop_progress
  local phase="$1" since
  since=$(date +%s)
  (
    while sleep 5; do
      detail=""
      if [ -d "$dir/node_modules" ] && [[ "$phase" == installing* ]]; then
        unpacked=$( (ls -d "$dir"/node_modules/[!@.]*/ "$dir"/node_modules/@*/*/ 2>/dev/null || true) | wc -l)
        detail=": $unpacked of about 1,500 top-level packages unpacked"
      fi
      echo "provision-n8n: ${phase}${detail} ($(($(date +%s) - since)) s, $(($(date +%s) - provision_started)) s in all)" >&2
    done
  ) &
  ticker_pid=$!
}
stop_progress() {
  if [ -n "$ticker_pid" ]; then kill "$ticker_pid" 2>/dev/null || true; wait "$ticker_pid" 2>/dev/null || true; fi
  ticker_pid=""
}
trap stop_progress EXIT
provision_started=$(date +%s)
exec 9>"$root/.cache/n8n-$version.lock"
if ! flock -n 9; then
  echo "provision-n8n: another run is provisioning n8n@$version; waiting for it …" >&2
  progress "waiting for the other run to finish provisioning n8n@$version"
  flock 9
  stop_progress
fi
if [ ! -f "$marker" ]; then
  started=$(date +%s)
  echo "provision-n8n: installing n8n@$version on Node $(node --version) into $dir: once, about 2,400 packages and 3 GB, 3 to 7 minutes (measured on 2 cores: 170 s idle, 407 s under load); later runs take a second" >&2
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
  progress "installing n8n@$version (npm resolves the tree, then downloads and unpacks)"
  (cd "$dir" && npm install --ignore-scripts --no-audit --no-fund --loglevel=error >&2)
  [ -d "$dir/node_modules/isolated-vm" ] && native="$native isolated-vm"
  progress "building the native modules ($native) for Node $(node --version)"
  # shellcheck disable=SC2086 # two package names
  (cd "$dir" && npm rebuild $native --loglevel=error >&2)
  progress "checking that n8n starts (n8n --version)"
  "$dir/node_modules/.bin/n8n" --version >&2
  stop_progress
  echo "$version" > "$marker"
  echo "provision-n8n: done in $(( $(date +%s) - started ))s" >&2
fi
echo "$node_bin" > "$root/.cache/n8n-$version.node-bin"
echo "$dir/node_modules/.bin"
