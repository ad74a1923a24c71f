// SPDX-License-Identifier: GPL-2.0
/*
 * Neither reported nor converted: do-while loops that grab only when a
 * condition holds, step the index by two, or leave the loop other than
 * when the grab fails.
 */
#include <linux/pagemap.h>

static void neg_do_conditional(struct address_space *mapping, pgoff_t index,
			       pgoff_t end, unsigned long *map)
{
	struct folio *folio;

	do {
		if (test_bit(index, map)) {
			folio = filemap_lock_folio(mapping, index);
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
		folio = filemap_lock_folio(mapping, index);
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
		folio = filemap_lock_folio(mapping, index);
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
