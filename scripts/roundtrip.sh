#!/bin/bash
# The round trip: exporting the tree that materialise made must give back
# patches/ byte for byte. Prints one PASS|FAIL line.
. "$(dirname "$0")/lib.sh"

tmp=$BUILD/roundtrip
rm -rf "$tmp"
"$TOP/scripts/export.sh" "$tmp" 2>/dev/null
list() { (cd "$1" && ls series [0-9]*.patch 2>/dev/null); }
ok=1
[ "$(list "$TOP/patches")" = "$(list "$tmp")" ] || ok=0
for f in $(list "$tmp"); do
	cmp -s "$tmp/$f" "$TOP/patches/$f" || ok=0
done
if [ $ok = 1 ]; then
	echo "PASS roundtrip materialise+export"
else
	diff -ru -x checkpatch-exceptions "$TOP/patches" "$tmp" | sed -n '1,40s/^/    /p' || true
	echo "FAIL roundtrip materialise+export"
	exit 1
fi
