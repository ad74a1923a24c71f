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
