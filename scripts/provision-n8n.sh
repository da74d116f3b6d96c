#!/usr/bin/env bash
# Provisions a pinned n8n (N8N_VERSION, default 2.41.1) on the Node.js that version accepts, and prints the
# directory holding its `n8n` binary. The directory holding that Node is recorded in
# .cache/n8n-<version>.node-bin (test/e2e/n8n.ts runs n8n with it).
# Where: a machine-wide cache outside the clone, so that later clones and CI runs on the same machine reuse it:
#   ${BOTSAILOR_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-botsailor}/n8n-<version>-<recipe key>/
# keyed by the version and the recipe below (the package.json written, the native modules rebuilt, Node's
# major), so a changed recipe provisions afresh. .cache/n8n-<version> in the clone is a symlink to it.
# Before every use the entry is checked: its marker names the key, every package npm recorded as installed
# (node_modules/.package-lock.json) is on disk, the native modules are built; a damaged or half-finished
# entry is removed and provisioned again. A cold machine only takes longer: the cache saves time, nothing else.
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
mkdir -p "$root/.cache"
# shellcheck disable=SC2086 # two words on purpose
node_bin="$(bash "$root/scripts/node.sh" $node_args)"
export PATH="$node_bin:$PATH"
node_major="$(node -p 'process.versions.node.split(".")[0]')"
native="sqlite3" # rebuilt for the Node that runs n8n (isolated-vm too, where the version has it)
package_json="{
  \"private\": true,
  \"dependencies\": { \"n8n\": \"$version\" },
  \"overrides\": { $overrides }
}"
# The recipe key: change anything that shapes the install and the entry is provisioned afresh.
recipe_key="$(printf '%s\n' "$package_json" "native: $native" "node: $node_major" "npm install --ignore-scripts; npm rebuild" |
  sha256sum | cut -c1-12)"
cache_root="${BOTSAILOR_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-botsailor}"
mkdir -p "$cache_root"
dir="$cache_root/n8n-$version-$recipe_key"
marker="$dir/.provisioned"
link="$root/.cache/n8n-$version"
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
exec 9>"$dir.lock"
if ! flock -n 9; then
  echo "provision-n8n: another run is provisioning n8n@$version; waiting for it …" >&2
  progress "waiting for the other run to finish provisioning n8n@$version"
  flock 9
  stop_progress
fi
# Integrity, checked before every use: the marker names this recipe's key, every package npm recorded as
# installed has its package.json, sqlite3's native binding is built. Anything else is rebuilt.
intact() {
  [ "$(cat "$marker" 2>/dev/null)" = "$version $recipe_key" ] || return 1
  [ -x "$dir/node_modules/.bin/n8n" ] || return 1
  (cd "$dir" && node -e '
    const { existsSync, readFileSync } = require("node:fs");
    const lock = JSON.parse(readFileSync("node_modules/.package-lock.json", "utf8"));
    const missing = Object.keys(lock.packages).filter((path) => path && !existsSync(path + "/package.json"));
    if (missing.length) { console.error(`provision-n8n: ${missing.length} installed packages are missing, e.g. ${missing[0]}`); process.exit(1); }
    const sqlite = require.resolve("sqlite3/package.json", { paths: [process.cwd() + "/node_modules/n8n"] });
    if (!existsSync(require("node:path").join(sqlite, "..", "build", "Release", "node_sqlite3.node"))) {
      console.error("provision-n8n: the sqlite3 native binding is not built"); process.exit(1);
    }') >&2 2>&1 || return 1
}
if [ -e "$dir" ] && ! intact; then
  echo "provision-n8n: the cached n8n@$version in $dir is damaged or unfinished: provisioning it again" >&2
  rm -f "$marker"
fi
if [ ! -f "$marker" ]; then
  started=$(date +%s)
  echo "provision-n8n: installing n8n@$version on Node $(node --version) into $dir: once, about 2,400 packages and 3 GB, 3 to 7 minutes (measured on 2 cores: 170 s idle, 407 s under load); later runs take a second" >&2
  rm -rf "$dir" # a half-finished install from an interrupted run is not reused
  mkdir -p "$dir"
  printf '%s\n' "$package_json" >"$dir/package.json"
  progress "installing n8n@$version (npm resolves the tree, then downloads and unpacks)"
  (cd "$dir" && npm install --ignore-scripts --no-audit --no-fund --loglevel=error >&2)
  [ -d "$dir/node_modules/isolated-vm" ] && native="$native isolated-vm"
  progress "building the native modules ($native) for Node $(node --version)"
  # shellcheck disable=SC2086 # two package names
  (cd "$dir" && npm rebuild $native --loglevel=error >&2)
  progress "checking that n8n starts (n8n --version)"
  "$dir/node_modules/.bin/n8n" --version >&2
  stop_progress
  echo "$version $recipe_key" > "$marker"
  intact || { echo "provision-n8n: n8n@$version installed but fails its integrity check" >&2; exit 1; }
  echo "provision-n8n: done in $(( $(date +%s) - started ))s, cached in $dir for later runs on this machine" >&2
fi
# The clone's .cache/n8n-<version> points at the machine-wide entry (a directory left by older scripts goes).
if [ "$(readlink "$link" 2>/dev/null)" != "$dir" ]; then
  rm -rf "$link.tmp" && ln -s "$dir" "$link.tmp"
  rm -rf "$link" && mv -T "$link.tmp" "$link"
fi
echo "$node_bin" > "$root/.cache/n8n-$version.node-bin"
echo "$dir/node_modules/.bin"
