// SPDX-License-Identifier: GPL-2.0
/*
 * The last test of the guest: a kmemleak scan over everything the boot, the
 * KUnit suites and the tests before it left behind.
 *
 * kmemleak reports an object only once it is older than its minimum age (5
 * seconds) and no reference to it was found in a scan; two scans some
 * seconds apart, as Documentation/dev-tools/kmemleak.rst does, let objects
 * that were being freed go. Any report left is printed and fails the test.
 * Exits 4 (skip) without CONFIG_DEBUG_KMEMLEAK or with kmemleak disabled.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define KMEMLEAK "/sys/kernel/debug/kmemleak"

static int scan(void)
{
	int fd = open(KMEMLEAK, O_WRONLY);
	ssize_t r;

	if (fd < 0)
		return -1;
	r = write(fd, "scan", 4);
	close(fd);
	return r == 4 ? 0 : -1;
}

int main(void)
{
	char buf[4096];
	size_t total = 0;
	ssize_t r;
	int fd;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (scan()) {
		printf("SKIP: no %s (CONFIG_DEBUG_KMEMLEAK off, or kmemleak disabled at boot)\n",
		       KMEMLEAK);
		return 4;
	}
	sleep(6);
	if (scan()) {
		perror("kmemleak scan");
		return 1;
	}
	fd = open(KMEMLEAK, O_RDONLY);
	if (fd < 0) {
		perror(KMEMLEAK);
		return 1;
	}
	while ((r = read(fd, buf, sizeof(buf))) > 0) {
		fwrite(buf, 1, r, stdout);
		total += r;
	}
	close(fd);
	if (total) {
		printf("kmemleak: unreferenced objects reported (above)\n");
		return 1;
	}
	printf("kmemleak: no leaks\n");
	return 0;
}
