#!/bin/bash
# The round trip: exporting the tree that materialise made must give back
# patches/ byte for byte, every series' directory. Prints one PASS|FAIL line.
. "$(dirname "$0")/lib.sh"

tmp=$BUILD/roundtrip
rm -rf "$tmp"
"$TOP/scripts/export.sh" "$tmp" 2>/dev/null || { echo "FAIL roundtrip: export failed"; exit 1; }
if diff -r "$TOP/patches" "$tmp" > "$BUILD/roundtrip.diff"; then
	echo "PASS roundtrip materialise+export ($(stack_series | wc -w) series)"
else
	sed -n '1,40s/^/    /p' "$BUILD/roundtrip.diff"
	echo "FAIL roundtrip materialise+export"
	exit 1
fi
