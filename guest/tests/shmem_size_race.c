// SPDX-License-Identifier: GPL-2.0
/*
 * fallocate() racing page faults on a tmpfs whose size= is exactly its one
 * file's size. shmem inserts a new folio into the page cache before it
 * charges the mount's blocks for it (a run of folios likewise), so the
 * loser of a race for an index never holds blocks for it: while the file
 * fits, neither fallocate() (ENOSPC) nor a fault (SIGBUS) can fail. Blocks
 * taken before the insertion would let the loser's charge push the mount
 * over its size for a moment, and fail the other side.
 *
 * Each round punches the whole file, then one thread fallocate()s it from
 * the start while two others store to every page through a shared mapping,
 * one from the start and one from the end. Afterwards every page holds its
 * store, and the mount has exactly the file's blocks in use.
 *
 * Prints "ok N ..." / "not ok N ..." lines; exits 0 if all passed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/falloc.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include "ws.h"

#define DIR "/tmp/shmem_size_race"
#define PG 4096L
#define PAGES 1024L
#define SIZE (PAGES * PG)
#define ROUNDS 100

static uint64_t *map;
static int fd;
static uint64_t round_nr;
static int falloc_errno, sigbus;
static __thread sigjmp_buf bus_jmp;

static void on_sigbus(int sig)
{
	siglongjmp(bus_jmp, 1);
}

static void *falloc(void *arg)
{
	if (fallocate(fd, 0, 0, SIZE))
		falloc_errno = errno;
	return NULL;
}

/* Stores round_nr and the page's index to each page, in either direction */
static void *touch(void *arg)
{
	volatile long i, step = arg ? -1 : 1;

	if (sigsetjmp(bus_jmp, 1)) {
		__atomic_store_n(&sigbus, 1, __ATOMIC_RELAXED);
		return NULL;
	}
	for (i = arg ? PAGES - 1 : 0; i >= 0 && i < PAGES; i += step)
		map[i * PG / 8] = round_nr << 32 | i;
	return NULL;
}

int main(void)
{
	struct sigaction sa = { .sa_handler = on_sigbus };
	long bad = 0, rounds = 0, i, free_blocks = -1;
	struct statvfs sv;
	struct stat st;
	pthread_t t[3];

	setvbuf(stdout, NULL, _IOLBF, 0);
	sigaction(SIGBUS, &sa, NULL);
	mkdir(DIR, 0755);
	if (mount("tmpfs", DIR, "tmpfs", 0, "size=4m,huge=never")) {
		printf("SKIP: mount tmpfs size=4m: %s\n", strerror(errno));
		return 4;
	}
	fd = open(DIR "/f", O_RDWR | O_CREAT, 0600);
	if (fd < 0 || ftruncate(fd, SIZE)) {
		check(0, "create a %ld-page file: %s", PAGES, strerror(errno));
		goto out;
	}
	map = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		check(0, "mmap: %s", strerror(errno));
		goto out;
	}

	for (round_nr = 1; round_nr <= ROUNDS; round_nr++) {
		if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, SIZE)) {
			check(0, "PUNCH_HOLE: %s", strerror(errno));
			break;
		}
		pthread_create(&t[0], NULL, falloc, NULL);
		pthread_create(&t[1], NULL, touch, NULL);
		pthread_create(&t[2], NULL, touch, (void *)1);
		for (i = 0; i < 3; i++)
			pthread_join(t[i], NULL);
		rounds++;
		for (i = 0; i < PAGES; i++)
			bad += map[i * PG / 8] != (round_nr << 32 | i);
		if (falloc_errno || sigbus || bad)
			break;
	}
	check(!falloc_errno, "fallocate() of the whole file racing faults: %s (%ld rounds)",
	      falloc_errno ? strerror(falloc_errno) : "never failed", rounds);
	check(!sigbus, "faults racing fallocate(): %s", sigbus ? "SIGBUS" : "no SIGBUS");
	check(!bad, "every page holds its store (%ld do not)", bad);
	if (!statvfs(DIR, &sv))
		free_blocks = sv.f_bfree;
	check(free_blocks == 0, "the mount's blocks are all in use by the file (%ld free)",
	      free_blocks);
	if (fstat(fd, &st))
		st.st_blocks = -1;
	check(st.st_blocks == SIZE / 512,
	      "the file has exactly its size in blocks (%ld)", (long)st.st_blocks);
	munmap(map, SIZE);
out:
	if (fd >= 0)
		close(fd);
	umount(DIR);
	rmdir(DIR);
	return failed ? 1 : 0;
}
