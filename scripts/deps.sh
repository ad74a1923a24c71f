#!/bin/bash
# Install the Debian packages the workspace needs, if any is missing.
set -euo pipefail
pkgs="build-essential bc bison flex libelf-dev libssl-dev cpio rsync ccache
      python3 perl git xz-utils qemu-system-x86 busybox-static uuid-dev
      libcap-dev
      libnuma-dev gnuplot-nox coccinelle python3-ply python3-git stress-ng"
missing=
for p in $pkgs; do
	[ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" = 'install ok installed' ] ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "error: missing packages:$missing (install them as root)" >&2
	exit 1
fi
echo ">>> installing$missing" >&2
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
