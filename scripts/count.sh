#!/bin/bash
# Turn a kunit.py summary into "PASSED FAILED SKIPPED".
# Usage: count.sh LOG. A log without a summary, or with no test run at all,
# counts as one failure: a suite that did not run must not look green.
set -euo pipefail
line=$(grep -a 'Testing complete\. Ran [0-9]* tests' "$1" | tail -n 1 || true)
num() { echo "$line" | sed -n "s/.*[ :,]$1: \([0-9]*\).*/\1/p"; }
total=$(echo "$line" | sed -n 's/.*Ran \([0-9]*\) tests.*/\1/p')
p=$(num passed); f=$(num failed); c=$(num crashed); s=$(num skipped); e=$(num errors)
p=${p:-0}; f=$(( ${f:-0} + ${c:-0} + ${e:-0} )); s=${s:-0}
if [ -z "$total" ] || [ "$total" -eq 0 ]; then
	f=$((f + 1))
fi
echo "$p $f $s"
