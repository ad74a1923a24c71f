#!/bin/bash
# make check: the quick loop of a developer working on a patch, the steps
# of 'make test' that need no x86_64 kernel: checkpatch, the round trip,
# the KUnit suites on UML. Ends with "N passed, N failed, N skipped".
. "$(dirname "$0")/lib.sh"

p=0 f=0 s=0 t0=$SECONDS
count() {	# COMMAND...: add up its PASS and FAIL lines
	local out rc=0
	out=$("$@" 2>&1) || rc=$?
	grep -E '^(PASS|FAIL) ' <<< "$out" | grep -v '^PASS ' || true
	p=$((p + $(grep -c '^PASS ' <<< "$out" || true)))
	f=$((f + $(grep -c '^FAIL ' <<< "$out" || true)))
	[ "$rc" = 0 ] || grep -q '^FAIL ' <<< "$out" || { echo "FAIL $* (exit $rc)"; f=$((f + 1)); }
}
count "$TOP/scripts/checkpatch.sh"
count "$TOP/scripts/roundtrip.sh"
rm -f "$OUT/kunit-uml.results"
"$TOP/scripts/kunit-uml.sh" > "$OUT/kunit-uml.out" 2>&1 || true
if [ -f "$OUT/kunit-uml.results" ]; then
	read -r _ kp kf ks < "$OUT/kunit-uml.results"
	p=$((p + kp)) f=$((f + kf)) s=$((s + ks))
	[ "$kf" = 0 ] || grep -E 'FAILED|not ok' "$OUT/kunit-uml.out" | head -n 20
else
	echo "FAIL kunit-uml (no result, see $OUT/kunit-uml.out)"; f=$((f + 1))
fi
echo "make check: $((SECONDS - t0)) s"
echo "$p passed, $f failed, $s skipped"
[ "$f" = 0 ]
