#!/bin/bash
# Each commit of the stack builds. At every commit, compile the object of
# every C file the stack has changed up to that commit: make rebuilds those
# whose source or headers the commit changed. A compile error fails the
# commit, and so does a new warning in a file it changes. That a whole
# kernel links is checked at the tip, by the full builds of 'make test'
# (the UML KUnit kernel and the x86_64 guest), so no commit pays for a
# rebuild of the whole tree after a header change.
#
# A file is compiled for x86_64 with the test guest's config (KVM, DRM,
# dma-buf, iommufd, NUMA, the KUnit suites) if the guest kernel builds it,
# else for UML with the KUnit config if the UML KUnit kernel does, each in a
# build directory of its own (OUT/bisect-x86_64, OUT/bisect-um), configured
# as those kernels are. So the guest kernel must be built (make test builds
# it first); the UML KUnit kernel is used where it is there (make kunit).
# One make per commit, not one per architecture: every file the stack
# changes is in the guest kernel. A file that neither builds is compiled for
# x86_64 all the same, and named in a NOTE.
# SERIES=NAME: the commits of that series alone.
# Prints one "PASS|FAIL build SERIES: subject" line per commit.
. "$(dirname "$0")/lib.sh"

[ -f "$OUT/guest-x86_64/vmlinux" ] ||
	die "build the x86_64 guest kernel (scripts/guest-kernel.sh) first"
[ -z "$(git -C "$KSRC" status --porcelain --untracked-files=no)" ] ||
	die "$KSRC has uncommitted changes"
head=$(git -C "$KSRC" symbolic-ref -q --short HEAD || git -C "$KSRC" rev-parse HEAD)
trap 'git -C "$KSRC" checkout -q "$head"' EXIT

ou=$OUT/bisect-um ox=$OUT/bisect-x86_64
mkdir -p "$ou" "$ox"
# The per-commit olddefconfig below leaves the .config of the last commit
# built, which lacks the symbols later series add: configure afresh (the
# objects stay; only changed options rebuild).
rm -f "$ox/.config" "$ox/.guest-fragments.sha256"
: > "$OUT/bisect-config.log"
{ [ ! -f "$OUT/kunit-uml/vmlinux" ] ||
  (cd "$KSRC" && python3 tools/testing/kunit/kunit.py config \
	--kunitconfig="$TOP/configs/kunit.config" --build_dir="$ou" \
	--make_options CC="$CC_WRAP") >> "$OUT/bisect-config.log" 2>&1; } &&
GUEST_CONFIG_ONLY=1 "$TOP/scripts/guest-kernel.sh" "$KSRC" "$ox" >> "$OUT/bisect-config.log" 2>&1 ||
	die "configuring the bisect builds failed, see $OUT/bisect-config.log"

kmake() {	# ARCH O ARGS...
	local arch=$1 o=$2
	shift 2
	make -C "$KSRC" ARCH="$arch" O="$o" CC="$CC_WRAP" "$@"
}

fail=0
noted=
commits=
for s in ${SERIES:-$(stack_series)}; do
	for c in $(git -C "$KSRC" rev-list --reverse "$(series_range "$s")"); do
		commits="$commits $s:$c"
	done
done
[ -n "$commits" ] || exit 0
# the C files the series below the first commit changed
first=${commits# }; first=${first%% *}; first=${first#*:}
files=$(git -C "$KSRC" diff --name-only "$BASE_TAG" "$first~1" -- '*.c')
for sc in $commits; do
	c=${sc#*:}
	name="${sc%%:*}: $(git -C "$KSRC" log -1 --format=%s "$c")"
	git -C "$KSRC" checkout -q --detach "$c"
	changed=$(git -C "$KSRC" diff --name-only "$c~1" "$c")
	# C files of the kernel proper (not tools/, scripts/, ...)
	files=$(printf '%s\n' $files $changed | grep -E '\.c$' |
		grep -vE '^(tools|scripts|Documentation|samples)/' | sort -u || true)
	log=$OUT/bisect-$c.log
	: > "$log"
	um= x86=
	for f in $files; do
		[ -f "$KSRC/$f" ] || continue
		if [ ! -f "$OUT/guest-x86_64/${f%.c}.o" ] &&
		   [ -f "$OUT/kunit-uml/${f%.c}.o" ]; then
			um="$um ${f%.c}.o"
		else
			x86="$x86 ${f%.c}.o"
			[ -f "$OUT/guest-x86_64/${f%.c}.o" ] || [[ " $noted " = *" $f "* ]] || {
				echo "NOTE $f: no kernel of make test builds it; compiled for x86_64 alone" >> "$log"
				noted="$noted $f"
			}
		fi
	done
	ok=1
	for arch in um x86_64; do
		if [ $arch = um ]; then o=$ou objs=$um; else o=$ox objs=$x86; fi
		[ -n "$objs" ] || continue
		echo "== $arch:$objs" >> "$log"
		if grep -q 'Kconfig' <<< "$changed"; then
			kmake $arch "$o" olddefconfig >> "$log" 2>&1 || ok=0
		fi
		kmake $arch "$o" -j"$JOBS" $objs >> "$log" 2>&1 || ok=0
	done
	grep '^NOTE ' "$log" || true
	touched=$(grep -E '\.(c|h)$' <<< "$changed" | tr '\n' '|' || true)
	if [ $ok = 0 ]; then
		grep -E 'error' "$log" | head -n 20 | sed 's/^/    /' || true
		echo "FAIL build $name (see $log)"
		fail=1
	elif [ -n "$touched" ] && grep -E "(${touched%|}):[0-9]+:[0-9]+: warning:" "$log"; then
		echo "FAIL build $name (new warnings, see $log)"
		fail=1
	else
		echo "PASS build $name"
	fi
done
exit $fail
