// SPDX-License-Identifier: GPL-2.0
/*
 * drm_gem_get_pages() through vgem and vkms, DRM drivers on the shmem GEM
 * helpers (vgem maps write-combined, vkms does not): mmap() of a dumb
 * buffer pins the object's pages into its page array, and the mapping's
 * faults insert exactly those pages. So what the mapping shows is what
 * drm_gem_get_pages() put at each index; for each driver:
 *
 * - a new buffer reads as zeroes, and the shmem pages it holds (NR_SHMEM,
 *   folded with vm.stat_refresh) are its size, no more; they are freed
 *   with the buffer;
 * - a pattern written through one mapping reads back through a second,
 *   whose pages drm_gem_get_pages() found present; sizes that end inside
 *   a batch (1, 15, 17, 31, 33, 257 pages) and a large buffer;
 * - with large folios (shmem_enabled=always, and within_size, which
 *   allows them up to the object's size) the same, the buffer made of
 *   PMD-sized folios.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <drm/drm_mode.h>
#include <sys/mman.h>
#include "ws.h"

#define PAGE		4096UL
#define PMD		(2UL << 20)

static int dev = -1;
static long huge_mapped;	/* ShmemHugePages: while the last buffer was mapped */

static const char *drv;

/* Shmem: of /proc/meminfo in bytes, the per-cpu counters folded first. */
static long shmem_bytes(void)
{
	put("/proc/sys/vm/stat_refresh", "1");
	return get("/proc/meminfo", "Shmem:") * 1024;
}

static unsigned long mark(unsigned long i)
{
	return 0xa5a50000UL + i + 1;
}

/* The first page of [0, size) that is not as expected, or -1. */
static long first_bad(const char *p, unsigned long size, int zero)
{
	unsigned long i, j;

	for (i = 0; i < size; i += PAGE) {
		const unsigned long *w = (const unsigned long *)(p + i);

		if (w[0] != (zero ? 0 : mark(i / PAGE)))
			return i / PAGE;
		for (j = 1; j < PAGE / sizeof(*w); j++)
			if (w[j])
				return i / PAGE;
	}
	return -1;
}

/*
 * A buffer of @pages pages: zeroes at the first mmap(), the pattern
 * written then read through a second mmap(), its shmem pages counted:
 * exactly its size, or with @large at least its size (a PMD-sized folio
 * may cross the end of the object).
 */
static void test_size(unsigned long pages, int large, const char *what)
{
	struct drm_mode_create_dumb create = {
		.width = 1024, .height = pages, .bpp = 32,
	};
	struct drm_mode_map_dumb mreq = { 0 };
	struct drm_mode_destroy_dumb dreq = { 0 };
	unsigned long size = pages * PAGE, i;
	long before = shmem_bytes(), bad;
	char *p;

	if (ioctl(dev, DRM_IOCTL_MODE_CREATE_DUMB, &create)) {
		check(0, "%s: DRM_IOCTL_MODE_CREATE_DUMB: %s", what, strerror(errno));
		return;
	}
	dreq.handle = mreq.handle = create.handle;
	if (create.size != size ||
	    ioctl(dev, DRM_IOCTL_MODE_MAP_DUMB, &mreq)) {
		check(0, "%s: size %llu, DRM_IOCTL_MODE_MAP_DUMB: %s", what,
		      (unsigned long long)create.size, strerror(errno));
		goto out;
	}

	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, dev, mreq.offset);
	if (p == MAP_FAILED) {
		check(0, "%s: mmap: %s", what, strerror(errno));
		goto out;
	}
	bad = shmem_bytes() - before;
	huge_mapped = get("/proc/meminfo", "ShmemHugePages:");
	check(large ? bad >= (long)size : bad == (long)size,
	      "%s: the pinned buffer holds its size in shmem pages (%ld of %lu)",
	      what, bad, size);
	bad = first_bad(p, size, 1);
	check(bad < 0, "%s: new pages read as zeroes (first bad page %ld)",
	      what, bad);
	for (i = 0; i < size; i += PAGE)
		*(unsigned long *)(p + i) = mark(i / PAGE);
	munmap(p, size);

	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, dev, mreq.offset);
	if (p == MAP_FAILED) {
		check(0, "%s: second mmap: %s", what, strerror(errno));
		goto out;
	}
	bad = first_bad(p, size, 0);
	check(bad < 0, "%s: the second mapping reads the pattern (first bad page %ld)",
	      what, bad);
	munmap(p, size);
out:
	ioctl(dev, DRM_IOCTL_MODE_DESTROY_DUMB, &dreq);
	check(shmem_bytes() == before, "%s: shmem pages back to where they were",
	      what);
}

static void test_sizes(void)
{
	static const unsigned long sizes[] = { 1, 15, 17, 31, 33, 257, 4096 };
	char what[48];
	unsigned int i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		snprintf(what, sizeof(what), "%s, %lu pages", drv, sizes[i]);
		test_size(sizes[i], 0, what);
	}
}

static void test_large(const char *choice)
{
	const char *knob = "/sys/kernel/mm/transparent_hugepage/shmem_enabled";
	char old[32], what[64];
	long huge0;

	if (set_choice(knob, choice, old, sizeof(old))) {
		printf("# large: cannot set %s to %s: skipped\n", knob, choice);
		return;
	}
	huge0 = get("/proc/meminfo", "ShmemHugePages:");
	snprintf(what, sizeof(what), "%s, %s, 8 MiB + 3 pages", drv, choice);
	test_size(4 * PMD / PAGE + 3, 1, what);
	check((huge_mapped - huge0) * 1024 >= (long)(4 * PMD),
	      "%s: %s: the buffer was made of PMD-sized folios (%ld kB)", drv,
	      choice, huge_mapped - huge0);
	check(get("/proc/meminfo", "ShmemHugePages:") == huge0,
	      "%s: %s: PMD-sized folios freed with the buffer", drv, choice);
	put(knob, old);
}

int main(void)
{
	static const char *const drivers[] = { "vgem", "vkms" };
	unsigned int i, found = 0;

	for (i = 0; i < 2; i++) {
		drv = drivers[i];
		dev = drm_open(drv);
		if (dev < 0) {
			printf("# no %s DRM device\n", drv);
			continue;
		}
		found++;
		test_sizes();
		test_large("always");
		test_large("within_size");
		close(dev);
	}
	if (!found)
		return 4;
	printf("# %d checks, %d failed\n", n, failed);
	return failed ? 1 : 0;
}
