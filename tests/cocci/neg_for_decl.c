// SPDX-License-Identifier: GPL-2.0
/*
 * Neither reported nor converted: the loop counter is declared in the
 * for statement.  Recognising this form would cost the script another
 * copy of the loop pattern; spatch matches "for (...; ...; ...)" only
 * with an expression as initialiser.
 */
#include <linux/pagemap.h>

static int grab_first(struct address_space *mapping, struct folio **folios,
		      int n)
{
	for (int i = 0; i < n; i++) {
		struct folio *folio = filemap_lock_folio(mapping, i);

		if (IS_ERR(folio))
			return PTR_ERR(folio);
		folios[i] = folio;
	}
	return 0;
}
