#!/usr/bin/env bash
# CI: the README's two commands on a fresh clone of this checkout, with the machine's own Node first on the
# PATH (not the Node 24 that .ci/run puts first) and nothing done by hand: `npm test` must pass, and
# `npm run demo` must start until n8n is ready, then stop on Ctrl-C (SIGINT).
# Reused, as by any clone on this machine: the n8n the demo runs, from the machine-wide cache scripts/provision-n8n.sh
# keeps outside the clone (the clone still provisions it when that cache is cold). Node 24 and node_modules are
# installed in the clone by the commands themselves (scripts/dev.sh), from npm's cache.
# Env: N8N_PORT, SIMULATOR_PORT (the demo's ports, default 5678 and 5055), DEMO_READY_TIMEOUT (s, 900).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# The machine's own Node: the PATH without the .cache/node<major> entries scripts/node.sh hands out.
machine_path="$(printf '%s' "$PATH" | tr ':' '\n' | grep -v '/\.cache/node[0-9]*/' | paste -sd: -)"
work="$(mktemp -d "${TMPDIR:-/tmp}/botsailor-fresh-clone.XXXXXX")"
demo_pid=""
cleanup() {
  if [ -n "$demo_pid" ] && kill -0 "$demo_pid" 2>/dev/null; then kill -TERM -- "-$demo_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
started=$(date +%s)
git clone --quiet "$root" "$work/clone"
cd "$work/clone"
export PATH="$machine_path"
echo "fresh-clone-check: $(git log -1 --format='%h %s' | cut -c1-80) in $work/clone, node $(node --version) ($(command -v node)), npm $(npm --version)"

phase=$(date +%s)
# A bound, so that a jest that does not exit (a handle left open after a failure) fails CI with a clear line
# instead of running into CI's own limit.
code=0
timeout --kill-after=30 "${NPM_TEST_TIMEOUT:-1800}" npm test || code=$?
if [ "$code" = 124 ] || [ "$code" = 137 ]; then
  echo "fresh-clone-check: npm test did not finish within ${NPM_TEST_TIMEOUT:-1800} s (stopped)" >&2
  exit 1
fi
[ "$code" = 0 ] || { echo "fresh-clone-check: npm test failed (exit $code)" >&2; exit 1; }
echo "fresh-clone-check: npm test passed in $(($(date +%s) - phase)) s (npm ci and Node 24 included)"

phase=$(date +%s)
log="$work/demo.log"
setsid npm run demo >"$log" 2>&1 &
demo_pid=$!
deadline=$((phase + ${DEMO_READY_TIMEOUT:-900}))
until grep -q '^n8n is ready' "$log"; do
  if ! kill -0 "$demo_pid" 2>/dev/null || [ "$(date +%s)" -gt "$deadline" ]; then
    cat "$log"
    echo "fresh-clone-check: npm run demo did not get ready" >&2
    exit 1
  fi
  sleep 2
done
ready=$(($(date +%s) - phase))
editor="$(sed -n 's/^  Editor: *//p' "$log")"
curl -fsS -o /dev/null "$editor/healthz" || { cat "$log"; echo "fresh-clone-check: $editor/healthz does not answer" >&2; exit 1; }
kill -INT -- "-$demo_pid" # Ctrl-C, as a user stops it
for _ in $(seq 60); do kill -0 "$demo_pid" 2>/dev/null || break; sleep 1; done
if kill -0 "$demo_pid" 2>/dev/null; then cat "$log"; echo "fresh-clone-check: the demo did not stop on Ctrl-C" >&2; exit 1; fi
demo_pid=""
grep -q 'Stopping n8n and the simulator' "$log" || { cat "$log"; echo "fresh-clone-check: no clean stop" >&2; exit 1; }
echo "fresh-clone-check: npm run demo ready in $ready s ($editor answered), stopped by Ctrl-C"
echo "fresh-clone-check: passed in $(($(date +%s) - started)) s"
