#!/bin/bash
# Run the KUnit suites of configs/kunit.config on UML with kunit.py, with
# configs/kunit-debug.config's checks; then DRM's drm_gem_shmem suite, in a
# kernel of its own with configs/kunit-drm.config: the option builds every
# DRM suite, and several of the others WARN on purpose, which the splat
# check below would count.
# Usage: kunit-uml.sh [extra kunit.py run arguments]
. "$(dirname "$0")/lib.sh"

cd "$KSRC"
P=0 F=0 S=0
# run NAME [kunit.py run arguments]: one kunit.py run, built in OUT/NAME,
# its output in OUT/NAME.log
run() {
	local name=$1 dir=$OUT/$1 p f s splats
	shift
	mkdir -p "$dir"
	set +e
	python3 tools/testing/kunit/kunit.py run \
		--kunitconfig="$TOP/configs/kunit-debug.config" \
		--build_dir="$dir" --jobs="$JOBS" \
		--make_options CC="$CC_WRAP" "$@" 2>&1 | tee "$dir.log"
	set -e
	read -r p f s < <("$TOP/scripts/count.sh" "$dir.log")
	# A splat in the kernel's log (a VM_BUG_ON_FOLIO(), a WARN, a bad page
	# state) fails the run, even where every test passed: the expression of
	# scripts/guest-run.sh.
	splats=$(grep -aE '(^|\] )(WARNING: |BUG: )|kernel BUG at|Oops: |Kernel panic|UBSAN: ' \
		"$dir/test.log" 2>/dev/null || true)
	if [ -n "$splats" ]; then
		echo "FAIL $name: $(echo "$splats" | wc -l) kernel splats in $dir/test.log:"
		echo "$splats" | head -n 5
		f=$((f + 1))
	fi
	P=$((P + p)) F=$((F + f)) S=$((S + s))
}
run kunit-uml --kunitconfig="$TOP/configs/kunit.config" "$@"
run kunit-uml-drm --kunitconfig="$TOP/configs/kunit-drm.config" \
	"$@" 'drm_gem_shmem*'
echo "kunit-uml $P $F $S" > "$OUT/kunit-uml.results"
[ "$F" -eq 0 ]
