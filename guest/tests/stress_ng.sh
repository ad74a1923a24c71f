#!/bin/sh
# Debian's stress-ng on tmpfs and on ramfs, under the debug kernel: the
# memfd, shm, fallocate, mmap (file-backed) and hdd (write/read/unlink)
# stressors, two workers each, bounded by an operation count per stressor
# and a time limit. The test is that they pass their own checks (--verify)
# and that the kernel says nothing: scripts/guest-run.sh fails the run on any
# splat in the log, kmemleak (the last test) on any leak.
# host-programs: stress-ng
# (scripts/guest-selftests.sh copies the host's stress-ng with its shared
# libraries to /tests/host/stress-ng/; it runs through the copied loader.)
d=/tests/host/stress-ng
[ -x "$d/stress-ng" ] || { echo "SKIP: no $d/stress-ng"; exit 4; }
sng() {
	"$d/lib/ld-linux-x86-64.so.2" --library-path "$d/lib" "$d/stress-ng" "$@"
}
mkdir -p /tmp/stress-tmpfs /tmp/stress-ramfs
mount -t ramfs ramfs /tmp/stress-ramfs || exit 1
rc=0
for dir in /tmp/stress-tmpfs /tmp/stress-ramfs; do
	echo "# stress-ng in $dir ($(stat -f -c %T "$dir"))"
	# sizes small enough that every stressor completes operations within
	# the limit under QEMU's emulation with KASAN and lockdep
	sng --temp-path "$dir" --timeout 30 --verify --metrics-brief \
		--memfd 2 --memfd-ops 200 --memfd-bytes 4M --memfd-fds 16 \
		--shm 2 --shm-ops 200 \
		--fallocate 2 --fallocate-ops 400 --fallocate-bytes 4M \
		--mmap 2 --mmap-ops 200 --mmap-file --mmap-bytes 4M \
		--hdd 2 --hdd-ops 2000 --hdd-bytes 4M || rc=1
done
# everything the stressors made is gone, or the counters say why
rm -rf /tmp/stress-tmpfs
umount /tmp/stress-ramfs && rmdir /tmp/stress-ramfs
exit $rc
