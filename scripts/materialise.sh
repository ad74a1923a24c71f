#!/bin/bash
# Make $KSRC a git tree whose root commit is the pinned base, then apply the
# stack on top with git am: the series that patches/stack lists, in its
# order, each from patches/NAME/series. The whole stack is the branch
# "series"; each series also gets a branch of its own name at its last
# commit, whose description is the series' cover letter. rebase.updateRefs
# is set, so that 'git rebase -i base' moves those branches with the
# commits (a tag would stay behind). The base is unpacked only once.
. "$(dirname "$0")/lib.sh"

BASE_DATE="2026-01-01T00:00:00Z"

unpack_base() {
	local deb tmp
	deb=$("$TOP/scripts/fetch-base.sh")
	say "unpacking $deb"
	tmp=$BUILD/unpack.tmp
	rm -rf "$tmp" "$KSRC"
	mkdir -p "$tmp"
	dpkg-deb --fsys-tarfile "$deb" | tar -xO "./$BASE_TARBALL" | tar -xJ -C "$tmp"
	mv "$tmp"/linux-source-* "$KSRC"
	rmdir "$tmp"

	# Debian's packaging adds a rule to the top-level .gitignore that
	# ignores everything at the top level ("/*" with "!/debian/"). Left in,
	# git would silently skip the whole tree and every new file. Drop that
	# block; upstream's own rules stay.
	sed -i '/^# Debian packaging/,/^$/d; /^\/\*$/d; /^!\/debian\/$/d' "$KSRC/.gitignore"

	say "creating the base commit (once per base)"
	git -C "$KSRC" init -q -b series
	git -C "$KSRC" config core.autocrlf false
	git -C "$KSRC" config gc.auto 0
	git -C "$KSRC" add -A -f	# the tree is pristine: take every file, dotfiles included
	GIT_AUTHOR_NAME="$GIT_COMMITTER_NAME" GIT_AUTHOR_EMAIL="$GIT_COMMITTER_EMAIL" \
	GIT_AUTHOR_DATE="$BASE_DATE" GIT_COMMITTER_DATE="$BASE_DATE" \
		git -C "$KSRC" commit -q -m "Linux $BASE_KERNELVERSION ($BASE_PACKAGE $BASE_VERSION)" \
			-m "Unpacked from Debian's $BASE_DEB, sha256 $BASE_SHA256." \
			-m "Debian's top-level .gitignore rule that ignores every top-level path was removed."
	git -C "$KSRC" tag "$BASE_TAG"
	git -C "$KSRC" config series.base-sha256 "$BASE_SHA256"
}

if [ "$(git -C "$KSRC" config series.base-sha256 2>/dev/null)" != "$BASE_SHA256" ]; then
	unpack_base
else
	[ -z "$(git -C "$KSRC" status --porcelain)" ] ||
		die "$KSRC has uncommitted changes; commit (and 'make export') or discard them first"
	if [ "$(git -C "$KSRC" rev-parse HEAD)" != "$(git -C "$KSRC" rev-parse "$BASE_TAG")" ]; then
		git -C "$KSRC" update-ref refs/saved/before-materialise HEAD
		say "previous HEAD saved as refs/saved/before-materialise"
	fi
fi

git -C "$KSRC" checkout -q -f -B series "$BASE_TAG"
git -C "$KSRC" config rebase.updateRefs true

n=0
for s in $(stack_series); do
	d=$TOP/patches/$s
	[ -f "$d/0000-cover-letter.patch" ] || die "patches/$s has no 0000-cover-letter.patch"
	if [ -f "$d/series" ]; then
		while read -r p; do
			case "$p" in ''|'#'*) continue ;; esac
			[ -f "$d/$p" ] || die "patches/$s/series names $p, which does not exist"
			if ! git -C "$KSRC" am -q --committer-date-is-author-date "$d/$p" >/dev/null 2>"$BUILD/am.log"; then
				git -C "$KSRC" am --abort || true
				cat "$BUILD/am.log" >&2
				die "patch $s/$p does not apply"
			fi
			n=$((n + 1))
		done < "$d/series"
	fi
	# The cover letter's subject and text travel as the branch
	# description, which 'git format-patch --cover-from-description'
	# turns back into it.
	git -C "$KSRC" branch -f "$s" HEAD
	git -C "$KSRC" config "branch.$s.description" "$("$TOP/scripts/cover-description.sh" "$d/0000-cover-letter.patch")"
done
say "$KSRC: base + $n patches in $(stack_series | wc -w) series ($(stack_series | tr '\n' ' '))"
