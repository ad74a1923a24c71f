// SPDX-License-Identifier: GPL-2.0
/*
 * Neither reported nor converted: a byte position stepping by PAGE_SIZE,
 * and FGP_WRITEBEGIN.
 */
#include <linux/pagemap.h>

static int zero_range(struct address_space *mapping, loff_t start, loff_t end)
{
	loff_t pos;

	for (pos = start; pos < end; pos += PAGE_SIZE) {
		pgoff_t index = pos >> PAGE_SHIFT;
		struct folio *folio;

		folio = __filemap_get_folio(mapping, index, FGP_WRITEBEGIN,
					    mapping_gfp_mask(mapping));
		if (IS_ERR(folio))
			return PTR_ERR(folio);
		folio_zero_range(folio, 0, folio_size(folio));
		folio_mark_dirty(folio);
		folio_unlock(folio);
		folio_put(folio);
	}
	return 0;
}
