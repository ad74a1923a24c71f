#!/bin/bash
# Run the KUnit suites of configs/kunit.config on UML with kunit.py, with
# configs/kunit-debug.config's checks, and DRM's drm_gem_shmem suite, in one
# kernel that configs/kunit-drm.config adds DRM to. That option builds
# every DRM suite, and several of them WARN on purpose, which the splat
# check below would count: the kernel boots twice, once for the suites
# whose names do not start with "d" (every suite of configs/kunit.config),
# once for drm_gem_shmem alone.
# Usage: kunit-uml.sh [extra kunit.py run options; not a filter glob]
. "$(dirname "$0")/lib.sh"

cd "$KSRC"
P=0 F=0 S=0
dir=$OUT/kunit-uml
# count NAME: the counts and the splats of the boot just made, its output
# in OUT/NAME.log
count() {
	local name=$1 p f s splats
	read -r p f s < <("$TOP/scripts/count.sh" "$OUT/$name.log")
	# A splat in the kernel's log (a VM_BUG_ON_FOLIO(), a WARN, a bad page
	# state) fails the run, even where every test passed: the expression of
	# scripts/guest-run.sh.
	splats=$(grep -aE '(^|\] )(WARNING: |BUG: )|kernel BUG at|Oops: |Kernel panic|UBSAN: ' \
		"$dir/test.log" 2>/dev/null || true)
	if [ -n "$splats" ]; then
		echo "FAIL $name: $(echo "$splats" | wc -l) kernel splats in $OUT/$name.log:"
		echo "$splats" | head -n 5
		f=$((f + 1))
	fi
	P=$((P + p)) F=$((F + f)) S=$((S + s))
}
mkdir -p "$dir"
set +e
python3 tools/testing/kunit/kunit.py run \
	--kunitconfig="$TOP/configs/kunit-debug.config" \
	--kunitconfig="$TOP/configs/kunit.config" \
	--kunitconfig="$TOP/configs/kunit-drm.config" \
	--build_dir="$dir" --jobs="$JOBS" \
	--make_options CC="$CC_WRAP" "$@" '[!d]*' 2>&1 | tee "$OUT/kunit-uml.log"
set -e
cp "$dir/test.log" "$OUT/kunit-uml.test.log" 2>/dev/null || true
count kunit-uml
set +e
python3 tools/testing/kunit/kunit.py exec --build_dir="$dir" \
	'drm_gem_shmem*' 2>&1 | tee "$OUT/kunit-uml-drm.log"
set -e
count kunit-uml-drm
echo "kunit-uml $P $F $S" > "$OUT/kunit-uml.results"
[ "$F" -eq 0 ]
