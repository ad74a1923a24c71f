#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make bench BENCH_PROFILE=N: the kernel functions that executed the most
instructions inside popbench's timed windows, per 4 KiB page of the buffer,
base and patched side by side.

Usage: insn-report.py RES N BASE_SYSTEM_MAP PATCHED_SYSTEM_MAP

A kernel that lacks the path (n/a) has no window and an empty column.
Reads RES/logs/boot-*-{base,patched}.insn (bench/insnprof.c: "ADDR TOTAL
IN_WINDOWS" per translation block start, "windows N") and RES/meta.env
(mib). A block is charged to the function of System.map that contains its
start (the guests boot with nokaslr); the counts of all boots of a kernel are
summed and divided by their windows and by the pages of the buffer.
"""
import bisect
import collections
import glob
import os
import sys

KERNELS = ('base', 'patched')


def symbols(path):
    syms = []
    with open(path) as f:
        for line in f:
            fields = line.split()
            if len(fields) >= 3 and fields[1] in 'tTwW':
                syms.append((int(fields[0], 16), fields[2]))
    syms.sort()
    return [a for a, _ in syms], [n for _, n in syms]


def load(res, kernel, smap):
    addrs, names = symbols(smap)
    counts = collections.Counter()
    windows = 0
    files = sorted(glob.glob(os.path.join(res, 'logs', 'boot-*-%s.insn' % kernel)))
    for path in files:
        with open(path) as f:
            for line in f:
                fields = line.split()
                if fields[0] == 'windows':
                    windows += int(fields[1])
                    continue
                addr, inside = int(fields[0], 16), int(fields[2])
                if not inside:
                    continue
                if addr == 1:
                    counts['[user space]'] += inside
                    continue
                i = bisect.bisect_right(addrs, addr) - 1
                counts[names[i] if i >= 0 else '[unknown]'] += inside
    return counts, windows, len(files)


def main():
    res, top = sys.argv[1], int(sys.argv[2])
    maps = dict(zip(KERNELS, sys.argv[3:5]))
    meta = {}
    with open(os.path.join(res, 'meta.env')) as f:
        for line in f:
            k, _, v = line.rstrip('\n').partition('=')
            meta[k] = v
    pages = int(meta['mib']) * 256
    per = {}
    for k in KERNELS:
        counts, windows, boots = load(res, k, maps[k])
        if not windows:
            # a path the kernel lacks (n/a): popbench timed nothing
            per[k] = {}
            print('%s: %d boots, no timed window' % (k, boots))
            continue
        per[k] = {f: n / windows / pages for f, n in counts.items()}
        print('%s: %d boots, %d timed windows, %.0f guest instructions per '
              '4 KiB page' % (k, boots, windows, sum(per[k].values())))
    if not per['base'] and not per['patched']:
        sys.exit('insn-report: no timed window in any boot')
    print('paths: %s; command: %s' % (meta.get('paths'), meta.get('command')))
    print()
    print('%10s %10s %10s  %s' % ('base', 'patched', 'change', 'function'))
    names = set(per['base']) | set(per['patched'])
    names = sorted(names, key=lambda f: -max(per['base'].get(f, 0),
                                            per['patched'].get(f, 0)))
    for f in names[:top]:
        cells = ['%10.1f' % per[k].get(f, 0.0) if per[k] else '%10s' % '-'
                 for k in KERNELS]
        if per['base'] and per['patched']:
            cells.append('%+10.1f' % (per['patched'].get(f, 0.0) -
                                      per['base'].get(f, 0.0)))
        else:
            cells.append('%10s' % '-')
        print('%s  %s' % (' '.join(cells), f))


if __name__ == '__main__':
    main()
