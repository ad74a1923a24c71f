#!/bin/bash
# Run checkpatch.pl --strict on every patch of patches/series. A patch
# passes with no error, warning or check left, after the exceptions listed
# for it in patches/checkpatch-exceptions ("patch-glob TYPE reason").
# Prints one "PASS|FAIL name" line per patch.
. "$(dirname "$0")/lib.sh"

[ -d "$KSRC" ] || die "no kernel tree at $KSRC; run 'make materialise' first"
exceptions=$TOP/patches/checkpatch-exceptions
fail=0
while read -r p; do
	case "$p" in ''|'#'*) continue ;; esac
	ignore=
	if [ -f "$exceptions" ]; then
		while read -r glob type _; do
			case "$glob" in ''|'#'*) continue ;; esac
			# shellcheck disable=SC2254
			case "$p" in $glob) ignore="$ignore,$type" ;; esac
		done < "$exceptions"
	fi
	# Debian's python3 has the ply module that spdxcheck.py needs.
	out=$(cd "$KSRC" && PATH=/usr/bin:$PATH perl scripts/checkpatch.pl --strict --show-types \
		${ignore:+--ignore "${ignore#,}"} "$TOP/patches/$p" 2>&1 || true)
	# a here-string, not a pipe: under pipefail, grep -q leaving early would
	# fail the pipe with SIGPIPE
	if grep -q '^total: 0 errors, 0 warnings, 0 checks' <<< "$out"; then
		echo "PASS checkpatch $p"
	else
		grep -v '^$' <<< "$out" | sed -n '1,40s/^/    /p' || true
		echo "FAIL checkpatch $p"
		fail=1
	fi
done < "$TOP/patches/series"
exit $fail
