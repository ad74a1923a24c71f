// SPDX-License-Identifier: GPL-2.0
/*
 * Neither reported nor converted: each iteration unlocks its folio and then writes it out, or
 * takes the lock of another folio of the mapping, or throttles on dirty
 * pages.  With the folios of the following indices already grabbed and
 * locked by a batch, the writeback or the lock would wait for them.
 * Neither reported nor rewritten.
 */
#include <linux/pagemap.h>
#include <linux/writeback.h>

static int fill_and_flush(struct address_space *mapping, const char *buf,
			  pgoff_t nr)
{
	pgoff_t i;
	int err = 0;

	for (i = 0; i < nr; i++) {
		struct folio *folio = filemap_lock_folio(mapping, i);

		if (IS_ERR(folio))
			return PTR_ERR(folio);
		memcpy_to_folio(folio, 0, buf + i * PAGE_SIZE, PAGE_SIZE);
		folio_mark_uptodate(folio);
		folio_mark_dirty(folio);
		folio_unlock(folio);
		folio_put(folio);
		err = err ?: filemap_write_and_wait_range(mapping,
					i << PAGE_SHIFT,
					((i + 1) << PAGE_SHIFT) - 1);
	}
	return err;
}

static int copy_neighbour(struct address_space *mapping, pgoff_t nr)
{
	pgoff_t i;

	for (i = 1; i < nr; i++) {
		struct folio *folio = filemap_lock_folio(mapping, i);
		struct folio *prev;

		if (IS_ERR(folio))
			return PTR_ERR(folio);
		folio_unlock(folio);
		prev = filemap_lock_folio(mapping, i - 1);
		if (!IS_ERR(prev)) {
			folio_copy(folio, prev);
			folio_unlock(prev);
			folio_put(prev);
		}
		folio_put(folio);
	}
	return 0;
}

static int fill_throttled(struct address_space *mapping, pgoff_t nr)
{
	pgoff_t i;

	for (i = 0; i < nr; i++) {
		struct folio *folio = filemap_lock_folio(mapping, i);

		if (IS_ERR(folio))
			return PTR_ERR(folio);
		folio_zero_range(folio, 0, folio_size(folio));
		folio_mark_uptodate(folio);
		folio_mark_dirty(folio);
		folio_unlock(folio);
		folio_put(folio);
		balance_dirty_pages_ratelimited(mapping);
	}
	return 0;
}
