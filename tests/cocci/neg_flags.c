// SPDX-License-Identifier: GPL-2.0
/*
 * Neither reported nor converted: flags other than FGP_LOCK, FGP_ACCESSED
 * and FGP_CREAT (FGP_NOWAIT, FGP_STABLE) in any position, or no FGP_CREAT.
 */
#include <linux/pagemap.h>

static int grab_nowait(struct address_space *mapping, struct folio **folios,
		       unsigned long count)
{
	struct folio *folio;
	unsigned long i;

	for (i = 0; i < count; i++) {
		folio = __filemap_get_folio(mapping, i,
				FGP_LOCK | FGP_CREAT | FGP_NOWAIT, GFP_NOFS);
		if (IS_ERR(folio))
			return PTR_ERR(folio);
		folios[i] = folio;
	}
	return 0;
}

static int lookup_locked(struct address_space *mapping, struct folio **folios,
			 unsigned long count)
{
	struct folio *folio;
	unsigned long i;

	for (i = 0; i < count; i++) {
		folio = __filemap_get_folio(mapping, i, FGP_LOCK, 0);
		if (IS_ERR(folio))
			return PTR_ERR(folio);
		folios[i] = folio;
	}
	return 0;
}

static int grab_flags_first_or_middle(struct address_space *mapping,
				      struct folio **folios,
				      unsigned long count)
{
	struct folio *folio;
	unsigned long i;

	for (i = 0; i < count; i++) {
		folio = __filemap_get_folio(mapping, i,
				FGP_NOWAIT | FGP_LOCK | FGP_CREAT, GFP_NOFS);
		if (IS_ERR(folio))
			return PTR_ERR(folio);
		folios[i] = folio;
	}
	for (i = 0; i < count; i++) {
		folio = __filemap_get_folio(mapping, i,
				FGP_LOCK | FGP_STABLE | FGP_CREAT, GFP_NOFS);
		if (IS_ERR(folio))
			return PTR_ERR(folio);
		folios[i] = folio;
	}
	return 0;
}
