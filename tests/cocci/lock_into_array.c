// SPDX-License-Identifier: GPL-2.0
/*
 * Converted: filemap_lock_folio() stored straight into the array; the
 * failed slot still gets the ERR_PTR() before the error branch runs.
 */
#include <linux/pagemap.h>

struct grab_ctx {
	struct address_space *mapping;
	struct folio *folios[16];
	unsigned long nr;
};

static int grab_ctx_fill(struct grab_ctx *ctx, unsigned long first)
{
	unsigned long i;
	int ret = 0;

	for (i = first; i < ctx->nr; i++) {
		ctx->folios[i] = filemap_lock_folio(ctx->mapping, i);
		if (IS_ERR(ctx->folios[i])) {
			ret = PTR_ERR(ctx->folios[i]);
			ctx->folios[i] = NULL;
			goto out;
		}
	}
out:
	ctx->nr = i;
	return ret;
}
