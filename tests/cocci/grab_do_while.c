// SPDX-License-Identifier: GPL-2.0
/*
 * Reported, not converted: a do-while loop over consecutive folios, the
 * index taken from the folio found, as in ocfs2_grab_folios().
 */
#include <linux/pagemap.h>

static int grab_do_while(struct address_space *mapping, loff_t start,
			 loff_t end, struct folio **folios, int *num)
{
	pgoff_t index = start >> PAGE_SHIFT;
	int nr = 0, ret = 0;

	do {
		folios[nr] = __filemap_get_folio(mapping, index,
				FGP_LOCK | FGP_ACCESSED | FGP_CREAT, GFP_NOFS);
		if (IS_ERR(folios[nr])) {
			ret = PTR_ERR(folios[nr]);
			folios[nr] = NULL;
			goto out;
		}
		/* a comment with a brace { and a "string }" */
		index = folio_next_index(folios[nr]);
		nr++;
	} while (index < (PAGE_ALIGN(end) >> PAGE_SHIFT));
out:
	*num = nr;
	return ret;
}
