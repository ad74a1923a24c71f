// SPDX-License-Identifier: GPL-2.0
/*
 * MADV_POPULATE_READ, MADV_POPULATE_WRITE and MAP_POPULATE on shared shmem
 * mappings, whose holes the stack's shmem_get_folios() does not fill (the
 * faults do, as in the base kernel): what the faults do is what must happen.
 *
 * - memfd and MAP_SHARED|MAP_ANONYMOUS: every page resident, zero, and
 *   allocated once (st_blocks of the file behind the mapping);
 * - a memfd pushed out to swap in part (MADV_PAGEOUT; the guest swaps to
 *   zram): every page back, contents intact;
 * - a mapping beyond i_size: EFAULT, and nothing allocated past i_size;
 * - a read-only mapping of a memfd sealed with F_SEAL_FUTURE_WRITE:
 *   MADV_POPULATE_READ populates, MADV_POPULATE_WRITE fails and allocates
 *   nothing;
 * - the file's mtime: MADV_POPULATE_WRITE updates it, as the write faults
 *   did, MADV_POPULATE_READ does not;
 * - userfaultfd missing mode: every page still reaches the handler;
 * - tmpfs huge=always: large folios by default, none under MADV_NOHUGEPAGE;
 *   the large folios that the faults make over memory freed dirty read back
 *   zero;
 * - the LRU state the write faults leave (classic LRU, per kpageflags):
 *   after MADV_POPULATE_WRITE of a new memfd every folio is referenced and
 *   inactive, marked accessed once as by a write fault and GUP's touch; a
 *   second touch would activate it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include "ws.h"

#define SIZE	(8UL << 20)
#define PAGE	4096UL

/* Pages of [p, p + len) in memory, per mincore(). */
static long resident(char *p, unsigned long len)
{
	static unsigned char vec[2 * SIZE / PAGE];
	unsigned long i;
	long n = 0;

	if (mincore(p, len, vec))
		return -1;
	for (i = 0; i < len / PAGE; i++)
		n += vec[i] & 1;
	return n;
}

/* The first word of every page of [p, p + len) that is not 0. */
static long nonzero(char *p, unsigned long len)
{
	unsigned long i;
	long n = 0;

	for (i = 0; i < len; i += PAGE)
		n += *(unsigned long *)(p + i) != 0;
	return n;
}

static long blocks(int fd)
{
	struct stat st;

	return fstat(fd, &st) ? -1 : (long)st.st_blocks * 512;
}

static int memfd(unsigned int flags, unsigned long size)
{
	int fd = memfd_create("populate_shmem", flags);

	if (fd >= 0 && ftruncate(fd, size)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Populate a MAP_SHARED mapping of @fd (-1: anonymous) with @how. */
static void populate(const char *what, int fd, int how)
{
	int flags = MAP_SHARED | (fd < 0 ? MAP_ANONYMOUS : 0);
	char *p;
	int r;

	if (how == MAP_POPULATE)
		flags |= MAP_POPULATE;
	p = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, flags, fd, 0);
	if (p == MAP_FAILED) {
		check(0, "%s: mmap: %s", what, strerror(errno));
		return;
	}
	r = how == MAP_POPULATE ? 0 : madvise(p, SIZE, how);
	check(!r, "%s: populated (%s)", what, r ? strerror(errno) : "0");
	check(resident(p, SIZE) == SIZE / PAGE, "%s: %ld of %lu pages resident",
	      what, resident(p, SIZE), SIZE / PAGE);
	if (fd >= 0) {
		check(blocks(fd) == (long)SIZE, "%s: st_blocks %ld bytes", what,
		      blocks(fd));
	} else {
		/* The shmem file behind the mapping (root only). */
		char path[64];
		int f;

		snprintf(path, sizeof(path), "/proc/self/map_files/%lx-%lx",
			 (unsigned long)p, (unsigned long)p + SIZE);
		f = open(path, O_RDONLY);
		check(f >= 0 && blocks(f) == (long)SIZE,
		      "%s: st_blocks %ld bytes", what, f >= 0 ? blocks(f) : -1L);
		if (f >= 0)
			close(f);
	}
	check(!nonzero(p, SIZE), "%s: all pages zero", what);
	if (fd >= 0) {
		unsigned long i, bad = 0, v;

		/* Stores through the mapping reach the file. */
		for (i = 0; i < SIZE; i += PAGE)
			*(unsigned long *)(p + i) = i / PAGE + 1;
		for (i = 0; i < SIZE; i += PAGE)
			if (pread(fd, &v, sizeof(v), i) != sizeof(v) ||
			    v != i / PAGE + 1)
				bad++;
		check(!bad, "%s: stores reach the file (%lu pages wrong)", what,
		      bad);
	}
	munmap(p, SIZE);
}

static void test_populate(void)
{
	int fd;

	fd = memfd(0, SIZE);
	populate("memfd, MADV_POPULATE_WRITE", fd, MADV_POPULATE_WRITE);
	close(fd);
	fd = memfd(0, SIZE);
	populate("memfd, MADV_POPULATE_READ", fd, MADV_POPULATE_READ);
	close(fd);
	fd = memfd(0, SIZE);
	populate("memfd, MAP_POPULATE", fd, MAP_POPULATE);
	close(fd);
	populate("anonymous shared, MADV_POPULATE_WRITE", -1,
		 MADV_POPULATE_WRITE);
	populate("anonymous shared, MAP_POPULATE", -1, MAP_POPULATE);
}

/*
 * A memfd whose pages were written and then pushed out to swap: populating
 * swaps them in, contents intact, and allocates nothing over them.
 */
static void test_swapped(void)
{
	static const int hows[] = { MADV_POPULATE_READ, MADV_POPULATE_WRITE };
	unsigned long i, bad;
	int k;

	for (k = 0; k < 2; k++) {
		const char *what = k ? "swapped, MADV_POPULATE_WRITE" :
				       "swapped, MADV_POPULATE_READ";
		int fd = memfd(0, SIZE);
		char *p = fd < 0 ? MAP_FAILED :
			  mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		long out;

		if (p == MAP_FAILED) {
			check(0, "%s: memfd/mmap: %s", what, strerror(errno));
			if (fd >= 0)
				close(fd);
			continue;
		}
		/* Every third page of 64 left a hole: swap entries and holes mixed. */
		for (i = 0; i < SIZE; i += PAGE)
			if ((i / PAGE) % 3)
				*(unsigned long *)(p + i) = i / PAGE + 7;
		out = page_out(p, SIZE);
		printf("# %s: %ld pages out\n", what, out);
		if (out <= 0 && get("/proc/meminfo", "SwapTotal:") <= 0) {
			printf("# %s: no swap: skipped\n", what);
		} else {
			check(out > 0, "%s: pages pushed out to swap", what);
			check(!madvise(p, SIZE, hows[k]), "%s: populated", what);
			check(resident(p, SIZE) == SIZE / PAGE,
			      "%s: %ld of %lu pages resident", what,
			      resident(p, SIZE), SIZE / PAGE);
			for (i = 0, bad = 0; i < SIZE; i += PAGE)
				bad += *(unsigned long *)(p + i) !=
				       ((i / PAGE) % 3 ? i / PAGE + 7 : 0);
			check(!bad, "%s: contents intact (%lu pages wrong)", what, bad);
			check(blocks(fd) == (long)SIZE, "%s: st_blocks %ld bytes",
			      what, blocks(fd));
		}
		munmap(p, SIZE);
		close(fd);
	}
}

/* A mapping twice the file's size: the faults past i_size get SIGBUS. */
static void test_eof(void)
{
	int fd = memfd(0, SIZE / 2);
	char *p = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	int r;

	if (p == MAP_FAILED) {
		check(0, "eof: mmap: %s", strerror(errno));
		return;
	}
	r = madvise(p, SIZE, MADV_POPULATE_WRITE);
	check(r && errno == EFAULT, "eof: MADV_POPULATE_WRITE fails with EFAULT (%s)",
	      r ? strerror(errno) : "0");
	check(blocks(fd) == (long)SIZE / 2, "eof: st_blocks %ld bytes, i_size %lu",
	      blocks(fd), SIZE / 2);
	check(resident(p, SIZE / 2) == SIZE / 2 / PAGE,
	      "eof: the pages before i_size resident");
	munmap(p, SIZE);
	close(fd);
}

static void test_sealed(void)
{
	int fd = memfd(MFD_ALLOW_SEALING, SIZE);
	char *p;
	int r;

	if (fd < 0 || fcntl(fd, F_ADD_SEALS, F_SEAL_FUTURE_WRITE)) {
		check(0, "sealed: F_SEAL_FUTURE_WRITE: %s", strerror(errno));
		return;
	}
	p = mmap(NULL, SIZE, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		check(0, "sealed: mmap: %s", strerror(errno));
		close(fd);
		return;
	}
	r = madvise(p, SIZE, MADV_POPULATE_WRITE);
	check(r != 0, "sealed: MADV_POPULATE_WRITE of a read-only mapping fails (%s)",
	      r ? strerror(errno) : "0");
	check(blocks(fd) == 0, "sealed: ... and allocates nothing (%ld bytes)",
	      blocks(fd));
	r = madvise(p, SIZE, MADV_POPULATE_READ);
	check(!r && resident(p, SIZE) == SIZE / PAGE && !nonzero(p, SIZE),
	      "sealed: MADV_POPULATE_READ populates it with zeroes");
	munmap(p, SIZE);
	close(fd);
}

/*
 * The file's mtime: the base kernel's MADV_POPULATE_WRITE took a write fault
 * per page, and the first one updated it (fault_dirty_shared_page()); the
 * series maps the pages writable by read faults first, which never update
 * it, and must update it itself. MADV_POPULATE_READ leaves it alone. Each
 * population gets a new mapping of the memfd: entries that an earlier
 * population mapped writable would take no write fault in the base either.
 */
static long mtime_after(int fd, int how)
{
	const struct timespec old[2] = { { 1, 0 }, { 1, 0 } };
	struct stat st;
	char *p;
	int r;

	if (futimens(fd, old))
		return -1;
	p = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return -1;
	r = madvise(p, SIZE, how);
	munmap(p, SIZE);
	if (r || fstat(fd, &st))
		return -1;
	return st.st_mtim.tv_sec;
}

static void test_mtime(void)
{
	int fd = memfd(0, SIZE);
	struct timespec now;
	long t;

	if (fd < 0) {
		check(0, "mtime: memfd: %s", strerror(errno));
		return;
	}
	clock_gettime(CLOCK_REALTIME, &now);
	t = mtime_after(fd, MADV_POPULATE_READ);
	check(t == 1, "mtime: MADV_POPULATE_READ leaves mtime alone (%ld)", t);
	t = mtime_after(fd, MADV_POPULATE_WRITE);
	check(t >= now.tv_sec - 1,
	      "mtime: MADV_POPULATE_WRITE updates it (%ld, now %ld)", t,
	      (long)now.tv_sec);
	/* The pages are in the page cache now: the same for a full file. */
	t = mtime_after(fd, MADV_POPULATE_WRITE);
	check(t >= now.tv_sec - 1,
	      "mtime: ... of a full file too (%ld, now %ld)", t,
	      (long)now.tv_sec);
	close(fd);
}

struct uffd_arg {
	int uffd;
	long faults;
	char *zero;
	int stop;
};

/* Serve missing faults with a zeroed page, counting them. */
static void *uffd_handler(void *data)
{
	struct uffd_arg *a = data;
	struct pollfd pfd = { .fd = a->uffd, .events = POLLIN };

	while (!a->stop) {
		struct uffd_msg msg;
		struct uffdio_copy copy;

		if (poll(&pfd, 1, 100) <= 0)
			continue;
		if (read(a->uffd, &msg, sizeof(msg)) != sizeof(msg) ||
		    msg.event != UFFD_EVENT_PAGEFAULT)
			continue;
		copy.dst = msg.arg.pagefault.address & ~(PAGE - 1);
		copy.src = (unsigned long)a->zero;
		copy.len = PAGE;
		copy.mode = 0;
		if (!ioctl(a->uffd, UFFDIO_COPY, &copy))
			a->faults++;
	}
	return NULL;
}

static void test_uffd(void)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffd_arg a = { 0 };
	struct uffdio_register reg;
	pthread_t t;
	int fd = memfd(0, SIZE), r;
	char *p;

	a.uffd = syscall(__NR_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (a.uffd < 0 || ioctl(a.uffd, UFFDIO_API, &api)) {
		printf("# uffd: no userfaultfd (%s): skipped\n", strerror(errno));
		close(fd);
		return;
	}
	p = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	a.zero = mmap(NULL, PAGE, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	reg.range.start = (unsigned long)p;
	reg.range.len = SIZE;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	if (p == MAP_FAILED || a.zero == MAP_FAILED ||
	    ioctl(a.uffd, UFFDIO_REGISTER, &reg)) {
		check(0, "uffd: register: %s", strerror(errno));
		close(fd);
		return;
	}
	pthread_create(&t, NULL, uffd_handler, &a);
	r = madvise(p, SIZE, MADV_POPULATE_WRITE);
	a.stop = 1;
	pthread_join(t, NULL);
	check(!r, "uffd: MADV_POPULATE_WRITE (%s)", r ? strerror(errno) : "0");
	check(a.faults == (long)(SIZE / PAGE),
	      "uffd: the handler served %ld of %lu missing faults", a.faults,
	      SIZE / PAGE);
	munmap(p, SIZE);
	close(a.uffd);
	close(fd);
}

/* tmpfs huge=always: PMD-sized folios unless the VMA says no. */
static void test_huge(void)
{
	const char *dir = "/tmp/populate_shmem";
	long huge0;
	char *p;
	int fd;

	mkdir(dir, 0700);
	if (mount("tmpfs", dir, "tmpfs", 0, "huge=always")) {
		printf("# huge: no tmpfs huge=always (%s): skipped\n",
		       strerror(errno));
		return;
	}
	fd = open("/tmp/populate_shmem/f", O_RDWR | O_CREAT, 0600);
	if (fd < 0 || ftruncate(fd, SIZE))
		goto out;
	huge0 = get("/proc/meminfo", "ShmemHugePages:");
	p = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p != MAP_FAILED && !madvise(p, SIZE, MADV_NOHUGEPAGE) &&
	    !madvise(p, SIZE, MADV_POPULATE_WRITE))
		check(get("/proc/meminfo", "ShmemHugePages:") == huge0 &&
		      resident(p, SIZE) == SIZE / PAGE,
		      "huge: MADV_NOHUGEPAGE: no large folio, all resident");
	else
		check(0, "huge: MADV_NOHUGEPAGE + MADV_POPULATE_WRITE: %s",
		      strerror(errno));
	if (p != MAP_FAILED) {
		/* freed dirty, for the PMD-sized folios below to reuse */
		memset(p, 0xa5, SIZE);
		munmap(p, SIZE);
	}
	close(fd);
	unlink("/tmp/populate_shmem/f");

	fd = open("/tmp/populate_shmem/f", O_RDWR | O_CREAT, 0600);
	if (fd < 0 || ftruncate(fd, SIZE))
		goto out;
	p = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p != MAP_FAILED && !madvise(p, SIZE, MADV_POPULATE_WRITE)) {
		check(get("/proc/meminfo", "ShmemHugePages:") > huge0,
		      "huge: by default, PMD-sized folios (%ld kB)",
		      get("/proc/meminfo", "ShmemHugePages:") - huge0);
		/* each zeroed whole by its fault */
		check(!nonzero(p, SIZE), "huge: every page zero");
	} else
		check(0, "huge: MADV_POPULATE_WRITE: %s", strerror(errno));
	if (p != MAP_FAILED)
		munmap(p, SIZE);
	close(fd);
out:
	umount(dir);
	rmdir(dir);
}

#define KPF_REFERENCED	2
#define KPF_ACTIVE	6

/*
 * kpageflags of the folio behind each page of [p, p + len): the pages with
 * flag @set and without flag @clear; -1 if a PFN or its flags cannot be read.
 */
static long flagged(char *p, unsigned long len, int set, int clear)
{
	int pm = open("/proc/self/pagemap", O_RDONLY);
	int kf = open("/proc/kpageflags", O_RDONLY);
	uint64_t e, f;
	unsigned long i;
	long n = 0;

	for (i = 0; pm >= 0 && kf >= 0 && i < len; i += PAGE) {
		if (pread(pm, &e, sizeof(e),
			  ((uintptr_t)p + i) / PAGE * sizeof(e)) != sizeof(e) ||
		    !(e >> 63) || !(e & ((1ULL << 55) - 1)) ||
		    pread(kf, &f, sizeof(f),
			  (e & ((1ULL << 55) - 1)) * sizeof(f)) != sizeof(f)) {
			n = -1;
			break;
		}
		n += (f >> set & 1) && !(f >> clear & 1);
	}
	if (pm < 0 || kf < 0)
		n = -1;
	if (pm >= 0)
		close(pm);
	if (kf >= 0)
		close(kf);
	return n;
}

static void test_lru(void)
{
	const char *gen = "/sys/kernel/mm/lru_gen/enabled";
	int fd, had_gen = access(gen, F_OK) == 0;
	char old[32];
	long got;
	char *p;

	/* Multi-gen LRU keeps no active flag: the classic LRU for this. */
	if (had_gen) {
		FILE *f = fopen(gen, "r");

		if (!f || !fgets(old, sizeof(old), f)) {
			check(0, "lru: read %s", gen);
			if (f)
				fclose(f);
			return;
		}
		fclose(f);
		if (put(gen, "0")) {
			check(0, "lru: cannot turn the multi-gen LRU off");
			return;
		}
	}
	fd = memfd(0, SIZE);
	p = fd < 0 ? MAP_FAILED : mmap(NULL, SIZE, PROT_READ | PROT_WRITE,
				       MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		check(0, "lru: memfd mapping: %s", strerror(errno));
	} else {
		/* which drains this CPU's LRU batches before it returns */
		check(!madvise(p, SIZE, MADV_POPULATE_WRITE),
		      "lru: MADV_POPULATE_WRITE");
		got = flagged(p, SIZE, KPF_REFERENCED, KPF_ACTIVE);
		check(got == (long)(SIZE / PAGE),
		      "lru: %ld of %lu populated pages referenced and inactive (active: %ld)",
		      got, SIZE / PAGE, flagged(p, SIZE, KPF_ACTIVE, 63));
		munmap(p, SIZE);
	}
	if (fd >= 0)
		close(fd);
	if (had_gen && put(gen, old))
		check(0, "lru: cannot restore %s to %s", gen, old);
}

int main(void)
{
	test_populate();
	test_swapped();
	test_eof();
	test_sealed();
	test_mtime();
	test_uffd();
	test_huge();
	test_lru();
	printf("# %d checks, %d failed\n", n, failed);
	return failed ? 1 : 0;
}
