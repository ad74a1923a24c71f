// SPDX-License-Identifier: GPL-2.0
/*
 * Neither reported nor converted: the indices come from an array, so they need not be
 * consecutive.  Neither reported nor rewritten.
 */
#include <linux/pagemap.h>

static int grab_listed(struct address_space *mapping, const pgoff_t *indices,
		       struct folio **folios, int n)
{
	struct folio *folio;
	int i;

	for (i = 0; i < n; i++) {
		folio = filemap_lock_folio(mapping, indices[i]);
		if (IS_ERR(folio))
			return PTR_ERR(folio);
		folios[i] = folio;
	}
	return 0;
}
