#!/bin/bash
# Build the x86_64 test-guest kernel: tinyconfig + configs/guest-x86_64.config + configs/debug-x86_64.config
# + configs/kunit.config and configs/kunit-guest.config (the KUnit suites,
# built in, run at boot).
# Usage: guest-kernel.sh [KSRC] [O]
# Any kernel tree works (base or patched); all output goes to O, nothing is
# written into KSRC. Incremental: re-running rebuilds only what changed.
# GUEST_FRAGMENTS="FILE..." replaces the fragments (scripts/bench.sh builds
# base and patched without the KUnit ones, whose series suites the base tree
# lacks). GUEST_BASECONFIG=FILE starts from FILE instead of tinyconfig
# (scripts/bench.sh: Debian's config). GUEST_CONFIG_ONLY=1 stops after the
# config (scripts/bisect-build.sh).
. "$(dirname "$0")/lib.sh"

KSRC=$(realpath "${1:-$KSRC}")
O=${2:-$OUT/guest-x86_64}
read -r -a FRAGMENTS <<< "${GUEST_FRAGMENTS:-$TOP/configs/guest-x86_64.config $TOP/configs/debug-x86_64.config $TOP/configs/kunit.config $TOP/configs/kunit-guest.config}"

[ -f "$KSRC/Makefile" ] || die "$KSRC is not a kernel tree"
for f in "${FRAGMENTS[@]}"; do
	[ -f "$f" ] || die "missing config fragment $f"
done
mkdir -p "$O"
O=$(realpath "$O")

kmake() {
	make -s -C "$KSRC" O="$O" ARCH=x86_64 CC="$CC_WRAP" "$@"
}

# Regenerate the config from scratch only when there is none yet or the
# fragments changed; a plain re-run keeps .config so the build is incremental.
stamp=$O/.guest-fragments.sha256
BASECONFIG=${GUEST_BASECONFIG:-}
sum=$(cat ${BASECONFIG:+"$BASECONFIG"} "${FRAGMENTS[@]}" | sha256sum | cut -d' ' -f1)
if [ ! -f "$O/.config" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$sum" ]; then
	say "configuring $O (${BASECONFIG:-tinyconfig} + fragments)"
	rm -f "$stamp"
	if [ -n "$BASECONFIG" ]; then
		cp "$BASECONFIG" "$O/.config"
	else
		kmake tinyconfig
	fi
	"$KSRC/scripts/kconfig/merge_config.sh" -m -Q -O "$O" "$O/.config" "${FRAGMENTS[@]}" >/dev/null
	echo "$sum" > "$stamp"
fi
# Always: a patched tree may bring new symbols that need their defaults.
kmake olddefconfig

check_config "$O" "${FRAGMENTS[@]}"
[ -z "${GUEST_CONFIG_ONLY:-}" ] || exit 0

say "building bzImage in $O (-j$JOBS)"
kmake -j"$JOBS" bzImage
# UAPI headers for the selftests (scripts/guest-selftests.sh)
kmake -j"$JOBS" headers
say "$O/arch/x86/boot/bzImage"
