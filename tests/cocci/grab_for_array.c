// SPDX-License-Identifier: GPL-2.0
/*
 * Converted: a for loop storing filemap_lock_folio() into an array, with
 * an IS_ERR() check that jumps out.
 */
#include <linux/pagemap.h>

static int grab_all(struct address_space *mapping, struct folio **folios,
		    unsigned int nr_folios)
{
	struct folio *folio;
	unsigned int i;
	int err = 0;

	for (i = 0; i < nr_folios; i++) {
		folio = filemap_lock_folio(mapping, i);
		if (IS_ERR(folio)) {
			err = PTR_ERR(folio);
			goto unlock;
		}
		folios[i] = folio;
	}
	return 0;

unlock:
	while (i--) {
		folio_unlock(folios[i]);
		folio_put(folios[i]);
	}
	return err;
}
