// SPDX-License-Identifier: GPL-2.0
/*
 * Reported, not converted: a while loop over consecutive indices.
 */
#include <linux/pagemap.h>

static long grab_while(struct address_space *mapping, pgoff_t index,
		       pgoff_t end, struct folio **folios)
{
	long nr = 0;

	while (index <= end) {
		struct folio *folio = filemap_lock_folio(mapping, index);

		if (IS_ERR(folio))
			break;
		folio_mark_uptodate(folio);
		folios[nr++] = folio;
		index++;
	}
	return nr;
}
