// SPDX-License-Identifier: GPL-2.0
/*
 * Converted: the folio variable is used after the loop.  The converted
 * loop leaves in it the last folio stored, or the ERR_PTR() on failure,
 * as the old loop does.
 */
#include <linux/pagemap.h>

static struct folio *grab_upto(struct address_space *mapping,
			       struct folio **folios, unsigned int n)
{
	struct folio *folio = NULL;
	unsigned int i;

	for (i = 0; i < n; i++) {
		folio = filemap_lock_folio(mapping, i);
		if (IS_ERR(folio))
			goto out;
		folios[i] = folio;
	}
out:
	return folio;
}
