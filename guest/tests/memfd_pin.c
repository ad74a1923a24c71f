// SPDX-License-Identifier: GPL-2.0
/*
 * memfd_pin_folios() through UDMABUF_CREATE, checked through the dma-buf's
 * own mapping: what udmabuf pinned must read as what the memfd holds.
 *
 * - an empty memfd: every page is created, zeroed, and counted in st_blocks;
 * - a fallocated memfd: the pin zeroes what fallocate() left uninitialized;
 * - a memfd whose every other 256 KiB was written: present folios and holes
 *   in turn;
 * - a memfd swapped out with MADV_PAGEOUT (the guest swaps to zram): the
 *   pinning swaps it back in, contents intact;
 * - large folios (shmem_enabled=always): a range that starts and ends
 *   inside a PMD-sized folio, on a written and on an empty memfd;
 * - a hugetlbfs memfd, empty and half written;
 * - placement: with ZONE_MOVABLE (make test boots the guest with
 *   movablecore=), no folio that the pin allocates lies in it, and one that
 *   was there is migrated out of it before it is pinned; a memfd that is
 *   only written, the control, has its folios there.  The checks prefer
 *   the nodes that have a ZONE_MOVABLE: a zonelist is ordered by node
 *   first, so a task on a node without one (numa=fake=2 puts it on the
 *   last node only) would never be offered it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <linux/mempolicy.h>
#include <linux/udmabuf.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include "ws.h"

#define SIZE		(8UL << 20)
#define CHUNK		(256UL << 10)
#define PAGE		4096UL
#define PMD		(2UL << 20)

static int dev = -1;

/* The word that page @i of a written memfd starts with. */
static unsigned long mark(unsigned long i)
{
	return 0x5a5a0000UL + i + 1;
}

static int memfd(unsigned int flags, unsigned long size)
{
	int fd = memfd_create("memfd_pin", MFD_ALLOW_SEALING | flags);

	if (fd < 0)
		return -1;
	if (ftruncate(fd, size) || fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Write the mark of every page of [off, off + len) through a mapping. */
static int write_marks(int fd, unsigned long off, unsigned long len)
{
	unsigned long i;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off);

	if (p == MAP_FAILED)
		return -1;
	for (i = 0; i < len; i += PAGE)
		*(unsigned long *)(p + i) = mark((off + i) / PAGE);
	munmap(p, len);
	return 0;
}

/*
 * UDMABUF_CREATE over [off, off + len) of @fd; then every page of the
 * dma-buf must start with written(page) ? mark(page) : 0, and be zero past
 * its first word.  Returns the number of pages that did not.
 */
static long pin_and_check(int fd, unsigned long off, unsigned long len,
		int (*written)(unsigned long page), const char *what)
{
	struct udmabuf_create c = {
		.memfd = fd, .flags = UDMABUF_FLAGS_CLOEXEC,
		.offset = off, .size = len,
	};
	unsigned long i, bad = 0;
	int buf = ioctl(dev, UDMABUF_CREATE, &c);
	char *p;

	if (buf < 0) {
		check(0, "%s: UDMABUF_CREATE: %s", what, strerror(errno));
		return -1;
	}
	p = mmap(NULL, len, PROT_READ, MAP_SHARED, buf, 0);
	if (p == MAP_FAILED) {
		check(0, "%s: mmap of the dma-buf: %s", what, strerror(errno));
		close(buf);
		return -1;
	}
	for (i = 0; i < len; i += PAGE) {
		unsigned long page = (off + i) / PAGE;
		unsigned long want = written(page) ? mark(page) : 0;
		unsigned long *w = (unsigned long *)(p + i);

		if (w[0] != want || w[PAGE / sizeof(*w) - 1] != 0)
			bad++;
	}
	check(!bad, "%s: %lu of %lu pages read back right", what,
	      len / PAGE - bad, len / PAGE);
	munmap(p, len);
	close(buf);
	return bad;
}

static int none(unsigned long page)
{
	return 0;
}

static int all(unsigned long page)
{
	return 1;
}

static int even_chunks(unsigned long page)
{
	return !((page * PAGE / CHUNK) & 1);
}

static int even_pmds(unsigned long page)
{
	return !((page * PAGE / PMD) & 1);
}

static void test_empty(void)
{
	int fd = memfd(0, SIZE);
	struct stat st;

	if (fd < 0) {
		check(0, "empty: memfd: %s", strerror(errno));
		return;
	}
	pin_and_check(fd, 0, SIZE, none, "empty");
	if (fstat(fd, &st))
		st.st_blocks = -1;
	check(st.st_blocks * 512 == (long)SIZE, "empty: st_blocks %ld for %lu bytes",
	      (long)st.st_blocks, SIZE);
	close(fd);
}

/*
 * fallocate() leaves its folios not up to date and not zeroed; the pin
 * must zero them, as a fault or read() would, before udmabuf maps them.
 */
static void test_fallocated(void)
{
	int fd = memfd(0, SIZE);

	if (fd < 0 || fallocate(fd, 0, 0, SIZE)) {
		check(0, "fallocated: memfd/fallocate: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	pin_and_check(fd, 0, SIZE, none, "fallocated");
	close(fd);
}

static void test_half(void)
{
	int fd = memfd(0, SIZE);
	unsigned long off;

	if (fd < 0) {
		check(0, "half: memfd: %s", strerror(errno));
		return;
	}
	for (off = 0; off < SIZE; off += 2 * CHUNK)
		write_marks(fd, off, CHUNK);
	pin_and_check(fd, 0, SIZE, even_chunks, "half");
	close(fd);
}

static void test_swapped(void)
{
	int fd = memfd(0, SIZE);
	long out;
	char *p;

	if (fd < 0) {
		check(0, "swapped: memfd: %s", strerror(errno));
		return;
	}
	p = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p != MAP_FAILED)
		for (unsigned long i = 0; i < SIZE; i += PAGE)
			*(unsigned long *)(p + i) = mark(i / PAGE);
	out = p == MAP_FAILED ? -1 : page_out(p, SIZE);
	if (out < 0) {
		check(0, "swapped: MADV_PAGEOUT: %s", strerror(errno));
		if (p != MAP_FAILED)
			munmap(p, SIZE);
		close(fd);
		return;
	}
	if (out == 0) {
		printf("# swapped: nothing swapped out (no swap?): skipped\n");
	} else {
		printf("# swapped: %ld of %lu pages swapped out\n", out,
		       SIZE / PAGE);
		pin_and_check(fd, 0, SIZE, all, "swapped");
		check(not_resident(p, SIZE) == 0,
		      "swapped: all pages back in memory");
	}
	munmap(p, SIZE);
	close(fd);
}

static void test_large(void)
{
	const char *knob = "/sys/kernel/mm/transparent_hugepage/shmem_enabled";
	long huge0 = get("/proc/meminfo", "ShmemHugePages:");
	char old[32];
	int fd;

	if (set_choice(knob, "always", old, sizeof(old))) {
		printf("# large: cannot set %s: skipped\n", knob);
		return;
	}

	fd = memfd(0, 2 * PMD);
	if (fd >= 0) {
		write_marks(fd, 0, 2 * PMD);
		check(get("/proc/meminfo", "ShmemHugePages:") > huge0,
		      "large: the written memfd has PMD-sized folios");
		pin_and_check(fd, 3 * PAGE, PMD, all, "large, mid-folio");
		close(fd);
	}
	fd = memfd(0, 2 * PMD);
	if (fd >= 0) {
		pin_and_check(fd, PMD / 2, PMD, none, "large, empty, mid-folio");
		close(fd);
	}
	put(knob, old);
}

static void test_hugetlb(void)
{
	unsigned long size = 4 * PMD, off;
	int fd = memfd(MFD_HUGETLB, size);

	if (fd < 0) {
		printf("# hugetlb: no MFD_HUGETLB memfd (%s): skipped\n",
		       strerror(errno));
		return;
	}
	pin_and_check(fd, 0, size, none, "hugetlb, empty");
	close(fd);
	fd = memfd(MFD_HUGETLB, size);
	if (fd < 0)
		return;
	for (off = 0; off < size; off += 2 * PMD)
		write_marks(fd, off, PMD);
	pin_and_check(fd, 0, size, even_pmds, "hugetlb, half");
	close(fd);
}

/* The PFN ranges of ZONE_MOVABLE, from /proc/zoneinfo. */
static struct { unsigned long start, end; int node; } movable[8];
static int nr_movable;

static void find_movable(void)
{
	unsigned long v, spanned = 0;
	char line[256];
	int in = 0, node = 0;
	FILE *f = fopen("/proc/zoneinfo", "r");

	while (f && fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "Node", 4)) {
			in = strstr(line, "zone") && strstr(line, "Movable") &&
			     sscanf(line, "Node %d", &node) == 1;
			spanned = 0;
		} else if (in && sscanf(line, " spanned %lu", &v) == 1) {
			spanned = v;
		} else if (in && sscanf(line, " start_pfn: %lu", &v) == 1 &&
			   spanned && nr_movable < 8) {
			movable[nr_movable].node = node;
			movable[nr_movable].start = v;
			movable[nr_movable++].end = v + spanned;
		}
	}
	if (f)
		fclose(f);
}

/*
 * Pages of [0, len) of @fd, all present, that lie in ZONE_MOVABLE, per
 * /proc/self/pagemap of a mapping of it; -1 if a PFN cannot be read.
 */
static long in_movable(int fd, unsigned long len)
{
	char *p = mmap(NULL, len, PROT_READ, MAP_SHARED | MAP_POPULATE, fd, 0);
	int pm = open("/proc/self/pagemap", O_RDONLY);
	unsigned long i;
	long hits = 0;
	uint64_t e;
	int z;

	for (i = 0; p != MAP_FAILED && pm >= 0 && i < len; i += PAGE) {
		if (pread(pm, &e, sizeof(e),
			  ((uintptr_t)p + i) / PAGE * sizeof(e)) != sizeof(e) ||
		    !(e >> 63) || !(e & ((1ULL << 55) - 1))) {
			hits = -1;
			break;
		}
		e &= (1ULL << 55) - 1;
		for (z = 0; z < nr_movable; z++)
			hits += e >= movable[z].start && e < movable[z].end;
	}
	if (p != MAP_FAILED)
		munmap(p, len);
	if (pm >= 0)
		close(pm);
	return p == MAP_FAILED || pm < 0 ? -1 : hits;
}

static void test_placement(void)
{
	struct udmabuf_create c = { .flags = UDMABUF_FLAGS_CLOEXEC, .size = SIZE };
	long hugepages = get("/proc/sys/vm/nr_hugepages", NULL), ctl, got;
	unsigned long nodes = 0;
	int fd = -1, buf, z;
	char old[32];

	find_movable();
	if (!nr_movable) {
		printf("# placement: no ZONE_MOVABLE (boot with movablecore=): skipped\n");
		return;
	}
	/* The huge pages reserved at boot may fill ZONE_MOVABLE: free them. */
	put("/proc/sys/vm/nr_hugepages", "0");
	for (z = 0; z < nr_movable; z++)
		if (movable[z].node < 64)
			nodes |= 1UL << movable[z].node;
	if (syscall(SYS_set_mempolicy, MPOL_PREFERRED_MANY, &nodes, 65)) {
		check(0, "placement: set_mempolicy: %s", strerror(errno));
		goto out;
	}

	/* The control: folios that page faults allocate go to ZONE_MOVABLE. */
	fd = memfd(0, SIZE);
	if (fd < 0 || write_marks(fd, 0, SIZE)) {
		check(0, "placement: memfd: %s", strerror(errno));
		goto out;
	}
	ctl = in_movable(fd, SIZE);
	check(ctl > 0, "placement: control: %ld of %lu written pages in ZONE_MOVABLE",
	      ctl, SIZE / PAGE);

	/* Those present in ZONE_MOVABLE are migrated out, then pinned. */
	c.memfd = fd;
	buf = ioctl(dev, UDMABUF_CREATE, &c);
	check(buf >= 0, "placement: UDMABUF_CREATE of the written memfd");
	got = in_movable(fd, SIZE);
	check(got == 0, "placement: %ld pinned pages in ZONE_MOVABLE after migration",
	      got);
	if (buf >= 0)
		close(buf);
	close(fd);

	/* Those the pin allocates never go there. */
	fd = memfd(0, SIZE);
	c.memfd = fd;
	buf = fd < 0 ? -1 : ioctl(dev, UDMABUF_CREATE, &c);
	check(buf >= 0, "placement: UDMABUF_CREATE of an empty memfd");
	got = buf < 0 ? -1 : in_movable(fd, SIZE);
	check(got == 0, "placement: %ld pinned pages allocated in ZONE_MOVABLE", got);
	if (buf >= 0)
		close(buf);
out:
	if (fd >= 0)
		close(fd);
	syscall(SYS_set_mempolicy, MPOL_DEFAULT, NULL, 0);
	snprintf(old, sizeof(old), "%ld", hugepages);
	if (hugepages >= 0)
		put("/proc/sys/vm/nr_hugepages", old);
}

int main(void)
{
	dev = open("/dev/udmabuf", O_RDWR | O_CLOEXEC);
	if (dev < 0) {
		printf("# no /dev/udmabuf: %s\n", strerror(errno));
		return 4;
	}
	test_empty();
	test_fallocated();
	test_half();
	test_swapped();
	test_large();
	test_hugetlb();
	test_placement();
	printf("# %d checks, %d failed\n", n, failed);
	return failed ? 1 : 0;
}
