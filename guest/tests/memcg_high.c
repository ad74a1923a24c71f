// SPDX-License-Identifier: GPL-2.0
/*
 * memory.high during a batched population.
 *
 * A charge that may reclaim enforces memory.high as it goes: once the task
 * has charged a batch's worth of pages over it, the charge reclaims the
 * cgroup back towards it.  The batched paths charge their runs differently:
 * shmem's runs may not reclaim (the batch holds folio locks), so
 * shmem_get_folios() enforces memory.high itself at the start of each
 * batch; guest_memfd's runs charge with reclaim, as its single-folio path
 * does.  Without that, a fallocate() goes over memory.high by all it
 * allocates, until it returns to user space.
 *
 * Each case runs in a cgroup of its own, holding 16 MiB of anonymous
 * memory for reclaim to swap out (the guest swaps to zram), and fills a
 * 64 MiB file with memory.high set 4 MiB below where the file ends.
 * memory.peak must then stay within 1 MiB of memory.high:
 * - a memfd with 16 pages of every 31 written first, so that each batch of
 *   its fallocate() is a run of present folios followed by a run of new
 *   ones (the case the start-of-batch check is for);
 * - a guest_memfd, if there is /dev/kvm.
 *
 * Prints one "ok N ..." / "not ok N ..." line per check and exits 0 only if
 * all passed (4: skipped, no memory controller or no swap).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/falloc.h>
#include <sys/stat.h>

#include "ws.h"

#define CG "/sys/fs/cgroup/memcg_high"
#define MIB (1024L * 1024)
/* How far each fallocate() would go over memory.high */
#define OVER (4 * MIB)
/* How far over memory.high it may go: a few batches */
#define SLACK (1 * MIB)
/* Anonymous memory in the cgroup, for reclaim to swap out */
#define RECLAIMABLE (16 * MIB)
/*
 * The memfd: PRESENT pages written in every PERIOD, a folio batch, so that
 * every batch of its fallocate() starts with present folios.
 */
#define PERIOD 31
#define PRESENT 16

static char pid[32];

/* A new cgroup CG-NAME, joined. */
static int cg_enter(const char *name, char *path, size_t size)
{
	char procs[160];

	snprintf(path, size, CG "-%s", name);
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", path);
	rmdir(path);
	if (mkdir(path, 0755))
		return -1;
	return put(procs, pid);
}

static void cg_leave(const char *path)
{
	put("/sys/fs/cgroup/cgroup.procs", pid);
	rmdir(path);
}

static long cg_get(const char *path, const char *file)
{
	char name[160];

	snprintf(name, sizeof(name), "%s/%s", path, file);
	return get(name, NULL);
}

/* Sets memory.high of the cgroup at PATH to what it holds now plus LIM. */
static int cg_high(const char *path, long lim)
{
	char name[160], val[32];

	snprintf(name, sizeof(name), "%s/memory.high", path);
	snprintf(val, sizeof(val), "%ld", cg_get(path, "memory.current") + lim);
	return put(name, val);
}

/*
 * FD, a file of SIZE bytes of which NEW are to be allocated, fallocate()d
 * with MODE, 4 MiB beyond memory.high, with RECLAIMABLE bytes of anonymous
 * memory in the cgroup for reclaim to swap out.
 */
static void fill(const char *path, const char *what, int fd, long size,
		 long new, int mode)
{
	char *anon = mmap(NULL, RECLAIMABLE, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	long high, peak;
	int r;

	/* order-0 folios, which reclaim takes a few at a time */
	if (anon != MAP_FAILED)
		madvise(anon, RECLAIMABLE, MADV_NOHUGEPAGE);
	check(anon != MAP_FAILED &&
	      !madvise(anon, RECLAIMABLE, MADV_POPULATE_WRITE),
	      "%s: %ld MiB of anonymous memory charged", what,
	      RECLAIMABLE / MIB);
	check(!cg_high(path, new - OVER), "%s: memory.high set", what);
	r = fallocate(fd, mode, 0, size);
	if (r)
		printf("# fallocate: %s\n", strerror(errno));
	check(!r, "%s: fallocate() beyond memory.high succeeds", what);
	high = cg_get(path, "memory.high");
	peak = cg_get(path, "memory.peak");
	printf("# memory.peak - memory.high: %ld KiB\n", (peak - high) / 1024);
	check(peak - high <= SLACK, "%s: memory.high held during fallocate()",
	      what);
	if (anon != MAP_FAILED)
		munmap(anon, RECLAIMABLE);
}

static void memfd_case(void)
{
	long page = sysconf(_SC_PAGESIZE), period = PERIOD * page;
	long size = (64 * MIB / period) * period, off;
	char *chunk = malloc(PRESENT * page), path[128];
	int fd = -1, r = 0;

	if (!chunk || cg_enter("memfd", path, sizeof(path))) {
		check(0, "memfd: cgroup set up (%s)", strerror(errno));
		goto out;
	}
	fd = memfd_create("memcg_high", 0);
	check(fd >= 0, "memfd created");
	if (fd < 0)
		goto out;
	memset(chunk, 0x5a, PRESENT * page);
	for (off = 0; off < size && !r; off += period)
		r = pwrite(fd, chunk, PRESENT * page, off) == PRESENT * page ? 0 : -1;
	check(!r, "memfd: the first %d pages of every %d written", PRESENT,
	      PERIOD);
	fill(path, "memfd", fd, size, size / PERIOD * (PERIOD - PRESENT), 0);
out:
	if (fd >= 0)
		close(fd);
	cg_leave(path);
	free(chunk);
}

static void gmem_case(void)
{
	struct kvm_create_guest_memfd args = { .size = 64 * MIB };
	int vm = kvm_vm(), fd;
	char path[128];

	if (vm < 0) {
		printf("# no /dev/kvm: guest_memfd case skipped\n");
		return;
	}
	if (cg_enter("gmem", path, sizeof(path))) {
		check(0, "guest_memfd: cgroup set up (%s)", strerror(errno));
		cg_leave(path);
		return;
	}
	fd = ioctl(vm, KVM_CREATE_GUEST_MEMFD, &args);
	check(fd >= 0, "guest_memfd created");
	if (fd >= 0) {
		fill(path, "guest_memfd", fd, args.size, args.size,
		     FALLOC_FL_KEEP_SIZE);
		close(fd);
	}
	close(vm);
	cg_leave(path);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	snprintf(pid, sizeof(pid), "%d", getpid());
	if (put("/sys/fs/cgroup/cgroup.subtree_control", "+memory")) {
		printf("skip: no memory controller (%s)\n", strerror(errno));
		return 4;
	}
	if (get("/proc/meminfo", "SwapTotal:") < RECLAIMABLE / 1024) {
		printf("skip: no swap for reclaim to use\n");
		return 4;
	}

	memfd_case();
	gmem_case();

	printf("%d passed, %d failed\n", n - failed, failed);
	return failed;
}
