#!/usr/bin/env bash
# `npm run test:queue`: the package in n8n's queue mode, on this machine, with nothing left behind.
# 1. Installs PostgreSQL and Redis from Debian's packages when missing (apt-get, non-interactive; as root
#    or through password-less sudo), without letting the packages start their own services.
# 2. Starts a throw-away PostgreSQL cluster and a Redis server in a temp folder, on 127.0.0.1, on free ports.
# 3. Builds the package and provisions the pinned n8n (scripts/provision-n8n.sh), then runs
#    test/queue/run.ts: 1 main + 2 workers + 2 webhook processors (the second for (g)), the checks, the figures.
#    QUEUE_ONLY=f,h (letters a to h) runs only those checks, to iterate faster (run.ts's header); CI sets none: all run.
# Everything started here is stopped on exit, also on failure or Ctrl-C (trap); the temp folder is removed
# unless KEEP_QUEUE_DIR=1.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
started=$(date +%s)
say() { echo "test:queue: $*" >&2; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo "$@"
  else say "needs root (or password-less sudo) to run: $*"; return 1
  fi
}

postgres_bindir() {
  local dir
  if command -v pg_config >/dev/null && [ -x "$(pg_config --bindir)/initdb" ]; then pg_config --bindir; return; fi
  for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then echo "$dir"; return; fi
  done
}

# --- 1. packages ------------------------------------------------------------------------------------------
missing=()
[ -n "$(postgres_bindir)" ] || missing+=(postgresql)
command -v redis-server >/dev/null || missing+=(redis-server)
if [ ${#missing[@]} -gt 0 ]; then
  say "installing ${missing[*]} with apt-get"
  # A package's own service must not start (it would listen on the default ports and outlive this run).
  policy_created=0
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    as_root sh -c 'printf "#!/bin/sh\nexit 101\n" > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d'
    policy_created=1
  fi
  install() { as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >&2; }
  install || { as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q >&2 && install; } || status=$?
  [ "$policy_created" -eq 0 ] || as_root rm -f /usr/sbin/policy-rc.d
  [ -z "${status:-}" ] || { say "apt-get install ${missing[*]} failed"; exit "$status"; }
fi
pg_bin="$(postgres_bindir)"
[ -n "$pg_bin" ] || { say "PostgreSQL's initdb/pg_ctl not found after installing"; exit 1; }

# --- 2. services in a temp folder, stopped on exit ----------------------------------------------------------
work="$(mktemp -d "${TMPDIR:-/tmp}/botsailor-queue.XXXXXX")"
chmod 755 "$work"
pg_data="$work/pg/data"
redis_pid=""
pg_started=0
# PostgreSQL refuses to run as root: the cluster then belongs to the postgres user the package created.
pg_user=""
if [ "$(id -u)" -eq 0 ]; then pg_user=postgres; fi
as_pg() { if [ -n "$pg_user" ]; then runuser -u "$pg_user" -- "$@"; else "$@"; fi; }

cleanup() {
  local code=$?
  trap - EXIT INT TERM
  # n8n processes the runner started: one process group each (it writes their ids as it starts them).
  if [ -f "$work/pgids" ]; then
    while read -r group; do kill -TERM -- "-$group" 2>/dev/null || true; done < "$work/pgids"
    for _ in $(seq 1 30); do
      alive=0
      while read -r group; do kill -0 -- "-$group" 2>/dev/null && alive=1; done < "$work/pgids"
      [ "$alive" -eq 1 ] || break
      sleep 0.5
    done
    while read -r group; do kill -KILL -- "-$group" 2>/dev/null || true; done < "$work/pgids"
  fi
  if [ -n "$redis_pid" ]; then kill "$redis_pid" 2>/dev/null || true; wait "$redis_pid" 2>/dev/null || true; fi
  if [ "$pg_started" -eq 1 ]; then as_pg "$pg_bin/pg_ctl" stop -D "$pg_data" -m immediate -w >/dev/null 2>&1 || true; fi
  if [ "${KEEP_QUEUE_DIR:-0}" = 1 ]; then say "kept $work"; else rm -rf "$work"; fi
  say "finished in $(( $(date +%s) - started ))s (exit $code)"
  exit "$code"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

export PATH="$(bash "$root/scripts/node24.sh"):$PATH"
free_port() { node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }

mkdir -p "$work/pg" "$work/redis"
[ -z "$pg_user" ] || chown -R "$pg_user" "$work/pg"
pg_port="$(free_port)"
as_pg "$pg_bin/initdb" -D "$pg_data" -U n8n --auth=trust --encoding=UTF8 --locale=C >"$work/pg/initdb.log" 2>&1 \
  || { cat "$work/pg/initdb.log" >&2; exit 1; }
# A throw-away cluster: no durability needed, so no fsync; enough connections for five n8n processes.
as_pg "$pg_bin/pg_ctl" start -D "$pg_data" -w -t 60 -l "$work/pg/server.log" \
  -o "-c listen_addresses=127.0.0.1 -c port=$pg_port -c unix_socket_directories=$work/pg -c max_connections=200 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" >/dev/null \
  || { cat "$work/pg/server.log" >&2; exit 1; }
pg_started=1
as_pg "$pg_bin/createdb" -h 127.0.0.1 -p "$pg_port" -U n8n n8n

redis_port="$(free_port)"
redis-server --bind 127.0.0.1 --port "$redis_port" --save '' --appendonly no --dir "$work/redis" --logfile "$work/redis/redis.log" &
redis_pid=$!
for _ in $(seq 1 50); do
  if redis-cli -h 127.0.0.1 -p "$redis_port" ping 2>/dev/null | grep -q PONG; then break; fi
  kill -0 "$redis_pid" 2>/dev/null || { cat "$work/redis/redis.log" >&2; exit 1; }
  sleep 0.2
done
say "PostgreSQL $("$pg_bin/postgres" --version | grep -oE '[0-9]+\.[0-9]+' | head -1) on 127.0.0.1:$pg_port, Redis $(redis-server --version | sed -E 's/.*v=([^ ]+).*/\1/') on 127.0.0.1:$redis_port, in $work"

# --- 3. build, n8n, the run --------------------------------------------------------------------------------
bash scripts/build-if-stale.sh >"$work/build.log" 2>&1 || { cat "$work/build.log" >&2; exit 1; }
n8n_bin="$(bash "$root/scripts/provision-n8n.sh")"
QUEUE_WORK="$work" PSQL="$pg_bin/psql" PG_PORT="$pg_port" REDIS_PORT="$redis_port" N8N_BIN_DIR="$n8n_bin" \
  node "$root/node_modules/tsx/dist/cli.mjs" "$root/test/queue/run.ts"
