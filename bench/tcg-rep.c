// SPDX-License-Identifier: GPL-2.0
/*
 * What the string instructions that the kernel zeroes and copies pages with
 * cost, per GiB, against glibc's memset() and memcpy() and a plain unrolled
 * loop: run natively and under QEMU's TCG by scripts/tcg-rep-cost.sh.
 * Usage: tcg-rep [MiB] (default 64)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static size_t n;
static char *a, *b;

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

static void stosb(void)
{
	void *d = a;
	size_t c = n;

	asm volatile("rep stosb" : "+D"(d), "+c"(c) : "a"(0) : "memory");
}

static void stosq(void)
{
	void *d = a;
	size_t c = n / 8;

	asm volatile("rep stosq" : "+D"(d), "+c"(c) : "a"(0) : "memory");
}

static void movsb(void)
{
	void *d = a, *s = b;
	size_t c = n;

	asm volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(c) : : "memory");
}

static void movsq(void)
{
	void *d = a, *s = b;
	size_t c = n / 8;

	asm volatile("rep movsq" : "+D"(d), "+S"(s), "+c"(c) : : "memory");
}

static void unrolled(void)
{
	volatile unsigned long *p = (unsigned long *)a;
	size_t i;

	for (i = 0; i < n / 8; i += 4) {
		p[i] = 0;
		p[i + 1] = 0;
		p[i + 2] = 0;
		p[i + 3] = 0;
	}
}

static void glibc_memset(void)
{
	memset(a, 0, n);
}

static void glibc_memcpy(void)
{
	memcpy(a, b, n);
}

static const struct {
	const char *name;
	void (*fn)(void);
} ops[] = {
	{ "memset (glibc)", glibc_memset },
	{ "rep stosb", stosb },
	{ "rep stosq", stosq },
	{ "unrolled 8-byte stores", unrolled },
	{ "memcpy (glibc)", glibc_memcpy },
	{ "rep movsb", movsb },
	{ "rep movsq", movsq },
};

int main(int argc, char **argv)
{
	unsigned int i;
	double t;

	n = (argc > 1 ? strtoul(argv[1], NULL, 0) : 64) << 20;
	a = aligned_alloc(4096, n);
	b = aligned_alloc(4096, n);
	if (!n || !a || !b)
		return 1;
	memset(a, 1, n);
	memset(b, 2, n);
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		t = now();
		ops[i].fn();
		t = now() - t;
		printf("%-24s %7.3f s/GiB\n", ops[i].name, t * (1 << 30) / n);
	}
	return 0;
}
