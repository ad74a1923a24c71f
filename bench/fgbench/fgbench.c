// SPDX-License-Identifier: GPL-2.0
/*
 * fgbench: page cache and shmem population paths, timed in the kernel.
 *
 * An out-of-tree module built against the base and the patched kernel
 * alike (scripts/bench.sh, BENCH_PROG=fgbench), so that both run the same
 * timing code.  At load it populates an inode of a pseudo filesystem of its
 * own, mib MiB at a time, through:
 *   get-folio-create  __filemap_get_folio(FGP_LOCK | FGP_ACCESSED | FGP_CREAT)
 *                     for every index of a new file: lookup, allocation,
 *                     charge, insertion, LRU (what write_begin does)
 *   add-folio         filemap_add_folio() of folios allocated beforehand
 *                     (what readahead does after allocating)
 *   readahead         page_cache_ra_unbounded() of the file in 2MB
 *                     windows, whose ->readahead() only marks the folios
 *                     up to date: readahead's population without I/O (the
 *                     readahead series changes it)
 *   get-folio-lookup  __filemap_get_folio(FGP_LOCK | FGP_ACCESSED) of the
 *                     folios present (a found folio's FGP handling)
 *   memset            a memset() of a populated kernel buffer of the size:
 *                     no page cache code, the noise of the run
 *   shmem-fallocate   vfs_fallocate() of a new shmem file of the size
 *                     (shmem_file_setup(), as a memfd or a DRM object
 *                     has): shmem's population of holes
 *   shmem-fallocate-again  the same over a file fallocated before
 *                     (untimed): every folio present
 *   memfd-pin         memfd_pin_folios() of a new, empty shmem file, as
 *                     udmabuf pins a memfd: the holes filled, every folio
 *                     pinned (then unpinned, untimed)
 *   drm-gem-pages     drm_gem_get_pages() of a new shmem GEM object of the
 *                     size (drm_gem_object_init()), as a shmem GEM driver
 *                     gets its pages on first use: the holes filled,
 *                     every page in the array (the drm series changes
 *                     it); NA in a kernel without DRM
 *   get-folio-create-oN  get-folio-create with order-N folios (the order
 *                     hint, a mapping that allows them); NA where the
 *                     kernel has no large page cache folios
 * in a kernel that has the batched insertion (FGB_ADD_FOLIOS, set by
 * Kbuild where pagemap.h declares filemap_add_folios()), NA in others:
 *   add-folios        add-folio's folios added by filemap_add_folios(), 31
 *                     at a time
 *   add-folios-1      the same, one at a time: the batch of one against
 *                     add-folio
 *   add-folio-oN, add-folios-oN  add-folio and add-folios with order-N
 *                     folios (NA where the kernel has no large page cache
 *                     folios; add-folio-oN runs in any kernel)
 * in turns (those that paths= names, as popbench's -p, or all), reps
 * samples each after a warm-up, and prints one line per
 * sample in popbench's format, which scripts/bench-report.py reads:
 *   SAMPLE path=NAME rep=N ns=NS bytes=B
 * The module stays loaded, doing nothing, until it is removed; an error
 * fails the load (busybox insmod would then load it a second time through
 * init_module(), so a successful run must not return an error).
 */
#include <drm/drm_device.h>
#include <drm/drm_gem.h>
#include <linux/folio_batch.h>
#include <linux/fs.h>
#include <linux/fs_context.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mount.h>
#include <linux/pagemap.h>
#include <linux/pseudo_fs.h>
#include <linux/shmem_fs.h>
#include <linux/slab.h>
#include <linux/swap.h>
#include <linux/utsname.h>
#include <linux/vmalloc.h>

static unsigned int mib = 256;
module_param(mib, uint, 0444);
static unsigned int reps = 5;
module_param(reps, uint, 0444);
static char *paths;
module_param(paths, charp, 0444);
MODULE_PARM_DESC(paths, "rows to run, as popbench -p: prefixes, comma separated, \".\" ends a whole name");

#define FGB_MAGIC	0x46474221
#define FGB_CREAT	(FGP_LOCK | FGP_ACCESSED | FGP_CREAT)

static int fgb_init_fs_context(struct fs_context *fc)
{
	return init_pseudo(fc, FGB_MAGIC) ? 0 : -ENOMEM;
}

static struct file_system_type fgb_fs_type = {
	.name			= "fgbench",
	.init_fs_context	= fgb_init_fs_context,
	.kill_sb		= kill_anon_super,
};

static unsigned long nr_pages;
static struct folio **spare;
static char *buf;

/* -EOPNOTSUPP: the path is not available in this kernel (NA). */
static int fgb_set_order(struct address_space *mapping, unsigned int order)
{
	if (!order)
		return 0;
	mapping_set_folio_order_range(mapping, 0, order);
	return mapping_max_folio_order(mapping) < order ? -EOPNOTSUPP : 0;
}

static s64 fgb_create_order(struct address_space *mapping, unsigned int order)
{
	fgf_t flags = FGB_CREAT | fgf_set_order(PAGE_SIZE << order);
	unsigned long i;
	u64 t;

	if (fgb_set_order(mapping, order))
		return -EOPNOTSUPP;
	t = ktime_get_ns();
	for (i = 0; i < nr_pages; ) {
		struct folio *folio = __filemap_get_folio(mapping, i, flags,
						mapping_gfp_mask(mapping));

		if (IS_ERR(folio))
			return PTR_ERR(folio);
		if (folio_order(folio) != order) {
			folio_unlock(folio);
			folio_put(folio);
			return -EAGAIN;		/* not the order asked for */
		}
		i = folio_next_index(folio);
		folio_unlock(folio);
		folio_put(folio);
	}
	return ktime_get_ns() - t;
}

static s64 fgb_create(struct address_space *mapping)
{
	return fgb_create_order(mapping, 0);
}

static s64 fgb_create_o2(struct address_space *mapping)
{
	return fgb_create_order(mapping, 2);
}

static s64 fgb_create_o4(struct address_space *mapping)
{
	return fgb_create_order(mapping, 4);
}

static s64 fgb_create_o9(struct address_space *mapping)
{
	return fgb_create_order(mapping, 9);
}

static s64 __maybe_unused fgb_na(struct address_space *mapping)
{
	return -EOPNOTSUPP;
}

/* Order-@order folios for the whole file, in spare[]: how many, or 0. */
static unsigned long fgb_alloc_spare(struct address_space *mapping,
				     unsigned int order)
{
	unsigned long i, nr = nr_pages >> order;

	for (i = 0; i < nr; i++) {
		spare[i] = filemap_alloc_folio(mapping_gfp_mask(mapping) |
					       __GFP_NOWARN, order, NULL);
		if (!spare[i]) {
			while (i--)
				folio_put(spare[i]);
			return 0;
		}
	}
	return nr;
}

/* filemap_add_folio() of each of spare[]'s folios, one at a time */
static s64 fgb_add_order(struct address_space *mapping, unsigned int order)
{
	unsigned long i, nr;
	u64 t;

	if (fgb_set_order(mapping, order))
		return -EOPNOTSUPP;
	nr = fgb_alloc_spare(mapping, order);
	if (!nr)
		return -ENOMEM;
	t = ktime_get_ns();
	for (i = 0; i < nr; i++) {
		int err = filemap_add_folio(mapping, spare[i], i << order,
					    mapping_gfp_mask(mapping));

		if (err) {
			for (; i < nr; i++)
				folio_put(spare[i]);
			return err;
		}
		folio_unlock(spare[i]);
		folio_put(spare[i]);
	}
	return ktime_get_ns() - t;
}

static s64 fgb_add(struct address_space *mapping)
{
	return fgb_add_order(mapping, 0);
}

static s64 fgb_add_o2(struct address_space *mapping)
{
	return fgb_add_order(mapping, 2);
}

static s64 fgb_add_o4(struct address_space *mapping)
{
	return fgb_add_order(mapping, 4);
}

static s64 fgb_add_o9(struct address_space *mapping)
{
	return fgb_add_order(mapping, 9);
}

#ifdef FGB_ADD_FOLIOS
/*
 * The same folios added @batch at a time by filemap_add_folios(): one hold
 * of the i_pages lock per call.
 */
static s64 fgb_add_folios_order(struct address_space *mapping,
				unsigned int order, unsigned int batch)
{
	unsigned long i, j, n, nr;
	u64 t;

	if (fgb_set_order(mapping, order))
		return -EOPNOTSUPP;
	nr = fgb_alloc_spare(mapping, order);
	if (!nr)
		return -ENOMEM;
	t = ktime_get_ns();
	for (i = 0; i < nr; i += n) {
		unsigned int added;

		n = min_t(unsigned long, batch, nr - i);
		added = filemap_add_folios(mapping, &spare[i], n, i << order,
					   mapping_gfp_mask(mapping));
		for (j = i; j < i + added; j++) {
			folio_unlock(spare[j]);
			folio_put(spare[j]);
		}
		if (added < n) {
			for (j = i + added; j < nr; j++)
				folio_put(spare[j]);
			return -EIO;
		}
	}
	return ktime_get_ns() - t;
}

static s64 fgb_add_folios(struct address_space *mapping)
{
	return fgb_add_folios_order(mapping, 0, FOLIO_BATCH_SIZE);
}

static s64 fgb_add_folios_1(struct address_space *mapping)
{
	return fgb_add_folios_order(mapping, 0, 1);
}

static s64 fgb_add_folios_o2(struct address_space *mapping)
{
	return fgb_add_folios_order(mapping, 2, FOLIO_BATCH_SIZE);
}

static s64 fgb_add_folios_o4(struct address_space *mapping)
{
	return fgb_add_folios_order(mapping, 4, FOLIO_BATCH_SIZE);
}

static s64 fgb_add_folios_o9(struct address_space *mapping)
{
	return fgb_add_folios_order(mapping, 9, FOLIO_BATCH_SIZE);
}
#else
#define fgb_add_folios		fgb_na
#define fgb_add_folios_1	fgb_na
#define fgb_add_folios_o2	fgb_na
#define fgb_add_folios_o4	fgb_na
#define fgb_add_folios_o9	fgb_na
#endif

static s64 fgb_lookup(struct address_space *mapping)
{
	s64 made = fgb_create(mapping);
	unsigned long i;
	u64 t;

	if (made < 0)
		return made;
	t = ktime_get_ns();
	for (i = 0; i < nr_pages; i++) {
		struct folio *folio = __filemap_get_folio(mapping, i,
					FGP_LOCK | FGP_ACCESSED, 0);

		if (IS_ERR(folio))
			return PTR_ERR(folio);
		folio_unlock(folio);
		folio_put(folio);
	}
	return ktime_get_ns() - t;
}

static void fgb_readahead_io(struct readahead_control *rac)
{
	struct folio *folio;

	while ((folio = readahead_folio(rac))) {
		folio_mark_uptodate(folio);
		folio_unlock(folio);
	}
}

static const struct address_space_operations fgb_ra_aops = {
	.readahead	= fgb_readahead_io,
	.dirty_folio	= noop_dirty_folio,
};

/*
 * Readahead of the whole file in 2MB windows, as force_page_cache_ra()
 * makes them, by page_cache_ra_unbounded(): order-0 folios allocated and
 * added to the page cache, then "read" by a ->readahead() that only marks
 * them up to date: the population readahead does, without I/O.
 */
static s64 fgb_readahead(struct address_space *mapping)
{
	unsigned long i, chunk = SZ_2M >> PAGE_SHIFT;
	u64 t;

	mapping->a_ops = &fgb_ra_aops;
	i_size_write(mapping->host, (loff_t)nr_pages << PAGE_SHIFT);
	t = ktime_get_ns();
	for (i = 0; i < nr_pages; i += chunk) {
		DEFINE_READAHEAD(ractl, NULL, NULL, mapping, i);

		filemap_invalidate_lock_shared(mapping);
		page_cache_ra_unbounded(&ractl, min(chunk, nr_pages - i), 0);
		filemap_invalidate_unlock_shared(mapping);
	}
	t = ktime_get_ns() - t;
	return mapping->nrpages == nr_pages ? t : -EIO;
}

/* A new shmem file of the size, as a memfd has (no accounting to commit). */
static struct file *fgb_shmem_file(void)
{
	return shmem_file_setup("fgbench", (loff_t)nr_pages << PAGE_SHIFT,
				mk_vma_flags(VMA_NORESERVE_BIT));
}

/*
 * Its pages are freed at once: the last fput() of a file opened in a
 * module's init is deferred until insmod returns.
 */
static void fgb_shmem_put(struct file *file)
{
	shmem_truncate_range(file_inode(file), 0, (loff_t)-1);
	fput(file);
}

static s64 fgb_shmem_fallocate_again(bool again)
{
	struct file *file = fgb_shmem_file();
	loff_t size = (loff_t)nr_pages << PAGE_SHIFT;
	int err = 0;
	u64 t;

	if (IS_ERR(file))
		return PTR_ERR(file);
	if (again)
		err = vfs_fallocate(file, 0, 0, size);
	t = ktime_get_ns();
	if (!err)
		err = vfs_fallocate(file, 0, 0, size);
	t = ktime_get_ns() - t;
	fgb_shmem_put(file);
	return err ? err : t;
}

static s64 fgb_shmem_fallocate(struct address_space *mapping)
{
	return fgb_shmem_fallocate_again(false);
}

static s64 fgb_shmem_fallocate2(struct address_space *mapping)
{
	return fgb_shmem_fallocate_again(true);
}

/* The fixes series adds memfd_pin_folios()'s @last (FGB_PIN_LAST). */
static s64 fgb_memfd_pin(struct address_space *mapping)
{
	struct file *file = fgb_shmem_file();
	loff_t end = ((loff_t)nr_pages << PAGE_SHIFT) - 1;
	pgoff_t offset;
	long nr;
	u64 t;

	if (IS_ERR(file))
		return PTR_ERR(file);
	t = ktime_get_ns();
#ifdef FGB_PIN_LAST
	{
		loff_t last;

		nr = memfd_pin_folios(file, 0, end, spare, nr_pages, &offset,
				      &last);
	}
#else
	nr = memfd_pin_folios(file, 0, end, spare, nr_pages, &offset);
#endif
	t = ktime_get_ns() - t;
	if (nr > 0)
		unpin_folios(spare, nr);
	fgb_shmem_put(file);
	if (nr < 0)
		return nr;
	return nr == nr_pages ? t : -EIO;	/* order 0: a folio per page */
}

/*
 * drm_gem_get_pages() of a new GEM object: a shmem file made by
 * drm_gem_object_init(), as vgem, vkms or any driver on the shmem GEM
 * helpers has it.  No device is registered: the object stores the zeroed
 * one and reads its huge_mnt (none, so the file is on shm_mnt), which is
 * all these calls do with it; drm_gem_object_release() would also use its
 * vma_offset_manager, so the object is taken apart by hand.
 */
static s64 fgb_drm_gem_pages(struct address_space *mapping)
{
#if IS_BUILTIN(CONFIG_DRM)
	struct drm_device *dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	struct drm_gem_object *obj = kzalloc(sizeof(*obj), GFP_KERNEL);
	struct page **pages;
	s64 ret;
	u64 t;

	if (!dev || !obj) {
		kfree(obj);
		kfree(dev);
		return -ENOMEM;
	}
	ret = drm_gem_object_init(dev, obj, nr_pages << PAGE_SHIFT);
	if (ret) {
		drm_gem_private_object_fini(obj);
		kfree(obj);
		kfree(dev);
		return ret;
	}
	t = ktime_get_ns();
	pages = drm_gem_get_pages(obj);
	t = ktime_get_ns() - t;
	ret = PTR_ERR_OR_ZERO(pages);
	if (!ret)
		drm_gem_put_pages(obj, pages, false, false);
	fgb_shmem_put(obj->filp);
	drm_gem_private_object_fini(obj);
	kfree(obj);
	kfree(dev);
	return ret ? ret : t;
#else
	return -EOPNOTSUPP;
#endif
}

static s64 fgb_memset(struct address_space *mapping)
{
	u64 t = ktime_get_ns();

	memset(buf, 0x5a, nr_pages << PAGE_SHIFT);
	return ktime_get_ns() - t;
}

static const struct {
	const char *name;
	s64 (*run)(struct address_space *mapping);
} fgb_paths[] = {
	{ "memset", fgb_memset },
	{ "get-folio-create", fgb_create },
	{ "add-folio", fgb_add },
	{ "add-folios", fgb_add_folios },
	{ "readahead", fgb_readahead },
	{ "shmem-fallocate", fgb_shmem_fallocate },
	{ "shmem-fallocate-again", fgb_shmem_fallocate2 },
	{ "memfd-pin", fgb_memfd_pin },
	{ "drm-gem-pages", fgb_drm_gem_pages },
	{ "get-folio-lookup", fgb_lookup },
	{ "get-folio-create-o2", fgb_create_o2 },
	{ "get-folio-create-o4", fgb_create_o4 },
	{ "get-folio-create-o9", fgb_create_o9 },
	{ "add-folios-1", fgb_add_folios_1 },
	{ "add-folio-o2", fgb_add_o2 },
	{ "add-folios-o2", fgb_add_folios_o2 },
	{ "add-folio-o4", fgb_add_o4 },
	{ "add-folios-o4", fgb_add_folios_o4 },
	{ "add-folio-o9", fgb_add_o9 },
	{ "add-folios-o9", fgb_add_folios_o9 },
};

/* popbench's -p: is @name one of @paths (all if none is given)? */
static bool fgb_selected(const char *name)
{
	const char *p = paths;

	if (!p || !*p)
		return true;
	while (*p) {
		size_t len = strcspn(p, ",");

		if (len && p[len - 1] == '.') {
			if (strlen(name) == len - 1 && !strncmp(name, p, len - 1))
				return true;
		} else if (len && !strncmp(name, p, len)) {
			return true;
		}
		p += len;
		if (*p)
			p++;
	}
	return false;
}

static int __init fgbench_init(void)
{
	struct vfsmount *mnt;
	unsigned int rep, i;
	int err = 0;

	nr_pages = (unsigned long)mib << (20 - PAGE_SHIFT);
	spare = kvmalloc_array(nr_pages, sizeof(*spare), GFP_KERNEL);
	buf = vmalloc(nr_pages << PAGE_SHIFT);
	mnt = kern_mount(&fgb_fs_type);
	if (!spare || !buf || IS_ERR(mnt)) {
		err = -ENOMEM;
		goto out;
	}
	memset(buf, 0, nr_pages << PAGE_SHIFT);
	pr_info("POPBENCH release=%s version=fgbench mib=%u reps=%u warmup=1\n",
		init_utsname()->release, mib, reps);

	for (rep = 0; rep <= reps && !err; rep++) {
		for (i = 0; i < ARRAY_SIZE(fgb_paths); i++) {
			struct inode *inode;
			s64 ns;

			if (!fgb_selected(fgb_paths[i].name))
				continue;
			inode = alloc_anon_inode(mnt->mnt_sb);
			if (IS_ERR(inode)) {
				err = PTR_ERR(inode);
				break;
			}
			ns = fgb_paths[i].run(inode->i_mapping);
			truncate_inode_pages_final(inode->i_mapping);
			iput(inode);
			if (ns == -EOPNOTSUPP) {
				if (!rep)
					pr_info("NA path=%s reason=not in this kernel\n",
						fgb_paths[i].name);
				continue;
			}
			if (ns < 0) {
				pr_info("ERROR path=%s reason=errno_%lld\n",
					fgb_paths[i].name, -ns);
				err = ns;
				break;
			}
			pr_info("%s path=%s rep=%u ns=%lld bytes=%lu\n",
				rep ? "SAMPLE" : "WARMUP", fgb_paths[i].name,
				rep ? rep : 1, ns, nr_pages << PAGE_SHIFT);
			cond_resched();
		}
	}
	pr_info("POPBENCH-DONE errors=%d\n", err ? 1 : 0);
out:
	if (!IS_ERR_OR_NULL(mnt))
		kern_unmount(mnt);
	vfree(buf);
	kvfree(spare);
	return err;
}
module_init(fgbench_init);

static void __exit fgbench_exit(void)
{
}
module_exit(fgbench_exit);

MODULE_DESCRIPTION("Page cache and shmem population paths, timed in the kernel");
MODULE_LICENSE("GPL");
