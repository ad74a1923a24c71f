#!/bin/bash
# Find the pinned base package, verify it and print its path.
# Order: $LINUX_BASE_DEB, the project's shared cache, Debian's registry.
# "fetch-base.sh config": the same for Debian's package of this kernel's
# configurations ($CONFIG_DEB of base.conf; $LINUX_CONFIG_DEB overrides).
. "$(dirname "$0")/lib.sh"

if [ "${1:-}" = config ]; then
	BASE_PACKAGE=$CONFIG_PACKAGE BASE_DEB=$CONFIG_DEB BASE_SHA256=$CONFIG_SHA256
	LINUX_BASE_DEB=${LINUX_CONFIG_DEB:-}
fi

verify() {
	local sum
	sum=$(sha256sum "$1" | cut -d' ' -f1)
	[ "$sum" = "$BASE_SHA256" ] ||
		die "$1: sha256 $sum, expected $BASE_SHA256 ($BASE_PACKAGE $BASE_VERSION). Remove it or point LINUX_BASE_DEB at the right file."
}

if [ -n "${LINUX_BASE_DEB:-}" ]; then
	[ -f "$LINUX_BASE_DEB" ] || die "LINUX_BASE_DEB=$LINUX_BASE_DEB does not exist"
	verify "$LINUX_BASE_DEB"
	echo "$LINUX_BASE_DEB"
	exit 0
fi

for dir in "$TOP/../shared/linux-base" "$BUILD/download"; do
	if [ -f "$dir/$BASE_DEB" ]; then
		verify "$dir/$BASE_DEB"
		echo "$dir/$BASE_DEB"
		exit 0
	fi
done

# Download with a private apt configuration: nothing system-wide changes.
say "downloading $BASE_PACKAGE=$BASE_VERSION from Debian ($BASE_SUITE)"
dl=$BUILD/download
apt=$dl/apt
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial"
# The machine's own Debian mirror, with the base's suite instead of its own.
mirror=$(sed -n 's/^URIs: *\([^ ]*\/debian\)$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | sed -n 1p || true)
[ -n "$mirror" ] || mirror=$(awk '$1 == "deb" && $2 ~ /\/debian\/?$/ { print $2; exit }' /etc/apt/sources.list 2>/dev/null || true)
[ -n "$mirror" ] || die "no Debian mirror configured in /etc/apt; set LINUX_BASE_DEB to a copy of $BASE_DEB"
printf 'Types: deb\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
	"$mirror" "$BASE_SUITE" > "$apt/base.sources"
opts=(-o "Dir::Etc::SourceList=/dev/null" -o "Dir::Etc::SourceParts=$apt"
      -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache"
      -o "APT::Get::List-Cleanup=0")
apt-get "${opts[@]}" update -qq >&2 ||
	die "apt-get update for $BASE_SUITE failed; download $BASE_DEB by hand and set LINUX_BASE_DEB (LINUX_CONFIG_DEB)"
(cd "$dl" && apt-get "${opts[@]}" download "$BASE_PACKAGE=$BASE_VERSION" >&2) ||
	die "$BASE_PACKAGE $BASE_VERSION is not served by the registry; set LINUX_BASE_DEB to a copy of $BASE_DEB"
[ -f "$dl/$BASE_DEB" ] || die "apt-get download did not produce $dl/$BASE_DEB"
verify "$dl/$BASE_DEB"
echo "$dl/$BASE_DEB"
