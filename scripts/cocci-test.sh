#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the fixtures of a semantic patch in the four coccicheck modes.
#
# Usage: cocci-test.sh SEMANTIC_PATCH.cocci [FIXTURES_DIR]
#
# FIXTURES_DIR (default: ../tests/cocci next to this script) holds, per
# fixture NAME:
#   NAME.c       the input
#   NAME.report  the expected report mode lines (empty: nothing reported)
#   NAME.res     the expected file after patch mode; no NAME.res means that
#                patch mode must leave NAME.c alone
#
# Checks, one line each, "PASS cocci NAME MODE" or "FAIL cocci NAME MODE"
# followed by a diff:
#   report   the report lines, paths reduced to the file name, sorted
#   patch    the patch mode diff applied to a copy, compared with NAME.res,
#            or no diff at all
#   context  for a fixture with a report, a diff that marks the line of each
#            reported loop; otherwise no diff
#   org      for a fixture with a report, TODO items at the positions and
#            with the messages of the report lines; otherwise none
#
# spatch runs once per mode over a copy of all the fixtures, as coccicheck
# runs it over a directory; a failure of its Python code (which spatch
# reports on stderr but not in its exit status) fails the mode.  Exit status 1 if any check failed.

set -euo pipefail

usage() {
	echo "usage: $0 SEMANTIC_PATCH.cocci [FIXTURES_DIR]" >&2
	exit 2
}

[ $# -ge 1 ] && [ $# -le 2 ] || usage
cocci=$(realpath "$1")
[ -f "$cocci" ] || { echo "$0: no such file: $1" >&2; exit 2; }
fixtures=${2:-$(dirname "$(realpath "$0")")/../tests/cocci}
fixtures=$(realpath "$fixtures")
[ -d "$fixtures" ] || { echo "$0: no such directory: $fixtures" >&2; exit 2; }
SPATCH=${SPATCH:-spatch}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/in" "$tmp/out" "$tmp/apply"

names=()
for c in "$fixtures"/*.c; do
	[ -e "$c" ] || continue
	names+=("$(basename "$c" .c)")
	cp "$c" "$tmp/in/"
done
[ ${#names[@]} -gt 0 ] || { echo "$0: no fixtures in $fixtures" >&2; exit 2; }

# One spatch run per mode, from inside the copy so that paths are relative.
for mode in report patch context org; do
	if ! (cd "$tmp/in" && nice -n 19 "$SPATCH" --sp-file "$cocci" \
		-D "$mode" --very-quiet --dir . \
		> "$tmp/out/$mode" 2> "$tmp/out/$mode.err") ||
	   grep -q "Python failure\|^Traceback" "$tmp/out/$mode.err"; then
		echo "spatch failed in $mode mode:" >&2
		cat "$tmp/out/$mode.err" >&2
		: > "$tmp/out/$mode.failed"
	fi
done

# The lines of report mode output for one file, file name only, sorted.
report_of() {
	sed -n "s|^\(\./\)\?\($1\.c:[0-9]\)|\2|p" "$2" | LC_ALL=C sort
}

# The section of a diff (patch or context mode) for one file.
diff_of() {
	awk -v f="$1.c" '
		/^--- / { hdr = $0; next_is_plus = 1; next }
		next_is_plus && /^\+\+\+ / {
			next_is_plus = 0
			n = split(hdr, a, "/"); in_file = (a[n] == f ||
				substr(hdr, 5) == f)
			if (in_file) { print "--- a/" f; print "+++ b/" f }
			next
		}
		next_is_plus { next_is_plus = 0; if (in_file) print hdr }
		in_file { print }
	' "$2"
}

# The line numbers of the "-" lines of a diff.
minus_lines() {
	awk '
		/^@@ / { split($2, a, ","); ln = -a[1]; next }
		/^(---|\+\+\+) / { next }
		/^-/ { print ln; ln++; next }
		/^\+/ { next }
		{ ln++ }
	'
}

# Org mode TODO items of one file as "NAME.c:LINE:COL-END: MESSAGE".
org_of() {
	sed -n "s|^\* TODO \[\[view:\(\./\)\?\($1\.c\)::face=[^:]*::linb=\([0-9]*\)::colb=\([0-9]*\)::cole=\([0-9]*\)\]\[\(.*\)\]\]$|\2:\3:\4-\5: \6|p" \
		"$2" | sed 's/@(/[/g; s/)@/]/g' | LC_ALL=C sort
}

failed=0

result() {	# NAME MODE STATUS [DIFF]
	if [ "$3" = 0 ]; then
		echo "PASS cocci $1 $2"
	else
		echo "FAIL cocci $1 $2"
		[ -z "${4:-}" ] || printf '%s\n' "$4" | sed 's/^/    /'
		failed=1
	fi
}

for name in "${names[@]}"; do
	exp_report=$fixtures/$name.report
	if [ -f "$exp_report" ]; then
		LC_ALL=C sort "$exp_report" > "$tmp/expected"
	else
		: > "$tmp/expected"
	fi
	positive=0
	[ -s "$tmp/expected" ] && positive=1

	# report
	report_of "$name" "$tmp/out/report" > "$tmp/got"
	if [ ! -f "$exp_report" ]; then
		result "$name" report 1 "missing $name.report"
	elif [ -e "$tmp/out/report.failed" ]; then
		result "$name" report 1 "$(cat "$tmp/out/report.err")"
	elif d=$(diff -u "$tmp/expected" "$tmp/got"); then
		result "$name" report 0
	else
		result "$name" report 1 "$d"
	fi

	# patch
	diff_of "$name" "$tmp/out/patch" > "$tmp/patch"
	if [ -e "$tmp/out/patch.failed" ]; then
		result "$name" patch 1 "$(cat "$tmp/out/patch.err")"
	elif [ -f "$fixtures/$name.res" ]; then
		rm -rf "$tmp/apply" && mkdir "$tmp/apply"
		cp "$fixtures/$name.c" "$tmp/apply/"
		if [ ! -s "$tmp/patch" ]; then
			result "$name" patch 1 "no patch produced"
		elif ! out=$(patch -s -p1 -d "$tmp/apply" < "$tmp/patch" 2>&1); then
			result "$name" patch 1 "$out"
		elif d=$(diff -u "$fixtures/$name.res" "$tmp/apply/$name.c"); then
			result "$name" patch 0
		else
			result "$name" patch 1 "$d"
		fi
	elif [ -s "$tmp/patch" ]; then
		result "$name" patch 1 "unexpected patch:
$(cat "$tmp/patch")"
	else
		result "$name" patch 0
	fi

	# context
	diff_of "$name" "$tmp/out/context" > "$tmp/context"
	if [ -e "$tmp/out/context.failed" ]; then
		result "$name" context 1 "$(cat "$tmp/out/context.err")"
	elif [ $positive = 0 ]; then
		if [ -s "$tmp/context" ]; then
			result "$name" context 1 "unexpected output:
$(cat "$tmp/context")"
		else
			result "$name" context 0
		fi
	else
		minus_lines < "$tmp/context" > "$tmp/marked"
		missing=
		for l in $(sed -n 's/^[^:]*:\([0-9]*\):.*/\1/p' "$tmp/expected"); do
			grep -qx "$l" "$tmp/marked" || missing="$missing $l"
		done
		if [ ! -s "$tmp/context" ]; then
			result "$name" context 1 "no output"
		elif [ -n "$missing" ]; then
			result "$name" context 1 "reported lines not marked:$missing
$(cat "$tmp/context")"
		else
			result "$name" context 0
		fi
	fi

	# org
	org_of "$name" "$tmp/out/org" > "$tmp/got"
	if [ -e "$tmp/out/org.failed" ]; then
		result "$name" org 1 "$(cat "$tmp/out/org.err")"
	elif d=$(diff -u "$tmp/expected" "$tmp/got"); then
		result "$name" org 0
	else
		result "$name" org 1 "$d"
	fi
done

exit $failed
