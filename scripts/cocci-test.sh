#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the fixtures of a semantic patch.
#
# Usage: cocci-test.sh SEMANTIC_PATCH.cocci [FIXTURES_DIR]
#
# FIXTURES_DIR (default: ../tests/cocci next to this script) holds, per
# fixture NAME, NAME.c (the input), NAME.res (what patch mode makes of it;
# a copy of NAME.c where it must change nothing) and, if report mode
# reports anything for it, NAME.report (the expected lines).  One line per
# check, "PASS cocci NAME MODE" or "FAIL cocci NAME MODE" and what differs:
#   patch    spatch --test NAME --compare-with-expected -D patch, on a copy
#            laid out as spatch wants it (NAME.{c,cocci,res}), says "seems
#            correct", and its result equals NAME.res byte for byte;
#   report   the report lines equal NAME.report (none without one);
#   context, org   once over all the fixtures: spatch exits 0 with no
#            Python error, and marks the reported fixtures and no others.
# Exit status 1 if any check failed.

cocci=$(realpath "${1:?usage: $0 SEMANTIC_PATCH.cocci [FIXTURES_DIR]}")
fixtures=$(realpath "${2:-$(dirname "$(realpath "$0")")/../tests/cocci}")
SPATCH=${SPATCH:-spatch}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/tests" "$tmp/out"
failed=0

result() {	# STATUS NAME MODE [DETAIL]
	if [ "$1" = 0 ]; then
		echo "PASS cocci $2 $3"
	else
		echo "FAIL cocci $2 $3"
		[ -z "$4" ] || printf '%s\n' "$4" | sed 's/^/    /'
		failed=1
	fi
}

for c in "$fixtures"/*.c; do
	name=$(basename "$c" .c)
	res=$fixtures/$name.res
	if [ ! -f "$res" ]; then
		result 1 "$name" patch "missing $name.res"
		continue
	fi
	cp "$c" "$res" "$tmp/tests/"
	cp "$cocci" "$tmp/tests/$name.cocci"
	# spatch --test writes its result to /tmp/NAME.c
	rm -f "/tmp/$name.c"
	out=$(cd "$tmp" && $SPATCH --test "$name" --compare-with-expected \
		-D patch 2>&1)
	got=/tmp/$name.c
	grep -q "no modification on the input file" <<<"$out" && got=$c
	if ! grep -q "^seems correct" <<<"$out"; then
		result 1 "$name" patch "$(grep -A20 "seems incorrect\|rror" <<<"$out")"
	elif ! d=$(diff -u "$res" "$got"); then
		result 1 "$name" patch "$d"
	else
		result 0 "$name" patch
	fi
	rm -f "/tmp/$name.c"

	exp=$fixtures/$name.report
	[ -f "$exp" ] || exp=/dev/null
	rep=$(cd "$fixtures" && $SPATCH --very-quiet -D report \
		--sp-file "$cocci" "$name.c" 2>&1 | LC_ALL=C sort)
	if d=$(diff -u <(LC_ALL=C sort "$exp") <(printf '%s\n' "$rep" | sed '/^$/d')); then
		result 0 "$name" report
	else
		result 1 "$name" report "$d"
	fi
done

# context and org, as coccicheck runs them over a directory
reported=$(cd "$fixtures" && for r in *.report; do [ -s "$r" ] && echo "${r%.report}.c"; done | sort)
for mode in context org; do
	if ! out=$(cd "$fixtures" && $SPATCH --very-quiet -D $mode --no-includes \
			--include-headers --sp-file "$cocci" --dir . 2>"$tmp/err"); then
		result 1 all $mode "spatch failed: $(head -5 "$tmp/err")"
		continue
	fi
	if grep -q "Traceback\|Error" "$tmp/err"; then
		result 1 all $mode "$(head -5 "$tmp/err")"
		continue
	fi
	case $mode in
	context) marked=$(grep -o '^+++ [^ 	]*' <<<"$out" | sed 's|.*/||') ;;
	org) marked=$(grep -o '^\* TODO \[\[view:[^:]*' <<<"$out" | sed 's|.*view:||; s|.*/||') ;;
	esac
	marked=$(echo "$marked" | sed '/^$/d' | sort -u)
	if d=$(diff -u <(echo "$reported") <(echo "$marked")); then
		result 0 all $mode
	else
		result 1 all $mode "$d"
	fi
done
exit $failed
