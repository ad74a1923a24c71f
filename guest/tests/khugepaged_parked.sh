#!/bin/sh
# khugepaged_parked.sh PROGRAM [ARGS...]: runs PROGRAM with khugepaged's
# scanner asleep (scan_sleep_millisecs of 10 minutes), then restores it.
#
# split_huge_page_test splits the THPs of its own anonymous mappings
# through debugfs, which skips a folio that has an unexpected reference or
# is locked, and then expects every one of them split. Under TCG,
# khugepaged's scans (every 10 s) meet it: in this guest five of six runs
# left one to four THPs of a split whole, each with thp_collapse_alloc up by
# 4 across the run (by 1 in the run that passed), with or without
# movablecore=; with the scanner asleep, three of three passed and none
# collapsed anything.
d=/sys/kernel/mm/transparent_hugepage/khugepaged
old=$(cat "$d/scan_sleep_millisecs") || exit 1
echo 600000 > "$d/scan_sleep_millisecs" || exit 1
# the write wakes the scanner for one pass: let it finish first
sleep 2
"$@"
rc=$?
echo "$old" > "$d/scan_sleep_millisecs"
exit $rc
