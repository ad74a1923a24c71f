#!/bin/bash
# make cocci-report: the kernel's own 'make coccicheck MODE=report' with the
# series' semantic patch (scripts/coccinelle/api/filemap_get_folios.cocci),
# over COCCI_DIRS of the materialised tree (default: fs drivers/gpu/drm mm).
# COCCI_DIRS=. is the whole tree, in the directories that have a file that
# calls one of the functions the script looks for: every rule of the script
# depends on its @calls@ rule, so spatch finds nothing in any other file,
# and the run takes minutes instead of hours on 2 cores. MODE= (report,
# patch, context, org) as for coccicheck. Output in OUT/cocci-MODE.txt.
. "$(dirname "$0")/lib.sh"

mode=${MODE:-report}
cocci=scripts/coccinelle/api/filemap_get_folios.cocci
[ -f "$KSRC/$cocci" ] || die "no $cocci in $KSRC: run make materialise"
command -v spatch >/dev/null || die "spatch not found (make deps)"
mkdir -p "$OUT"
res=$OUT/cocci-$mode.txt
: > "$res"
dirs=${COCCI_DIRS:-fs drivers/gpu/drm mm}
if [ "$dirs" = . ]; then
	# the functions of @calls@; a superset matches no less
	calls='filemap_lock_folio|filemap_grab_folio|__filemap_get_folio|find_or_create_page|grab_cache_page|shmem_read_folio|shmem_read_mapping_page'
	dirs=$(git -C "$KSRC" grep -l -E "$calls" -- '*.c' '*.h' |
		xargs -n1 dirname | sort -u |
		awk 'last == "" || index($0 "/", last "/") != 1 { print; last = $0 }')
	say "the whole tree: $(echo "$dirs" | wc -l) directories call the functions"
fi
for d in $dirs; do
	say "coccicheck MODE=$mode M=$d"
	# coccicheck runs spatch in M=, which names files from there: name
	# them from the top of the tree, and drop coccicheck's chatter
	make -s -C "$KSRC" coccicheck MODE="$mode" COCCI="$KSRC/$cocci" M="$d" \
		J="$JOBS" SPFLAGS=--very-quiet 2>&1 |
		grep -v -e '^Please check' -e '^When using' -e '^You \(have\|can\)' \
			-e '^Using default' -e '^Debug logs' -e "^$(command -v spatch) " |
		sed -E "s#(^|view:)\./#\1$d/#" >> "$res" || true
done
grep -v '^$' "$res" || true
say "$(grep -c ': WARNING\|: INFO\|: ERROR' "$res" || true) hits in $res"
