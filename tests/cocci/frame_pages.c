// SPDX-License-Identifier: GPL-2.0
/*
 * Reported, not converted: a frame of pages grabbed with the index
 * stepped next to the loop counter and the uptodate state tested, as
 * ntfs3 does, and a find_or_create_page() loop storing pages.
 */
#include <linux/pagemap.h>

static int get_frame_pages(struct address_space *mapping, pgoff_t index,
			   struct page **pages, u32 pages_per_frame,
			   bool *frame_uptodate)
{
	gfp_t gfp_mask = mapping_gfp_mask(mapping);
	u32 npages;

	*frame_uptodate = true;

	for (npages = 0; npages < pages_per_frame; npages++, index++) {
		struct folio *folio;

		folio = __filemap_get_folio(mapping, index,
					    FGP_LOCK | FGP_ACCESSED | FGP_CREAT,
					    gfp_mask | __GFP_ZERO);
		if (IS_ERR(folio)) {
			while (npages--) {
				folio = page_folio(pages[npages]);
				folio_unlock(folio);
				folio_put(folio);
			}
			return -ENOMEM;
		}
		if (!folio_test_uptodate(folio))
			*frame_uptodate = false;
		pages[npages] = &folio->page;
	}
	return 0;
}

static int get_cache_pages(struct address_space *mapping, pgoff_t start,
			   struct page **pages, int nr)
{
	int i;

	for (i = 0; i < nr; i++) {
		pages[i] = find_or_create_page(mapping, start + i, GFP_NOFS);
		if (!pages[i])
			return -ENOMEM;
	}
	return 0;
}
