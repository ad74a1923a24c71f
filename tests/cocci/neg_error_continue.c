// SPDX-License-Identifier: GPL-2.0
/*
 * Reported, not converted: the error branch does not leave the loop (it
 * skips the index, or stores NULL and goes on).  After a failed batch the
 * converted loop would retry the same index forever.
 */
#include <linux/pagemap.h>

static void grab_skip_errors(struct address_space *mapping,
			     struct folio **folios, unsigned long count)
{
	struct folio *folio;
	unsigned long i;

	for (i = 0; i < count; i++) {
		folio = filemap_lock_folio(mapping, i);
		if (IS_ERR(folio)) {
			folios[i] = NULL;
			continue;
		}
		folios[i] = folio;
	}
}
