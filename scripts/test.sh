#!/bin/bash
# make test: everything that can be checked, counted in one line.
#   checkpatch on each patch, the materialise/export round trip, a UML build
#   of each commit, the KUnit suites on UML, and one x86_64 QEMU guest that
#   runs the KUnit suites at boot and then the selftests.
# Ends with "N passed, N failed, N skipped".
. "$(dirname "$0")/lib.sh"

passed=0 failed=0 skipped=0
mkdir -p "$OUT"
lines=$OUT/test.lines
: > "$lines"

# Steps that print one "PASS|FAIL ..." line per test.
step() {
	local out rc=0
	out=$OUT/step.out
	"$@" > "$out" 2>&1 || rc=$?
	cat "$out"
	local p f
	p=$(grep -c '^PASS ' "$out" || true)
	f=$(grep -c '^FAIL ' "$out" || true)
	# A step that failed without saying which test did counts once.
	if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
		f=1
		echo "FAIL $* (exit $rc)"
	fi
	grep -E '^(PASS|FAIL) ' "$out" >> "$lines" || true
	passed=$((passed + p)); failed=$((failed + f))
}

# Steps that leave "name PASSED FAILED [SKIPPED]" lines in a results file.
tally() {
	local name p f s
	while read -r name p f s; do
		echo "--- $name: $p passed, $f failed, ${s:-0} skipped"
		passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + ${s:-0}))
	done < "$1"
}

"$TOP/scripts/deps.sh"
if ! "$TOP/scripts/materialise.sh"; then
	echo "0 passed, 1 failed"
	exit 1
fi

say "checkpatch"
step "$TOP/scripts/checkpatch.sh"
say "semantic patch fixtures"
step "$TOP/scripts/cocci-test.sh" "$KSRC/scripts/coccinelle/api/filemap_grab_folios.cocci"
say "round trip"
step "$TOP/scripts/roundtrip.sh"
say "each commit builds (UML)"
step "$TOP/scripts/bisect-build.sh"

say "KUnit on UML"
rm -f "$OUT/kunit-uml.results"
"$TOP/scripts/kunit-uml.sh" > "$OUT/kunit-uml.out" 2>&1 || true
tail -n 5 "$OUT/kunit-uml.out"
if [ -f "$OUT/kunit-uml.results" ]; then
	tally "$OUT/kunit-uml.results"
else
	echo "FAIL kunit-uml (no result)"; failed=$((failed + 1))
fi

say "x86_64 guest: KUnit at boot, then the selftests"
rm -f "$OUT/guest.log.results" "$OUT/guest.log.splat"
if "$TOP/scripts/guest-kernel.sh" > "$OUT/guest-kernel.out" 2>&1 &&
   "$TOP/scripts/guest-selftests.sh" > "$OUT/guest-selftests.out" 2>&1; then
	"$TOP/scripts/guest-run.sh" "" "" "$OUT/guest.log" || true
else
	tail -n 30 "$OUT/guest-kernel.out" "$OUT/guest-selftests.out" 2>/dev/null
fi
if [ -f "$OUT/guest.log.results" ]; then
	tally "$OUT/guest.log.results"
else
	echo "FAIL guest (no result)"; failed=$((failed + 1))
fi
# a kernel splat's call trace next to the verdict it failed
[ ! -s "$OUT/guest.log.splat" ] || { echo "the first kernel splat:"; cat "$OUT/guest.log.splat"; }

echo
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
