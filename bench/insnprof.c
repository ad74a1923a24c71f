// SPDX-License-Identifier: GPL-2.0
/*
 * insnprof: a QEMU TCG plugin that counts the guest instructions executed
 * inside popbench's timed windows, per kernel translation block, for
 * make bench BENCH_PROFILE=N (scripts/bench.sh).
 *
 * A window runs from one execution of the user address toggle= (popbench's
 * clock_gettime(), which it calls at the start and at the end of every
 * sample) to the next. Every translation block adds its instruction count
 * to a counter of its start address each time it runs (an inline add, the
 * cheapest instrumentation the plugin API has); at each toggle the counters
 * are snapshotted, and what they gained while a window was open is what the
 * plugin reports. User space is counted as one bucket. Under -icount every
 * iteration of a "rep" string instruction is a translation block run, so it
 * counts as one instruction, as icount counts it.
 *
 * Output (out=FILE): one line per start address, "ADDR TOTAL IN_WINDOWS"
 * (hex, decimal, decimal; ADDR 1 is user space), then "windows N".
 *
 * QEMU 7.2's plugin API (version 1). Debian ships no qemu-plugin.h, so the
 * few entry points used are declared here; QEMU refuses a plugin whose
 * qemu_plugin_version it does not support, rather than misrunning it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
typedef void (*tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*vcpu_udata_cb_t)(unsigned int vcpu_index, void *userdata);
typedef void (*udata_cb_t)(qemu_plugin_id_t id, void *userdata);

enum { QEMU_PLUGIN_CB_NO_REGS = 0 };
enum { QEMU_PLUGIN_INLINE_ADD_U64 = 0 };

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   tb_trans_cb_t cb);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb,
					      int op, void *ptr, uint64_t imm);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb,
					  vcpu_udata_cb_t cb, int flags,
					  void *userdata);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, udata_cb_t cb,
				    void *userdata);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

#define KERNEL_START	0xffff800000000000ull
#define USER_BUCKET	1
#define HASH_BITS	20

struct counter {
	uint64_t vaddr;
	uint64_t insns;		/* updated inline by every run of the block */
	uint64_t snap;		/* insns when the window opened */
	uint64_t windowed;	/* gained inside windows */
	struct counter *next;
};

static struct counter *table[1u << HASH_BITS];
static const char *out_path = "insnprof.out";
static uint64_t toggle_vaddr;
static unsigned long windows;
static int open_window;

static struct counter *counter_of(uint64_t vaddr)
{
	unsigned int h = (vaddr * 0x9E3779B97F4A7C15ull) >> (64 - HASH_BITS);
	struct counter *c;

	for (c = table[h]; c; c = c->next)
		if (c->vaddr == vaddr)
			return c;
	c = calloc(1, sizeof(*c));
	if (!c) {
		perror("insnprof");
		exit(1);
	}
	c->vaddr = vaddr;
	c->next = table[h];
	table[h] = c;
	return c;
}

static void toggle(unsigned int vcpu_index, void *userdata)
{
	unsigned int h;
	struct counter *c;

	for (h = 0; h < (1u << HASH_BITS); h++)
		for (c = table[h]; c; c = c->next) {
			if (open_window)
				c->windowed += c->insns - c->snap;
			else
				c->snap = c->insns;
		}
	windows += open_window;
	open_window = !open_window;
}

static void translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	uint64_t vaddr = qemu_plugin_tb_vaddr(tb);
	struct counter *c;

	c = counter_of(vaddr >= KERNEL_START ? vaddr : USER_BUCKET);
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
						 &c->insns,
						 qemu_plugin_tb_n_insns(tb));
	if (toggle_vaddr && vaddr == toggle_vaddr)
		qemu_plugin_register_vcpu_tb_exec_cb(tb, toggle,
						     QEMU_PLUGIN_CB_NO_REGS,
						     NULL);
}

static void finish(qemu_plugin_id_t id, void *userdata)
{
	FILE *f = fopen(out_path, "w");
	unsigned int h;
	struct counter *c;

	if (!f) {
		perror(out_path);
		return;
	}
	for (h = 0; h < (1u << HASH_BITS); h++)
		for (c = table[h]; c; c = c->next)
			if (c->insns)
				fprintf(f, "%llx %llu %llu\n",
					(unsigned long long)c->vaddr,
					(unsigned long long)c->insns,
					(unsigned long long)c->windowed);
	fprintf(f, "windows %lu\n", windows);
	fclose(f);
}

__attribute__((visibility("default")))
int qemu_plugin_install(qemu_plugin_id_t id, const void *info, int argc,
			char **argv)
{
	int i;

	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4)) {
			out_path = argv[i] + 4;
		} else if (!strncmp(argv[i], "toggle=", 7)) {
			toggle_vaddr = strtoull(argv[i] + 7, NULL, 16);
		} else {
			fprintf(stderr, "insnprof: unknown argument %s\n",
				argv[i]);
			return -1;
		}
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, translate);
	qemu_plugin_register_atexit_cb(id, finish, NULL);
	return 0;
}
