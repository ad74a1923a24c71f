// SPDX-License-Identifier: GPL-2.0
/*
 * Neither reported nor converted: the grab is skipped for some indices (a continue before it, or
 * a condition around it).  A batch would create folios at the indices the
 * loop skips.  Neither reported nor rewritten.
 */
#include <linux/pagemap.h>

static int swapin_present(struct address_space *mapping, struct page **pages,
			  unsigned long nr)
{
	struct folio *folio;
	unsigned long i;

	for (i = 0; i < nr; ++i) {
		if (!pages[i])
			continue;
		folio = filemap_lock_folio(mapping, i);
		if (IS_ERR(folio))
			return PTR_ERR(folio);
		copy_highpage(folio_page(folio, 0), pages[i]);
		folio_mark_uptodate(folio);
		folio_unlock(folio);
		folio_put(folio);
	}
	return 0;
}

static int grab_marked(struct address_space *mapping, const unsigned long *map,
		       struct folio **folios, unsigned long nr)
{
	unsigned long i;

	for (i = 0; i < nr; i++) {
		folios[i] = NULL;
		if (test_bit(i, map)) {
			folios[i] = filemap_lock_folio(mapping, i);
			if (IS_ERR(folios[i]))
				return PTR_ERR(folios[i]);
		}
	}
	return 0;
}
