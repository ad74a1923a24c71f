#!/bin/bash
# make phases: where the time of a MADV_POPULATE_WRITE goes in the patched
# UML kernel, phase by phase. The series with bench/phases.diff on top (a
# measurement aid that times the phases with ktime_get_ns(), never part of
# the series) is committed as branch 'phases' of build/linux without a
# checkout, and is the patched kernel of a one-boot 'make bench' on UML;
# its console has a PHASES line per population of 256 MiB or more, which
# this sums up per path: medians over the samples, in ms per population,
# and the clearing of a page in ns.
# Environment: PHASE_PATHS (popbench -p, default private and shared
#   anonymous memory and the memfd), PHASE_RUN (shmem.phase_run=: the
#   longest run of folios shmem_populate_vma() fills, 1 to 31, default 31),
#   PHASE_REPS (samples, default 6). Results in build/bench/uml-512-phases/.
# The timing itself costs two clock reads a page in both kernels' clearing;
# compare the phases with each other, not with 'make bench'.
. "$(dirname "$0")/lib.sh"

PATHS=${PHASE_PATHS:-anon-private-populate.,anon-shared,memfd-populate}
RUN=${PHASE_RUN:-31}
REPS=${PHASE_REPS:-6}
[[ $RUN =~ ^[0-9]+$ ]] && [ "$RUN" -ge 1 ] && [ "$RUN" -le 31 ] ||
	die "PHASE_RUN=$RUN: 1 to 31"

[ -d "$KSRC/.git" ] || "$TOP/scripts/materialise.sh"
git -C "$KSRC" rev-parse -q --verify series >/dev/null ||
	die "no 'series' in $KSRC: run make materialise"
idx=$(mktemp)
trap 'rm -f "$idx"' EXIT
GIT_INDEX_FILE=$idx git -C "$KSRC" read-tree series
GIT_INDEX_FILE=$idx git -C "$KSRC" apply --cached "$TOP/bench/phases.diff" ||
	die "bench/phases.diff does not apply to the series"
tree=$(GIT_INDEX_FILE=$idx git -C "$KSRC" write-tree)
commit=$(git -C "$KSRC" commit-tree "$tree" -p series -m "phases: bench/phases.diff")
git -C "$KSRC" update-ref refs/heads/phases "$commit"

BENCH_PATCHED=phases BENCH_BOOTS=1 BENCH_REPS=$REPS BENCH_MIB=512 \
	BENCH_PATHS=$PATHS BENCH_APPEND="shmem.phase_run=$RUN" BENCH_TAG=phases \
	"$TOP/scripts/bench.sh" um

log=$BUILD/bench/uml-512-phases/logs/boot-1-patched.log
[ -f "$log" ] || die "no console log $log"
echo
echo "phases of the patched kernel, shmem.phase_run=$RUN ($log):"
# A PHASES line comes before the SAMPLE (or WARMUP) line of its population.
tr -d '\r' < "$log" | awk '
/PHASES mib=/ { line = substr($0, index($0, "PHASES")); next }
/^WARMUP / { line = ""; next }
/^SAMPLE / && line != "" {
	split($2, p, "="); path = p[2]
	if (!(path in n)) order[++np] = path
	k = ++n[path]; m = split(line, f, " ")
	for (i = 3; i <= m; i++) {
		split(f[i], kv, "=")
		if (!(kv[1] in seen)) { seen[kv[1]] = 1; names[++nn] = kv[1] }
		v[path, kv[1], k] = kv[2] / 1e6
	}
	line = ""
}
function median(path, name,    a, i, j, c, t) {
	c = n[path]
	for (i = 1; i <= c; i++) a[i] = v[path, name, i]
	for (i = 2; i <= c; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	return c % 2 ? a[(c + 1) / 2] : (a[c / 2] + a[c / 2 + 1]) / 2
}
END {
	if (!np) { print "no PHASES line followed by a SAMPLE: is bench/phases.diff applied?"; exit 1 }
	printf "%-24s", "ms (median)"
	for (j = 1; j <= nn; j++) printf " %7s", names[j]
	printf " %9s\n", "clear/pg"
	for (i = 1; i <= np; i++) {
		printf "%-24s", order[i]
		for (j = 1; j <= nn; j++) printf " %7.1f", median(order[i], names[j])
		printf " %6.0f ns\n", median(order[i], "clear") * 1e6 / (512 * 256)
	}
}'
