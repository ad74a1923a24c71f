// SPDX-License-Identifier: GPL-2.0
/*
 * fallocate() of shmem: what it allocates, charges and accounts, and what
 * it gives back when it fails part-way.
 *
 * In a memory cgroup of its own, on memfds and on a tmpfs mounted with a
 * size limit, it checks that:
 *  - a fallocate() over holes and pages written before it leaves the
 *    written pages as they were and the rest reading as zeroes, with
 *    st_blocks, the cgroup's "shmem" and "file" counters, and the tmpfs
 *    block count grown by exactly the pages it added;
 *  - a fallocate() that runs out of tmpfs blocks (ENOSPC) or into the
 *    cgroup's memory.max (ENOMEM) fails, and leaves st_blocks, the tmpfs
 *    free blocks and the cgroup's counters where they were before it, the
 *    pages written before it included;
 *  - a fallocate() over pages pushed out to swap (MADV_PAGEOUT; the guest
 *    swaps to zram) swaps them back in, contents intact, and charges and
 *    accounts the file exactly once;
 *  - after close (and unmount), the counters are back to their baseline.
 *
 * Prints one "ok N ..." / "not ok N ..." line per check and exits 0 only
 * if all passed (4: skipped, no memory controller or no tmpfs).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "ws.h"

#define CG "/sys/fs/cgroup/shmem_fallocate"
#define MNT "/tmp/shmem_fallocate"
#define KIB 1024L
#define MIB (1024 * KIB)

static long page;

static long shmem_stat(void)
{
	return get(CG "/memory.stat", "shmem ");
}

/*
 * New folios wait in the per-CPU LRU batch of the CPU that made them, and
 * hold a reference there: a file closed while some do is freed, and
 * uncharged, only when that batch drains. The test runs on one CPU and
 * drains its batches (MADV_COLD calls lru_add_drain()) after every
 * fallocate(), so that a close gives everything back at once.
 */
static void lru_drain(void)
{
	static char *p;

	if (!p) {
		p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) {
			perror("mmap");
			exit(1);
		}
		p[0] = 1;
	}
	if (madvise(p, 4096, MADV_COLD)) {
		perror("madvise(MADV_COLD)");
		exit(1);
	}
	/*
	 * A read of memory.stat flushes the memcg statistics only when many
	 * updates are pending; the periodic flush, every 2 s, flushes them
	 * all. Wait for it, so that the batch just drained is counted.
	 */
	sleep(3);
}

static int falloc(int fd, int mode, off_t offset, off_t len)
{
	int r = fallocate(fd, mode, offset, len), e = errno;

	lru_drain();
	errno = e;
	return r;
}

static long blocks(int fd)
{
	struct stat st;

	return fstat(fd, &st) ? -1 : (long)st.st_blocks * 512;
}

static long tmpfs_free(void)
{
	struct statfs sf;

	return statfs(MNT, &sf) ? -1 : (long)sf.f_bfree * sf.f_bsize;
}

/* Page I of a file holds I + SEED in every word, or zeroes. */
static void write_page(int fd, long i, uint64_t seed)
{
	uint64_t buf[page / 8];
	long w;

	for (w = 0; w < page / 8; w++)
		buf[w] = i + seed;
	if (pwrite(fd, buf, page, i * page) != page)
		check(0, "pwrite of a page");
}

/* Every page of [0, SIZE) is one of the written ones (WRITTEN[i]) or zero. */
static int contents_ok(int fd, long size, const char *written, uint64_t seed)
{
	uint64_t *p = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
	long i, w;
	int ok = p != MAP_FAILED;

	for (i = 0; ok && i < size / page; i++) {
		uint64_t want = written[i] ? i + seed : 0;

		for (w = 0; w < page / 8; w++) {
			if (p[i * page / 8 + w] != want) {
				printf("# page %ld word %ld: %#llx, want %#llx\n", i, w,
				       (unsigned long long)p[i * page / 8 + w],
				       (unsigned long long)want);
				ok = 0;
				break;
			}
		}
	}
	if (p != MAP_FAILED)
		munmap(p, size);
	return ok;
}

/*
 * A memfd with some pages written at scattered places (runs of holes of
 * many lengths between them, ends not aligned to anything), then
 * fallocate() over it all.
 */
static void test_fill(void)
{
	long size = 8 * MIB + 5 * page, pages = size / page, i, nwritten = 0;
	char *written = calloc(pages, 1);
	long base_shmem = shmem_stat(), shmem;
	int fd = memfd_create("shmem_fallocate", 0), r;

	check(fd >= 0 && !ftruncate(fd, size), "memfd of 8 MiB + 5 pages");
	for (i = 0; i < pages; i += 1 + (i * 7) % 45) {
		write_page(fd, i, 1);
		written[i] = 1;
		nwritten++;
	}
	check(blocks(fd) == nwritten * page, "st_blocks: the pages written");
	r = falloc(fd, 0, 0, size);
	if (r)
		printf("# fallocate: %s\n", strerror(errno));
	check(r == 0, "fallocate over holes and written pages succeeds");
	check(blocks(fd) == size, "st_blocks: the whole file");
	shmem = shmem_stat();
	printf("# memcg shmem %ld -> %ld\n", base_shmem, shmem);
	check(shmem - base_shmem == size, "memcg shmem grew by the file's size");
	check(contents_ok(fd, size, written, 1), "written pages intact, the rest zero");

	/* Again over what is there now: nothing changes. */
	check(falloc(fd, 0, 0, size) == 0 && blocks(fd) == size &&
	      shmem_stat() == shmem, "a second fallocate adds nothing");
	close(fd);
	check(shmem_stat() == base_shmem, "memcg shmem back to baseline after close");
	free(written);
}

/*
 * Pages written at scattered places, pushed out to swap, then fallocate()
 * over it all: the swap entries are swapped in, not allocated over.
 */
static void test_swapped(void)
{
	long size = 4 * MIB + 3 * page, pages = size / page, i, out;
	char *written = calloc(pages, 1), *p;
	long base_shmem = shmem_stat(), nwritten = 0;
	int fd = memfd_create("shmem_fallocate", 0), r;

	check(fd >= 0 && !ftruncate(fd, size), "swapped: memfd of 4 MiB + 3 pages");
	for (i = 0; i < pages; i++) {
		if (i % 5 == 1 || (i / 64) % 3 == 0) {
			write_page(fd, i, 3);
			written[i] = 1;
			nwritten++;
		}
	}
	p = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
	for (i = 0; p != MAP_FAILED && i < pages; i++)
		if (written[i])
			out = *(volatile char *)(p + i * page);
	out = p == MAP_FAILED ? -1 : page_out(p, size);
	printf("# swapped: %ld of %ld pages written, %ld pages not in memory\n",
	       nwritten, pages, out);
	if (out <= 0 && get("/proc/meminfo", "SwapTotal:") <= 0) {
		printf("# swapped: no swap: skipped\n");
		goto out;
	}
	check(out > pages - nwritten, "swapped: pages pushed out to swap");
	r = falloc(fd, 0, 0, size);
	if (r)
		printf("# fallocate: %s\n", strerror(errno));
	check(r == 0, "swapped: fallocate over swap entries and holes succeeds");
	check(blocks(fd) == size, "swapped: st_blocks: the whole file");
	/* mincore() counts the fallocated, !uptodate folios as not in memory */
	for (i = 0, out = 0; i < pages; i++)
		if (written[i])
			out += not_resident(p + i * page, page);
	check(out == 0, "swapped: every written page back in memory (%ld not)", out);
	check(shmem_stat() - base_shmem == size,
	      "swapped: memcg shmem grew by the file's size");
	check(contents_ok(fd, size, written, 3),
	      "swapped: swapped-in pages intact, the rest zero");
out:
	if (p != MAP_FAILED)
		munmap(p, size);
	close(fd);
	check(shmem_stat() == base_shmem, "swapped: memcg shmem back to baseline");
	free(written);
}

/* Out of tmpfs blocks part-way: ENOSPC, and everything as it was. */
static void test_enospc(void)
{
	long base_free, free_before, b;
	int fd1, fd2, r;

	if (mkdir(MNT, 0755) && errno != EEXIST) {
		check(0, "mkdir " MNT);
		return;
	}
	if (mount("tmpfs", MNT, "tmpfs", 0, "size=4m,huge=never")) {
		check(0, "mount tmpfs size=4m");
		return;
	}
	base_free = tmpfs_free();
	fd1 = open(MNT "/a", O_RDWR | O_CREAT, 0600);
	fd2 = open(MNT "/b", O_RDWR | O_CREAT, 0600);
	check(fd1 >= 0 && fd2 >= 0, "two files on the tmpfs");
	check(falloc(fd1, 0, 0, 3 * MIB) == 0, "fallocate of 3 MiB of 4 succeeds");
	write_page(fd2, 3, 2);
	write_page(fd2, 100, 2);
	free_before = tmpfs_free();
	b = blocks(fd2);
	r = falloc(fd2, 0, 0, 2 * MIB);
	check(r < 0 && errno == ENOSPC, "fallocate of 2 MiB more fails with ENOSPC");
	check(blocks(fd2) == b, "st_blocks of the file as before");
	check(tmpfs_free() == free_before, "tmpfs free blocks as before");
	{
		char written[512] = { 0 };

		written[3] = written[100] = 1;
		/* The file ends after page 100: the failed call did not grow it. */
		check(contents_ok(fd2, 101 * page, written, 2),
		      "the pages written before it intact, no other page");
	}
	close(fd1);
	close(fd2);
	unlink(MNT "/a");
	unlink(MNT "/b");
	check(tmpfs_free() == base_free, "tmpfs free blocks back to baseline");
	umount(MNT);
}

/* Into memory.max part-way: ENOMEM, and the charges given back. */
static void test_enomem(void)
{
	long base_cur = get(CG "/memory.current", NULL), base_shmem = shmem_stat();
	int fd = memfd_create("shmem_fallocate_big", 0), r;

	check(fd >= 0 && !ftruncate(fd, 64 * MIB), "memfd of 64 MiB");
	if (put(CG "/memory.max", "16M")) {
		check(0, "memory.max = 16M");
		return;
	}
	r = falloc(fd, 0, 0, 64 * MIB);
	if (r)
		printf("# fallocate: %s\n", strerror(errno));
	check(r < 0 && errno == ENOMEM, "fallocate over memory.max fails with ENOMEM");
	check(blocks(fd) == 0, "st_blocks 0 after the undo");
	printf("# memcg shmem %ld -> %ld, memory.current %ld -> %ld\n", base_shmem,
	       shmem_stat(), base_cur, get(CG "/memory.current", NULL));
	check(shmem_stat() == base_shmem, "memcg shmem back to baseline");
	r = falloc(fd, 0, 0, 8 * MIB);
	check(r == 0 && blocks(fd) == 8 * MIB, "8 MiB within memory.max succeeds");
	close(fd);
	check(shmem_stat() == base_shmem, "and is uncharged after close");
	put(CG "/memory.max", "max");
}

int main(void)
{
	char pid[32];

	cpu_set_t cpus;

	setvbuf(stdout, NULL, _IONBF, 0);
	page = sysconf(_SC_PAGESIZE);
	/* one CPU, whose LRU batches lru_drain() empties */
	CPU_ZERO(&cpus);
	CPU_SET(sched_getcpu(), &cpus);
	if (sched_setaffinity(0, sizeof(cpus), &cpus)) {
		perror("sched_setaffinity");
		return 1;
	}
	if (put("/sys/fs/cgroup/cgroup.subtree_control", "+memory")) {
		printf("skip: no memory controller (%s)\n", strerror(errno));
		return 4;
	}
	mkdir(CG, 0755);
	snprintf(pid, sizeof(pid), "%d", getpid());
	if (put("/proc/self/oom_score_adj", "-1000") || put(CG "/cgroup.procs", pid)) {
		printf("skip: cannot set up " CG " (%s)\n", strerror(errno));
		return 4;
	}

	test_fill();
	test_swapped();
	test_enospc();
	test_enomem();

	put("/sys/fs/cgroup/cgroup.procs", pid);
	rmdir(CG);
	printf("%d passed, %d failed\n", n - failed, failed);
	return failed;
}
