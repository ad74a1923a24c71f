#!/bin/bash
# Build every commit of the series in order for UML with the KUnit config,
# so that each patch is known to build on its own (bisectable). The builds
# share the KUnit build directory: each step is incremental and the last
# one leaves a build of the whole series behind.
# Prints one "PASS|FAIL name" line per commit.
. "$(dirname "$0")/lib.sh"

o=$OUT/kunit-uml
mkdir -p "$o"
[ -z "$(git -C "$KSRC" status --porcelain --untracked-files=no)" ] ||
	die "$KSRC has uncommitted changes"
head=$(git -C "$KSRC" symbolic-ref -q --short HEAD || git -C "$KSRC" rev-parse HEAD)
trap 'git -C "$KSRC" checkout -q "$head"' EXIT

# The config kunit.py makes (configs/kunit.config plus its UML defaults),
# so that the KUnit run after us is incremental too.
(cd "$KSRC" && python3 tools/testing/kunit/kunit.py config \
	--kunitconfig="$TOP/configs/kunit.config" --build_dir="$o" \
	--make_options CC="$CC_WRAP") > "$OUT/bisect-config.log" 2>&1 ||
	die "kunit.py config failed, see $OUT/bisect-config.log"

fail=0
for c in $(git -C "$KSRC" rev-list --reverse "$BASE_TAG..HEAD"); do
	name=$(git -C "$KSRC" log -1 --format=%s "$c")
	git -C "$KSRC" checkout -q --detach "$c"
	log=$OUT/bisect-$c.log
	if make -C "$KSRC" ARCH=um O="$o" CC="$CC_WRAP" olddefconfig >"$log" 2>&1 &&
	   make -C "$KSRC" ARCH=um O="$o" CC="$CC_WRAP" -j"$JOBS" >>"$log" 2>&1; then
		# New warnings in the files this commit touches fail it too.
		files=$(git -C "$KSRC" diff --name-only "$c~1" "$c" -- '*.c' '*.h' | tr '\n' '|')
		if [ -n "$files" ] && grep -E "(${files%|}):[0-9]+:[0-9]+: warning:" "$log"; then
			echo "FAIL build $name (new warnings, see $log)"
			fail=1
		else
			echo "PASS build $name"
		fi
	else
		tail -n 30 "$log" | sed 's/^/    /'
		echo "FAIL build $name (see $log)"
		fail=1
	fi
done
exit $fail
