// SPDX-License-Identifier: GPL-2.0
/*
 * Reported, not converted: the simple shape, but bounded with <=.  The
 * conversion handles "i < n" bounds only.
 */
#include <linux/pagemap.h>

int grab_pages_upto(struct inode *inode, struct folio **folios, int last)
{
	int i;

	for (i = 0; i <= last; i++) {
		struct folio *folio = filemap_lock_folio(inode->i_mapping, i);

		if (IS_ERR(folio))
			return PTR_ERR(folio);
		folios[i] = folio;
	}
	return 0;
}
