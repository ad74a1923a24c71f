# Common settings for the workspace scripts; sourced, not run.
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=../base.conf
. "$TOP/base.conf"

BUILD=${BUILD:-$TOP/build}
KSRC=${KSRC:-$BUILD/linux}		# the kernel git tree: base commit + series
OUT=${OUT:-$BUILD/out}			# all build output (O= directories)
JOBS=${JOBS:-$(nproc)}
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-10G}
CC_WRAP="ccache gcc"

# Fixed identity and dates so that the base commit and applied patches are
# reproducible across machines.
BASE_TAG=base
export GIT_COMMITTER_NAME="Kernel Series"
export GIT_COMMITTER_EMAIL="series@localhost"

die() { echo "error: $*" >&2; exit 1; }
say() { echo ">>> $*" >&2; }

# check_config O FRAGMENT...: merge_config.sh and olddefconfig silently drop
# options whose dependencies are not met; insist that every "=y"/"=value"
# and "is not set" line of the fragments made it into O/.config.
check_config() {
	local o=$1 missing
	shift
	missing=$(cat "$@" | sed -n -e 's/^\(CONFIG_[A-Za-z0-9_]*=.*\)$/\1/p' \
			-e 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1=n/p' |
		while IFS= read -r want; do
			sym=${want%%=*}
			have=$(grep -E "^$sym=" "$o/.config" || echo "$sym=n")
			[ "$have" = "$want" ] || echo "  $want (got ${have#*=})"
		done)
	[ -z "$missing" ] || die "options that did not stick in $o/.config (missing dependency?):
$missing"
}

# guest_accel [BZIMAGE]: how the benchmarks run the x86_64 guest
# (scripts/guest-run.sh takes it as GUEST_ACCEL; make test stays on TCG).
# GUEST_ACCEL (kvm or tcg) if set. Otherwise kvm if /dev/kvm can be opened
# and a probe boot of BZIMAGE under it prints the kernel's banner within 20
# seconds (a /dev/kvm that QEMU cannot use, as in some nested setups, fails
# that), tcg (QEMU's software emulation) in every other case. The probe's
# verdict is kept in OUT/accel.probe for this host kernel and QEMU.
guest_accel() {
	local img=${1:-} key probe=$OUT/accel.probe verdict=tcg
	case "${GUEST_ACCEL:-}" in
	kvm|tcg) echo "$GUEST_ACCEL"; return ;;
	"") ;;
	*) die "GUEST_ACCEL=$GUEST_ACCEL: kvm or tcg" ;;
	esac
	if ! [ -r /dev/kvm ] || ! [ -w /dev/kvm ] || [ -z "$img" ]; then
		echo tcg
		return
	fi
	key="$(uname -r) $(qemu-system-x86_64 --version | sed -n 1p)"
	if [ -f "$probe" ] && [ "$(head -n 1 "$probe")" = "$key" ]; then
		tail -n 1 "$probe"
		return
	fi
	if timeout -k 5 20 qemu-system-x86_64 -accel kvm -cpu host -m 256 \
		-nographic -no-reboot -nic none -kernel "$img" \
		-append "console=ttyS0 panic=-1 rdinit=/none" </dev/null 2>&1 |
	   grep -q 'Linux version'; then
		verdict=kvm
	fi
	mkdir -p "$OUT"
	printf '%s\n%s\n' "$key" "$verdict" > "$probe"
	echo "$verdict"
}

# stack_series: the series of patches/stack, in the order they apply (a
# series is patches/NAME/: a cover letter, its patches, its series file)
stack_series() {
	sed -e 's/#.*//' -e 's/[[:space:]]//g' "$TOP/patches/stack" | grep -v '^$' || true
}

# series_range NAME: the commits of series NAME in $KSRC, as PREV..NAME
# (PREV: the series before it in the stack, or the base)
series_range() {
	local prev=$BASE_TAG s
	for s in $(stack_series); do
		[ "$s" = "$1" ] && { echo "$prev..$s"; return; }
		prev=$s
	done
	die "no series '$1' in patches/stack"
}
