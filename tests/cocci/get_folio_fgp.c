// SPDX-License-Identifier: GPL-2.0
/*
 * Reported, not converted: __filemap_get_folio() with FGP_LOCK |
 * FGP_ACCESSED | FGP_CREAT stored straight into the array, as ocfs2 does;
 * it creates the folios of the holes.
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
		ctx->folios[i] = __filemap_get_folio(ctx->mapping, i,
				FGP_ACCESSED | FGP_LOCK | FGP_CREAT, GFP_NOFS);
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
