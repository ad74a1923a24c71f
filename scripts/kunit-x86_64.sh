#!/bin/bash
# Run the KUnit suites of configs/kunit.config with kunit.py on x86_64
# (QEMU, software emulation): the large-folio cases run here, not on UML.
# 'make test' gets the same suites from the x86_64 guest kernel instead, to
# save a build; this is for working on the tests alone.
. "$(dirname "$0")/lib.sh"

mkdir -p "$OUT/kunit-x86_64"
cd "$KSRC"
exec python3 tools/testing/kunit/kunit.py run --arch=x86_64 \
	--kunitconfig="$TOP/configs/kunit.config" \
	--kconfig_add CONFIG_TRANSPARENT_HUGEPAGE=y \
	--build_dir="$OUT/kunit-x86_64" --jobs="$JOBS" \
	--make_options CC="$CC_WRAP" "$@"
