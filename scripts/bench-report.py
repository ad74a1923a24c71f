#!/usr/bin/env python3
"""The report of 'make bench' (scripts/bench.sh): reads DIR/meta.env and
popbench's output of each boot, DIR/boot-N-KERNEL.txt, and writes
DIR/samples.json (every sample, metadata, summary), DIR/table.txt and
DIR/table.md (printed: the text table), DIR/plot.png (gnuplot, from
DIR/plot.dat and DIR/plot.gp).

ms per GiB of each sample = ns / 1e6 / (bytes / 2^30); per kernel and path
the median and the min-max of every non-warm-up sample of every boot;
ratios are of medians. Exit status 1 if a path failed (an ERROR line).

Usage: bench-report.py DIR
"""
import glob
import json
import os
import re
import statistics
import subprocess
import sys

KERNELS = ('base', 'patched')
GIB = 1 << 30


def parse_boot(path):
    """popbench's lines: header fields, info, samples, NA and ERROR."""
    boot = {'header': {}, 'info': {}, 'samples': [], 'na': {}, 'errors': {},
            'done': False}
    for line in open(path, errors='replace'):
        kind, _, rest = line.rstrip('\n').partition(' ')
        if kind in ('NA', 'ERROR'):
            m = re.match(r'path=(\S+) reason=(.*)$', rest)
            if m:
                boot['na' if kind == 'NA' else 'errors'][m.group(1)] = m.group(2)
            continue
        fields = dict(f.split('=', 1) for f in rest.split() if '=' in f)
        if kind == 'POPBENCH':
            boot['header'] = fields
        elif kind == 'INFO':
            boot['info'].update(fields)
        elif kind in ('SAMPLE', 'WARMUP'):
            boot['samples'].append({
                'path': fields['path'], 'rep': int(fields['rep']),
                'warmup': kind == 'WARMUP', 'ns': int(fields['ns']),
                'bytes': int(fields['bytes'])})
        elif kind == 'POPBENCH-DONE':
            boot['done'] = True
    return boot


def stats(values):
    if not values:
        return None
    return {'median': statistics.median(values), 'min': min(values),
            'max': max(values), 'n': len(values)}


def num(v):
    """Three significant digits or so, no exponent."""
    if v >= 100:
        return '%.0f' % v
    if v >= 10:
        return '%.1f' % v
    return '%.2f' % v


def cell(s):
    return '%s (%s-%s)' % (num(s['median']), num(s['min']), num(s['max'])) if s else 'n/a'


def ratio(a, b):
    return '%.2f' % (a['median'] / b['median']) if a and b else '-'


def main():
    d = sys.argv[1]
    meta = {}
    for line in open(os.path.join(d, 'meta.env')):
        k, _, v = line.rstrip('\n').partition('=')
        meta[k] = v

    boots, order = [], []
    for f in sorted(glob.glob(os.path.join(d, 'boot-*-*.txt')),
                    key=lambda f: (int(re.search(r'boot-(\d+)-', f).group(1)), f)):
        n, kernel = re.search(r'boot-(\d+)-(\w+)\.txt$', f).groups()
        b = parse_boot(f)
        b.update(boot=int(n), kernel=kernel)
        boots.append(b)
        for s in b['samples']:
            if s['path'] not in order:
                order.append(s['path'])
        for p in list(b['na']) + list(b['errors']):
            if p not in order:
                order.append(p)

    samples, kinfo = [], {}
    for b in boots:
        k = b['kernel']
        kinfo.setdefault(k, {'commit': meta.get(k + '_commit'),
                             'ref': meta.get(k + '_ref'),
                             'subject': meta.get(k + '_subject'),
                             'release': b['header'].get('release'),
                             'version': b['header'].get('version'),
                             'info': b['info']})
        for s in b['samples']:
            samples.append(dict(kernel=k, boot=b['boot'], **s,
                                ms_per_gib=s['ns'] / 1e6 / (s['bytes'] / GIB)))

    summary, errors, na_both = [], [], []
    st = {}
    for p in order:
        row = {'path': p}
        for k in KERNELS:
            vals = [s['ms_per_gib'] for s in samples
                    if s['kernel'] == k and s['path'] == p and not s['warmup']]
            na = sorted({b['na'][p] for b in boots if b['kernel'] == k and p in b['na']})
            err = sorted({b['errors'][p] for b in boots if b['kernel'] == k and p in b['errors']})
            # no numbers from a path that failed in any boot
            st[k, p] = None if err else stats(vals)
            row[k] = st[k, p]
            if na:
                row[k + '_na'] = na
            if err:
                row[k + '_error'] = err
                errors.append('%s on %s: %s' % (p, k, '; '.join(err)))
        summary.append(row)
        if not row['base'] and not row['patched'] and 'base_error' not in row \
                and 'patched_error' not in row:
            na_both.append((p, '; '.join(row.get('patched_na', row.get('base_na', ['?'])))))

    # guest_memfd against memfd write() and against mmap + memcpy of a
    # guest_memfd, of the same size, each boot on its own: ratios of the
    # medians of one boot.
    gpaths = [p for p in order if p.startswith('gmem-')
              and any(s['path'] == p for s in samples)]

    def boot_ratios(ref):
        per_boot = []
        for b in sorted(boots, key=lambda b: (b['boot'], KERNELS.index(b['kernel']))) \
                if gpaths else []:
            med = {p: statistics.median(v) for p in order
                   for v in [[s['ns'] / s['bytes'] for s in b['samples']
                              if s['path'] == p and not s['warmup']]] if v}
            if ref in med and ref not in b['errors']:
                per_boot.append({'kernel': b['kernel'], 'boot': b['boot'], 'ratios': {
                    p: med[p] / med[ref] if p in med and p not in b['errors']
                    else None for p in gpaths}})
        return per_boot
    per_boot = boot_ratios('memfd-write')
    per_boot_mmap = boot_ratios('gmem-mmap-memcpy')

    with open(os.path.join(d, 'samples.json'), 'w') as f:
        json.dump({'meta': meta, 'kernels': kinfo, 'summary': summary,
                   'gmem_vs_memfd_write_per_boot': per_boot,
                   'gmem_vs_gmem_mmap_memcpy_per_boot': per_boot_mmap,
                   'na': [{'kernel': b['kernel'], 'boot': b['boot'], 'path': p,
                           'reason': r} for b in boots for p, r in b['na'].items()],
                   'errors': [{'kernel': b['kernel'], 'boot': b['boot'], 'path': p,
                               'reason': r} for b in boots for p, r in b['errors'].items()],
                   'samples': samples}, f, indent=1)
        f.write('\n')

    # --- the tables ---------------------------------------------------------
    rows = [r for r in summary if r['path'] not in dict(na_both)]
    n = {k: max([s['n'] for (kk, _), s in st.items() if kk == k and s] or [0])
         for k in KERNELS}
    head = ('path', 'base', 'patched', 'patched/base', 'vs memset', 'vs memcpy')
    body = []
    for r in rows:
        p = r['path']
        body.append((p, 'error' if 'base_error' in r else cell(r['base']),
                     'error' if 'patched_error' in r else cell(r['patched']),
                     ratio(r['patched'], r['base']),
                     ratio(r['patched'], st.get(('patched', 'memset'))),
                     ratio(r['patched'], st.get(('patched', 'memcpy')))))
    arch = 'UML' if meta['arch'] == 'uml' else 'x86_64 QEMU guest (%s%s; %s)' % (
        'KVM' if meta.get('accel') == 'kvm' else 'TCG',
        ', -cpu ' + meta['cpu'] if meta.get('cpu') else '',
        "Debian's cloud-amd64 config" if meta.get('config') == 'debian'
        else "the test guest's tinyconfig-based config")
    if meta.get('icount'):
        arch = arch[:-1] + ', -icount %s; a guest ns is a guest instruction)' % meta['icount']
    rel = {k: kinfo.get(k, {}).get('release') or '?' for k in KERNELS}
    what = 'Populating %s MiB' % meta['mib']
    if meta.get('program') == 'wis':
        what = ('will-it-scale testcases (bench/wis), NAME-Np with N processes, '
                'as the time to handle a GiB at the throughput of a sample (bytes '
                'of an iteration times the iterations of all processes); memset, '
                'memcpy and vm-scalability\'s shm-pread-seq (vms-, 1 and 2 '
                'processes reading a sparse tmpfs file) of %s MiB' % meta['mib'])
    intro = [
        '%s, %s. ms per GiB: median (min-max) of %s samples per '
        'kernel and path (boots per kernel: %s, samples per boot: %s after %s '
        'warm-up); ratios of medians, "vs memset/memcpy" on the patched kernel.'
        % (what, arch, n['patched'] or n['base'], meta['boots'], meta['reps'],
           meta['warmup']),
        'Memory cgroup: %s.' % {
            None: 'root (runs before BENCH_MEMCG)', 'root': 'root, nothing charged',
            'bench': 'a cgroup of its own, no limit'}.get(
                meta.get('memcg'), 'a cgroup of its own, memory.max %s MiB' % meta.get('memcg')),
        'base %s (%s %.12s), patched %s (%s %.12s, base + %s commits); %s, %s.'
        % (rel['base'], meta.get('base_ref'), meta.get('base_commit', ''),
           rel['patched'], meta.get('patched_ref'), meta.get('patched_commit', ''),
           meta.get('patched_commits', '?'), meta.get('host_cpu'), meta.get('date')),
    ]
    settings = ', '.join(
        '%s %s' % (k, '/'.join(sorted({kinfo[n]['info'].get(k, '?') for n in kinfo})))
        for k in ('thp', 'shmem_thp', 'lru_gen', 'mem_auto_init', 'swap_kib')
        if any(k in kinfo[n]['info'] for n in kinfo))
    if settings:
        intro.insert(2, 'Settings in the guest: %s.' % settings)
    foot = []
    if na_both:
        foot.append('Not available on either kernel here: %s.' % '; '.join(
            '%s (%s)' % pr for pr in na_both))
    for r in rows:
        if not r['base'] and r['patched'] and 'base_na' in r:
            foot.append('%s: n/a on base (%s).' % (r['path'], '; '.join(r['base_na'])))
    for e in errors:
        foot.append('ERROR: %s' % e)
    died = os.path.join(d, 'died.txt')
    if os.path.exists(died):
        foot.append('Boots that died (before /init, or of an int3 oops), booted again (logs/*.died-N): %s.'
                    % ', '.join(open(died).read().split()))
    foot.append('Command: %s' % meta.get('command'))

    txt, md = render(head, body, 3)
    wrap = lambda s: _wrap(s, 78)
    text = sum((wrap(s) for s in intro), []) + [''] + txt + ['']
    mdtext = intro + [''] + md + ['']
    for pbs, what in ((per_boot, 'memfd write()'),
                      (per_boot_mmap, 'mmap() + memcpy() of a guest_memfd')):
        if not pbs:
            continue
        title = ('guest_memfd against %s of the same size, ratios '
                 'of the medians of one boot:' % what)
        ghead = ('kernel', 'boot') + tuple(p[len('gmem-'):] for p in gpaths)
        gbody = [(pb['kernel'], str(pb['boot'])) + tuple(
            '%.2f' % r if r is not None else 'n/a' for r in pb['ratios'].values())
            for pb in pbs]
        gtxt, gmd = render(ghead, gbody, 1)
        text += wrap(title) + [''] + gtxt + ['']
        mdtext += [title, ''] + gmd + ['']
    text = '\n'.join(text + sum((wrap(s) for s in foot), [])) + '\n'
    mdtext = '\n'.join(mdtext + foot) + '\n'
    open(os.path.join(d, 'table.txt'), 'w').write(text)
    open(os.path.join(d, 'table.md'), 'w').write(mdtext)
    sys.stdout.write(text)

    # --- the plot -----------------------------------------------------------
    nan = lambda s: ('%.4g %.4g %.4g' % (s['median'], s['min'], s['max'])) if s else 'NaN NaN NaN'
    with open(os.path.join(d, 'plot.dat'), 'w') as f:
        f.write('# path base(median min max) patched(median min max), ms per GiB\n')
        for r in rows:
            f.write('"%s" %s %s\n' % (r['path'], nan(r['base']), nan(r['patched'])))
    vals = [v for r in rows for k in KERNELS if r[k] for v in (r[k]['min'], r[k]['max'])]
    log = vals and max(vals) / min(vals) > 30
    with open(os.path.join(d, 'plot.gp'), 'w') as f:
        f.write('''set terminal pngcairo noenhanced size 1100,600 font ",10"
set output "plot.png"
set title "%s MiB, %s: ms per GiB, median and min-max (lower is better)"
set style data histograms
set style histogram errorbars gap 1 lw 1
set style fill solid 0.7 border -1
set datafile missing "NaN"
set xtics rotate by -35 left
set ylabel "ms per GiB%s"
set grid ytics
set key top left
%s
set bmargin 9
set rmargin 12
plot "plot.dat" using 2:3:4:xtic(1) title "base (%s %.7s)", \\
     "" using 5:6:7 title "patched (%s %.7s)"
''' % (meta['mib'], arch, ' (log scale)' if log else '', 'set logscale y' if log else
       'set yrange [0:*]', meta.get('base_ref'), meta.get('base_commit', ''),
       meta.get('patched_ref'), meta.get('patched_commit', '')))
    try:
        subprocess.run(['gnuplot', 'plot.gp'], cwd=d, check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        print('bench-report: gnuplot failed: %s' % e, file=sys.stderr)
    print('\nfiles: %s/{table.txt,table.md,samples.json,plot.png}' % d)
    return 1 if errors else 0


def render(head, body, left):
    """A table as aligned text and as markdown; the first LEFT columns
    left-aligned, the others right-aligned."""
    w = [max(len(x[i]) for x in [head] + body) for i in range(len(head))]
    txt = ['  '.join(x.ljust(w[i]) if i < left else x.rjust(w[i])
                     for i, x in enumerate(line)).rstrip() for line in [head] + body]
    md = ['| ' + ' | '.join(head) + ' |', '|' + '|'.join(
        '-' * (len(h) + 2) if i < left else '-' * (len(h) + 1) + ':'
        for i, h in enumerate(head)) + '|']
    md += ['| ' + ' | '.join(line) + ' |' for line in body]
    return txt, md


def _wrap(s, width):
    out, line = [], ''
    for word in s.split(' '):
        if line and len(line) + 1 + len(word) > width:
            out.append(line)
            line = word
        else:
            line = line + ' ' + word if line else word
    return out + [line]


if __name__ == '__main__':
    sys.exit(main())
