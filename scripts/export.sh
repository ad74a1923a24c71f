#!/bin/bash
# Write the stack in $KSRC back into patches/: for each series of
# patches/stack, the commits of PREV..NAME (see scripts/materialise.sh) as
# patches/NAME/: a format-patch file per commit, the cover letter (from the
# description of branch NAME) and the series file. Each cover letter says
# what it applies to as b4 would: "base-commit:" the base, and a
# "prerequisite-patch-id:" per patch of the series below it. The output is
# stable: an unchanged commit gives a byte-identical file.
# Usage: export.sh [DIR]	(default: patches/)
. "$(dirname "$0")/lib.sh"

dest=${1:-$TOP/patches}

[ -e "$KSRC/.git" ] || die "no kernel tree at $KSRC; run 'make materialise' first"
[ -z "$(git -C "$KSRC" status --porcelain --untracked-files=no)" ] ||
	die "$KSRC has uncommitted changes; commit them first"
last=$(stack_series | tail -n 1)
[ -n "$last" ] || die "patches/stack lists no series"
# Commits made on top of the stack belong to its last series.
git -C "$KSRC" merge-base --is-ancestor "$last" HEAD ||
	die "HEAD does not contain the last series' branch '$last': rebase with --update-refs, or move it"
[ "$(git -C "$KSRC" rev-parse HEAD)" = "$(git -C "$KSRC" rev-parse "$last")" ] ||
	git -C "$KSRC" branch -f "$last" HEAD

tmp=$BUILD/export.tmp
rm -rf "$tmp"
mkdir -p "$tmp"
cp "$TOP/patches/stack" "$tmp/stack"
[ ! -f "$TOP/patches/checkpatch-exceptions" ] || cp "$TOP/patches/checkpatch-exceptions" "$tmp/"
for s in $(stack_series); do
	range=$(series_range "$s")
	git -C "$KSRC" merge-base --is-ancestor "${range%..*}" "$s" ||
		die "series $s does not start where ${range%..*} ends"
	desc=$(git -C "$KSRC" config "branch.$s.description" || true)
	[ -n "$desc" ] || die "no cover letter for $s: git -C $KSRC branch --edit-description $s"
	mkdir -p "$tmp/$s"
	n=$(git -C "$KSRC" rev-list --count "$range")
	if [ "$n" -gt 0 ]; then
		# format-patch takes the description of the branch the range ends
		# at. The cover letter is from the author of the series' newest
		# commit, and has its date rather than the time of the export.
		GIT_COMMITTER_NAME=$(git -C "$KSRC" log -1 --format=%an "$s") \
		GIT_COMMITTER_EMAIL=$(git -C "$KSRC" log -1 --format=%ae "$s") \
		git -C "$KSRC" -c core.abbrev=12 -c diff.renames=true format-patch -q \
			--zero-commit --no-signature --numbered --cover-letter \
			--cover-from-description=subject --base="$BASE_TAG" \
			-o "$tmp/$s" "$range"
		date=$(git -C "$KSRC" log -1 --format=%aD "$s")
		sed -i "s/^Date: .*/Date: $date/" "$tmp/$s"/0000-*.patch
		(cd "$tmp/$s" && ls | grep -v '^0000-') > "$tmp/series.$s"
		mv "$tmp/series.$s" "$tmp/$s/series"
	else
		# a new series: its cover letter alone, in format-patch's form
		{
			echo "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001"
			echo "From: $GIT_COMMITTER_NAME <$GIT_COMMITTER_EMAIL>"
			echo "Date: $(git -C "$KSRC" log -1 --format=%aD "$s")"
			echo "Subject: [PATCH 0/0] $(sed -n 1p <<< "$desc")"
			echo
			sed 1,2d <<< "$desc"
			echo
			echo "base-commit: $(git -C "$KSRC" rev-parse "$BASE_TAG")"
		} > "$tmp/$s/0000-cover-letter.patch"
		: > "$tmp/$s/series"
	fi
done

# replace the series directories of DEST (and only those)
mkdir -p "$dest"
for d in "$dest"/*/; do
	[ -d "$d" ] && [ -f "$d/0000-cover-letter.patch" ] && rm -rf "$d"
done
cp -r "$tmp"/. "$dest"/
rm -rf "$tmp"
say "exported $(git -C "$KSRC" rev-list --count "$BASE_TAG..HEAD") patches in $(stack_series | wc -w) series to $dest"
