#!/bin/bash
# Build, statically, the selftests that guest/tests.list runs in the guest.
# Usage: guest-selftests.sh [KSRC] [O] [SELFTEST_OUT]
# O is the guest kernel's build dir (scripts/guest-kernel.sh), whose
# usr/include has the UAPI headers of the same tree. A list entry
# /tests/DIR/PROG is built from tools/testing/selftests/DIR/PROG into
# SELFTEST_OUT/DIR/PROG (default O/kselftest, where 'make kselftest' would
# put it). Nothing is written into KSRC; that is checked at the end.
. "$(dirname "$0")/lib.sh"

KSRC=$(realpath "${1:-$KSRC}")
O=$(realpath "${2:-$OUT/guest-x86_64}")
SO=${3:-$O/kselftest}
LIST=${TESTS_LIST:-$TOP/guest/tests.list}
ST=$KSRC/tools/testing/selftests

[ -f "$O/usr/include/linux/kvm.h" ] || die "no UAPI headers in $O/usr/include: run scripts/guest-kernel.sh first"
[ -f "$LIST" ] || die "missing $LIST"
mkdir -p "$SO"
SO=$(realpath "$SO")

git_state() {
	git -C "$KSRC" status --porcelain --ignored 2>/dev/null || true
}
before=$(git_state)

# Group the programs of the list by selftest collection: the longest leading
# directory of DIR/PROG that has a Makefile (kvm for kvm/x86/foo_test).
# /tests/ws/NAME is the workspace's own test guest/tests/NAME.c.
declare -A targets copies own
while read -r name prog _; do
	case "$name" in ''|'#'*) continue ;; esac
	case "$prog" in
	/tests/ws/*) own[${prog#/tests/ws/}]=1; continue ;;
	/tests/*) rel=${prog#/tests/} ;;
	*) continue ;;		# a command that is not a selftest (busybox, a script in /tests is below)
	esac
	d=$(dirname "$rel")
	while [ "$d" != . ] && [ ! -f "$ST/$d/Makefile" ]; do
		d=$(dirname "$d")
	done
	[ "$d" != . ] || die "$LIST: $name: no selftest Makefile above tools/testing/selftests/$rel"
	if [ -f "$ST/$rel" ]; then
		copies[$rel]=1		# a script in the source tree: shipped as it is
	else
		targets[$d]+=" $SO/$rel"
	fi
done < "$LIST"

# LDFLAGS on the command line replaces the Makefiles' own (-pthread -no-pie),
# hence both are repeated here. TMPOUT: without it the Makefiles' compiler
# probes create .tmp_* directories in the source tree.
for d in "${!targets[@]}"; do
	say "selftests: $d:${targets[$d]//$SO\//}"
	mkdir -p "$SO/$d" "$SO/.tmp/$d"
	# shellcheck disable=SC2086
	make -s -C "$ST/$d" -j"$JOBS" \
		OUTPUT="$SO/$d" TMPOUT="$SO/.tmp/$d/" \
		KHDR_INCLUDES="-isystem $O/usr/include" \
		CC="$CC_WRAP" LDFLAGS="-static -pthread -no-pie" \
		${targets[$d]}
done
for rel in "${!copies[@]}"; do
	install -D -m 0755 "$ST/$rel" "$SO/$rel"
done
mkdir -p "$SO/ws"
for t in "${!own[@]}"; do
	[ -f "$TOP/guest/tests/$t.c" ] || die "$LIST: no guest/tests/$t.c"
	say "workspace test: $t"
	$CC_WRAP -O2 -Wall -Werror -static -pthread -isystem "$O/usr/include" \
		-o "$SO/ws/$t" "$TOP/guest/tests/$t.c"
done

# Every program must be a static binary: the initramfs has no libc.
while read -r name prog _; do
	case "$name" in ''|'#'*) continue ;; esac
	case "$prog" in /tests/*) ;; *) continue ;; esac
	f=$SO/${prog#/tests/}
	[ -x "$f" ] || die "$name: $f was not built"
	if readelf -lW "$f" 2>/dev/null | grep -q 'program interpreter'; then
		die "$name: $f is dynamically linked"
	fi
done < "$LIST"

after=$(git_state)
[ "$before" = "$after" ] || die "the selftest build wrote into $KSRC:
$(diff <(echo "$before") <(echo "$after") || true)"
say "selftests in $SO"
