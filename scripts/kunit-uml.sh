#!/bin/bash
# Run the KUnit suites of configs/kunit.config on UML with kunit.py.
# Usage: kunit-uml.sh [extra kunit.py run arguments]
. "$(dirname "$0")/lib.sh"

mkdir -p "$OUT/kunit-uml"
log=$OUT/kunit-uml.log
cd "$KSRC"
set +e
python3 tools/testing/kunit/kunit.py run \
	--kunitconfig="$TOP/configs/kunit.config" \
	--build_dir="$OUT/kunit-uml" --jobs="$JOBS" \
	--make_options CC="$CC_WRAP" "$@" 2>&1 | tee "$log"
set -e
read -r p f s < <("$TOP/scripts/count.sh" "$log")
echo "kunit-uml $p $f $s" > "$OUT/kunit-uml.results"
[ "$f" -eq 0 ]
