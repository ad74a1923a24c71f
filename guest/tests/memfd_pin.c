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
 * - a hugetlbfs memfd, empty and half written.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/udmabuf.h>
#include <sys/mman.h>
#include <sys/stat.h>
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
	printf("# %d checks, %d failed\n", n, failed);
	return failed ? 1 : 0;
}
