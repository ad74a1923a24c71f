// SPDX-License-Identifier: GPL-2.0
/*
 * Reported, not converted: the simple shape, but the loop uses "nr", a
 * name the converted loop declares in its body.
 */
#include <linux/pagemap.h>

static int grab_nr(struct address_space *mapping, struct folio **folios,
		   unsigned long nr)
{
	struct folio *folio;
	unsigned long i;

	for (i = 0; i < nr; i++) {
		folio = filemap_lock_folio(mapping, i);
		if (IS_ERR(folio))
			return PTR_ERR(folio);
		folios[i] = folio;
	}
	return 0;
}
