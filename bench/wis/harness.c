// SPDX-License-Identifier: GPL-2.0
/*
 * The harness of the will-it-scale testcases in tests/ (bench/wis/README),
 * in place of will-it-scale's main.c, which needs hwloc and prints a
 * running total: it runs one testcase in N processes, as will-it-scale's
 * *_processes binaries do, and reports its throughput in popbench's format
 * (bench/popbench.c), so that scripts/bench-report.py tables it beside
 * popbench's memset and memcpy rows.
 *
 * Usage: wis-CASE -n NAME [-t TASKS] [-b BYTES] [-i SECONDS] [-r REPS] [-w WARMUP]
 *   -n  the row's name
 *   -t  processes, each pinned to CPU (its number modulo the CPUs), as
 *       will-it-scale pins them to cores (default 1)
 *   -b  the bytes one iteration of the testcase handles (default 4096), so
 *       that a row reads as the time to handle a GiB
 *   -i  seconds per sample (default 2)
 *   -r  samples (default 3), -w warm-up samples, discarded (default 1)
 *
 * Output: WARMUP|SAMPLE path=NAME rep=N ns=NS bytes=B per sample, B the
 * bytes of the iterations all tasks did in the NS nanoseconds; or
 * ERROR path=NAME reason=WHY, exit status 1, if a task died.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>

#define MAX_TASKS	64
#define STRIDE		(128 / sizeof(unsigned long long))	/* a counter per line */

extern char *testcase_description;
void __attribute__((weak)) testcase_prepare(unsigned long nr_tasks) { }
void __attribute__((weak)) testcase_cleanup(void) { }
void *testcase(unsigned long long *iterations, unsigned long nr);

static unsigned long long *counters;
static pid_t pids[MAX_TASKS];
static int tasks = 1;

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static unsigned long long total(void)
{
	unsigned long long sum = 0;
	int i;

	for (i = 0; i < tasks; i++)
		sum += __atomic_load_n(&counters[i * STRIDE], __ATOMIC_RELAXED);
	return sum;
}

static void stop(void)
{
	int i;

	for (i = 0; i < tasks; i++)
		if (pids[i] > 0)
			kill(pids[i], SIGKILL);
	for (i = 0; i < tasks; i++)
		if (pids[i] > 0)
			waitpid(pids[i], NULL, 0);
}

/* A task that ended (an assert() of the testcase failed) fails the row. */
static int dead(const char *name)
{
	int i, status;

	for (i = 0; i < tasks; i++) {
		if (waitpid(pids[i], &status, WNOHANG) != pids[i])
			continue;
		pids[i] = 0;
		printf("ERROR path=%s reason=task %d %s %d\n", name, i,
		       WIFSIGNALED(status) ? "killed by signal" : "exited with",
		       WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long long bytes = 4096, secs = 2;
	int reps = 3, warmup = 1, ncpus, opt, i;
	const char *name = NULL;

	while ((opt = getopt(argc, argv, "n:t:b:i:r:w:")) != -1) {
		switch (opt) {
		case 'n': name = optarg; break;
		case 't': tasks = atoi(optarg); break;
		case 'b': bytes = strtoull(optarg, NULL, 0); break;
		case 'i': secs = strtoull(optarg, NULL, 0); break;
		case 'r': reps = atoi(optarg); break;
		case 'w': warmup = atoi(optarg); break;
		default: goto usage;
		}
	}
	if (!name || tasks < 1 || tasks > MAX_TASKS || !bytes || !secs ||
	    reps < 1 || warmup < 0 || optind != argc) {
usage:
		fprintf(stderr, "usage: %s -n NAME [-t TASKS] [-b BYTES] [-i SECONDS] [-r REPS] [-w WARMUP]\n",
			argv[0]);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);

	counters = mmap(NULL, MAX_TASKS * STRIDE * sizeof(*counters),
			PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (counters == MAP_FAILED) {
		printf("ERROR path=%s reason=mmap: %s\n", name, strerror(errno));
		return 1;
	}
	ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpus < 1)
		ncpus = 1;

	testcase_prepare(tasks);
	for (i = 0; i < tasks; i++) {
		pids[i] = fork();
		if (pids[i] < 0) {
			printf("ERROR path=%s reason=fork: %s\n", name, strerror(errno));
			stop();
			return 1;
		}
		if (!pids[i]) {
			cpu_set_t set;

			CPU_ZERO(&set);
			CPU_SET(i % ncpus, &set);
			sched_setaffinity(0, sizeof(set), &set);
			testcase(&counters[i * STRIDE], i);
			_exit(0);
		}
	}

	for (i = 0; i < warmup + reps; i++) {
		unsigned long long c0 = total(), t0 = now_ns(), c1, t1;

		sleep(secs);
		c1 = total();
		t1 = now_ns();
		if (dead(name)) {
			stop();
			return 1;
		}
		if (c1 == c0) {
			printf("ERROR path=%s reason=no iteration in %llu s\n",
			       name, secs);
			stop();
			return 1;
		}
		printf("%s path=%s rep=%d ns=%llu bytes=%llu\n",
		       i < warmup ? "WARMUP" : "SAMPLE", name,
		       i < warmup ? i : i - warmup, t1 - t0, (c1 - c0) * bytes);
	}
	stop();
	testcase_cleanup();
	return 0;
}
