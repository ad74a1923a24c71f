#!/bin/bash
# Run the KUnit suites of configs/kunit.config and configs/kunit-drm.config
# on UML with kunit.py, with configs/kunit-debug.config's checks.
# Usage: kunit-uml.sh [extra kunit.py run arguments]
. "$(dirname "$0")/lib.sh"

mkdir -p "$OUT/kunit-uml"
log=$OUT/kunit-uml.log
cd "$KSRC"
set +e
python3 tools/testing/kunit/kunit.py run \
	--kunitconfig="$TOP/configs/kunit.config" \
	--kunitconfig="$TOP/configs/kunit-debug.config" \
	--kunitconfig="$TOP/configs/kunit-drm.config" \
	--build_dir="$OUT/kunit-uml" --jobs="$JOBS" \
	--make_options CC="$CC_WRAP" "$@" 2>&1 | tee "$log"
set -e
read -r p f s < <("$TOP/scripts/count.sh" "$log")
# A splat in the kernel's log (a VM_BUG_ON_FOLIO(), a WARN, a bad page
# state) fails the run, even where every test passed: the expression of
# scripts/guest-run.sh.
splats=$(grep -aE '(^|\] )(WARNING: |BUG: )|kernel BUG at|Oops: |Kernel panic|UBSAN: ' \
	"$OUT/kunit-uml/test.log" 2>/dev/null || true)
if [ -n "$splats" ]; then
	echo "FAIL kunit-uml: $(echo "$splats" | wc -l) kernel splats in $OUT/kunit-uml/test.log:"
	echo "$splats" | head -n 5
	f=$((f + 1))
fi
echo "kunit-uml $p $f $s" > "$OUT/kunit-uml.results"
[ "$f" -eq 0 ]
