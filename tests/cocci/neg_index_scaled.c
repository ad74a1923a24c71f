// SPDX-License-Identifier: GPL-2.0
/*
 * Neither reported nor converted: index arithmetic that does not step by one (a stride, a
 * shift, an offset that moves in the loop).  Neither reported nor
 * rewritten.
 */
#include <linux/pagemap.h>

static int grab_strided(struct address_space *mapping, struct folio **folios,
			int n, int stride)
{
	struct folio *folio;
	int i;

	for (i = 0; i < n; i++) {
		folio = filemap_lock_folio(mapping, i * stride);
		if (IS_ERR(folio))
			return PTR_ERR(folio);
		folios[i] = folio;
	}
	return 0;
}

static int grab_shifted(struct address_space *mapping, struct folio **folios,
			int n)
{
	struct folio *folio;
	int i;

	for (i = 0; i < n; i++) {
		folio = __filemap_get_folio(mapping, i << 1,
					    FGP_LOCK | FGP_ACCESSED | FGP_CREAT,
					    GFP_KERNEL);
		if (IS_ERR(folio))
			return PTR_ERR(folio);
		folios[i] = folio;
	}
	return 0;
}

static int grab_drifting(struct address_space *mapping, struct folio **folios,
			 pgoff_t base, int n)
{
	struct folio *folio;
	int i;

	for (i = 0; i < n; i++) {
		folio = filemap_lock_folio(mapping, base + i);
		if (IS_ERR(folio))
			return PTR_ERR(folio);
		folios[i] = folio;
		base++;
	}
	return 0;
}
