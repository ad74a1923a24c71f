// SPDX-License-Identifier: GPL-2.0
/*
 * Converted: the index is a base plus the loop counter, with
 * filemap_lock_folio(); the error branch breaks out of the loop.
 * Reported only: the same with __filemap_get_folio(FGP_CREAT).
 */
#include <linux/pagemap.h>

static unsigned int grab_range(struct address_space *mapping, pgoff_t start,
			       struct folio **folios, unsigned int count)
{
	struct folio *folio;
	unsigned int i;

	for (i = 0; i < count; i++) {
		folio = filemap_lock_folio(mapping, start + i);
		if (IS_ERR(folio))
			break;
		folios[i] = folio;
	}
	return i;
}

static int grab_range_nofs(struct address_space *mapping, pgoff_t base,
			   struct folio **folios, unsigned int count)
{
	struct folio *folio;
	unsigned int i;

	for (i = 0; i < count; i++) {
		folio = __filemap_get_folio(mapping, base + i,
					    FGP_LOCK | FGP_CREAT, GFP_NOFS);
		if (IS_ERR(folio))
			goto fail;
		folios[i] = folio;
	}
	return 0;
fail:
	while (i--) {
		folio_unlock(folios[i]);
		folio_put(folios[i]);
	}
	return PTR_ERR(folio);
}
