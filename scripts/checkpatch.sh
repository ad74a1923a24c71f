#!/bin/bash
# Run checkpatch.pl --strict on every patch of the stack (SERIES=NAME: of
# that series alone). A patch passes with no error, warning or check left,
# after the exceptions listed for it in patches/checkpatch-exceptions
# ("glob-of-SERIES/PATCH TYPE reason").
# Prints one "PASS|FAIL SERIES/PATCH" line per patch.
. "$(dirname "$0")/lib.sh"

[ -d "$KSRC" ] || die "no kernel tree at $KSRC; run 'make materialise' first"
exceptions=$TOP/patches/checkpatch-exceptions
fail=0
for s in ${SERIES:-$(stack_series)}; do
	[ -f "$TOP/patches/$s/series" ] || continue
	while read -r p; do
		case "$p" in ''|'#'*) continue ;; esac
		ignore=
		if [ -f "$exceptions" ]; then
			while read -r glob type _; do
				case "$glob" in ''|'#'*) continue ;; esac
				# shellcheck disable=SC2254
				case "$s/$p" in $glob) ignore="$ignore,$type" ;; esac
			done < "$exceptions"
		fi
		# Debian's python3 has the ply module that spdxcheck.py needs.
		out=$(cd "$KSRC" && PATH=/usr/bin:$PATH perl scripts/checkpatch.pl --strict --show-types \
			${ignore:+--ignore "${ignore#,}"} "$TOP/patches/$s/$p" 2>&1 || true)
		# a here-string, not a pipe: under pipefail, grep -q leaving early
		# would fail the pipe with SIGPIPE
		if grep -q '^total: 0 errors, 0 warnings, 0 checks' <<< "$out"; then
			echo "PASS checkpatch $s/$p"
		else
			grep -v '^$' <<< "$out" | sed -n '1,40s/^/    /p' || true
			echo "FAIL checkpatch $s/$p"
			fail=1
		fi
	done < "$TOP/patches/$s/series"
done
exit $fail
