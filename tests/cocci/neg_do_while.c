// SPDX-License-Identifier: GPL-2.0
/*
 * Negative: do-while loops that must not be reported.  The first grabs
 * only when a condition holds, the second steps its index by two, the
 * third leaves the loop other than when the grab fails, and the fourth
 * grabs in a for loop inside it (the for loop is reported, not the
 * do-while).
 */
#include <linux/pagemap.h>

static void neg_do_conditional(struct address_space *mapping, pgoff_t index,
			       pgoff_t end, unsigned long *map)
{
	struct folio *folio;

	do {
		if (test_bit(index, map)) {
			folio = filemap_grab_folio(mapping, index);
			if (IS_ERR(folio))
				return;
			folio_unlock(folio);
			folio_put(folio);
		}
		index++;
	} while (index < end);
}

static void neg_do_step_two(struct address_space *mapping, pgoff_t index,
			    pgoff_t end)
{
	struct folio *folio;

	do {
		folio = filemap_grab_folio(mapping, index);
		if (IS_ERR(folio))
			return;
		folio_unlock(folio);
		folio_put(folio);
		index += 2;
	} while (index < end);
}

static void neg_do_early_exit(struct address_space *mapping, pgoff_t index,
			      pgoff_t end)
{
	struct folio *folio;

	do {
		folio = filemap_grab_folio(mapping, index);
		if (IS_ERR(folio))
			return;
		if (folio_test_uptodate(folio)) {
			folio_unlock(folio);
			folio_put(folio);
			break;
		}
		folio_unlock(folio);
		folio_put(folio);
		index++;
	} while (index < end);
}

static void neg_do_inner_for(struct address_space *mapping, pgoff_t index,
			     pgoff_t end, struct folio **folios)
{
	pgoff_t i;

	do {
		for (i = 0; i < 4; i++) {
			folios[i] = filemap_grab_folio(mapping, index + i);
			if (IS_ERR(folios[i]))
				return;
		}
		index += 4;
	} while (index < end);
}
