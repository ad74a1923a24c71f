// SPDX-License-Identifier: GPL-2.0
/*
 * Converted: the folio is declared in the loop body and the error branch
 * is a single return.
 */
#include <linux/pagemap.h>

int grab_pages(struct inode *inode, struct folio **folios, int count)
{
	int i;

	for (i = 0; i < count; ++i) {
		struct folio *folio = filemap_lock_folio(inode->i_mapping, i);

		if (IS_ERR(folio))
			return PTR_ERR(folio);
		folios[i] = folio;
	}
	return 0;
}
