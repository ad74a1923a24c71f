#!/bin/bash
# Write the commits on top of the base back into patches/: one
# format-patch file per commit, a cover letter and the series file. The
# output is stable: an unchanged commit gives a byte-identical file.
# Usage: export.sh [DIR]	(default: patches/)
. "$(dirname "$0")/lib.sh"

dest=${1:-$TOP/patches}

[ -e "$KSRC/.git" ] || die "no kernel tree at $KSRC; run 'make materialise' first"
[ -z "$(git -C "$KSRC" status --porcelain --untracked-files=no)" ] ||
	die "$KSRC has uncommitted changes; commit them first"

n=$(git -C "$KSRC" rev-list --count "$BASE_TAG..HEAD")
tmp=$BUILD/export.tmp
rm -rf "$tmp"
mkdir -p "$tmp"

if [ "$n" -gt 0 ]; then
	branch=$(git -C "$KSRC" symbolic-ref --short HEAD 2>/dev/null || echo series)
	desc=$(git -C "$KSRC" config "branch.$branch.description" || true)
	[ -n "$desc" ] || desc=$(git -C "$KSRC" config branch.series.description || true)
	[ -n "$desc" ] || die "no cover letter text: set it with 'git -C $KSRC branch --edit-description'"
	# format-patch reads the description of the current branch only.
	git -C "$KSRC" config "branch.$branch.description" "$desc"
	# The cover letter is from the author of the newest commit.
	GIT_COMMITTER_NAME=$(git -C "$KSRC" log -1 --format=%an HEAD) \
	GIT_COMMITTER_EMAIL=$(git -C "$KSRC" log -1 --format=%ae HEAD) \
	git -C "$KSRC" -c core.abbrev=12 -c diff.renames=true format-patch -q \
		--zero-commit --no-signature --numbered --cover-letter \
		--cover-from-description=subject --base="$BASE_TAG" \
		-o "$tmp" "$BASE_TAG..HEAD"
	# The cover letter takes the date of the newest commit, not the time
	# of the export.
	date=$(git -C "$KSRC" log -1 --format=%aD HEAD)
	sed -i "s/^Date: .*/Date: $date/" "$tmp"/0000-*.patch
	ls "$tmp" | grep -v '^0000-' > "$BUILD/series.tmp"
	mv "$BUILD/series.tmp" "$tmp/series"
fi

mkdir -p "$dest"
rm -f "$dest"/[0-9][0-9][0-9][0-9]-*.patch "$dest/series"
if [ "$n" -eq 0 ]; then : > "$dest/series"; else mv "$tmp"/* "$dest/"; fi
rm -rf "$tmp"
say "exported $n patches to $dest"
