// SPDX-License-Identifier: GPL-2.0
/*
 * Neither reported nor converted: the loop returns the first folio that is not uptodate, still
 * locked.  A batch would have created and locked the folios after it,
 * which the loop never reaches.  Neither reported nor rewritten.
 */
#include <linux/pagemap.h>

static struct folio *first_stale(struct address_space *mapping, pgoff_t nr)
{
	pgoff_t i;

	for (i = 0; i < nr; i++) {
		struct folio *folio = filemap_lock_folio(mapping, i);

		if (IS_ERR(folio))
			return folio;
		if (!folio_test_uptodate(folio))
			return folio;
		folio_unlock(folio);
		folio_put(folio);
	}
	return NULL;
}

static int grab_until_dirty(struct address_space *mapping,
			    struct folio **folios, int n)
{
	struct folio *folio;
	int i;

	for (i = 0; i < n; i++) {
		folio = filemap_lock_folio(mapping, i);
		if (IS_ERR(folio))
			return PTR_ERR(folio);
		if (folio_test_dirty(folio))
			break;
		folios[i] = folio;
	}
	return i;
}
