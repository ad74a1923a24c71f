// SPDX-License-Identifier: GPL-2.0
/*
 * memcg charge failure in the middle of a batched page cache population.
 *
 * A guest_memfd fallocate() populates the page cache through the batch.
 * In a memory cgroup whose memory.max is smaller than the request, a charge
 * fails partway: fallocate() must fail with ENOMEM (the OOM killer finds no
 * victim, as the task is OOM_SCORE_ADJ_MIN), the cgroup's memory.current
 * and the node's FilePages must come back to their baseline once the file
 * is closed, and a request that fits must still succeed afterwards.
 *
 * The LRU lists' sizes are checked too: memory.stat's "unevictable" (where
 * guest_memfd's folios go) must grow by exactly what fallocate() made, and
 * "inactive_anon" plus "active_anon" by what a memfd's fallocate() made, and
 * both must come back when the files are closed. New folios wait in the
 * per-CPU LRU batch of the CPU that made them before they are counted on
 * a list: the test runs on one CPU and drains that CPU's batches
 * (MADV_COLD calls lru_add_drain()) right after each fallocate(), before
 * any read of memory.stat (a read flushes the memcg statistics only when
 * many updates are pending, so a drain after one would go unseen).
 *
 * The other users of the batched insertion charge the task that populates
 * too, checked the same way in memory.stat: memfd_pin_folios() filling the
 * holes of an empty memfd (UDMABUF_CREATE; "shmem"), and readahead of a
 * RAM block device whose page cache was dropped ("file").  A run charged
 * to another cgroup, or not charged, fails these.
 *
 * Prints one "ok N ..." / "not ok N ..." line per check and exits 0 only if
 * all passed (4: skipped, no /dev/kvm or no memory controller).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/kvm.h>
#include <linux/udmabuf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ws.h"

#define CG "/sys/fs/cgroup/memcg_charge"
#define MIB (1024L * 1024)


/* What the anon list checks allow for the test's own pages. */
#define SLACK (64 * 1024L)

/* Put the folios waiting in this CPU's LRU batches on their lists. */
static void lru_drain(void)
{
	static char *page;

	if (!page) {
		page = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (page == MAP_FAILED) {
			perror("mmap");
			exit(1);
		}
		page[0] = 1;
	}
	if (madvise(page, 4096, MADV_COLD)) {
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

/* The cgroup's pages on the anon LRU lists. */
static long anon_lru(void)
{
	return get(CG "/memory.stat", "inactive_anon ") +
	       get(CG "/memory.stat", "active_anon ");
}

/* The cgroup's pages on the unevictable LRU list. */
static long unevictable_lru(void)
{
	return get(CG "/memory.stat", "unevictable ");
}

static int gmem(int vm, long size)
{
	struct kvm_create_guest_memfd args = { .size = size };

	return ioctl(vm, KVM_CREATE_GUEST_MEMFD, &args);
}

/*
 * memfd_pin_folios() of an empty 8 MiB memfd through UDMABUF_CREATE: the
 * holes it fills are charged to this cgroup as shmem, and uncharged when
 * the buffer and the memfd are gone.
 */
static void pin_charge(void)
{
	struct udmabuf_create c = { .flags = UDMABUF_FLAGS_CLOEXEC, .size = 8 * MIB };
	long base_shmem, shmem;
	int dev, fd, buf;

	dev = open("/dev/udmabuf", O_RDWR | O_CLOEXEC);
	if (dev < 0) {
		printf("# no /dev/udmabuf (%s): no pin checks\n", strerror(errno));
		return;
	}
	lru_drain();
	base_shmem = get(CG "/memory.stat", "shmem ");
	fd = memfd_create("memcg_charge_pin", MFD_ALLOW_SEALING);
	if (fd < 0 || ftruncate(fd, 8 * MIB) || fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK)) {
		check(0, "pin: memfd of 8 MiB: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		close(dev);
		return;
	}
	c.memfd = fd;
	buf = ioctl(dev, UDMABUF_CREATE, &c);
	if (buf < 0)
		printf("# UDMABUF_CREATE: %s\n", strerror(errno));
	check(buf >= 0, "pin: UDMABUF_CREATE of an empty 8 MiB memfd");
	lru_drain();
	shmem = get(CG "/memory.stat", "shmem ");
	printf("# shmem %ld -> %ld\n", base_shmem, shmem);
	check(shmem - base_shmem == 8 * MIB, "pin: 8 MiB charged as shmem");
	if (buf >= 0)
		close(buf);
	close(fd);
	close(dev);
	lru_drain();
	shmem = get(CG "/memory.stat", "shmem ");
	check(shmem == base_shmem, "pin: and uncharged after close");
}

/*
 * read() of a RAM block device (brd's default 4 MiB /dev/ram0) whose page
 * cache was dropped: readahead's folios are charged to this cgroup as file
 * pages, and uncharged when they are dropped again.
 */
static void readahead_charge(void)
{
	static char buf[64 * 1024];
	long base_file, file, size = 0;
	ssize_t r;
	int fd;

	fd = open("/dev/ram0", O_RDONLY);
	if (fd < 0) {
		printf("# no /dev/ram0 (%s): no readahead checks\n", strerror(errno));
		return;
	}
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	lru_drain();
	base_file = get(CG "/memory.stat", "file ");
	while ((r = read(fd, buf, sizeof(buf))) > 0)
		size += r;
	check(size >= MIB, "readahead: read %ld bytes of /dev/ram0", size);
	lru_drain();
	file = get(CG "/memory.stat", "file ");
	printf("# file %ld -> %ld\n", base_file, file);
	check(file - base_file == size, "readahead: what was read charged as file pages");
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
	lru_drain();
	file = get(CG "/memory.stat", "file ");
	check(file == base_file, "readahead: and uncharged when dropped");
}

int main(void)
{
	long base_cur, base_file, cur, file, base_unevictable, unevictable;
	long base_anon, anon;
	char pid[32];
	cpu_set_t cpus;
	int kvm, vm, fd, r;

	setvbuf(stdout, NULL, _IONBF, 0);
	/* one CPU, whose LRU batches lru_drain() empties */
	CPU_ZERO(&cpus);
	CPU_SET(sched_getcpu(), &cpus);
	if (sched_setaffinity(0, sizeof(cpus), &cpus)) {
		perror("sched_setaffinity");
		return 1;
	}
	kvm = open("/dev/kvm", O_RDWR);
	if (kvm < 0) {
		printf("skip: no /dev/kvm\n");
		return 4;
	}
	vm = ioctl(kvm, KVM_CREATE_VM, 0);
	if (vm < 0 || put("/sys/fs/cgroup/cgroup.subtree_control", "+memory")) {
		printf("skip: no VM or no memory controller (%s)\n", strerror(errno));
		return 4;
	}
	mkdir(CG, 0755);
	snprintf(pid, sizeof(pid), "%d", getpid());
	/*
	 * No swap for the cgroup: with swap, reclaim at memory.max pushes the
	 * test's own pages out, and bringing them back cannot be charged
	 * while the full guest_memfd is open (an endless OOM in the fault).
	 */
	if (access(CG "/memory.swap.max", F_OK) == 0)
		put(CG "/memory.swap.max", "0");
	if (put(CG "/memory.max", "16M") ||
	    put("/proc/self/oom_score_adj", "-1000") || put(CG "/cgroup.procs", pid)) {
		printf("skip: cannot set up " CG " (%s)\n", strerror(errno));
		return 4;
	}
	sync();
	base_cur = get(CG "/memory.current", NULL);
	base_file = get(CG "/memory.stat", "file ");

	/* 64 MiB into a 16 MiB cgroup: a charge fails in the middle. */
	fd = gmem(vm, 64 * MIB);
	check(fd >= 0, "guest_memfd created");
	r = fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, 64 * MIB);
	if (r)
		printf("# fallocate: %s\n", strerror(errno));
	check(r < 0 && errno == ENOMEM, "fallocate over memory.max fails with ENOMEM");
	cur = get(CG "/memory.current", NULL);
	check(cur <= 16 * MIB, "memory.current stays within memory.max");
	close(fd);

	cur = get(CG "/memory.current", NULL);
	file = get(CG "/memory.stat", "file ");
	printf("# memory.current %ld -> %ld, file %ld -> %ld\n",
	       base_cur, cur, base_file, file);
	check(file == base_file, "memcg file pages back to baseline after close");
	check(cur <= base_cur + 64 * 1024, "memory.current back to baseline after close");

	/* What fits still works, and is charged exactly. */
	lru_drain();
	base_unevictable = unevictable_lru();
	fd = gmem(vm, 8 * MIB);
	r = fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, 8 * MIB);
	lru_drain();
	if (r)
		printf("# fallocate: %s\n", strerror(errno));
	check(fd >= 0 && r == 0, "fallocate within memory.max succeeds");
	file = get(CG "/memory.stat", "file ");
	check(file - base_file == 8 * MIB, "8 MiB charged as file pages");
	unevictable = unevictable_lru();
	printf("# unevictable %ld -> %ld\n", base_unevictable, unevictable);
	check(unevictable - base_unevictable == 8 * MIB,
	      "8 MiB on the unevictable list");
	close(fd);
	file = get(CG "/memory.stat", "file ");
	check(file == base_file, "and uncharged after close");
	unevictable = unevictable_lru();
	check(unevictable == base_unevictable,
	      "and off the unevictable list after close");

	/*
	 * A memfd's folios go on the anon lists.  The test's own anonymous
	 * pages (stdio's buffer) may join them from this CPU's LRU batch
	 * meanwhile: allow a few.
	 */
	base_anon = anon_lru();
	fd = memfd_create("memcg_charge", 0);
	r = fd < 0 ? -1 : fallocate(fd, 0, 0, 8 * MIB);
	lru_drain();
	if (r)
		printf("# memfd fallocate: %s\n", strerror(errno));
	check(r == 0, "memfd fallocate within memory.max succeeds");
	anon = anon_lru();
	printf("# inactive_anon + active_anon %ld -> %ld\n", base_anon, anon);
	check(anon - base_anon >= 8 * MIB && anon - base_anon <= 8 * MIB + SLACK,
	      "8 MiB on the anon lists");
	close(fd);
	anon = anon_lru();
	check(anon >= base_anon && anon <= base_anon + SLACK,
	      "and off them after close");

	pin_charge();
	readahead_charge();

	put("/sys/fs/cgroup/cgroup.procs", pid);
	rmdir(CG);
	printf("%d passed, %d failed\n", n - failed, failed);
	return failed;
}
