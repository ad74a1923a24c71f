#!/bin/bash
# What zeroing and copying with each x86 string instruction costs natively
# and under QEMU's TCG (user mode, whose instruction translation is the one
# the x86_64 guest runs under), with the guest's CPU model with and without
# ERMS and FSRM: why make bench ARCH=x86_64 hides them from a TCG guest.
# Usage: tcg-rep-cost.sh [MiB]	(default 64)
. "$(dirname "$0")/lib.sh"

MIB=${1:-64}
if ! command -v qemu-x86_64-static >/dev/null; then
	[ "$(id -u)" = 0 ] || die "qemu-x86_64-static missing: apt-get install qemu-user-static"
	apt-get install -y -qq --no-install-recommends qemu-user-static >/dev/null
fi
mkdir -p "$OUT"
prog=$OUT/tcg-rep
gcc -O2 -Wall -static -o "$prog" "$TOP/bench/tcg-rep.c"
echo "native ($(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)):"
"$prog" "$MIB"
for cpu in max max,erms=off,fsrm=off; do
	echo "TCG, $(qemu-x86_64-static --version | head -n 1), -cpu $cpu:"
	qemu-x86_64-static -cpu "$cpu" "$prog" "$MIB"
done
