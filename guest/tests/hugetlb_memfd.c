// SPDX-License-Identifier: GPL-2.0
/*
 * hugetlb folios enter the page cache through __filemap_add_folio(), the
 * single-folio insertion the series shares with the page cache and shmem.
 * Populate a hugetlb memfd through a mapping, read it back through a second
 * mapping (the page cache, not the first mapping's page tables), and check
 * that the huge pages are taken from the pool and given back on close.
 *
 * Prints one "ok N ..." / "not ok N ..." line per check; exit 0 if all
 * passed, 4 (skip) if the kernel has no hugetlb pages to give.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ws.h"

#define HPAGE (2UL << 20)
#define NR 4

static long meminfo(const char *key)
{
	return get("/proc/meminfo", key);
}

int main(void)
{
	long free0 = meminfo("HugePages_Free:"), free1;
	unsigned char *a, *b;
	size_t i, bad = 0;
	int fd;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (free0 < NR) {
		printf("skip: %ld free huge pages, need %d (vm.nr_hugepages)\n", free0, NR);
		return 4;
	}
	fd = memfd_create("hugetlb_memfd", MFD_HUGETLB);
	if (fd < 0) {
		printf("skip: memfd_create(MFD_HUGETLB): %s\n", strerror(errno));
		return 4;
	}
	check(ftruncate(fd, NR * HPAGE) == 0, "ftruncate to 4 huge pages");
	a = mmap(NULL, NR * HPAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	check(a != MAP_FAILED, "mmap");
	if (a == MAP_FAILED)
		return 1;
	for (i = 0; i < NR * HPAGE; i++)
		a[i] = (unsigned char)(i * 7 + (i >> 21));
	free1 = meminfo("HugePages_Free:");
	check(free0 - free1 == NR, "4 huge pages taken from the pool");
	munmap(a, NR * HPAGE);

	b = mmap(NULL, NR * HPAGE, PROT_READ, MAP_SHARED, fd, 0);
	check(b != MAP_FAILED, "second mmap");
	if (b == MAP_FAILED)
		return 1;
	for (i = 0; i < NR * HPAGE; i++)
		bad += b[i] != (unsigned char)(i * 7 + (i >> 21));
	check(!bad, "contents read back through the page cache");
	munmap(b, NR * HPAGE);
	close(fd);
	check(meminfo("HugePages_Free:") == free0, "huge pages back in the pool after close");
	printf("%d passed, %d failed\n", n - failed, failed);
	return failed;
}
