// SPDX-License-Identifier: GPL-2.0
/*
 * popbench: time the population of memory through the kernel's paths, the
 * userspace side of 'make bench' (scripts/bench.sh runs it in the base and
 * in the patched kernel).
 *
 * Each sample creates an object (mapping, memfd, file, guest_memfd), times
 * only its population, then tears it down outside the timing. The source of
 * every copy is a buffer populated and touched beforehand, but for the
 * gmem-write-file-mmap, gmem-sendfile, gmem-copy-file-range and
 * gmem-file-mmap-memcpy rows, which restore a snapshot file (a memfd written
 * before the sample): from a fresh mapping of it, whose pages the copy faults
 * in, or from the file. Warm-up rounds
 * come first and are reported as WARMUP; then the selected paths take turns,
 * one sample each per round.
 *
 * Usage: popbench [-s MIB] [-r REPS] [-w WARMUP] [-p NAME[,NAME...]] [-t] [-l]
 *   -s  size of each object in MiB (default 512)
 *   -r  samples per path (default 5)
 *   -w  warm-up samples per path, discarded (default 1)
 *   -p  only the paths whose name starts with one of NAMEs; a NAME that
 *       ends with "." is the whole name ("vgem-mmap." is not vgem-mmap-again)
 *   -t  first write to all free memory but 256 MiB, once (in a guest)
 *   -l  list the paths and exit
 *
 * Output, one line each (the ones scripts/bench-report.py reads):
 *   POPBENCH release=R version=V mib=S reps=N warmup=N
 *   INFO KEY=VALUE
 *   WARMUP|SAMPLE path=NAME rep=N ns=NS bytes=B
 *   NA path=NAME reason=WHY	the running kernel lacks the path
 *   ERROR path=NAME reason=WHY	the path failed; it is not run again
 *   POPBENCH-DONE errors=N
 * Exit status: 0, or 1 if any path failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <linux/fs.h>
#include <linux/kvm.h>
#include <linux/magic.h>
#include <linux/udmabuf.h>
#include <drm/drm.h>
#include <drm/drm_mode.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
/* guest_memfd write() support, added by the series */
#ifndef GUEST_MEMFD_FLAG_WRITE
#define GUEST_MEMFD_FLAG_WRITE (1ULL << 2)
#endif

enum { OK = 0, NA = 1, FAIL = 2 };

static size_t size;
static char *src;
static char reason[160];

static int kvm_fd = -1, vm_fd = -1;
static uint64_t gmem_flags;		/* KVM_CAP_GUEST_MEMFD_FLAGS of vm_fd */
static int udmabuf_fd = -1;
static int drm_fd[2] = { -2, -2 };	/* vgem, vkms; -2: not looked for yet */
static char mnt_dir[3][64];	/* tmpfs huge=always, huge=within_size, ramfs */

static int na(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	return NA;
}

/* A failure: what failed and errno's name. */
static int fail(const char *what)
{
	snprintf(reason, sizeof(reason), "%s:%s", what, strerrorname_np(errno) ?: "?");
	return FAIL;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void *map(int prot_flags, int fd)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, prot_flags, fd, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* Populate and touch a buffer of the size. */
static void populate(char *p)
{
	madvise(p, size, MADV_POPULATE_WRITE);
	memset(p, 0x5a, size);
}

/*
 * Populate one of popbench's own private buffers, which the rows' child
 * processes do not inherit: a fork would make every page copy-on-write,
 * and the next memset or memcpy sample would pay a fault per page.
 */
static void populate_own(char *p)
{
	madvise(p, size, MADV_DONTFORK);
	populate(p);
}

/*
 * Write to all free memory once, a chunk at a time, and free it again: the
 * first touch of guest memory costs the host a page fault (QEMU allocates
 * guest RAM lazily), which would land in whichever sample got the page.
 */
static void pretouch(void)
{
	const size_t chunk = 64 << 20;
	unsigned long long kib = 0, n = 0;
	char line[128], *p, **maps;
	FILE *f = fopen("/proc/meminfo", "r");
	uint64_t t = now_ns();

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemFree: %llu kB", &kib) == 1)
			break;
	if (f)
		fclose(f);
	kib = kib > 256 << 10 ? kib - (256 << 10) : 0;	/* leave 256 MiB */
	maps = calloc(kib / (chunk >> 10) + 1, sizeof(*maps));
	for (; maps && n < kib / (chunk >> 10); n++) {
		p = mmap(NULL, chunk, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			break;
		maps[n] = p;
		if (madvise(p, chunk, MADV_POPULATE_WRITE))
			memset(p, 0, chunk);
	}
	printf("INFO pretouch_mib=%llu pretouch_ms=%llu\n", n * (chunk >> 20),
	       (unsigned long long)(now_ns() - t) / 1000000);
	while (n)
		munmap(maps[--n], chunk);
	free(maps);
}

/* write() the size from buf to fd, as many calls as the kernel wants. */
static int write_buf(int fd, const char *buf)
{
	size_t done = 0;

	while (done < size) {
		ssize_t n = write(fd, buf + done, size - done);

		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			return -1;
		}
		done += n;
	}
	return 0;
}

static int write_all(int fd)
{
	return write_buf(fd, src);
}

/* write_all() from the start of the file, wherever its offset is. */
static int pwrite_all(int fd)
{
	return lseek(fd, 0, SEEK_SET) ? -1 : write_all(fd);
}

/* --- the paths ---------------------------------------------------------------- */

/*
 * memset / memcpy into an already populated buffer: the physical limit. The
 * buffer is kept from sample to sample (populating it is slow on UML).
 */
static char *populated_dst(void)
{
	static char *dst;

	if (!dst) {
		dst = map(MAP_PRIVATE | MAP_ANONYMOUS, -1);
		if (dst)
			populate_own(dst);
	}
	return dst;
}

static int copy_populated(uint64_t *ns, int copy)
{
	char *dst = populated_dst();
	uint64_t t;

	if (!dst)
		return fail("mmap");
	t = now_ns();
	if (copy)
		memcpy(dst, src, size);
	else
		memset(dst, 0x5a, size);
	*ns = now_ns() - t;
	return OK;
}

static int p_memset(uint64_t *ns)
{
	return copy_populated(ns, 0);
}

static int p_memcpy(uint64_t *ns)
{
	return copy_populated(ns, 1);
}

/*
 * MADV_POPULATE_WRITE of a mapping; fd < 0: anonymous. ADVICE: an madvise()
 * made first, untimed, or 0.
 */
static int populate_write(uint64_t *ns, int flags, int fd, int advice)
{
	char *p = map(flags, fd);
	uint64_t t;
	int ret = OK;

	if (!p)
		return fail("mmap");
	if (advice && madvise(p, size, advice)) {
		int err = errno;

		munmap(p, size);
		/* MADV_NOHUGEPAGE without THP (UML): the row is the plain one */
		if (err == EINVAL && advice == MADV_NOHUGEPAGE)
			return na("no THP: MADV_NOHUGEPAGE is EINVAL");
		return fail("madvise advice");
	}
	t = now_ns();
	if (madvise(p, size, MADV_POPULATE_WRITE))
		ret = errno == EINVAL ? na("no MADV_POPULATE_WRITE") : fail("madvise");
	*ns = now_ns() - t;
	munmap(p, size);
	return ret;
}

static int p_anon_private(uint64_t *ns)
{
	return populate_write(ns, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

/*
 * Private anonymous memory in order-0 folios only, as shared anonymous
 * memory gets with shmem_enabled=never: the like-for-like reference of
 * anon-shared-populate where anonymous THP is enabled.
 */
static int p_anon_private_nohuge(uint64_t *ns)
{
	return populate_write(ns, MAP_PRIVATE | MAP_ANONYMOUS, -1,
			      MADV_NOHUGEPAGE);
}

static int p_anon_shared(uint64_t *ns)
{
	return populate_write(ns, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
}

/* fallocate() of a new memfd; AGAIN: of one fallocated before, untimed. */
static int memfd_fallocate(uint64_t *ns, int again)
{
	int fd = memfd_create("popbench", 0), ret = OK;
	uint64_t t;

	if (fd < 0)
		return fail("memfd_create");
	if (again && fallocate(fd, 0, 0, size))
		ret = fail("fallocate");
	t = now_ns();
	if (ret == OK && fallocate(fd, 0, 0, size))
		ret = fail("fallocate");
	*ns = now_ns() - t;
	close(fd);
	return ret;
}

static int p_memfd_fallocate(uint64_t *ns)
{
	return memfd_fallocate(ns, 0);
}

/* Every index holds a folio: no hole, shmem_get_folio() for each. */
static int p_memfd_fallocate_again(uint64_t *ns)
{
	return memfd_fallocate(ns, 1);
}

/* write() to a new memfd; AGAIN: to one written before, untimed. */
static int memfd_write(uint64_t *ns, int again)
{
	int fd = memfd_create("popbench", 0), ret = OK;
	uint64_t t;

	if (fd < 0)
		return fail("memfd_create");
	if (again && write_all(fd))
		ret = fail("write");
	t = now_ns();
	if (ret == OK && pwrite_all(fd))
		ret = fail("write");
	*ns = now_ns() - t;
	close(fd);
	return ret;
}

static int p_memfd_write(uint64_t *ns)
{
	return memfd_write(ns, 0);
}

/*
 * Every page is there: the copy and the lookup of present folios, without
 * allocation. What memfd-write takes beyond it is the population.
 */
static int p_memfd_overwrite(uint64_t *ns)
{
	return memfd_write(ns, 1);
}

static int p_memfd_populate(uint64_t *ns)
{
	int fd = memfd_create("popbench", 0), ret;

	if (fd < 0)
		return fail("memfd_create");
	if (ftruncate(fd, size))
		ret = fail("ftruncate");
	else
		ret = populate_write(ns, MAP_SHARED, fd, 0);
	close(fd);
	return ret;
}

/*
 * vm-scalability's case-shm-pread-seq, as the 0-day robot runs it: a
 * sparse tmpfs file of twice the size, mapped MAP_PRIVATE and PROT_READ by
 * TASKS processes, each reading every word of its first half in order (the
 * case's usemem --readonly). Every page comes from a read fault on a
 * shmem hole: shmem_fault() and the single-folio page cache path. The
 * sample is the time from the start of the reads until every task is done.
 */
static int shm_pread_seq(uint64_t *ns, int tasks)
{
	int fd = memfd_create("popbench", 0), go[2], done[2], ret = OK, i;
	int status;
	pid_t pid[2];
	uint64_t t = 0;
	char c = 0;

	if (fd < 0)
		return fail("memfd_create");
	if (ftruncate(fd, 2 * size)) {
		close(fd);
		return fail("ftruncate");
	}
	if (pipe(go)) {
		close(fd);
		return fail("pipe");
	}
	if (pipe(done)) {
		close(go[0]);
		close(go[1]);
		close(fd);
		return fail("pipe");
	}
	for (i = 0; i < tasks; i++) {
		pid[i] = fork();
		if (pid[i] < 0) {
			ret = fail("fork");
			tasks = i;
			break;
		}
		if (!pid[i]) {
			const volatile unsigned long *p;
			unsigned long sum = 0;
			size_t j;

			close(go[1]);
			close(done[0]);
			p = mmap(NULL, 2 * size, PROT_READ, MAP_PRIVATE, fd, 0);
			/* mapped: tell the parent, wait for its go */
			if (p == MAP_FAILED || write(done[1], &c, 1) != 1 ||
			    read(go[0], &c, 1) != 0)
				_exit(1);
			for (j = 0; j < size / sizeof(*p); j++)
				sum += p[j];
			/* done reading: the sample ends before the exit */
			_exit(sum != 0 || write(done[1], &c, 1) != 1);
		}
	}
	close(go[0]);
	close(done[1]);
	/* every child has mapped the file: the sample is the reads alone */
	for (i = 0; i < tasks && ret == OK; i++)
		if (read(done[0], &c, 1) != 1)
			ret = fail("a reading task died");
	t = now_ns();
	close(go[1]);	/* EOF: every child starts */
	for (i = 0; i < tasks && ret == OK; i++)
		if (read(done[0], &c, 1) != 1)
			ret = fail("a reading task died");
	*ns = now_ns() - t;
	close(done[0]);
	for (i = 0; i < tasks; i++)
		if (waitpid(pid[i], &status, 0) != pid[i] ||
		    !WIFEXITED(status) || WEXITSTATUS(status))
			ret = ret == OK ? fail("a reading task failed") : ret;
	close(fd);
	return ret;
}

static int p_shm_pread_seq(uint64_t *ns)
{
	return shm_pread_seq(ns, 1);
}

static int p_shm_pread_seq_2p(uint64_t *ns)
{
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return na("one CPU");
	return shm_pread_seq(ns, 2);
}

#define MTHP_DIR "/sys/kernel/mm/transparent_hugepage/"
#define MTHP64 MTHP_DIR "hugepages-64kB/"

static int sysfs_write(const char *file, const char *val)
{
	FILE *f = fopen(file, "w");
	int ok;

	if (!f)
		return -1;
	ok = fputs(val, f) >= 0;
	return fclose(f) == 0 && ok ? 0 : -1;
}

static unsigned long long sysfs_ull(const char *file)
{
	unsigned long long v = 0;
	FILE *f = fopen(file, "r");

	if (f) {
		if (fscanf(f, "%llu", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v;
}

/* The bracketed word of a sysfs choice such as "always inherit [never]". */
static int sysfs_choice(const char *file, char *buf, size_t len)
{
	char line[256] = "", *l, *r;
	FILE *f = fopen(file, "r");

	if (!f)
		return -1;
	if (!fgets(line, sizeof(line), f))
		line[0] = 0;
	fclose(f);
	l = strchr(line, '[');
	r = l ? strchr(l, ']') : NULL;
	if (!r || (size_t)(r - l) > len)
		return -1;
	*r = 0;
	strcpy(buf, l + 1);
	return 0;
}

#define MTHP_SIZES 16

/*
 * Run FN (a row's population) with 64 KiB mTHP the only large size: KNOB
 * ("enabled" for anonymous memory, "shmem_enabled" for shmem) "always" for
 * 64 KiB and "never" for every other size, each given its setting back
 * after.  The row is n/a unless the sample allocated at least half of its
 * size as 64 KiB folios (STAT, the mTHP counter).
 */
static int with_mthp64(uint64_t *ns, const char *knob, const char *stat,
		       int (*fn)(uint64_t *ns))
{
	char pat[128], sfile[160], old[MTHP_SIZES][32];
	unsigned long long before, got;
	int ret = OK, err = 0;
	size_t i, n;
	glob_t g;

	snprintf(pat, sizeof(pat), MTHP_DIR "hugepages-*kB/%s", knob);
	snprintf(sfile, sizeof(sfile), MTHP64 "stats/%s", stat);
	if (access(sfile, R_OK) || glob(pat, 0, NULL, &g))
		return na("no 64K mTHP (%s)", sfile);
	n = g.gl_pathc;
	for (i = 0; i < n && !err; i++)
		err = i >= MTHP_SIZES ||
		      sysfs_choice(g.gl_pathv[i], old[i], sizeof(old[i]));
	if (err) {
		globfree(&g);
		return fail("read the mTHP settings");
	}
	for (i = 0; i < n && !err; i++)
		err = sysfs_write(g.gl_pathv[i],
				  strstr(g.gl_pathv[i], "-64kB/") ? "always" : "never");
	if (err) {
		ret = fail("write the mTHP settings");
	} else {
		before = sysfs_ull(sfile);
		ret = fn(ns);
		got = sysfs_ull(sfile) - before;
		if (ret == OK && got < size / (64 << 10) / 2)
			ret = na("%llu 64K folios of %zu", got, size / (64 << 10));
	}
	for (i = 0; i < n; i++)
		if (sysfs_write(g.gl_pathv[i], old[i]) && ret != FAIL)
			ret = fail("restore the mTHP settings");
	globfree(&g);
	return ret;
}

static int p_anon_private_64k(uint64_t *ns)
{
	return with_mthp64(ns, "enabled", "anon_fault_alloc", p_anon_private);
}

static int p_anon_shared_64k(uint64_t *ns)
{
	return with_mthp64(ns, "shmem_enabled", "shmem_alloc", p_anon_shared);
}

/* (fallocate() takes no per-size setting: only a tmpfs mount's huge=.) */
static int p_memfd_64k_populate(uint64_t *ns)
{
	return with_mthp64(ns, "shmem_enabled", "shmem_alloc", p_memfd_populate);
}

/*
 * fallocate() of a new memfd, then MADV_POPULATE_WRITE of its MAP_SHARED
 * mapping, timed together: what a VMM gets from user space today where
 * memfd-populate-write allocates a folio per fault.
 */
static int p_memfd_fallocate_populate(uint64_t *ns)
{
	int fd = memfd_create("popbench", 0), ret = OK;
	uint64_t t;
	char *p;

	if (fd < 0)
		return fail("memfd_create");
	if (ftruncate(fd, size)) {
		close(fd);
		return fail("ftruncate");
	}
	p = map(MAP_SHARED, fd);
	if (!p) {
		close(fd);
		return fail("mmap");
	}
	t = now_ns();
	if (fallocate(fd, 0, 0, size))
		ret = fail("fallocate");
	else if (madvise(p, size, MADV_POPULATE_WRITE))
		ret = fail("madvise");
	*ns = now_ns() - t;
	munmap(p, size);
	close(fd);
	return ret;
}

/* mmap(MAP_SHARED | MAP_POPULATE) of a new memfd: read faults, fault-around. */
static int p_memfd_map_populate(uint64_t *ns)
{
	int fd = memfd_create("popbench", 0), ret = OK;
	uint64_t t;
	char *p;

	if (fd < 0)
		return fail("memfd_create");
	if (ftruncate(fd, size)) {
		ret = fail("ftruncate");
		goto out;
	}
	t = now_ns();
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, 0);
	*ns = now_ns() - t;
	if (p == MAP_FAILED)
		ret = fail("mmap");
	else
		munmap(p, size);
out:
	close(fd);
	return ret;
}

/*
 * Open a new file on the file system of type FSTYPE mounted at mnt_dir[i],
 * mounting it the first time.  Returns the descriptor, or -1 with *ret set.
 */
static int fs_open(int *ret, int i, const char *fstype, const char *opts)
{
	char file[80];
	int fd;

	if (!mnt_dir[i][0]) {
		snprintf(mnt_dir[i], sizeof(mnt_dir[i]), "/tmp/popbench.XXXXXX");
		if (!mkdtemp(mnt_dir[i])) {
			mnt_dir[i][0] = 0;
			*ret = fail("mkdtemp");
			return -1;
		}
		if (mount(fstype, mnt_dir[i], fstype, 0, opts)) {
			*ret = na("mount -t %s -o %s: %s", fstype, opts ?: "",
				  strerrorname_np(errno) ?: "?");
			rmdir(mnt_dir[i]);
			mnt_dir[i][0] = 0;
			return -1;
		}
	}
	snprintf(file, sizeof(file), "%s/f", mnt_dir[i]);
	fd = open(file, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		*ret = fail("open");
	else
		unlink(file);
	return fd;
}

/* write() to a new file of a file system of type FSTYPE, mounted at mnt_dir[i]. */
static int fs_write(uint64_t *ns, int i, const char *fstype, const char *opts)
{
	int fd, ret = OK;
	uint64_t t;

	fd = fs_open(&ret, i, fstype, opts);
	if (fd < 0)
		return ret;
	t = now_ns();
	if (write_all(fd))
		ret = fail("write");
	*ns = now_ns() - t;
	close(fd);
	return ret;
}

/* write() to a new file of a tmpfs mounted with huge=HUGE. */
static int tmpfs_write(uint64_t *ns, int i, const char *huge)
{
	char opts[64];

	snprintf(opts, sizeof(opts), "huge=%s,size=%zuk", huge, size / 1024 * 2);
	return fs_write(ns, i, "tmpfs", opts);
}

static int p_tmpfs_always(uint64_t *ns)
{
	return tmpfs_write(ns, 0, "always");
}

static int p_tmpfs_within_size(uint64_t *ns)
{
	return tmpfs_write(ns, 1, "within_size");
}

/*
 * MADV_POPULATE_WRITE of a MAP_SHARED mapping of a new file of the
 * huge=always tmpfs: PMD-sized folios, each zeroed whole by the fault.
 */
static int p_tmpfs_always_populate(uint64_t *ns)
{
	char opts[64];
	int fd, ret = OK;

	snprintf(opts, sizeof(opts), "huge=always,size=%zuk", size / 1024 * 2);
	fd = fs_open(&ret, 0, "tmpfs", opts);
	if (fd < 0)
		return ret;
	if (ftruncate(fd, size))
		ret = fail("ftruncate");
	else
		ret = populate_write(ns, MAP_SHARED, fd, 0);
	close(fd);
	return ret;
}

/*
 * write() to a new file of a ramfs: a page cache populated one
 * __filemap_get_folio() at a time (simple_write_begin()), the single-folio
 * path that shares its creation code with the batch.
 */
static int p_ramfs_write(uint64_t *ns)
{
	return fs_write(ns, 2, "ramfs", NULL);
}

/*
 * The file of a read row, written once with the source buffer's data: the
 * data stays in the device, only its page cache is dropped (after the
 * write, and POSIX_FADV_DONTNEED before and after each sample). Returns the
 * descriptor, -1 with the row's state in *ret.
 */
static int read_file(int *fdp, const char *path, int flags, int *ret)
{
	unsigned long long bytes = 0;
	struct stat st;
	int fd = *fdp;

	if (fd >= 0)
		return fd;
	fd = open(path, O_RDWR | flags, 0600);
	if (fd < 0) {
		*ret = na("%s: %s", path, strerrorname_np(errno) ?: "?");
		return -1;
	}
	if (fstat(fd, &st) || (S_ISBLK(st.st_mode) &&
			       ioctl(fd, BLKGETSIZE64, &bytes))) {
		*ret = fail("stat");
	} else if (S_ISBLK(st.st_mode) && bytes < size) {
		*ret = na("%s has %llu bytes (brd.rd_size=)", path, bytes);
	} else if (write_all(fd) || fsync(fd)) {
		*ret = fail("write");
	} else {
		*fdp = fd;
		return fd;
	}
	close(fd);
	return -1;
}

/*
 * Drop the page cache of fd's first size bytes before a timed read.
 * POSIX_FADV_DONTNEED skips folios that another CPU's LRU batch still
 * holds, and a read that finds them cached is no population: check with
 * cachestat() (where the kernel has CONFIG_CACHESTAT_SYSCALL), try again,
 * then drop_caches; fail the sample if pages stay.
 */
static int drop_cached(int fd)
{
	struct { uint64_t off, len; } range = { 0, size };
	struct { uint64_t nr_cache, nr_dirty, nr_writeback, nr_evicted,
		 nr_recently_evicted; } cs;
	int i;

	for (i = 0; i < 8; i++) {
		errno = posix_fadvise(fd, 0, size, POSIX_FADV_DONTNEED);
		if (errno)
			return fail("fadvise");
		if (syscall(451 /* __NR_cachestat */, fd, &range, &cs, 0))
			/* CONFIG_CACHESTAT_SYSCALL=n: fadvise alone, as before */
			return errno == ENOSYS ? OK : fail("cachestat");
		if (!cs.nr_cache)
			return OK;
		if (i >= 3) {
			int dc = open("/proc/sys/vm/drop_caches", O_WRONLY);

			sync();
			if (dc >= 0) {
				(void)!write(dc, "1", 1);
				close(dc);
			}
		}
		usleep(10000);
	}
	errno = EBUSY;
	snprintf(reason, sizeof(reason), "%llu pages of the file stay cached",
		 (unsigned long long)cs.nr_cache);
	return FAIL;
}

/* Read the whole file into dst with read() calls as large as it takes. */
static int read_all(uint64_t *ns, int fd)
{
	char *dst = populated_dst();
	size_t done = 0;
	uint64_t t;

	if (!dst)
		return fail("mmap");
	if (drop_cached(fd))
		return FAIL;
	if (lseek(fd, 0, SEEK_SET))
		return fail("lseek");
	t = now_ns();
	while (done < size) {
		ssize_t n = read(fd, dst + done, size - done);

		if (n <= 0)
			return fail("read");
		done += n;
	}
	*ns = now_ns() - t;
	posix_fadvise(fd, 0, size, POSIX_FADV_DONTNEED);
	return OK;
}

/*
 * read() of a RAM block device (brd, /dev/ram0, sized by brd.rd_size= on
 * the command line) with its page cache dropped: every folio comes from
 * readahead, order 0 (a block device's page cache has no large folios):
 * page_cache_ra_unbounded().
 */
static int p_bdev_read(uint64_t *ns)
{
	static int fd = -1;
	int ret = OK;

	if (read_file(&fd, "/dev/ram0", 0, &ret) < 0)
		return ret;
	return read_all(ns, fd);
}

/* read() [off, off + len) of fd into dst + off. */
static int read_range(int fd, char *dst, size_t off, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pread(fd, dst + off + done, len - done, off + done);

		if (n <= 0)
			return -1;
		done += n;
	}
	return 0;
}

/*
 * bdev-read by two processes at once, each reading half of the device
 * through a file of its own: two readahead streams that insert into the
 * same page cache, contending for its i_pages lock (x86_64, 2 vCPUs).
 */
static int p_bdev_read_2(uint64_t *ns)
{
	static int fd = -1;
	static char *dst;	/* shared: the child writes without faults */
	int go[2], ret = OK, status, fd2;
	size_t half = size / 2;
	uint64_t t;
	pid_t pid;
	char c = 0;

	if (read_file(&fd, "/dev/ram0", 0, &ret) < 0)
		return ret;
	if (!dst) {
		dst = map(MAP_SHARED | MAP_ANONYMOUS, -1);
		if (!dst)
			return fail("mmap");
		populate(dst);
	}
	if (drop_cached(fd))
		return FAIL;
	if (pipe(go))
		return fail("pipe");
	pid = fork();
	if (pid < 0)
		return fail("fork");
	if (!pid) {
		fd2 = open("/dev/ram0", O_RDONLY);
		close(go[1]);
		if (fd2 < 0 || read(go[0], &c, 1) != 1)
			_exit(1);
		_exit(read_range(fd2, dst, half, size - half) ? 1 : 0);
	}
	close(go[0]);
	t = now_ns();
	if (write(go[1], &c, 1) != 1 || read_range(fd, dst, 0, half))
		ret = fail("read");
	close(go[1]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		ret = ret ?: fail("child");
	*ns = now_ns() - t;
	posix_fadvise(fd, 0, size, POSIX_FADV_DONTNEED);
	return ret;
}

/*
 * bdev-read with the device in the page cache: the copy to user space
 * alone, which the rows above also pay; what they take on top of it is
 * the page cache's population and brd's copy.
 */
static int p_bdev_read_cached(uint64_t *ns)
{
	static int fd = -1;
	char *dst = populated_dst();
	int ret = OK;
	size_t done = 0;
	uint64_t t;

	if (read_file(&fd, "/dev/ram0", 0, &ret) < 0)
		return ret;
	if (!dst)
		return fail("mmap");
	if (pread(fd, dst, size, 0) != (ssize_t)size)	/* cache it */
		return fail("pread");
	t = now_ns();
	while (done < size) {
		ssize_t n = pread(fd, dst + done, size - done, done);

		if (n <= 0)
			return fail("pread");
		done += n;
	}
	*ns = now_ns() - t;
	posix_fadvise(fd, 0, size, POSIX_FADV_DONTNEED);
	return OK;
}

/*
 * 4 KiB pread()s of /dev/ram0 at every page offset in a random order, with
 * POSIX_FADV_RANDOM (no readahead window) and the page cache dropped: each
 * is a readahead of one folio, the single-folio case of the readahead rows.
 */
static int p_bdev_read_random(uint64_t *ns)
{
	static int fd = -1;
	static uint32_t *order;
	size_t pages = size / 4096, i;
	char *dst = populated_dst();
	int ret = OK;
	uint64_t t;

	if (read_file(&fd, "/dev/ram0", 0, &ret) < 0)
		return ret;
	if (!dst)
		return fail("mmap");
	if (!order) {
		uint32_t x = 1;

		order = malloc(pages * sizeof(*order));
		if (!order)
			return fail("malloc");
		for (i = 0; i < pages; i++)
			order[i] = i;
		for (i = pages - 1; i > 0; i--) {	/* Fisher-Yates, xorshift */
			uint32_t j, tmp;

			x ^= x << 13;
			x ^= x >> 17;
			x ^= x << 5;
			j = x % (i + 1);
			tmp = order[i];
			order[i] = order[j];
			order[j] = tmp;
		}
	}
	if (drop_cached(fd))
		return FAIL;
	if (posix_fadvise(fd, 0, size, POSIX_FADV_RANDOM))
		return fail("fadvise");
	t = now_ns();
	for (i = 0; i < pages; i++)
		if (pread(fd, dst + i * 4096, 4096,
			  (off_t)order[i] * 4096) != 4096)
			return fail("pread");
	*ns = now_ns() - t;
	posix_fadvise(fd, 0, size, POSIX_FADV_NORMAL);
	posix_fadvise(fd, 0, size, POSIX_FADV_DONTNEED);
	return OK;
}

/*
 * read() of a file of ext4, a filesystem with large folios, on a second
 * RAM block device (/dev/ram1), made and mounted on /mnt/ext4 by the
 * x86_64 guest's bench/run: readahead in folios of growing orders,
 * page_cache_ra_order().
 */
static int p_ext4_read(uint64_t *ns)
{
	static int fd = -1;
	struct statfs sfs;
	int ret = OK;

	if (statfs("/mnt/ext4", &sfs) || sfs.f_type != EXT4_SUPER_MAGIC)
		return na("no ext4 on /mnt/ext4");
	if (read_file(&fd, "/mnt/ext4/file", O_CREAT, &ret) < 0)
		return ret;
	return read_all(ns, fd);
}

/* A VM for guest_memfd, once; its guest_memfd flags in gmem_flags. */
static int kvm_vm(void)
{
	int r;

	if (vm_fd >= 0)
		return OK;
	if (kvm_fd < 0) {
		kvm_fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
		if (kvm_fd < 0)
			return na("no /dev/kvm (%s)", strerrorname_np(errno) ?: "?");
	}
	vm_fd = ioctl(kvm_fd, KVM_CREATE_VM, 0);
	if (vm_fd < 0)
		return na("KVM_CREATE_VM: %s", strerrorname_np(errno) ?: "?");
	r = ioctl(vm_fd, KVM_CHECK_EXTENSION, KVM_CAP_GUEST_MEMFD_FLAGS);
	gmem_flags = r > 0 ? r : 0;
	return OK;
}

/* A guest_memfd of the size, mappable and shared, with EXTRA flags. */
static int gmem_create(int *fd, uint64_t extra)
{
	uint64_t flags = GUEST_MEMFD_FLAG_MMAP | GUEST_MEMFD_FLAG_INIT_SHARED | extra;
	struct kvm_create_guest_memfd gmem = { .size = size, .flags = flags };
	int ret = kvm_vm();

	if (ret)
		return ret;
	if (flags & ~gmem_flags & GUEST_MEMFD_FLAG_WRITE)
		return na("no GUEST_MEMFD_FLAG_WRITE (KVM_CAP_GUEST_MEMFD_FLAGS 0x%llx)",
			  (unsigned long long)gmem_flags);
	if (flags & ~gmem_flags)
		return na("KVM_CAP_GUEST_MEMFD_FLAGS 0x%llx lacks 0x%llx",
			  (unsigned long long)gmem_flags,
			  (unsigned long long)(flags & ~gmem_flags));
	*fd = ioctl(vm_fd, KVM_CREATE_GUEST_MEMFD, &gmem);
	return *fd < 0 ? fail("KVM_CREATE_GUEST_MEMFD") : OK;
}

/*
 * fallocate() of a guest_memfd in calls of CHUNK bytes (the whole object
 * with 0): the small calls are will-it-scale's fallocate1 pattern, where a
 * batch must not cost more than the page-at-a-time path.
 */
static int gmem_fallocate(uint64_t *ns, size_t chunk)
{
	int fd, ret = gmem_create(&fd, 0);
	size_t off, len = chunk ? chunk : size;
	uint64_t t;

	if (ret)
		return ret;
	t = now_ns();
	for (off = 0; off < size && !ret; off += len)	/* guest_memfd's only mode */
		if (fallocate(fd, FALLOC_FL_KEEP_SIZE, off, len))
			ret = fail("fallocate");
	*ns = now_ns() - t;
	close(fd);
	return ret;
}

static int p_gmem_fallocate(uint64_t *ns)
{
	return gmem_fallocate(ns, 0);
}

static int p_gmem_fallocate_4k(uint64_t *ns)
{
	return gmem_fallocate(ns, 4096);
}

static int p_gmem_fallocate_8k(uint64_t *ns)
{
	return gmem_fallocate(ns, 8192);
}

static int p_gmem_write(uint64_t *ns)
{
	int fd, ret = gmem_create(&fd, GUEST_MEMFD_FLAG_WRITE);
	uint64_t t;

	if (ret)
		return ret;
	t = now_ns();
	if (write_all(fd))
		ret = fail("write");
	*ns = now_ns() - t;
	close(fd);
	return ret;
}

/* write() of a guest_memfd a page per call. */
static int p_gmem_write_4k(uint64_t *ns)
{
	int fd, ret = gmem_create(&fd, GUEST_MEMFD_FLAG_WRITE);
	size_t off;
	uint64_t t;

	if (ret)
		return ret;
	t = now_ns();
	for (off = 0; off < size && !ret; off += 4096)
		if (pwrite(fd, src + off, 4096, off) != 4096)
			ret = fail("pwrite");
	*ns = now_ns() - t;
	close(fd);
	return ret;
}

/*
 * The snapshot a VMM restores guest memory from: a tmpfs file (a memfd)
 * holding src, written before the sample and freed after it.
 */
static int snapshot(int *sfd)
{
	*sfd = memfd_create("popbench-snapshot", 0);
	if (*sfd < 0)
		return fail("memfd_create");
	if (write_all(*sfd)) {
		close(*sfd);
		return fail("write to the snapshot");
	}
	return OK;
}

enum restore { RESTORE_WRITE_MMAP, RESTORE_SENDFILE, RESTORE_COPY_FILE_RANGE,
	       RESTORE_MMAP_MEMCPY };

/*
 * Restore a snapshot into a new guest_memfd: write() from a fresh mapping
 * of the snapshot (every source page is faulted in by the write), sendfile()
 * or copy_file_range() from the snapshot file, or, the way without write(),
 * memcpy() from a fresh mapping of the snapshot into a mapping of the
 * guest_memfd.
 */
static int gmem_restore(uint64_t *ns, enum restore how)
{
	int fd, sfd, ret = gmem_create(&fd, how == RESTORE_MMAP_MEMCPY ? 0 :
				       GUEST_MEMFD_FLAG_WRITE);
	loff_t in = 0, out = 0;
	char *p = NULL, *g = NULL;
	uint64_t t;
	ssize_t n;

	if (ret)
		return ret;
	ret = snapshot(&sfd);
	if (ret)
		goto out;
	if (how == RESTORE_WRITE_MMAP || how == RESTORE_MMAP_MEMCPY) {
		p = mmap(NULL, size, PROT_READ, MAP_SHARED, sfd, 0);
		if (p == MAP_FAILED) {
			p = NULL;
			ret = fail("mmap of the snapshot");
			goto out_snapshot;
		}
	}
	if (how == RESTORE_MMAP_MEMCPY) {
		g = map(MAP_SHARED, fd);
		if (!g) {
			ret = fail("mmap");
			goto out_snapshot;
		}
	}
	t = now_ns();
	switch (how) {
	case RESTORE_WRITE_MMAP:
		if (write_buf(fd, p))
			ret = fail("write");
		break;
	case RESTORE_MMAP_MEMCPY:
		memcpy(g, p, size);
		break;
	case RESTORE_SENDFILE:
		while (in < (loff_t)size) {
			n = sendfile(fd, sfd, &in, size - in);
			if (n <= 0) {
				ret = fail("sendfile");
				break;
			}
		}
		break;
	case RESTORE_COPY_FILE_RANGE:
		while (in < (loff_t)size) {
			n = copy_file_range(sfd, &in, fd, &out, size - in, 0);
			if (n < 0 && errno == EXDEV) {
				ret = na("copy_file_range() between file systems: EXDEV");
				break;
			}
			if (n <= 0) {
				ret = fail("copy_file_range");
				break;
			}
		}
		break;
	}
	*ns = now_ns() - t;
	if (g)
		munmap(g, size);
out_snapshot:
	if (p)
		munmap(p, size);
	close(sfd);
out:
	close(fd);
	return ret;
}

static int p_gmem_write_file(uint64_t *ns)
{
	return gmem_restore(ns, RESTORE_WRITE_MMAP);
}

static int p_gmem_sendfile(uint64_t *ns)
{
	return gmem_restore(ns, RESTORE_SENDFILE);
}

static int p_gmem_copy_file_range(uint64_t *ns)
{
	return gmem_restore(ns, RESTORE_COPY_FILE_RANGE);
}

static int p_gmem_file_mmap_memcpy(uint64_t *ns)
{
	return gmem_restore(ns, RESTORE_MMAP_MEMCPY);
}

/* mmap + memcpy of a guest_memfd, after fallocate() if FALLOC. */
static int gmem_memcpy(uint64_t *ns, int falloc)
{
	int fd, ret = gmem_create(&fd, 0);
	uint64_t t;
	char *p;

	if (ret)
		return ret;
	p = map(MAP_SHARED, fd);
	if (!p) {
		ret = fail("mmap");
		goto out;
	}
	t = now_ns();
	if (falloc && fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, size))
		ret = fail("fallocate");
	else
		memcpy(p, src, size);
	*ns = now_ns() - t;
	munmap(p, size);
out:
	close(fd);
	return ret;
}

static int p_gmem_mmap_memcpy(uint64_t *ns)
{
	return gmem_memcpy(ns, 0);
}

static int p_gmem_fallocate_mmap_memcpy(uint64_t *ns)
{
	return gmem_memcpy(ns, 1);
}

/*
 * UDMABUF_CREATE on a whole memfd: memfd_pin_folios() populates what is not
 * populated yet. HALF writes every other 256 KiB first, untimed, so that
 * the pinning meets present folios and holes in turn. udmabuf's
 * size_limit_mb defaults to INT_MAX, so one call covers it.
 */
static int udmabuf_pin(uint64_t *ns, int half)
{
	struct udmabuf_create create = { .flags = UDMABUF_FLAGS_CLOEXEC, .size = size };
	const size_t chunk = 256 << 10;
	int fd, buf, ret = OK;
	uint64_t t;
	size_t off;

	if (udmabuf_fd < 0) {
		udmabuf_fd = open("/dev/udmabuf", O_RDWR | O_CLOEXEC);
		if (udmabuf_fd < 0)
			return na("no /dev/udmabuf (%s)", strerrorname_np(errno) ?: "?");
	}
	fd = memfd_create("popbench", MFD_ALLOW_SEALING);
	if (fd < 0)
		return fail("memfd_create");
	if (ftruncate(fd, size) || fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK)) {
		ret = fail("ftruncate/F_ADD_SEALS");
		goto out;
	}
	for (off = 0; half && off < size; off += 2 * chunk) {
		if (pwrite(fd, src + off, chunk, off) != (ssize_t)chunk) {
			ret = fail("pwrite");
			goto out;
		}
	}
	create.memfd = fd;
	t = now_ns();
	buf = ioctl(udmabuf_fd, UDMABUF_CREATE, &create);
	*ns = now_ns() - t;
	if (buf < 0)
		ret = fail("UDMABUF_CREATE");
	else
		close(buf);
out:
	close(fd);
	return ret;
}

static int p_udmabuf(uint64_t *ns)
{
	return udmabuf_pin(ns, 0);
}

static int p_udmabuf_half(uint64_t *ns)
{
	return udmabuf_pin(ns, 1);
}

/* The DRM node of the driver @drv, or -1. */
static int drm_open(const char *drv)
{
	char name[16], path[32];
	int i, fd;

	for (i = 0; i < 16; i++) {
		struct drm_version v = { .name = name, .name_len = sizeof(name) - 1 };

		snprintf(path, sizeof(path), "/dev/dri/card%d", i);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		memset(name, 0, sizeof(name));
		if (!ioctl(fd, DRM_IOCTL_VERSION, &v) && !strcmp(name, drv))
			return fd;
		close(fd);
	}
	return -1;
}

/*
 * A dumb buffer of the size, of vgem or vkms (@drv 0 or 1), two drivers on
 * the GEM shmem helpers, mmap()ed: drm_gem_shmem_mmap() pins the object's
 * pages with drm_gem_get_pages(), which reads the shmem object (zeroed
 * folios for a new one) into its page array, then, for vgem, which maps
 * write-combined, set_pages_array_wc() changes the pages' caching. The
 * mmap() is timed, no page is touched. AGAIN maps and unmaps the buffer
 * once first, untimed, so that the timed mmap() finds every folio present.
 */
static int drm_mmap(uint64_t *ns, int drv, int again)
{
	static const char *const name[] = { "vgem", "vkms" };
	struct drm_mode_create_dumb create = {
		.width = 1024, .height = size / 4096, .bpp = 32,
	};
	struct drm_mode_map_dumb mreq = { 0 };
	struct drm_mode_destroy_dumb dreq = { 0 };
	int ret = OK, round, fd;
	uint64_t t;
	void *p;

	if (drm_fd[drv] == -2)
		drm_fd[drv] = drm_open(name[drv]);
	fd = drm_fd[drv];
	if (fd < 0)
		return na("no %s DRM device", name[drv]);
	if (ioctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &create))
		return fail("DRM_IOCTL_MODE_CREATE_DUMB");
	if (create.size < size) {
		ret = fail("DRM_IOCTL_MODE_CREATE_DUMB size");
		goto out;
	}
	mreq.handle = create.handle;
	if (ioctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &mreq)) {
		ret = fail("DRM_IOCTL_MODE_MAP_DUMB");
		goto out;
	}
	for (round = !again; round < 2; round++) {
		t = now_ns();
		p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED,
			 fd, mreq.offset);
		*ns = now_ns() - t;
		if (p == MAP_FAILED) {
			ret = fail("mmap of the dumb buffer");
			goto out;
		}
		munmap(p, size);
	}
out:
	dreq.handle = create.handle;
	ioctl(fd, DRM_IOCTL_MODE_DESTROY_DUMB, &dreq);
	return ret;
}

static int p_vgem_mmap(uint64_t *ns)
{
	return drm_mmap(ns, 0, 0);
}

static int p_vgem_mmap_again(uint64_t *ns)
{
	return drm_mmap(ns, 0, 1);
}

static int p_vkms_mmap(uint64_t *ns)
{
	return drm_mmap(ns, 1, 0);
}

static int p_vkms_mmap_again(uint64_t *ns)
{
	return drm_mmap(ns, 1, 1);
}

static struct path {
	const char *name;
	int (*run)(uint64_t *ns);
	int state;		/* OK, NA or FAIL once known */
} paths[] = {
	{ "memset", p_memset },
	{ "memcpy", p_memcpy },
	{ "anon-private-populate", p_anon_private },
	{ "anon-private-nohuge-populate", p_anon_private_nohuge },
	{ "anon-shared-populate", p_anon_shared },
	{ "memfd-fallocate", p_memfd_fallocate },
	{ "memfd-fallocate-again", p_memfd_fallocate_again },
	{ "memfd-write", p_memfd_write },
	{ "memfd-overwrite", p_memfd_overwrite },
	{ "memfd-populate-write", p_memfd_populate },
	{ "memfd-fallocate-populate-write", p_memfd_fallocate_populate },
	{ "memfd-map-populate", p_memfd_map_populate },
	{ "anon-private-64k-populate", p_anon_private_64k },
	{ "anon-shared-64k-populate", p_anon_shared_64k },
	{ "memfd-64k-populate-write", p_memfd_64k_populate },
	{ "vms-shm-pread-seq", p_shm_pread_seq },
	{ "vms-shm-pread-seq-2p", p_shm_pread_seq_2p },
	{ "tmpfs-huge-always-write", p_tmpfs_always },
	{ "tmpfs-huge-within-size-write", p_tmpfs_within_size },
	{ "tmpfs-huge-always-populate", p_tmpfs_always_populate },
	{ "ramfs-write", p_ramfs_write },
	{ "bdev-read", p_bdev_read },
	{ "bdev-read-2", p_bdev_read_2 },
	{ "bdev-read-cached", p_bdev_read_cached },
	{ "bdev-read-random", p_bdev_read_random },
	{ "ext4-read", p_ext4_read },
	{ "gmem-fallocate", p_gmem_fallocate },
	{ "gmem-fallocate-4k", p_gmem_fallocate_4k },
	{ "gmem-fallocate-8k", p_gmem_fallocate_8k },
	{ "gmem-write", p_gmem_write },
	{ "gmem-write-4k", p_gmem_write_4k },
	{ "gmem-write-file-mmap", p_gmem_write_file },
	{ "gmem-sendfile", p_gmem_sendfile },
	{ "gmem-copy-file-range", p_gmem_copy_file_range },
	{ "gmem-mmap-memcpy", p_gmem_mmap_memcpy },
	{ "gmem-fallocate-mmap-memcpy", p_gmem_fallocate_mmap_memcpy },
	{ "gmem-file-mmap-memcpy", p_gmem_file_mmap_memcpy },
	{ "udmabuf-pin-memfd", p_udmabuf },
	{ "udmabuf-pin-memfd-half", p_udmabuf_half },
	{ "vgem-mmap", p_vgem_mmap },
	{ "vgem-mmap-again", p_vgem_mmap_again },
	{ "vkms-mmap", p_vkms_mmap },
	{ "vkms-mmap-again", p_vkms_mmap_again },
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define NR_PATHS ARRAY_SIZE(paths)

static int selected(const char *name, const char *filter)
{
	char *copy, *tok, *save;
	int hit = 0;

	if (!filter)
		return 1;
	copy = strdup(filter);
	for (tok = strtok_r(copy, ",", &save); tok && !hit; tok = strtok_r(NULL, ",", &save)) {
		size_t len = strlen(tok);

		if (len && tok[len - 1] == '.')
			hit = strlen(name) == len - 1 && !strncmp(name, tok, len - 1);
		else
			hit = !strncmp(name, tok, len);
	}
	free(copy);
	return hit;
}

/* The bracketed choice of a sysfs setting such as "always [madvise] never". */
static void info_choice(const char *key, const char *file)
{
	char buf[256] = "", *l, *r;
	FILE *f = fopen(file, "r");

	if (!f)
		return;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	l = strchr(buf, '[');
	r = l ? strchr(l, ']') : NULL;
	if (r) {
		*r = 0;
		printf("INFO %s=%s\n", key, l + 1);
	}
}

static int run_one(struct path *p, const char *kind, int rep)
{
	uint64_t ns = 0;
	int ret;

	if (p->state != OK)
		return 0;
	ret = p->run(&ns);
	if (ret == OK) {
		printf("%s path=%s rep=%d ns=%llu bytes=%zu\n", kind, p->name, rep,
		       (unsigned long long)ns, size);
		return 0;
	}
	p->state = ret;
	printf("%s path=%s reason=%s\n", ret == NA ? "NA" : "ERROR", p->name, reason);
	return ret == FAIL;
}

int main(int argc, char **argv)
{
	int reps = 5, warmup = 1, touch = 0, errors = 0, opt, i;
	unsigned long mib = 512;
	const char *filter = NULL;
	struct utsname u;
	size_t j;
	char *c;

	while ((opt = getopt(argc, argv, "s:r:w:p:tl")) != -1) {
		switch (opt) {
		case 's':
			mib = strtoul(optarg, NULL, 0);
			break;
		case 'r':
			reps = atoi(optarg);
			break;
		case 'w':
			warmup = atoi(optarg);
			break;
		case 'p':
			filter = optarg;
			break;
		case 't':
			touch = 1;
			break;
		case 'l':
			for (j = 0; j < NR_PATHS; j++)
				puts(paths[j].name);
			return 0;
		default:
			fprintf(stderr, "usage: %s [-s MIB] [-r REPS] [-w WARMUP] %s\n",
				argv[0], "[-p NAME,...] [-t] [-l]");
			return 2;
		}
	}
	if (!mib || reps < 1 || warmup < 0) {
		fprintf(stderr, "popbench: bad -s, -r or -w\n");
		return 2;
	}
	size = mib << 20;
	setvbuf(stdout, NULL, _IOLBF, 0);

	uname(&u);
	for (c = u.version; *c; c++)	/* one token per key */
		if (*c == ' ')
			*c = '_';
	printf("POPBENCH release=%s version=%s mib=%lu reps=%d warmup=%d\n",
	       u.release, u.version, mib, reps, warmup);
	info_choice("thp", "/sys/kernel/mm/transparent_hugepage/enabled");
	info_choice("shmem_thp", "/sys/kernel/mm/transparent_hugepage/shmem_enabled");
	printf("INFO page_size=%ld\n", sysconf(_SC_PAGESIZE));

	src = map(MAP_PRIVATE | MAP_ANONYMOUS, -1);
	if (!src) {
		perror("popbench: mmap of the source buffer");
		return 1;
	}
	populate_own(src);
	if (touch)
		pretouch();

	for (j = 0; j < NR_PATHS; j++)
		if (!selected(paths[j].name, filter))
			paths[j].state = -1;
	for (i = 1; i <= warmup; i++)
		for (j = 0; j < NR_PATHS; j++)
			errors += run_one(&paths[j], "WARMUP", i);
	for (i = 1; i <= reps; i++)
		for (j = 0; j < NR_PATHS; j++)
			errors += run_one(&paths[j], "SAMPLE", i);

	for (i = 0; i < 3; i++) {
		if (mnt_dir[i][0]) {
			umount(mnt_dir[i]);
			rmdir(mnt_dir[i]);
		}
	}
	printf("POPBENCH-DONE errors=%d\n", errors);
	return errors ? 1 : 0;
}
