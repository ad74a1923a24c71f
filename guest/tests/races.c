// SPDX-License-Identifier: GPL-2.0
/*
 * Truncation and hole punching racing the population paths, in threads.
 *
 * For each pair, one thread populates a 4 MiB object over and over while
 * another punches page-aligned holes into it (and, where the pair allows,
 * truncates it and extends it again):
 *   memfd:       pwrite(), fallocate(), MADV_POPULATE_WRITE plus stores
 *                through the mapping, UDMABUF_CREATE (pin) and close;
 *   guest_memfd: pwrite(), fallocate() (PUNCH_HOLE only: no truncation).
 * Every 8-byte word that the populating thread stores holds the index of
 * its page and a generation; afterwards every word of the object is either
 * zero (punched, truncated, or never written) or such a value for its own
 * page. Each pair runs for a bounded number of rounds; when the object is
 * closed the cgroup's file and shmem counters are back at their baseline.
 *
 * Prints one "ok N ..." / "not ok N ..." line per pair and check; exits 0
 * if all passed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/falloc.h>
#include <linux/kvm.h>
#include <linux/udmabuf.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "ws.h"

#define CG "/sys/fs/cgroup/races"
#define PG 4096L
#define PAGES 1024L
#define SIZE (PAGES * PG)
#define ROUNDS 32	/* of the populating thread, per pair */

enum op { WRITE, FALLOCATE, POPULATE, PIN };
static const char *const op_name[] = { "pwrite", "fallocate", "MADV_POPULATE_WRITE", "UDMABUF_CREATE" };

struct pair {
	int fd;
	int gmem;
	enum op op;
	uint64_t *map;		/* POPULATE: the shared mapping */
	volatile int stop;
	long bad_errno;		/* the first errno that is not allowed */
	const char *bad_call;
};

static int udmabuf_dev = -1;

static uint64_t word(long page, uint64_t gen)
{
	return (uint64_t)page << 32 | gen;
}

static void bad(struct pair *p, const char *call, int err)
{
	if (!p->bad_errno) {
		p->bad_errno = err;
		p->bad_call = call;
	}
}

static void *populate(void *arg)
{
	static uint64_t buf[SIZE / 8];
	struct pair *p = arg;
	struct udmabuf_create c = { .memfd = p->fd, .size = SIZE };
	uint64_t gen;
	long i, pg;
	int r;

	for (gen = 1; gen <= ROUNDS; gen++) {
		switch (p->op) {
		case WRITE:
			for (i = 0; i < SIZE / 8; i++)
				buf[i] = word(i * 8 / PG, gen);
			/* EFBIG/ENOSPC cannot happen; a short count can */
			if (pwrite(p->fd, buf, SIZE, 0) < 0)
				bad(p, "pwrite", errno);
			break;
		case FALLOCATE:
			if (fallocate(p->fd, p->gmem ? FALLOC_FL_KEEP_SIZE : 0, 0, SIZE))
				bad(p, "fallocate", errno);
			break;
		case POPULATE:
			r = madvise(p->map, SIZE, MADV_POPULATE_WRITE);
			if (r)
				bad(p, "madvise", errno);
			for (pg = 0; pg < PAGES; pg += 7)
				for (i = 0; i < PG / 8; i++)
					p->map[pg * PG / 8 + i] = word(pg, gen);
			break;
		case PIN:
			r = ioctl(udmabuf_dev, UDMABUF_CREATE, &c);
			if (r < 0)
				bad(p, "UDMABUF_CREATE", errno);
			else
				close(r);
			break;
		}
	}
	p->stop = 1;
	return NULL;
}

static void *punch(void *arg)
{
	struct pair *p = arg;
	unsigned int seed = 1;
	long off, len;

	while (!p->stop) {
		off = rand_r(&seed) % PAGES * PG;
		len = (rand_r(&seed) % 64 + 1) * PG;
		if (off + len > SIZE)
			len = SIZE - off;
		if (fallocate(p->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, off, len))
			bad(p, "PUNCH_HOLE", errno);
		/* truncate down and back up: not with a mapping in use
		 * (SIGBUS), a shrink seal (pin) or guest_memfd */
		if (!p->gmem && (p->op == WRITE || p->op == FALLOCATE) &&
		    rand_r(&seed) % 4 == 0) {
			if (ftruncate(p->fd, off) || ftruncate(p->fd, SIZE))
				bad(p, "ftruncate", errno);
		}
	}
	return NULL;
}

/* Every word zero or a value for its own page. */
static long bad_words(int fd, const uint64_t *map)
{
	static uint64_t buf[SIZE / 8];
	const uint64_t *w = map;
	long i, nbad = 0;

	if (!w) {
		if (pread(fd, buf, SIZE, 0) != SIZE)
			return -1;
		w = buf;
	}
	for (i = 0; i < SIZE / 8; i++)
		if (w[i] && (w[i] >> 32 != (uint64_t)(i * 8 / PG) ||
			     !(w[i] & 0xffffffff) || (w[i] & 0xffffffff) > ROUNDS))
			nbad++;
	return nbad;
}

static void run(const char *obj, int vm, enum op op)
{
	struct kvm_create_guest_memfd g = {
		.size = SIZE,
		.flags = GUEST_MEMFD_FLAG_MMAP | GUEST_MEMFD_FLAG_INIT_SHARED |
			 GUEST_MEMFD_FLAG_WRITE,
	};
	struct pair p = { .op = op, .gmem = vm >= 0 };
	long file0, shmem0, file, shmem, nbad;
	pthread_t a, b;
	void *view;
	int i;

	file0 = get(CG "/memory.stat", "file ");
	shmem0 = get(CG "/memory.stat", "shmem ");
	if (p.gmem) {
		p.fd = ioctl(vm, KVM_CREATE_GUEST_MEMFD, &g);
	} else {
		p.fd = memfd_create("races", MFD_ALLOW_SEALING);
		if (p.fd >= 0 && ftruncate(p.fd, SIZE))
			p.fd = -1;
		if (p.fd >= 0 && op == PIN && fcntl(p.fd, F_ADD_SEALS, F_SEAL_SHRINK))
			p.fd = -1;
	}
	if (p.fd < 0) {
		check(0, "%s vs PUNCH_HOLE: object not created (%s)", obj, strerror(errno));
		return;
	}
	view = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, p.fd, 0);
	if (view == MAP_FAILED) {
		check(0, "%s: mmap: %s", obj, strerror(errno));
		close(p.fd);
		return;
	}
	if (op == POPULATE)
		p.map = view;
	pthread_create(&a, NULL, populate, &p);
	pthread_create(&b, NULL, punch, &p);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	check(!p.bad_errno, "%s %s vs PUNCH_HOLE%s: every call succeeded%s%s%s", obj,
	      op_name[op], !p.gmem && op <= FALLOCATE ? "/truncate" : "",
	      p.bad_errno ? " (" : "", p.bad_errno ? p.bad_call : "",
	      p.bad_errno ? ": failed)" : "");
	if (p.bad_errno)
		printf("# %s: %s\n", p.bad_call, strerror(p.bad_errno));
	/* guest_memfd has no read(): through the mapping */
	nbad = bad_words(p.fd, p.gmem ? view : NULL);
	check(nbad == 0, "%s %s: contents are zeroes or the page's own words (%ld bad)",
	      obj, op_name[op], nbad);
	munmap(view, SIZE);
	close(p.fd);
	for (i = 0; i < 100; i++) {
		file = get(CG "/memory.stat", "file ");
		shmem = get(CG "/memory.stat", "shmem ");
		if (file == file0 && shmem == shmem0)
			break;
		usleep(100 * 1000);
	}
	check(file == file0 && shmem == shmem0,
	      "%s %s: cgroup file %ld->%ld, shmem %ld->%ld after close", obj,
	      op_name[op], file0, file, shmem0, shmem);
}

int main(void)
{
	char pid[32];
	int vm;

	setvbuf(stdout, NULL, _IOLBF, 0);
	put("/sys/fs/cgroup/cgroup.subtree_control", "+memory");
	mkdir(CG, 0755);
	snprintf(pid, sizeof(pid), "%d", getpid());
	if (put(CG "/cgroup.procs", pid)) {
		printf("SKIP: no memory cgroup\n");
		return 4;
	}

	run("memfd", -1, WRITE);
	run("memfd", -1, FALLOCATE);
	run("memfd", -1, POPULATE);
	udmabuf_dev = open("/dev/udmabuf", O_RDWR);
	if (udmabuf_dev >= 0)
		run("memfd", -1, PIN);
	else
		printf("# no /dev/udmabuf: pin not run\n");

	vm = kvm_vm();
	if (vm >= 0) {
		run("guest_memfd", vm, WRITE);
		run("guest_memfd", vm, FALLOCATE);
	} else {
		printf("# no /dev/kvm: guest_memfd pairs not run\n");
	}
	printf("%d checks, %d failed\n", n, failed);
	return failed ? 1 : 0;
}
