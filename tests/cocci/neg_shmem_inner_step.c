// SPDX-License-Identifier: GPL-2.0
/*
 * Neither reported nor converted: a GEM object read from shmem one folio
 * at a time, the index stepped by an inner loop, as drm_gem_get_pages()
 * did.  Only a single step of the index in the body is recognised.
 */
#include <linux/shmem_fs.h>

struct page **gem_get_pages(struct address_space *mapping, unsigned long npages)
{
	struct page **pages;
	struct folio *folio;
	unsigned long i, j;

	pages = kvmalloc_array(npages, sizeof(*pages), GFP_KERNEL);
	if (!pages)
		return ERR_PTR(-ENOMEM);

	i = 0;
	while (i < npages) {
		unsigned long nr;

		folio = shmem_read_folio_gfp(mapping, i,
				mapping_gfp_mask(mapping));
		if (IS_ERR(folio))
			goto fail;
		nr = min(npages - i, folio_nr_pages(folio));
		for (j = 0; j < nr; j++, i++)
			pages[i] = folio_file_page(folio, i);
	}
	return pages;

fail:
	while (i--)
		put_page(pages[i]);
	kvfree(pages);
	return ERR_CAST(folio);
}
