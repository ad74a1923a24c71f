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
