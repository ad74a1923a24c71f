// SPDX-License-Identifier: GPL-2.0
/*
 * Converted although the file enables large folios: the old loop locks
 * every folio it finds and would deadlock on a folio covering two indices
 * of the range, so it already needs one folio per index; under that
 * condition the converted loop stores the same folios.
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
		folio = filemap_lock_folio(inode->i_mapping, i);
		if (IS_ERR(folio))
			return PTR_ERR(folio);
		folios[i] = folio;
	}
	return 0;
}
