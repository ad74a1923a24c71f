// SPDX-License-Identifier: GPL-2.0
/*
 * Positive for report mode only: the rewritable shape, but the file
 * enables large folios, so the one-folio-per-index array may not hold.
 * Reported as a candidate, not rewritten.
 */
#include <linux/pagemap.h>

static void myfs_init_mapping(struct inode *inode)
{
	mapping_set_large_folios(inode->i_mapping);
}

static int myfs_grab(struct inode *inode, struct folio **folios, int n)
{
	struct folio *folio;
	int i;

	for (i = 0; i < n; i++) {
		folio = filemap_grab_folio(inode->i_mapping, i);
		if (IS_ERR(folio))
			return PTR_ERR(folio);
		folios[i] = folio;
	}
	return 0;
}
