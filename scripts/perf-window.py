#!/usr/bin/env python3
"""Where the time under one kernel function goes, from a UML perf profile.

Usage: perf script -i X.data -F comm,ip,sym,dso | scripts/perf-window.py ROOT

Keeps the samples whose call chain passes through ROOT (a function of the
UML kernel, shmem_fallocate say) and gives each to the outermost function
under ROOT that one of the groups below names, or to "the rest".  Prints
the number of samples of each group and its share of ROOT's samples.
"""
import collections
import sys

GROUPS = [
    ('page allocation', 'shmem_alloc_folio alloc_pages_mpol folio_alloc_mpol_noprof '
     '__folio_alloc_noprof __alloc_frozen_pages_noprof'),
    ('LRU add', 'folio_add_lru folio_batch_move_lru lru_add lru_add_drain lru_add_drain_cpu'),
    ('memcg charge', '__mem_cgroup_charge mem_cgroup_charge charge_memcg '
     'try_charge_memcg get_mem_cgroup_from_mm'),
    ('blocks, quota, inode', 'shmem_inode_acct_blocks shmem_inode_unacct_blocks '
     'shmem_recalc_inode __vm_enough_memory __dquot_alloc_space'),
    ('page cache counters', 'lruvec_stat_mod_folio __lruvec_stat_mod_folio mod_lruvec_state '
     '__mod_lruvec_state mod_memcg_lruvec_state __mod_memcg_lruvec_state '
     'mod_node_page_state __mod_node_page_state'),
    ('lookup of the range', 'filemap_get_entry filemap_lock_folios filemap_lock_folio '
     '__filemap_get_folio_mpol filemap_hole_size'),
    ('stores into the tree', 'xas_store xas_find_conflict xas_create xas_nomem xas_alloc '
     'xas_load xas_start xas_find'),
    ('page faults', 'asm_exc_page_fault exc_page_fault'),
]
GROUP_OF = {f: name for name, funcs in GROUPS for f in funcs.split()}


def samples(lines):
    """The call chains of perf script's output, leaf first."""
    chain = []
    for line in lines:
        if not line.strip():
            if chain:
                yield chain
            chain = []
        elif line[0] in ' \t':
            fields = line.split(None, 1)
            if len(fields) == 2:
                chain.append(fields[1].rsplit(' (', 1)[0].split('+')[0])
    if chain:
        yield chain


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    root = sys.argv[1]
    count = collections.Counter()
    total = 0
    for chain in samples(sys.stdin):
        if root not in chain:
            continue
        total += 1
        under = chain[:chain.index(root)]
        group = next((GROUP_OF[f] for f in reversed(under) if f in GROUP_OF),
                     'the rest')
        count[group] += 1
    if not total:
        sys.exit(f'no sample passes through {root}')
    print(f'{total} samples under {root}')
    for group, n in count.most_common():
        print(f'  {group:24} {n:7d} {100 * n / total:5.1f}%')


if __name__ == '__main__':
    main()
