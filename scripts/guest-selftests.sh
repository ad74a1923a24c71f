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
# /tests/ws/NAME is the workspace's own test guest/tests/NAME.c. Every word
# of a command line that names a program under /tests counts, so that a
# wrapper (/tests/ws/khugepaged_parked.sh /tests/mm/PROG) gets PROG built.
declare -A targets copies own
while read -r name cmd; do
	case "$name" in ''|'#'*) continue ;; esac
	for prog in $cmd; do
		case "$prog" in
		/tests/ws/*) own[${prog#/tests/ws/}]=1; continue ;;
		/tests/*) rel=${prog#/tests/} ;;
		*) continue ;;	# not a selftest (busybox, an argument, a script in /tests is below)
		esac
		d=$(dirname "$rel")
		while [ "$d" != . ] && [ ! -f "$ST/$d/Makefile" ]; do
			d=$(dirname "$d")
		done
		[ "$d" != . ] || die "$LIST: $name: no selftest Makefile above tools/testing/selftests/$rel"
		if [ -f "$ST/$rel" ]; then
			copies[$rel]=1	# a script in the source tree: shipped as it is
		else
			targets[$d]+=" $SO/$rel"
		fi
	done
done < "$LIST"

# overlay ROOT DIR: ROOT becomes a tree of symbolic links to KSRC, except
# that tools/testing/selftests/DIR is a copy, and so are the plain files
# beside it (lib.mk: the Makefiles find the top of the tree through its real
# path). Some collections write into their own directory whatever OUTPUT
# says (mm's check_config.sh writes local_config.h_gen and local_config.mk):
# they write into the copy. Kept between runs (mtimes preserved), so that
# the builds stay incremental.
overlay() {
	local root=$1 src=$KSRC dst=$1 part e
	local -a parts
	IFS=/ read -r -a parts <<< "tools/testing/selftests/$2"
	mkdir -p "$root"
	for part in "${parts[@]}"; do
		for e in "$src"/* "$src"/.[!.]*; do
			[ -e "$e" ] && [ "${e##*/}" != "$part" ] || continue
			if [ "$src" = "$ST" ] && [ -f "$e" ]; then
				cp -p "$e" "$dst/"
			else
				ln -sfn "$e" "$dst/${e##*/}"
			fi
		done
		src=$src/$part dst=$dst/$part
		mkdir -p "$dst"
	done
	cp -a "$src/." "$dst/"
}

# LDFLAGS on the command line replaces the Makefiles' own (-pthread -no-pie),
# hence both are repeated here. TMPOUT: without it the Makefiles' compiler
# probes create .tmp_* directories in the source tree.
for d in "${!targets[@]}"; do
	say "selftests: $d:${targets[$d]//$SO\//}"
	mkdir -p "$SO/$d" "$SO/.tmp/$d"
	overlay "$SO/.src/${d//\//_}" "$d"
	# shellcheck disable=SC2086
	make -s -C "$SO/.src/${d//\//_}/tools/testing/selftests/$d" -j"$JOBS" \
		OUTPUT="$SO/$d" TMPOUT="$SO/.tmp/$d/" \
		KHDR_INCLUDES="-isystem $O/usr/include" \
		CC="$CC_WRAP" LDFLAGS="-static -pthread -no-pie" \
		${targets[$d]}
done
for rel in "${!copies[@]}"; do
	install -D -m 0755 "$ST/$rel" "$SO/$rel"
done
# host_program PROG: the host's PROG with the shared libraries it links,
# in SO/host/PROG/{PROG,lib/}, run in the guest through the copied loader
# (lib/ld-linux-x86-64.so.2 --library-path lib PROG).
host_program() {
	local prog=$1 path dst lib
	path=$(command -v "$prog") || die "$prog not found on the host (make deps)"
	dst=$SO/host/$prog
	mkdir -p "$dst/lib"
	install -m 0755 "$path" "$dst/$prog"
	ldd "$path" | grep -o '/[^ ]*' | while read -r lib; do
		install -m 0755 "$lib" "$dst/lib/${lib##*/}"
	done
	[ -x "$dst/lib/ld-linux-x86-64.so.2" ] || die "$prog: no ld-linux-x86-64.so.2 among its libraries"
}

# /tests/ws/NAME: guest/tests/NAME.c, built statically (ws.h is what they
# share), or the shell script guest/tests/NAME, whose "# host-programs:"
# line names the host programs it runs.
mkdir -p "$SO/ws"
for t in "${!own[@]}"; do
	if [ -f "$TOP/guest/tests/$t.c" ]; then
		say "workspace test: $t"
		$CC_WRAP -O2 -Wall -Werror -static -pthread -isystem "$O/usr/include" \
			-o "$SO/ws/$t" "$TOP/guest/tests/$t.c"
	elif [ -f "$TOP/guest/tests/$t" ]; then
		say "workspace script: $t"
		install -m 0755 "$TOP/guest/tests/$t" "$SO/ws/$t"
		for p in $(sed -n 's/^# host-programs: *//p' "$TOP/guest/tests/$t"); do
			host_program "$p"
		done
	else
		die "$LIST: no guest/tests/$t.c or guest/tests/$t"
	fi
done

# Every program must be a static binary or a script: the initramfs has no
# libc (host programs bring theirs, see host_program).
while read -r name prog _; do
	case "$name" in ''|'#'*) continue ;; esac
	case "$prog" in /tests/*) ;; *) continue ;; esac
	f=$SO/${prog#/tests/}
	[ -x "$f" ] || die "$name: $f was not built"
	if [ "$(head -c 2 "$f")" != "#!" ] &&
	   grep -q 'program interpreter' <<< "$(readelf -lW "$f" 2>/dev/null)"; then
		die "$name: $f is dynamically linked"
	fi
done < "$LIST"

after=$(git_state)
[ "$before" = "$after" ] || die "the selftest build wrote into $KSRC:
$(diff <(echo "$before") <(echo "$after") || true)"
say "selftests in $SO"
