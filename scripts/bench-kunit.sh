#!/bin/bash
# The in-kernel benchmark (KUnit suite filemap_batch_bench): populate a page
# cache through a loop over __filemap_get_folio() and through the batch, at
# orders 0, 2, 4 and 9, and print both times and their ratio.
# Usage: bench-kunit.sh [um|x86_64]	BENCH_MIB (default 256 on UML,
# 1024 on x86_64) sets the size, BENCH_REPS the repetitions.
. "$(dirname "$0")/lib.sh"

arch=${1:-um}
case "$arch" in
um)
	mib=${BENCH_MIB:-256}
	cd "$KSRC"
	python3 tools/testing/kunit/kunit.py run \
		--kunitconfig="$TOP/configs/kunit.config" \
		--build_dir="$OUT/kunit-uml" --jobs="$JOBS" \
		--make_options CC="$CC_WRAP" \
		--kernel_args "mem=$((mib * 2 + 512))M" \
		--kernel_args "filemap_batch_kunit.bench_mib=$mib" \
		--kernel_args "filemap_batch_kunit.bench_reps=${BENCH_REPS:-7}" \
		--raw_output=all 'filemap_batch_bench' | tee "$OUT/bench-kunit-um.log" |
		grep -a 'FB-BENCH\|populating\|n/a'
	;;
x86_64)
	mib=${BENCH_MIB:-1024}
	"$TOP/scripts/guest-kernel.sh" >/dev/null
	# Only the benchmark suite at boot, and no selftests after it.
	: > "$OUT/bench-kunit.tests"
	TESTS_LIST=$OUT/bench-kunit.tests GUEST_TIMEOUT=${GUEST_TIMEOUT:-1800} \
	GUEST_APPEND="kunit.filter_glob=filemap_batch_bench filemap_batch_kunit.bench_mib=$mib filemap_batch_kunit.bench_reps=${BENCH_REPS:-5}" \
		"$TOP/scripts/guest-run.sh" "" "" "$OUT/bench-kunit-x86_64.log" >/dev/null || true
	grep -a 'FB-BENCH\|populating\|n/a' "$OUT/bench-kunit-x86_64.log"
	;;
*)
	die "unknown arch $arch (um or x86_64)"
	;;
esac
