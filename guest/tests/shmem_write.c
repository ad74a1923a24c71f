// SPDX-License-Identifier: GPL-2.0
/*
 * write() to shmem, which the series makes a batch of folios at a time:
 * what a write wrote must be what is there, and what it did not write must
 * not be allocated.
 *
 * In a memory cgroup of its own, on memfds and on tmpfs mounts, it checks:
 *  - a write at an offset and of a length aligned to nothing, over pages
 *    written before, fallocated ranges and holes, growing the file: every
 *    byte of it there, the bytes around it as they were, st_blocks and the
 *    cgroup's "shmem" grown by exactly the pages it touched;
 *  - a write over pages pushed out to swap (MADV_PAGEOUT; the guest swaps
 *    to zram), beginning and ending inside swapped-out pages: the bytes
 *    around it as they were, nothing allocated twice;
 *  - a source whose tail is not mapped (PROT_NONE): the write returns the
 *    bytes before it, and allocates the pages they went to and at most the
 *    one its failed copy was for; a source not mapped at all: EFAULT, at
 *    most that one page allocated, the size unchanged;
 *  - the source a fresh mmap() of a tmpfs file (a snapshot restore), a
 *    mapping of holes of the same memfd, and of the very range written;
 *  - a source whose page table entries another thread keeps zapping, so
 *    that copies come up short after the fault-in: whole writes, st_blocks
 *    exact, Shmem back where it was;
 *  - a tmpfs with size=4m: the write stops at the last free block, with
 *    the count of what it wrote, st_blocks to match, no block left free;
 *  - memory.max: a short write or ENOMEM, and st_blocks, the cgroup's
 *    "shmem" and the data that was written agreeing;
 *  - tmpfs huge=always and huge=within_size: the huge folios a write into
 *    an empty file gets (ShmemHugePages);
 *  - huge=always with a source touched only at its start, and one with a
 *    PROT_NONE tail inside the first huge folio: every byte (or zero) in
 *    place, the write short only at the PROT_NONE page;
 *  - F_SEAL_WRITE: EPERM, nothing allocated; F_SEAL_GROW: no growth.
 *
 * Prints one "ok N ..." / "not ok N ..." line per check and exits 0 only
 * if all passed (4: skipped, no memory controller).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/falloc.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/uio.h>
#include "ws.h"

#define CG "/sys/fs/cgroup/shmem_write"
#define MNT "/tmp/shmem_write"
#define MIB (1024L * 1024)

static long page;

static long shmem_stat(void)
{
	return get(CG "/memory.stat", "shmem ");
}

/*
 * Shmem: of /proc/meminfo in bytes, the per-cpu counters folded first (the
 * cgroup's counters are flushed only past a threshold: too coarse for a
 * few pages).
 */
static long shmem_pages(void)
{
	put("/proc/sys/vm/stat_refresh", "1");
	return get("/proc/meminfo", "Shmem:") * 1024;
}

static long blocks(int fd)
{
	struct stat st;

	return fstat(fd, &st) ? -1 : (long)st.st_blocks * 512;
}

static long fsize(int fd)
{
	struct stat st;

	return fstat(fd, &st) ? -1 : (long)st.st_size;
}

/* Byte I of what the write with SEED writes at file offset I. */
static unsigned char pat(long i, int seed)
{
	return (unsigned char)(i * 7 + i / 4093 + seed);
}

/* A buffer holding pat(OFF + j, SEED) at j, for a write at OFF. */
static unsigned char *source(long off, long len, int seed)
{
	unsigned char *b = malloc(len);
	long j;

	for (j = 0; b && j < len; j++)
		b[j] = pat(off + j, seed);
	return b;
}

/*
 * Bytes [from, to) of FD are pat(i, SEED), or zero if SEED is -1: the
 * first offset that is not, or -1.
 */
static long differs(int fd, long from, long to, int seed)
{
	unsigned char buf[4096];
	long i, j, n;

	for (i = from; i < to; i += n) {
		n = to - i < (long)sizeof(buf) ? to - i : (long)sizeof(buf);
		if (pread(fd, buf, n, i) != n)
			return i;
		for (j = 0; j < n; j++)
			if (buf[j] != (seed < 0 ? 0 : pat(i + j, seed)))
				return i + j;
	}
	return -1;
}

static int tmpfs(const char *opts)
{
	umount(MNT);
	if (mkdir(MNT, 0755) && errno != EEXIST)
		return -1;
	return mount("tmpfs", MNT, "tmpfs", 0, opts);
}

/*
 * Pages 0-99 of a memfd: 3-9 and 40 written with seed 1, 20-33 and 70-71
 * fallocated, the rest holes; then a write with seed 2 of [5 pages + 1000,
 * 130 pages - 777), past the end of the file.
 */
static void test_layout(void)
{
	long off = 5 * page + 1000, end = 130 * page - 777, i, b0, s0, d;
	int fd = memfd_create("shmem_write", 0);
	unsigned char *src = source(off, end - off, 2), *one;

	check(fd >= 0 && src && !ftruncate(fd, 100 * page), "memfd of 100 pages");
	for (i = 3; i <= 40; i++) {
		if (i > 9 && i < 40)
			continue;
		one = source(i * page, page, 1);
		check(one && pwrite(fd, one, page, i * page) == page, "page %ld written", i);
		free(one);
	}
	check(!fallocate(fd, 0, 20 * page, 14 * page) &&
	      !fallocate(fd, 0, 70 * page, 2 * page), "two ranges fallocated");
	b0 = blocks(fd);
	s0 = shmem_pages();
	check(b0 == (8 + 16) * page, "st_blocks: 24 pages before the write");

	check(pwrite(fd, src, end - off, off) == end - off, "the write is whole");
	check(fsize(fd) == end, "the file grew to the end of the write");
	d = differs(fd, off, end, 2);
	check(d < 0, "every byte written is there (first wrong: %ld)", d);
	d = differs(fd, 3 * page, off, 1);
	check(d < 0, "the bytes before it in page 3-5 as they were (%ld)", d);
	d = differs(fd, 0, 3 * page, -1);
	check(d < 0, "the holes before it read zero (%ld)", d);
	/* Pages 5-129 touched; 5-9, 20-33, 40 and 70-71 of them were there */
	{
		long touched = 130 - 5, before = 8 + 16, overlap = 5 + 14 + 1 + 2;

		check(blocks(fd) == (before + touched - overlap) * page,
		      "st_blocks: the 24 pages and the %ld new ones the write touched (%ld)",
		      touched - overlap, blocks(fd) / page);
		check(shmem_pages() - s0 == (touched - overlap) * page,
		      "Shmem grew by as much (%ld pages)", (shmem_pages() - s0) / page);
	}
	free(src);
	close(fd);
}

/*
 * Pages 0-63 of a memfd written with seed 1, most of them pushed out to
 * swap, then a write with seed 2 of [3 pages + 100, 50 pages - 200): the
 * pages it only partly writes are swapped in, not allocated over.
 */
static void test_swapped(void)
{
	long size = 64 * page, off = 3 * page + 100, end = 50 * page - 200, out, d;
	unsigned char *old = source(0, size, 1), *src = source(off, end - off, 2);
	int fd = memfd_create("shmem_write_swapped", 0);
	char *p;

	check(fd >= 0 && old && src && pwrite(fd, old, size, 0) == size,
	      "swapped: 64 pages written");
	p = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
	for (d = 0; p != MAP_FAILED && d < size; d += page)
		out = *(volatile char *)(p + d);
	out = p == MAP_FAILED ? -1 : page_out(p, size);
	printf("# swapped: %ld pages out\n", out);
	if (out <= 0 && get("/proc/meminfo", "SwapTotal:") <= 0) {
		printf("# swapped: no swap: skipped\n");
		goto out;
	}
	check(out > 0, "swapped: pages pushed out to swap");
	check(pwrite(fd, src, end - off, off) == end - off, "swapped: the write is whole");
	d = differs(fd, off, end, 2);
	check(d < 0, "swapped: every byte written is there (first wrong: %ld)", d);
	d = differs(fd, 0, off, 1);
	check(d < 0, "swapped: the bytes before it as they were (%ld)", d);
	d = differs(fd, end, size, 1);
	check(d < 0, "swapped: the bytes after it as they were (%ld)", d);
	check(blocks(fd) == size && fsize(fd) == size,
	      "swapped: st_blocks and the size as they were (%ld pages)", blocks(fd) / page);
out:
	if (p != MAP_FAILED)
		munmap(p, size);
	close(fd);
	free(old);
	free(src);
}

/* A source with a PROT_NONE tail, or not mapped at all. */
static void test_short(void)
{
	long n = 40, good = 23, off;
	unsigned char *p = mmap(NULL, n * page, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int fd, k;

	check(p != MAP_FAILED, "a source of 40 pages");
	for (k = 0; k < 2; k++) {
		long s0 = shmem_pages(), r, want;

		off = k ? 0 : 300;	/* one write aligned, one not */
		fd = memfd_create("shmem_write_short", 0);
		for (r = 0; r < good * page; r++)
			p[r] = pat(off + r, 3);
		mprotect(p + good * page, (n - good) * page, PROT_NONE);
		r = pwrite(fd, p, n * page, off);
		check(r == good * page, "offset %ld: the write stops at the PROT_NONE page (%ld)",
		      off, r);
		/*
		 * The pages written, and at most the page the copy that
		 * failed was for: generic_perform_write() gets the folio
		 * before it copies, and keeps it after a short copy.
		 */
		want = (off + good * page + page - 1) / page * page;
		check(blocks(fd) == want || blocks(fd) == want + page,
		      "st_blocks: the pages written, at most one more (%ld of %ld)",
		      blocks(fd) / page, want / page);
		check(shmem_pages() - s0 == blocks(fd), "Shmem: as much");
		check(differs(fd, off, off + good * page, 3) < 0, "the bytes written are there");
		check(fsize(fd) == off + good * page, "the file ends after them");
		mprotect(p, n * page, PROT_READ | PROT_WRITE);
		close(fd);
	}

	fd = memfd_create("shmem_write_efault", 0);
	munmap(p + page, page);
	errno = 0;
	check(pwrite(fd, p + page, 8 * page, 0) < 0 && errno == EFAULT,
	      "a source not mapped: EFAULT");
	check(blocks(fd) <= page && fsize(fd) == 0,
	      "at most the page of the failed copy allocated, the size as it was");
	close(fd);
	munmap(p, n * page);
}

/* Sources that are mappings: of a tmpfs file, of the memfd itself. */
static void test_mapped_sources(void)
{
	long len = 3 * MIB + 5 * page, d;
	unsigned char *src = source(0, len, 4), *m;
	int fd = memfd_create("shmem_write_mapped", 0), f;

	check(!tmpfs("huge=never"), "tmpfs mounted");
	f = open(MNT "/snapshot", O_RDWR | O_CREAT, 0600);
	check(f >= 0 && src && pwrite(f, src, len, 0) == len, "a tmpfs file written");
	m = mmap(NULL, len, PROT_READ, MAP_SHARED, f, 0);
	check(m != MAP_FAILED && pwrite(fd, m, len, 0) == len,
	      "written from a fresh mmap() of it");
	d = differs(fd, 0, len, 4);
	check(d < 0, "and it is what the file holds (%ld)", d);
	munmap(m, len);
	close(f);
	unlink(MNT "/snapshot");

	/* A mapping of holes of the memfd, into the memfd past them */
	check(!ftruncate(fd, 2 * len), "the memfd doubled");
	m = mmap(NULL, 2 * len, PROT_READ, MAP_SHARED, fd, 0);
	check(m != MAP_FAILED && pwrite(fd, m + len, len / 2, len + len / 2) == len / 2,
	      "written from a mapping of its own holes");
	d = differs(fd, len, 2 * len, -1);
	check(d < 0, "which read zero (%ld)", d);
	/* The very range written as the source */
	check(pwrite(fd, m + 1000, len - 2000, 1000) == len - 2000,
	      "written from a mapping of the range itself");
	d = differs(fd, 0, len, 4);
	check(d < 0, "which is unchanged (%ld)", d);
	munmap(m, 2 * len);
	free(src);
	close(fd);
}

static volatile int zapping;

/* Zaps the page tables of the source again and again: copies come up short */
static void *zapper(void *arg)
{
	unsigned char *m = arg;

	while (zapping)
		madvise(m, 4 * MIB, MADV_DONTNEED);
	return NULL;
}

/*
 * The source a shared mapping of a memfd whose page table entries another
 * thread keeps zapping (MADV_DONTNEED; the data stays in its page cache):
 * copies come up short after the fault-in, the batch's new folios past
 * them are removed and allocated again.  Each write must still be whole,
 * right, and allocate its size exactly.
 */
static void test_racing_unmap(void)
{
	unsigned char *src = source(0, 4 * MIB, 9), *m;
	int s = memfd_create("shmem_write_zapped", 0), i, ok = 1;
	long s0, len = 4 * MIB;
	pthread_t t;

	check(s >= 0 && src && pwrite(s, src, len, 0) == len, "a source memfd of 4 MiB");
	m = mmap(NULL, len, PROT_READ, MAP_SHARED, s, 0);
	check(m != MAP_FAILED, "mapped shared");
	s0 = shmem_pages();
	zapping = 1;
	check(!pthread_create(&t, NULL, zapper, m), "a thread zapping it");
	for (i = 0; i < 16 && ok; i++) {
		int fd = memfd_create("shmem_write_dst", 0);
		long r = pwrite(fd, m, len, 0);

		ok = r == len && blocks(fd) == len && differs(fd, 0, len, 9) < 0;
		if (!ok)
			printf("# write %d: %ld, st_blocks %ld\n", i, r, blocks(fd));
		close(fd);
	}
	zapping = 0;
	pthread_join(t, NULL);
	check(ok, "16 writes of 4 MiB from it: whole, right, st_blocks exact");
	check(shmem_pages() == s0, "Shmem back to where it was");
	munmap(m, len);
	close(s);
	free(src);
}

/* A tmpfs with 4 MiB, of which 3 are fallocated: a write of 2 MiB. */
static void test_enospc(void)
{
	unsigned char *src = source(page / 2, 2 * MIB, 5);
	struct statfs sf;
	long freeb, r;
	int a, b;

	if (tmpfs("size=4m,huge=never")) {
		check(0, "mount tmpfs size=4m");
		return;
	}
	a = open(MNT "/a", O_RDWR | O_CREAT, 0600);
	b = open(MNT "/b", O_RDWR | O_CREAT, 0600);
	check(a >= 0 && b >= 0 && !fallocate(a, 0, 0, 3 * MIB), "3 MiB of 4 fallocated");
	statfs(MNT, &sf);
	freeb = sf.f_bfree * sf.f_bsize;
	r = pwrite(b, src, 2 * MIB, page / 2);
	/* Half of the first page is not written, and takes a block all the same */
	check(r == freeb - page / 2, "the write stops at the last free block (%ld of %ld)",
	      r, freeb);
	check(blocks(b) == freeb, "st_blocks: the blocks it wrote");
	statfs(MNT, &sf);
	check(sf.f_bfree == 0, "no block left free");
	check(r > 0 && differs(b, page / 2, page / 2 + r, 5) < 0 &&
	      differs(b, 0, page / 2, -1) < 0, "what it wrote is there");
	close(a);
	close(b);
	umount(MNT);
	free(src);
}

/*
 * memory.max of 16 MiB, a write of 64 MiB: 64 times the same MiB, so that
 * the source itself does not take the cgroup's memory.
 */
static void test_enomem(void)
{
	long len = 64 * MIB, s0 = shmem_stat(), r, want, i, b;
	unsigned char *src = source(0, MIB, 6);
	int fd = memfd_create("shmem_write_big", 0), e, max, swap;
	static unsigned char back[MIB];
	struct iovec iov[64];

	for (i = 0; i < 64; i++)
		iov[i] = (struct iovec){ src, MIB };
	/*
	 * Opened first: at the limit, even the open() that would raise it
	 * again can fail (struct file is charged).  No swap for the cgroup:
	 * written shmem could go to zram.
	 */
	max = open(CG "/memory.max", O_WRONLY);
	swap = open(CG "/memory.swap.max", O_WRONLY);

	if (swap >= 0 && write(swap, "0", 1) != 1)
		check(0, "memory.swap.max = 0");
	if (max < 0 || write(max, "16M", 3) != 3) {
		check(0, "memory.max = 16M");
		return;
	}
	errno = 0;
	r = pwritev(fd, iov, 64, 0);
	e = errno;
	b = blocks(fd);
	/* Reading the counters or the file takes memory: the limit goes first */
	check(write(max, "max", 3) == 3, "memory.max back to max");
	if (swap >= 0 && write(swap, "max", 3) != 3)
		check(0, "memory.swap.max back to max");
	close(max);
	if (swap >= 0)
		close(swap);
	printf("# write of 64 MiB: %ld (%s), memcg shmem %ld -> %ld\n", r,
	       strerror(e), s0, shmem_stat());
	check(r < len && (r > 0 || e == ENOMEM), "short, or ENOMEM");
	want = r > 0 ? (r + page - 1) / page * page : 0;
	check(b == want, "st_blocks: what it wrote (%ld pages)", want / page);
	for (i = 0; r > 0 && i < r; i += MIB) {
		long n = r - i < MIB ? r - i : MIB;

		if (pread(fd, back, n, i) != n || memcmp(back, src, n))
			break;
	}
	check(r <= 0 || i >= r, "and that is there");
	close(fd);
	check(shmem_stat() == s0, "memcg shmem back to baseline after close");
	free(src);
}

static void test_huge(void)
{
	long len = 8 * MIB, h0, r;
	unsigned char *src = source(0, len + 3 * page, 7);
	int fd;

	if (tmpfs("huge=always")) {
		check(0, "mount tmpfs huge=always");
		return;
	}
	h0 = get("/proc/meminfo", "ShmemHugePages:");
	fd = open(MNT "/h", O_RDWR | O_CREAT, 0600);
	r = pwrite(fd, src, len, 0);
	check(r == len && differs(fd, 0, len, 7) < 0, "huge=always: 8 MiB written");
	check(get("/proc/meminfo", "ShmemHugePages:") - h0 == len / 1024,
	      "in huge folios (ShmemHugePages +%ld kB)",
	      get("/proc/meminfo", "ShmemHugePages:") - h0);
	close(fd);
	unlink(MNT "/h");

	if (tmpfs("huge=within_size")) {
		check(0, "mount tmpfs huge=within_size");
		return;
	}
	h0 = get("/proc/meminfo", "ShmemHugePages:");
	fd = open(MNT "/w", O_RDWR | O_CREAT, 0600);
	r = pwrite(fd, src, len + 3 * page, 0);
	check(r == len + 3 * page && differs(fd, 0, r, 7) < 0,
	      "huge=within_size: 8 MiB and 3 pages written");
	check(get("/proc/meminfo", "ShmemHugePages:") - h0 == len / 1024,
	      "the 8 MiB within the write in huge folios, not the tail (+%ld kB)",
	      get("/proc/meminfo", "ShmemHugePages:") - h0);
	close(fd);
	umount(MNT);
	free(src);
}

/*
 * huge=always, with sources the batch's fault-in does not cover: a write
 * into a new huge folio copies on past the source it faulted in, and must
 * come up short where the source is not mapped yet, and stop where it is
 * not mapped at all, without losing a byte or leaving one unzeroed.
 */
static void test_huge_sources(void)
{
	long len = 3 * MIB, off = MIB + 300, good = MIB + 5 * page, h0, r;
	unsigned char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int fd;

	check(p != MAP_FAILED, "a source of 3 MiB");
	if (p == MAP_FAILED)
		return;
	if (tmpfs("huge=always")) {
		check(0, "mount tmpfs huge=always");
		munmap(p, len);
		return;
	}

	/* Only the first 64 KiB of the source touched, the rest never */
	for (r = 0; r < 64 * 1024; r++)
		p[r] = pat(off + r, 9);
	h0 = get("/proc/meminfo", "ShmemHugePages:");
	fd = open(MNT "/s", O_RDWR | O_CREAT, 0600);
	r = pwrite(fd, p, len, off);
	check(r == len, "a source touched only at its start: whole (%ld)", r);
	check(differs(fd, 0, off, -1) < 0, "zeroes before the write");
	check(differs(fd, off, off + 64 * 1024, 9) < 0, "the bytes touched there");
	check(differs(fd, off + 64 * 1024, off + len, -1) < 0,
	      "zeroes from the untouched source");
	check((get("/proc/meminfo", "ShmemHugePages:") - h0) * 1024 == blocks(fd),
	      "in huge folios (st_blocks %ld kB)", blocks(fd) / 1024);
	close(fd);
	unlink(MNT "/s");

	/* The source ends in a PROT_NONE page inside the first huge folio */
	for (r = 0; r < good; r++)
		p[r] = pat(r, 10);
	mprotect(p + good, len - good, PROT_NONE);
	fd = open(MNT "/t", O_RDWR | O_CREAT, 0600);
	r = pwrite(fd, p, len, 0);
	check(r == good, "a source with a PROT_NONE tail: stops there (%ld)", r);
	check(differs(fd, 0, good, 10) < 0 && fsize(fd) == good,
	      "the bytes before it there, the file ends after them");
	check(blocks(fd) == 2 * MIB, "one huge folio, kept as the base kernel keeps it (%ld kB)",
	      blocks(fd) / 1024);
	close(fd);
	umount(MNT);
	munmap(p, len);
}

static void test_seals(void)
{
	unsigned char *src = source(0, 8 * page, 8);
	int fd = memfd_create("shmem_write_sealed", MFD_ALLOW_SEALING);
	long r;

	check(!ftruncate(fd, 5 * page + 100) && !fcntl(fd, F_ADD_SEALS, F_SEAL_GROW),
	      "a memfd of 5 pages and 100 bytes, F_SEAL_GROW");
	r = pwrite(fd, src, 8 * page, 0);
	check(fsize(fd) == 5 * page + 100, "F_SEAL_GROW: the write did not grow it (%ld)", r);
	check(r <= 5 * page + 100 && blocks(fd) == (r > 0 ? (r + page - 1) / page * page : 0),
	      "and allocated only what it wrote");
	check(pwrite(fd, src, 5 * page, 0) == 5 * page, "a write within the size succeeds");
	close(fd);

	fd = memfd_create("shmem_write_sealed", MFD_ALLOW_SEALING);
	check(!ftruncate(fd, 8 * page) && !fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE),
	      "a memfd of 8 pages, F_SEAL_WRITE");
	errno = 0;
	check(pwrite(fd, src, 8 * page, 0) < 0 && errno == EPERM, "F_SEAL_WRITE: EPERM");
	check(blocks(fd) == 0, "nothing allocated");
	close(fd);
	free(src);
}

int main(void)
{
	char pid[32];

	setvbuf(stdout, NULL, _IONBF, 0);
	page = sysconf(_SC_PAGESIZE);
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

	test_layout();
	test_swapped();
	test_short();
	test_mapped_sources();
	test_racing_unmap();
	test_enospc();
	test_enomem();
	test_huge();
	test_huge_sources();
	test_seals();

	put("/sys/fs/cgroup/cgroup.procs", pid);
	rmdir(CG);
	printf("%d passed, %d failed\n", n - failed, failed);
	return failed;
}
