#!/bin/sh
# thp_compacted.sh PROGRAM [ARGS...]: runs PROGRAM, a test that needs
# PMD-sized allocations to succeed, on compacted memory.
#
# The guest keeps 2.2 GiB as hugetlb pages and KASAN's shadow takes an
# eighth of the rest; after the split tests, what is left can be too
# fragmented for a PMD-sized folio, and khugepaged's test then fails every
# collapse in about a second.  So: drop the caches and compact first, as
# run_vmtests.sh does before its hugetlb tests.  If PROGRAM fails while
# the THP allocation failure counters went up, the test's premise failed
# rather than the kernel: print the counters and /proc/buddyinfo, compact
# again and run it once more; its second result is the verdict.
counters() {
	grep -E '^(thp_collapse_alloc_failed|thp_fault_fallback|thp_file_fallback) ' \
		/proc/vmstat | awk '{ s += $2 } END { print s + 0 }'
}
compact() {
	sync
	echo 3 > /proc/sys/vm/drop_caches
	echo 1 > /proc/sys/vm/compact_memory
}
compact
before=$(counters)
"$@" && exit 0
rc=$?
after=$(counters)
[ "$after" -gt "$before" ] || exit $rc
echo "# thp_compacted: rc=$rc with $((after - before)) THP allocation failures:"
grep -E '^thp_(collapse_alloc|fault|file)' /proc/vmstat | sed 's/^/#   /'
sed 's/^/#   /' /proc/buddyinfo
echo "# thp_compacted: compacting and running it again"
compact
"$@"
