// SPDX-License-Identifier: GPL-2.0
/*
 * Neither reported nor converted: the index steps by two, or is advanced
 * both in the step and in the body (in an expression or as a statement).
 */
#include <linux/pagemap.h>

static int grab_even(struct address_space *mapping, struct folio **folios,
		     int n)
{
	struct folio *folio;
	int i;

	for (i = 0; i < n; i += 2) {
		folio = filemap_lock_folio(mapping, i);
		if (IS_ERR(folio))
			return PTR_ERR(folio);
		folios[i] = folio;
	}
	return 0;
}

static int grab_skip(struct address_space *mapping, struct folio **folios,
		     int n)
{
	struct folio *folio;
	int i;

	for (i = 0; i < n; i++) {
		folio = filemap_lock_folio(mapping, i);
		if (IS_ERR(folio))
			return PTR_ERR(folio);
		folios[i++] = folio;
	}
	return 0;
}

static int grab_step_in_body(struct address_space *mapping,
			     struct folio **folios, int n)
{
	struct folio *folio;
	int i;

	for (i = 0; i < n; i++) {
		folio = filemap_lock_folio(mapping, i);
		if (IS_ERR(folio))
			return PTR_ERR(folio);
		folios[i] = folio;
		i++;
	}
	return 0;
}
