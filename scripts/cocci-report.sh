#!/bin/bash
# make cocci-report: the kernel's own 'make coccicheck MODE=report' with the
# series' semantic patch (scripts/coccinelle/api/filemap_grab_folios.cocci),
# over COCCI_DIRS of the materialised tree (default: fs drivers/gpu/drm mm;
# COCCI_DIRS=. is the whole tree, hours on 2 cores). MODE= (report, patch,
# context, org) as for coccicheck. Output in OUT/cocci-MODE.txt.
. "$(dirname "$0")/lib.sh"

mode=${MODE:-report}
cocci=scripts/coccinelle/api/filemap_grab_folios.cocci
[ -f "$KSRC/$cocci" ] || die "no $cocci in $KSRC: run make materialise"
command -v spatch >/dev/null || die "spatch not found (make deps)"
mkdir -p "$OUT"
res=$OUT/cocci-$mode.txt
: > "$res"
for d in ${COCCI_DIRS:-fs drivers/gpu/drm mm}; do
	say "coccicheck MODE=$mode M=$d"
	make -s -C "$KSRC" coccicheck MODE="$mode" COCCI="$cocci" M="$d" \
		J="$JOBS" SPFLAGS=--very-quiet >> "$res" 2>&1 || true
done
grep -v '^$' "$res" || true
say "$(grep -c ': WARNING\|: INFO\|: ERROR' "$res" || true) hits in $res"
