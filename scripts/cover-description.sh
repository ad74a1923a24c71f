#!/bin/bash
# Print the subject and text of a cover letter (patches/NAME/0000-*.patch) in the
# form of a git branch description: subject, blank line, body.
set -euo pipefail
awk '
	/^Subject: / { s = $0; sub(/^Subject: (\[[^]]*\] )?/, "", s); insubj = 1; next }
	insubj && /^[ \t]/ { sub(/^[ \t]+/, " "); s = s $0; next }
	insubj { insubj = 0 }
	!body && /^$/ && s != "" { body = 1; print s; print ""; next }
	body && /^[^ ].* \([0-9]+\):$/ { exit }
	body { lines[++n] = $0 }
	END { while (n > 0 && lines[n] == "") n--; for (i = 1; i <= n; i++) print lines[i] }
' "$1"
