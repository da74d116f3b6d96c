#!/usr/bin/env bash
# `npm run test:release`: the release path as a user takes it. A real n8n 2.41.1 installs the previous
# release (releases.json) BY NAME through its own installer (Settings → Community Nodes, the REST calls its
# page makes), runs active trigger workflows and a saved Send Template built with it, then updates in place to
# the build under test while customers write, is restarted, uninstalls and reinstalls (test/release/run.ts).
#
# n8n's installer runs `npm pack <name>@<version> --registry=https://registry.npmjs.org` (a licence is needed
# to change the registry). So the test runs inside a network and mount namespace made here (unshare, as
# root): only a loopback interface, a private /etc/hosts (bind-mounted, this namespace only) in which
# registry.npmjs.org is 127.0.0.1, where a throw-away Verdaccio (no uplink) serves HTTPS on 443 with a
# certificate from a throw-away CA that n8n and its npm trust through NODE_EXTRA_CA_CERTS. Nothing outside is
# reachable from inside, and the machine's resolver, hosts file and npm configuration are untouched.
# Verdaccio is installed into .cache/ from the npm registry (not a dependency of the package).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
say() { echo "test:release: $*" >&2; }
REGISTRY_HOST=registry.npmjs.org
VERDACCIO_VERSION=6.10.4

if [ "${1:-}" = "--inside" ]; then
  # --- inside the namespace ------------------------------------------------------------------------------
  work="$2"
  ip link set lo up
  printf '127.0.0.1 localhost\n::1 localhost\n127.0.0.1 %s\n' "$REGISTRY_HOST" >"$work/hosts"
  mount --bind "$work/hosts" /etc/hosts
  getent hosts "$REGISTRY_HOST" | grep -q '^127.0.0.1' || { say "$REGISTRY_HOST does not resolve to 127.0.0.1 here"; exit 1; }
  export NODE_EXTRA_CA_CERTS="$work/tls/ca.pem"
  "$root/.cache/verdaccio-$VERDACCIO_VERSION/node_modules/.bin/verdaccio" --config "$work/verdaccio.yaml" \
    --listen "https://127.0.0.1:443" >"$work/registry.log" 2>&1 &
  registry_pid=$!
  trap 'kill "$registry_pid" 2>/dev/null || true; wait "$registry_pid" 2>/dev/null || true' EXIT
  for _ in $(seq 1 120); do
    curl -sf --cacert "$work/tls/ca.pem" "https://$REGISTRY_HOST/-/ping" >/dev/null && break
    kill -0 "$registry_pid" 2>/dev/null || { cat "$work/registry.log" >&2; say "Verdaccio exited"; exit 1; }
    sleep 0.5
  done
  # A publisher account on the throw-away registry; its token lives in a temp npmrc only the publish uses.
  token=$(curl -sf --cacert "$work/tls/ca.pem" -X PUT -H 'content-type: application/json' \
    -d '{"name":"release-test","password":"release-test-password"}' \
    "https://$REGISTRY_HOST/-/user/org.couchdb.user:release-test" | node -p 'JSON.parse(require("fs").readFileSync(0, "utf8")).token')
  printf '//%s/:_authToken=%s\n' "$REGISTRY_HOST" "$token" >"$work/publisher.npmrc"
  # The re-versioned copy goes under its own dist-tag: `latest` stays the build under test.
  for entry in "previous.tgz latest" "next.tgz latest" "rehearsal.tgz rehearsal"; do
    read -r tarball tag <<<"$entry"
    # --userconfig on the command line: under `npm run`, npm's own npm_config_userconfig is in the environment.
    npm publish "$work/$tarball" --tag "$tag" --userconfig "$work/publisher.npmrc" --registry "https://$REGISTRY_HOST/" \
      --provenance=false --loglevel=warn >&2
  done
  say "published $(npm view n8n-nodes-botsailor versions --json --registry "https://$REGISTRY_HOST/" --cache "$work/view-cache" | tr -d ' \n') to the local registry"
  # RELEASE_BROWSER_ONLY=1: only the editor install below (to re-take its screenshot).
  if [ "${RELEASE_BROWSER_ONLY:-0}" != 1 ]; then
    RELEASE_WORK="$work" "$root/node_modules/.bin/tsx" "$root/test/release/run.ts"
  fi
  # The same install from the editor (Settings → Community Nodes), in headless Chromium; RELEASE_BROWSER=0 skips it.
  if [ "${RELEASE_BROWSER:-1}" = 1 ]; then
    RELEASE_WORK="$work" "$root/node_modules/.bin/tsx" "$root/test/release/browser.ts"
  fi
  exit 0
fi

# --- outside: provision, build both releases, make the CA, enter the namespace ----------------------------
started=$(date +%s)
[ "$(id -u)" -eq 0 ] || { say "needs root (unshare --net --mount, a bind mount, port 443)"; exit 1; }
# Debian's packages for what is missing (CI machines may have nothing installed by hand).
declare -A package_of=([unshare]=util-linux [ip]=iproute2 [openssl]=openssl [curl]=curl)
for tool in unshare ip openssl curl; do
  command -v "$tool" >/dev/null && continue
  say "installing ${package_of[$tool]} with apt-get (for $tool)"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${package_of[$tool]}" >&2 ||
    { DEBIAN_FRONTEND=noninteractive apt-get update -q >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${package_of[$tool]}" >&2; } ||
    { say "needs $tool (package ${package_of[$tool]})"; exit 1; }
done
N8N_VERSION=2.41.1 bash scripts/provision-n8n.sh >/dev/null
if [ "${RELEASE_BROWSER:-1}" = 1 ] && [ -z "${CHROMIUM_PATH:-}" ] && [ ! -x /usr/bin/chromium ]; then
  say "installing Debian's chromium with apt-get (the editor check)"
  install_chromium() { DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends chromium >&2; }
  install_chromium || { DEBIAN_FRONTEND=noninteractive apt-get update -q >&2 && install_chromium; }
fi
verdaccio_dir="$root/.cache/verdaccio-$VERDACCIO_VERSION"
(
  flock 9
  if [ ! -f "$verdaccio_dir/.provisioned" ]; then
    rm -rf "$verdaccio_dir" && mkdir -p "$verdaccio_dir"
    # node-fetch@cjs (a dist-tag verdaccio-audit names) is not resolvable on every registry mirror: pin it.
    printf '{ "private": true, "dependencies": { "verdaccio": "%s" }, "overrides": { "node-fetch": "2.7.0" } }\n' \
      "$VERDACCIO_VERSION" >"$verdaccio_dir/package.json"
    (cd "$verdaccio_dir" && npm install --no-audit --no-fund --loglevel=error >&2)
    touch "$verdaccio_dir/.provisioned"
  fi
) 9>"$root/.cache/verdaccio.lock"

work="$(mktemp -d "${TMPDIR:-/tmp}/botsailor-release.XXXXXX")"
cleanup() {
  local code=$?
  if [ "${KEEP_RELEASE_DIR:-0}" = 1 ]; then say "kept $work"; else rm -rf "$work"; fi
  say "finished in $(( $(date +%s) - started ))s (exit $code)"
}
trap cleanup EXIT

# The build under test, and the previous release built from its recorded commit with the same toolchain.
bash scripts/build-if-stale.sh
npm pack --pack-destination "$work" --json 2>/dev/null | node -e 'const [p] = JSON.parse(require("fs").readFileSync(0, "utf8")); require("fs").renameSync(process.argv[1] + "/" + p.filename, process.argv[1] + "/next.tgz")' "$work"
next_version=$(node -p 'require("./package.json").version')
read -r previous_version previous_commit previous_stores_memory < <(node -e '
  const [next] = process.argv.slice(1);
  const newer = (a, b) => { const [x, y] = [a, b].map((v) => v.split(".").map(Number)); for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] > y[i]; return false; };
  const older = require("./releases.json").releases.filter((r) => newer(next, r.version));
  older.sort((a, b) => (newer(a.version, b.version) ? -1 : 1));
  if (!older.length) { console.error("releases.json has no release older than " + next); process.exit(1); }
  console.log(older[0].version, older[0].commit, older[0].storesWebhookMemory !== false);' "$next_version")
say "previous release $previous_version (commit $previous_commit) → build under test $next_version"
mkdir -p "$work/previous"
git archive "$previous_commit" | tar -x -C "$work/previous"
ln -s "$root/node_modules" "$work/previous/node_modules"
(cd "$work/previous" && npm run build >/dev/null && npm pack --pack-destination "$work" --loglevel=error >/dev/null)
mv "$work/n8n-nodes-botsailor-$previous_version.tgz" "$work/previous.tgz"
rm -rf "$work/previous"
# The build under test re-versioned (the next patch, a pre-release): the update a user makes from this release.
rehearsal_version=$(node -p 'const [a, b, c] = require("./package.json").version.split("-")[0].split(".").map(Number); `${a}.${b}.${c + 1}-rehearsal.0`')
mkdir -p "$work/rehearsal" && tar -xzf "$work/next.tgz" -C "$work/rehearsal"
node -e 'const f = process.argv[1]; const p = JSON.parse(require("fs").readFileSync(f, "utf8")); p.version = process.argv[2]; require("fs").writeFileSync(f, JSON.stringify(p, null, 2) + "\n")' \
  "$work/rehearsal/package/package.json" "$rehearsal_version"
tar -czf "$work/rehearsal.tgz" -C "$work/rehearsal" package && rm -rf "$work/rehearsal"

# A throw-away CA and a certificate for the registry's host name, valid for two days.
mkdir -p "$work/tls"
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -keyout "$work/tls/ca.key" -out "$work/tls/ca.pem" \
  -subj "/CN=botsailor test:release throw-away CA" -addext "basicConstraints=critical,CA:TRUE" \
  -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
openssl req -newkey rsa:2048 -nodes -keyout "$work/tls/key.pem" -out "$work/tls/req.csr" -subj "/CN=$REGISTRY_HOST" 2>/dev/null
printf 'subjectAltName=DNS:%s\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' "$REGISTRY_HOST" >"$work/tls/ext"
openssl x509 -req -in "$work/tls/req.csr" -CA "$work/tls/ca.pem" -CAkey "$work/tls/ca.key" -CAcreateserial \
  -days 2 -extfile "$work/tls/ext" -out "$work/tls/cert.pem" 2>/dev/null
cat >"$work/verdaccio.yaml" <<YAML
storage: $work/storage
auth:
  htpasswd:
    file: $work/htpasswd
    max_users: 1
uplinks: {}
packages:
  '**':
    access: \$all
    publish: \$authenticated
https:
  key: $work/tls/key.pem
  cert: $work/tls/cert.pem
web:
  enable: false
log: { type: stdout, format: json, level: http }
YAML
export RELEASE_PREVIOUS_VERSION="$previous_version" RELEASE_NEXT_VERSION="$next_version" RELEASE_PREVIOUS_STORES_MEMORY="$previous_stores_memory" RELEASE_REHEARSAL_VERSION="$rehearsal_version"
unshare --net --mount --fork -- bash "$root/scripts/test-release.sh" --inside "$work"
