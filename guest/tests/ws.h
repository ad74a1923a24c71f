/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the workspace's guest tests share: TAP-like check lines and reading
 * and writing the one-value files of procfs, sysfs, cgroupfs and debugfs.
 * Each test is one C file that includes this; scripts/guest-selftests.sh
 * builds it statically.
 */
#ifndef WS_H
#define WS_H

#include <drm/drm.h>
#include <fcntl.h>
#include <linux/kvm.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

static int failed, n;

/* One "ok N ..." or "not ok N ..." line; a failure is counted. */
__attribute__((format(printf, 2, 3)))
static void check(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d ", ok ? "" : "not ", ++n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	if (!ok)
		failed++;
}

/* Writes VAL to the file PATH: 0, or -1 if it cannot be opened or written. */
static inline int put(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);
	ssize_t r;

	if (fd < 0)
		return -1;
	r = write(fd, val, strlen(val));
	close(fd);
	return r < 0 ? -1 : 0;
}

/*
 * The number after KEY on the first line of PATH that starts with KEY, with
 * its separator ("FilePages:", "shmem "), or on the first line if KEY is
 * NULL; -1 if there is none.
 */
static inline long get(const char *path, const char *key)
{
	char line[256];
	long v = -1;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!key) {
			v = atol(line);
			break;
		}
		if (!strncmp(line, key, strlen(key))) {
			v = atol(line + strlen(key));
			break;
		}
	}
	fclose(f);
	return v;
}

/*
 * Sets the sysfs choice PATH ("always within_size advise [never] deny
 * force") to VAL, its current choice saved into OLD (SIZE bytes) for
 * put() to restore: 0, or -1 if PATH is not there or refuses VAL.
 */
static inline int set_choice(const char *path, const char *val, char *old,
			     size_t size)
{
	char buf[256] = "", *l, *r;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	l = strchr(buf, '[');
	r = l ? strchr(l, ']') : NULL;
	if (!r || (size_t)(r - l) > size)
		return -1;
	*r = 0;
	snprintf(old, size, "%s", l + 1);
	return put(path, val);
}

/* Pages of [P, P + LEN), a mapping, not in memory per mincore(); -1 on error. */
static inline long not_resident(char *p, unsigned long len)
{
	unsigned long i, pages = len / sysconf(_SC_PAGESIZE);
	unsigned char *vec = malloc(pages);
	long out = 0;

	if (!vec || mincore(p, len, vec)) {
		free(vec);
		return -1;
	}
	for (i = 0; i < pages; i++)
		out += !(vec[i] & 1);
	free(vec);
	return out;
}

/*
 * Pushes the pages of [P, P + LEN), a shared mapping of shmem, out to swap
 * (the guest swaps to zram). MADV_PAGEOUT reclaims only what is mapped: the
 * caller touches the pages it wants out through the mapping first (a read
 * fault on a hole would allocate it). Returns how many pages of the range
 * are not in memory then, -1 on error.
 */
static inline long page_out(char *p, unsigned long len)
{
	if (madvise(p, len, MADV_PAGEOUT))
		return -1;
	return not_resident(p, len);
}

/* The DRM node (/dev/dri/cardN) of the driver DRV, or -1. */
static inline int drm_open(const char *drv)
{
	struct drm_version v;
	char name[16], path[32];
	int i, fd;

	for (i = 0; i < 16; i++) {
		snprintf(path, sizeof(path), "/dev/dri/card%d", i);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		memset(&v, 0, sizeof(v));
		memset(name, 0, sizeof(name));
		v.name = name;
		v.name_len = sizeof(name) - 1;
		if (!ioctl(fd, DRM_IOCTL_VERSION, &v) && !strcmp(name, drv))
			return fd;
		close(fd);
	}
	return -1;
}

/* A KVM VM of the default type, for guest_memfds; -1 without /dev/kvm. */
static inline int kvm_vm(void)
{
	int kvm = open("/dev/kvm", O_RDWR);

	return kvm < 0 ? -1 : ioctl(kvm, KVM_CREATE_VM, 0);
}

#endif
