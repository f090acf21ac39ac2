# Sourced by the install scripts. cache_folder NAME DIR prints the folder that an install of DIR's
# package.json + package-lock.json is cached in, named after their hash: a changed lockfile gets a
# fresh install, an unchanged one is reused across clones.
cache_folder() {
	local hash
	hash=$(cat "$2/package.json" "$2/package-lock.json" | sha256sum | cut -c1-16)
	echo "${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-card-gateway/$1-$hash"
}

# reuse_if_complete FOLDER: prints FOLDER and ends the calling script if an earlier install finished there.
reuse_if_complete() {
	if [ -f "$1/.complete" ]; then
		echo "$1"
		exit 0
	fi
}
