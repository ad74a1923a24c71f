// SPDX-License-Identifier: GPL-2.0
/*
 * Reported as a shmem read candidate: pages read from shmem one index at a
 * time, as i915 and lima do.  filemap_lock_folios() neither creates, reads
 * nor swaps in, so nothing is converted.
 */
#include <linux/shmem_fs.h>

static int shmem_pin_pages(struct address_space *mapping, struct page **pages,
			   unsigned long npages)
{
	struct page *page;
	unsigned long i;

	for (i = 0; i < npages; i++) {
		page = shmem_read_mapping_page(mapping, i);
		if (IS_ERR(page))
			goto err;
		pages[i] = page;
	}
	return 0;
err:
	while (i--)
		put_page(pages[i]);
	return PTR_ERR(page);
}
