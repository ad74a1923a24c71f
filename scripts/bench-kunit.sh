#!/bin/bash
# The in-kernel benchmark (KUnit suite filemap_batch_bench): populate a page
# cache through a loop over __filemap_get_folio() and through the batch, at
# orders 0, 2, 4 and 9, and print both times and their ratio.
# Usage: bench-kunit.sh [um|x86_64]	BENCH_MIB (default 256 on UML,
# 1024 on x86_64) sets the size, BENCH_REPS the repetitions.  A run whose
# population fell short (the suite failed) or that did not finish is an
# error, not a result.
# The kernels are those of 'make test' plus configs/kunit-bench.config, in
# build directories of their own (OUT/kunit-uml-bench, OUT/bench-kunit-x86_64);
# the x86_64 one has the benchmark kernels' production config
# (configs/bench-x86_64.config), not the test guest's debug options.
. "$(dirname "$0")/lib.sh"

"$TOP/scripts/deps.sh"
[ -d "$KSRC/.git" ] || "$TOP/scripts/materialise.sh"
arch=${1:-um}
case "$arch" in
um)
	mib=${BENCH_MIB:-256}
	cd "$KSRC"
	python3 tools/testing/kunit/kunit.py build \
		--kunitconfig="$TOP/configs/kunit.config" \
		--kunitconfig="$TOP/configs/kunit-bench.config" \
		--build_dir="$OUT/kunit-uml-bench" --jobs="$JOBS" \
		--make_options CC="$CC_WRAP" >/dev/null
	# Started directly: kunit.py would append its own mem=1G.
	log=$OUT/bench-kunit-um.log
	"$OUT/kunit-uml-bench/linux" kunit.enable=1 console=tty kunit_shutdown=halt \
		mem=$((mib * 2 + 512))M kunit.filter_glob=filemap_batch_bench \
		filemap_batch_kunit.bench_mib="$mib" \
		filemap_batch_kunit.bench_reps="${BENCH_REPS:-7}" > "$log" 2>&1 || true
	;;
x86_64)
	mib=${BENCH_MIB:-1024}
	o=$OUT/bench-kunit-x86_64
	GUEST_FRAGMENTS="$TOP/configs/guest-x86_64.config $TOP/configs/bench-x86_64.config $TOP/configs/kunit.config $TOP/configs/kunit-bench.config" \
		"$TOP/scripts/guest-kernel.sh" "$KSRC" "$o" >/dev/null
	# Only the benchmark suite at boot, and no selftests after it.
	: > "$OUT/bench-kunit.tests"
	mkdir -p "$o/kselftest"
	GUEST_ACCEL=$(guest_accel "$o/arch/x86/boot/bzImage")
	export GUEST_ACCEL
	TESTS_LIST=$OUT/bench-kunit.tests GUEST_TIMEOUT=${GUEST_TIMEOUT:-1800} \
	GUEST_APPEND="kunit.filter_glob=filemap_batch_bench filemap_batch_kunit.bench_mib=$mib filemap_batch_kunit.bench_reps=${BENCH_REPS:-5}" \
		"$TOP/scripts/guest-run.sh" "$o/arch/x86/boot/bzImage" "$o/kselftest" \
		"$OUT/bench-kunit-x86_64.log" >/dev/null || true
	log=$OUT/bench-kunit-x86_64.log
	;;
*)
	die "unknown arch $arch (um or x86_64)"
	;;
esac

case "$arch" in
um) echo "# UML, $mib MiB" ;;
*) echo "# x86_64 QEMU guest under ${GUEST_ACCEL^^}, $mib MiB" ;;
esac
grep -a 'FB-BENCH\|populating\|n/a' "$log" || true
# A run that did not populate everything, or did not finish, has no result.
if ! grep -aq '^ok [0-9]* filemap_batch_bench' "$log"; then
	grep -a 'Expected\|not ok\|BUG\|panic' "$log" | head -20 >&2 || true
	die "the benchmark failed or did not finish; see $log"
fi
