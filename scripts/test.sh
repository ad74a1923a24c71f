#!/bin/bash
# make test: everything that can be checked, counted in one line.
#   checkpatch on each patch, the semantic patch's fixtures, the
#   materialise/export round trip, the x86_64 debug kernel, the objects of
#   each commit (bisect), and QEMU: one guest runs the KUnit suites at boot
#   and the first part of guest/tests.list, a second guest, at the same
#   time, DRM's drm_gem_shmem suite at boot and the part after the list's
#   "#@second-guest" line (each guest is one busy vCPU most of the time: two
#   use both cores). The KUnit suites on UML, the same suites without large
#   folios, are make check's and make kunit's: in make test they would cost
#   a second kernel build.
# Every step prints how long it took; the table at the end sums them up.
# Ends with "N passed, N failed, N skipped".
# TEST_BUDGET=5100: seconds the whole run may take (CI stops it at 5400).
# The guests get what the steps before them left of it, less a minute for
# the summary, so that a slow host or a hung guest still ends in the count
# line, with the tests that did not finish failed by name.
. "$(dirname "$0")/lib.sh"

passed=0 failed=0 skipped=0
mkdir -p "$OUT"
lines=$OUT/test.lines
: > "$lines"
times=()
t0=$SECONDS

# timed NAME COMMAND...: run it, then say how long it took
timed() {
	local name=$1 s=$SECONDS rc=0
	shift
	say "$name"
	"$@" || rc=$?
	times+=("$(printf '%-34s %5d s' "$name" $((SECONDS - s)))")
	say "$name: $((SECONDS - s)) s"
	return $rc
}

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

timed "packages" "$TOP/scripts/deps.sh"
if ! timed "materialise" "$TOP/scripts/materialise.sh"; then
	echo "0 passed, 1 failed"
	exit 1
fi

timed "checkpatch" step "$TOP/scripts/checkpatch.sh"
timed "semantic patch fixtures" step "$TOP/scripts/cocci-test.sh" \
	"$KSRC/scripts/coccinelle/api/filemap_get_folios.cocci"
timed "round trip" step "$TOP/scripts/roundtrip.sh"

kernel_ok=1
timed "x86_64 debug kernel" "$TOP/scripts/guest-kernel.sh" > "$OUT/guest-kernel.out" 2>&1 ||
	kernel_ok=0
# after the full build of the guest kernel, whose objects say what to compile
timed "each commit compiles" step "$TOP/scripts/bisect-build.sh"

# The x86_64 guests. guest/tests.list up to its "#@second-guest" line runs
# in the first guest, after KUnit; the rest in the second; kmemleak, the
# last line, in both (a leak anywhere before it fails it).
list=${TESTS_LIST:-$TOP/guest/tests.list}
la=$OUT/guest-a.list lb=$OUT/guest-b.list
rm -f "$la" "$lb"
awk -v a="$la" -v b="$lb" '
	/^#@second-guest/ { f = b; next }
	/^kmemleak[ \t]/ { k = $0; next }
	/^[^#]/ && f { nb++ }
	{ print > (f ? f : a) }
	END { if (k != "") { print k >> a; if (nb) print k >> b } }
' "$list"
logs=("$OUT/guest.log")
[ ! -s "$lb" ] || logs+=("$OUT/guest.log2")
guests() {
	TESTS_LIST=$la "$TOP/scripts/guest-run.sh" "" "" "$OUT/guest.log" > "$OUT/guest-a.out" 2>&1 &
	local a=$! b=
	if [ ${#logs[@]} = 2 ]; then
		TESTS_LIST=$lb GUEST_KUNIT_GLOB='drm_gem_shmem*' "$TOP/scripts/guest-run.sh" "" "" "$OUT/guest.log2" > "$OUT/guest-b.out" 2>&1 &
		b=$!
	fi
	wait $a || true
	[ -z "$b" ] || wait $b || true
	cat "$OUT/guest-a.out" ${b:+"$OUT/guest-b.out"}
}
# no results of an earlier run for a guest that does not boot in this one
rm -f "$OUT"/guest.log*.results "$OUT"/guest.log*.splat "$OUT"/guest.log*.failed
if [ $kernel_ok = 1 ] &&
   timed "selftests" "$TOP/scripts/guest-selftests.sh" > "$OUT/guest-selftests.out" 2>&1; then
	left=$(( ${TEST_BUDGET:-5100} - (SECONDS - t0) - 60 ))
	if [ "$left" -lt "${GUEST_TIMEOUT:-4800}" ]; then
		say "$left s of TEST_BUDGET left: the guests are stopped after that"
		export GUEST_TIMEOUT=$left
	fi
	if [ "$left" -ge 300 ]; then
		timed "x86_64 guests (${#logs[@]} in parallel)" guests
	else
		echo "(the guests are not booted: the steps before them took TEST_BUDGET)"
	fi
else
	tail -n 30 "$OUT/guest-kernel.out" "$OUT/guest-selftests.out" 2>/dev/null
fi
for l in "${logs[@]}"; do
	r=$l.results
	if [ -f "$r" ]; then
		echo "--- ${r##*/}"
		tally "$r"
	else
		echo "FAIL guest (no ${r##*/})"; failed=$((failed + 1))
	fi
	# a kernel splat's call trace next to the verdict it failed
	s=${r%.results}.splat
	[ ! -s "$s" ] || { echo "the first kernel splat (${s##*/}):"; cat "$s"; }
	# and the end of each failed selftest's output
	s=${r%.results}.failed
	[ ! -s "$s" ] || cat "$s"
done

echo
echo "time per step:"
printf '  %s\n' "${times[@]}"
printf '  %-34s %5d s\n' "total" $((SECONDS - t0))
echo
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
