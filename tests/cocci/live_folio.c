// SPDX-License-Identifier: GPL-2.0
/*
 * Positive for report mode only: the rewritable shape, but the folio
 * variable is used after the loop (the rewrite would leave it NULL rather
 * than the last folio, or the ERR_PTR() on failure).  Reported as a
 * candidate, not rewritten.
 */
#include <linux/pagemap.h>

static struct folio *grab_upto(struct address_space *mapping,
			       struct folio **folios, unsigned int n)
{
	struct folio *folio = NULL;
	unsigned int i;

	for (i = 0; i < n; i++) {
		folio = filemap_grab_folio(mapping, i);
		if (IS_ERR(folio))
			goto out;
		folios[i] = folio;
	}
out:
	return folio;
}
