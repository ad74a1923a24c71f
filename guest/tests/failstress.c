// SPDX-License-Identifier: GPL-2.0
/*
 * Every population path the series touches, with an allocation failure
 * injected at each of its allocation sites in turn.
 *
 * /proc/thread-self/fail-nth makes the Nth fault-injection site that the
 * thread passes fail (fail_page_alloc and failslab, both told not to spare
 * sleeping or highmem allocations, neither failing anything on its own).
 * For each path, N runs 1, 2, 3, ... on a fresh object each time, until a
 * call completes without reaching its Nth site; past the first 64 sites, N
 * grows by an eighth at each step, which keeps the run bounded and still
 * spreads the failures over the whole call. Each call must:
 *   - return what its man page allows: the full count, a partial count, or
 *     -1 with ENOMEM, ENOSPC or EFAULT (EINTR for nothing: no signal comes);
 *   - keep what it did: the bytes a short write() reports read back intact,
 *     a failed shmem fallocate() leaves st_blocks where it was, a failed
 *     MADV_POPULATE_WRITE leaves a mapping that works;
 *   - leave nothing behind: once each object is torn down, the path's
 *     Cached and Shmem (/proc/meminfo), the test cgroup's memory.stat
 *     file and shmem and its memory.current are back at their baseline.
 * Paths: memfd and tmpfs fallocate(), write() and MADV_POPULATE_WRITE of a
 * shared mapping, write() to ramfs, guest_memfd fallocate() and
 * write(), UDMABUF_CREATE on an empty memfd, and mmap() of a new vgem dumb
 * buffer (drm_gem_get_pages()). kmemleak (the last test of
 * the guest) checks that nothing leaked.
 *
 * Prints one "ok N ..." / "not ok N ..." line per path and check; exits 0
 * if all passed, 4 if fault injection is not there.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/kvm.h>
#include <linux/udmabuf.h>
#include <drm/drm_mode.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ws.h"

#define CG "/sys/fs/cgroup/failstress"
#define DBG "/sys/kernel/debug"
#define PG 4096L
#define SIZE (1024L * 1024)	/* per object: 256 pages */

/* --- counters ------------------------------------------------------------ */

struct counters {
	long cached, shmem;		/* kB, /proc/meminfo */
	long cg_file, cg_shmem, cg_current;	/* bytes, the test cgroup */
};

static void counters(struct counters *c)
{
	/* fold the per-cpu vmstat deltas into the global counters first */
	put("/proc/sys/vm/stat_refresh", "1");
	c->cached = get("/proc/meminfo", "Cached:");
	c->shmem = get("/proc/meminfo", "Shmem:");
	c->cg_file = get(CG "/memory.stat", "file ");
	c->cg_shmem = get(CG "/memory.stat", "shmem ");
	c->cg_current = get(CG "/memory.current", NULL);
}

/*
 * Freeing is not all synchronous (the last fput() of a file runs as task
 * work, memcg statistics are flushed lazily), so compare for up to ten
 * seconds. memory.current also holds kernel memory (page tables, slab
 * pages that are partly used, dentries of the unlinked files) and what each
 * CPU's charge stock holds in advance (64 pages per CPU): it is allowed
 * 1 MiB of slack, the page cache and shmem counters none.
 */
static void back_to_baseline(const char *path, const struct counters *b)
{
	struct counters c;
	int i, same = 0;

	for (i = 0; i < 100 && !same; i++) {
		if (i)
			usleep(100 * 1000);
		counters(&c);
		same = c.cached == b->cached && c.shmem == b->shmem &&
		       c.cg_file == b->cg_file && c.cg_shmem == b->cg_shmem &&
		       c.cg_current <= b->cg_current + 1024 * 1024;
	}
	check(same, "%s: counters back at baseline (Cached %ld->%ld kB, Shmem %ld->%ld kB, cgroup file %ld->%ld shmem %ld->%ld current %ld->%ld)",
	      path, b->cached, c.cached, b->shmem, c.shmem,
	      b->cg_file, c.cg_file, b->cg_shmem, c.cg_shmem,
	      b->cg_current, c.cg_current);
}

/* --- fault injection ------------------------------------------------------ */

static int setup_injection(void)
{
	static const char *const attrs[] = { "fail_page_alloc", "failslab" };
	char p[128];
	unsigned int i;

	for (i = 0; i < 2; i++) {
		snprintf(p, sizeof(p), DBG "/%s/probability", attrs[i]);
		if (put(p, "0"))	/* nothing fails but the fail-nth site */
			return -1;
		snprintf(p, sizeof(p), DBG "/%s/ignore-gfp-wait", attrs[i]);
		if (put(p, "N"))
			return -1;
		snprintf(p, sizeof(p), DBG "/%s/verbose", attrs[i]);
		put(p, "0");
	}
	if (put(DBG "/fail_page_alloc/ignore-gfp-highmem", "N") ||
	    put(DBG "/fail_page_alloc/min-order", "0"))
		return -1;
	return 0;
}

/*
 * The fail-nth file stays open: arming it is the last thing the write()
 * does, so no site of another syscall (a close()) comes between the
 * arming and the call under test.
 */
static int nth_fd = -1;

static void fail_nth(long nth)
{
	char v[32];
	int len = snprintf(v, sizeof(v), "%ld", nth);

	if (pwrite(nth_fd, v, len, 0) != len) {
		perror("fail-nth");
		exit(1);
	}
}

/* Whether the armed failure was injected; disarms it. */
static int injected(void)
{
	char v[32] = "";
	ssize_t r = pread(nth_fd, v, sizeof(v) - 1, 0);

	fail_nth(0);
	return r > 0 && atol(v) == 0;
}

/* --- the paths -------------------------------------------------------------- */

static unsigned char *src;	/* SIZE bytes of pattern, populated */
static int vm = -1;		/* a KVM VM for guest_memfd, or -1 */
static int udmabuf_dev = -1;
static int vgem_dev = -1;

static int allowed(int err)
{
	return err == ENOMEM || err == ENOSPC || err == EFAULT;
}

/* The object of one call: created before the failure is armed. */
struct obj {
	int fd;
	int shmem;	/* st_blocks follows what was allocated */
	void *map;
};

enum kind { MEMFD, TMPFS, RAMFS, GMEM };

static int create(enum kind k, struct obj *o, int flags)
{
	struct kvm_create_guest_memfd g = {
		.size = SIZE,
		.flags = GUEST_MEMFD_FLAG_MMAP | GUEST_MEMFD_FLAG_INIT_SHARED |
			 GUEST_MEMFD_FLAG_WRITE,
	};

	memset(o, 0, sizeof(*o));
	o->map = MAP_FAILED;
	switch (k) {
	case MEMFD:
		o->fd = memfd_create("failstress", flags);
		o->shmem = 1;
		break;
	case TMPFS:
		o->fd = open("/tmp/failstress", O_RDWR | O_CREAT | O_TRUNC, 0600);
		unlink("/tmp/failstress");
		o->shmem = 1;
		break;
	case RAMFS:
		o->fd = open("/tmp/ramfs/failstress", O_RDWR | O_CREAT | O_TRUNC, 0600);
		unlink("/tmp/ramfs/failstress");
		break;
	case GMEM:
		o->fd = ioctl(vm, KVM_CREATE_GUEST_MEMFD, &g);
		break;
	}
	if (o->fd < 0) {
		perror("create");
		return -1;
	}
	if (k != GMEM && ftruncate(o->fd, SIZE)) {
		perror("ftruncate");
		return -1;
	}
	return 0;
}

static void destroy(struct obj *o)
{
	if (o->map != MAP_FAILED)
		munmap(o->map, SIZE);
	close(o->fd);
}

static long blocks(int fd)
{
	struct stat st;

	return fstat(fd, &st) ? -1 : (long)st.st_blocks;
}

/* Reads [0, len) back through pread() (or the mapping, for guest_memfd
 * whose read() is not there) and compares it with the source pattern or,
 * with zero set, with zeroes. */
static unsigned char buf[SIZE];	/* touched before any baseline */

static int reads_back(struct obj *o, long len, int zero)
{
	unsigned char *p = buf;
	long i;

	if (!len)
		return 1;
	if (o->map != MAP_FAILED) {
		p = o->map;
	} else if (pread(o->fd, buf, len, 0) != len) {
		p = mmap(NULL, SIZE, PROT_READ, MAP_SHARED, o->fd, 0);
		if (p == MAP_FAILED)
			return 0;
		o->map = p;
	}
	for (i = 0; i < len; i++)
		if (p[i] != (zero ? 0 : src[i]))
			return 0;
	return 1;
}

/*
 * One call with the failure armed at site NTH. Returns 1 if the failure
 * was injected (the schedule goes on), 0 if the call did not reach site
 * NTH (it is complete), -1 if a check failed (the path stops there).
 */
typedef int (*call_fn)(enum kind k, long nth, const char *path);

static int do_fallocate(enum kind k, long nth, const char *path)
{
	struct obj o;
	long before;
	int r, err, inj, ok;

	if (create(k, &o, 0))
		return -1;
	before = blocks(o.fd);
	fail_nth(nth);
	/* guest_memfd allocates only with KEEP_SIZE */
	r = fallocate(o.fd, k == GMEM ? FALLOC_FL_KEEP_SIZE : 0, 0, SIZE);
	err = errno;
	inj = injected();
	ok = !r || allowed(err);
	if (r && ok && o.shmem)
		/* shmem undoes a failed fallocate() */
		ok = blocks(o.fd) == before;
	if (!r)
		ok = reads_back(&o, SIZE, 1);
	if (!ok)
		check(0, "%s: fail-nth %ld: fallocate() = %d (%s), st_blocks %ld -> %ld",
		      path, nth, r, r ? strerror(err) : "ok", before, blocks(o.fd));
	destroy(&o);
	return ok ? inj : -1;
}

static int do_write(enum kind k, long nth, const char *path)
{
	struct obj o;
	ssize_t r;
	long b;
	int err, inj, ok;

	if (create(k, &o, 0))
		return -1;
	fail_nth(nth);
	r = pwrite(o.fd, src, SIZE, 0);
	err = errno;
	inj = injected();
	ok = r >= 0 || allowed(err);
	if (ok && r > 0)
		ok = reads_back(&o, r, 0);
	/* a short write leaves nothing allocated beyond what it wrote */
	b = blocks(o.fd);
	if (ok && o.shmem && r >= 0)
		ok = b * 512 <= ((r + PG - 1) & ~(PG - 1));
	if (!ok)
		check(0, "%s: fail-nth %ld: pwrite() = %zd (%s), st_blocks %ld",
		      path, nth, r, r < 0 ? strerror(err) : "ok", b);
	destroy(&o);
	return ok ? inj : -1;
}

static int do_populate(enum kind k, long nth, const char *path)
{
	struct obj o;
	int r, err, inj, ok;
	long i;

	if (create(k, &o, 0))
		return -1;
	o.map = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, o.fd, 0);
	if (o.map == MAP_FAILED) {
		perror("mmap");
		destroy(&o);
		return -1;
	}
	fail_nth(nth);
	r = madvise(o.map, SIZE, MADV_POPULATE_WRITE);
	err = errno;
	inj = injected();
	ok = !r || allowed(err);
	/* whatever was populated reads as zero, and the mapping works */
	if (ok)
		ok = reads_back(&o, SIZE, 1);
	if (ok) {
		for (i = 0; i < SIZE; i++)
			((unsigned char *)o.map)[i] = src[i];
		ok = reads_back(&o, SIZE, 0);
	}
	if (!ok)
		check(0, "%s: fail-nth %ld: MADV_POPULATE_WRITE = %d (%s)",
		      path, nth, r, r ? strerror(err) : "ok");
	destroy(&o);
	return ok ? inj : -1;
}

static int do_udmabuf(enum kind k, long nth, const char *path)
{
	struct udmabuf_create c = { .offset = 0, .size = SIZE };
	struct obj o;
	int r, err, inj, ok;

	if (create(k, &o, MFD_ALLOW_SEALING))
		return -1;
	if (fcntl(o.fd, F_ADD_SEALS, F_SEAL_SHRINK)) {
		perror("F_SEAL_SHRINK");
		destroy(&o);
		return -1;
	}
	c.memfd = o.fd;
	fail_nth(nth);
	r = ioctl(udmabuf_dev, UDMABUF_CREATE, &c);
	err = errno;
	inj = injected();
	ok = r >= 0 || allowed(err);
	if (r >= 0)
		close(r);
	if (ok)
		ok = reads_back(&o, SIZE, 1);
	if (!ok)
		check(0, "%s: fail-nth %ld: UDMABUF_CREATE = %d (%s)",
		      path, nth, r, r < 0 ? strerror(err) : "ok");
	destroy(&o);
	return ok ? inj : -1;
}

/* mmap() of a new vgem dumb buffer: drm_gem_get_pages() reads it whole. */
static int do_vgem(enum kind k, long nth, const char *path)
{
	struct drm_mode_create_dumb c = { .width = PG / 4, .height = SIZE / PG, .bpp = 32 };
	struct drm_mode_map_dumb m = { 0 };
	struct drm_mode_destroy_dumb d = { 0 };
	struct obj o = { .fd = -1, .map = MAP_FAILED };
	int err, inj, ok;

	(void)k;
	if (ioctl(vgem_dev, DRM_IOCTL_MODE_CREATE_DUMB, &c)) {
		perror("DRM_IOCTL_MODE_CREATE_DUMB");
		return -1;
	}
	m.handle = d.handle = c.handle;
	if (ioctl(vgem_dev, DRM_IOCTL_MODE_MAP_DUMB, &m)) {
		perror("DRM_IOCTL_MODE_MAP_DUMB");
		ioctl(vgem_dev, DRM_IOCTL_MODE_DESTROY_DUMB, &d);
		return -1;
	}
	fail_nth(nth);
	o.map = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, vgem_dev,
		     m.offset);
	err = errno;
	inj = injected();
	ok = o.map != MAP_FAILED || allowed(err);
	/* pinned: every page there, and zero */
	if (ok && o.map != MAP_FAILED)
		ok = reads_back(&o, SIZE, 1);
	if (!ok)
		check(0, "%s: fail-nth %ld: mmap() %s", path, nth,
		      o.map == MAP_FAILED ? strerror(err) : "reads back wrong");
	if (o.map != MAP_FAILED)
		munmap(o.map, SIZE);
	ioctl(vgem_dev, DRM_IOCTL_MODE_DESTROY_DUMB, &d);
	return ok ? inj : -1;
}

static void run(const char *path, enum kind k, call_fn fn)
{
	struct counters base;
	long nth, calls = 0;
	int r;

	counters(&base);
	for (nth = 1; ; nth = nth < 64 ? nth + 1 : nth + nth / 8) {
		r = fn(k, nth, path);
		calls++;
		if (r <= 0)
			break;
		if (nth > 10000000) {
			r = -1;
			check(0, "%s: still failing at site %ld", path, nth);
			break;
		}
	}
	if (!r)
		check(1, "%s: %ld calls, failure injected at sites 1..%ld, then complete",
		      path, calls, nth - 1);
	back_to_baseline(path, &base);
}

int main(void)
{
	long i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	nth_fd = open("/proc/thread-self/fail-nth", O_RDWR);
	if (nth_fd < 0 || setup_injection()) {
		printf("SKIP: no fail-nth, fail_page_alloc or failslab in debugfs\n");
		return 4;
	}
	/* a cgroup of our own, so that its statistics are ours alone */
	put("/sys/fs/cgroup/cgroup.subtree_control", "+memory");
	mkdir(CG, 0755);
	if (get(CG "/memory.current", NULL) < 0) {
		printf("SKIP: no memory cgroup\n");
		return 4;
	}
	{
		char pid[32];

		snprintf(pid, sizeof(pid), "%d", getpid());
		if (put(CG "/cgroup.procs", pid)) {
			perror("cgroup.procs");
			return 1;
		}
	}
	mkdir("/tmp/ramfs", 0755);
	if (mount("ramfs", "/tmp/ramfs", "ramfs", 0, NULL)) {
		perror("mount ramfs");
		return 1;
	}

	src = mmap(NULL, SIZE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (src == MAP_FAILED || mlock(src, SIZE)) {
		perror("source buffer");
		return 1;
	}
	for (i = 0; i < SIZE; i++)
		src[i] = (unsigned char)(i * 7 + i / PG + 1);
	/* the read-back buffer too: its pages are charged once, here */
	memset(buf, 1, SIZE);

	run("memfd fallocate", MEMFD, do_fallocate);
	run("memfd write", MEMFD, do_write);
	run("memfd MADV_POPULATE_WRITE", MEMFD, do_populate);
	run("tmpfs fallocate", TMPFS, do_fallocate);
	run("tmpfs write", TMPFS, do_write);
	run("tmpfs MADV_POPULATE_WRITE", TMPFS, do_populate);
	run("ramfs write", RAMFS, do_write);

	udmabuf_dev = open("/dev/udmabuf", O_RDWR);
	if (udmabuf_dev >= 0)
		run("udmabuf create", MEMFD, do_udmabuf);
	else
		printf("# no /dev/udmabuf: udmabuf create not run\n");

	vgem_dev = drm_open("vgem");
	if (vgem_dev >= 0)
		run("vgem mmap", MEMFD, do_vgem);
	else
		printf("# no vgem DRM device: vgem mmap not run\n");

	vm = kvm_vm();
	if (vm >= 0) {
		run("guest_memfd fallocate", GMEM, do_fallocate);
		run("guest_memfd write", GMEM, do_write);
	} else {
		printf("# no /dev/kvm: guest_memfd paths not run\n");
	}

	umount("/tmp/ramfs");
	printf("%d checks, %d failed\n", n, failed);
	return failed ? 1 : 0;
}
