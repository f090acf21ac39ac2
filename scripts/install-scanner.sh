#!/usr/bin/env bash
# Installs n8n's community-package scanner (@n8n/scan-community-package, pinned with its whole tree
# by e2e/n8n-scanner's lockfile) into a folder of its own and prints that folder. Its dependencies
# (its own ESLint, TypeScript and n8n lint plugins) would not fit the project's devDependencies,
# hence the separate folder. Reused when already complete.
#   N8N_SCANNER   target folder (default: ~/.cache/n8n-nodes-card-gateway/scanner-<lock hash>)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
. "$repo/scripts/cache-folder.sh"
src="$repo/e2e/n8n-scanner"
target=${N8N_SCANNER:-$(cache_folder scanner "$src")}
reuse_if_complete "$target"
echo "[scanner] installing @n8n/scan-community-package from the committed lockfile into $target" >&2
# Built beside the target and moved into place at the end: a run that stops halfway leaves nothing
# that looks complete, and two runs at once do not share a half-built folder.
work=$(mktemp -d "$(dirname "$target")/.scanner-XXXXXX" 2>/dev/null || { mkdir -p "$(dirname "$target")" && mktemp -d "$(dirname "$target")/.scanner-XXXXXX"; })
trap 'rm -rf "$work"' EXIT
cp "$src/package.json" "$src/package-lock.json" "$work/"
# No install scripts: the only ones in the tree are a pnpm-only guard and a native build the lint never loads.
(cd "$work" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >&2)
touch "$work/.complete"
if ! mv -T "$work" "$target" 2>/dev/null; then
	# another run finished first
	[ -f "$target/.complete" ] || { echo "[scanner] could not move the install into $target" >&2; exit 1; }
fi
trap - EXIT
rm -rf "$work"
echo "$target"
