#!/bin/bash
# make bench: the userspace A/B benchmark, base kernel against patched kernel.
# Builds both with the same config, then boots them in turn, BENCH_BOOTS
# rounds in ABBA order (base, patched; patched, base; ...), each boot running
# bench/popbench over every path: BENCH_WARMUP discarded samples, then
# BENCH_REPS samples. Prints the table and writes, in build/bench/ARCH-MIB/:
#   table.txt, table.md  ms per GiB, median (min-max) per kernel and path,
#                        patched/base, each path against memset and memcpy
#   samples.json         every sample, with the run's metadata
#   plot.png             (gnuplot) medians with min-max bars
#   boot-N-KERNEL.txt    popbench's output of each boot; logs/: the consoles
# Usage: bench.sh [um|x86_64]	(default um: UML, no QEMU; x86_64: the QEMU
# guest, which also has THP, guest_memfd and udmabuf)
# BENCH_CONFIG (x86_64): "debian", the default, builds both kernels from
# Debian's configuration of this kernel (configs/bench-debian.config says
# what changes and why); its builds and results are named x86_64-debian.
# "tiny" builds them from the test guest's tinyconfig-based config
# (configs/guest-x86_64.config + configs/bench-x86_64.config), about a
# fifth as much to compile; named x86_64.
# BENCH_PROG=fgbench runs bench/fgbench instead of popbench: an out-of-tree
# module, built against each kernel, that times page cache and shmem
# population paths in the kernel (bench/fgbench/fgbench.c lists them), the
# same code in both kernels; results in
# build/bench/ARCH-fgbench-MIB/ (x86_64: configs/bench-x86_64.config has
# CONFIG_MODULES for it).
# BENCH_PROG=wis runs the will-it-scale testcases that touch the stack's
# paths (bench/wis/README: fallocate1, fallocate2, page_fault3, write1,
# pwrite1, read1, and write1 on ramfs), each with 1 process and, in the
# x86_64 guest, with 2, beside popbench's memset and memcpy rows; results in
# build/bench/ARCH-wis-MIB/ (MIB sizes only the noise rows).
# Environment: BENCH_MIB (256..2048; default 512 on UML, 256 on x86_64),
#   BENCH_REPS (2 / 3), BENCH_BOOTS (8 / 2), BENCH_WARMUP (1),
#   BENCH_PATHS (popbench -p, fgbench's paths=: name prefixes, comma
#   separated; a trailing "." makes one a whole name),
#   BENCH_BASE=base, BENCH_PATCHED=series (git refs of build/linux),
#   BENCH_APPEND (more kernel command line, both kernels), BENCH_TAG (the
#   results go to build/bench/ARCH-MIB-TAG instead),
#   BENCH_MEMCG (the memory cgroup popbench runs in: "bench", the default,
#   a cgroup of its own without a limit; N, the same with memory.max at N
#   MiB, the reclaim path; "root", the root cgroup, where nothing is
#   charged),
#   BENCH_TIMEOUT (seconds per boot), BENCH_ICOUNT=1 (x86_64 under TCG:
#   QEMU's -icount shift=0, so that the guest's clocks count instructions,
#   one per nanosecond; see below), BENCH_PROFILE=N (BENCH_ICOUNT=1, and
#   the N kernel functions that executed the most instructions per page
#   inside the timed samples, both kernels side by side, in profile.txt;
#   see bench/insnprof.c. Give BENCH_PATHS one path: the profile sums every
#   timed window of a boot, of every path it runs).
# The kernels are built from worktrees build/base and build/patched, into
# build/out/bench-{uml,x86_64,x86_64-debian}-{base,patched}.
. "$(dirname "$0")/lib.sh"

arch=${1:-um}
case "$arch" in
um|uml)	arch=um name=uml; d_mib=512 d_reps=2 d_boots=8 touch=" -t" ;;
x86_64)	name=x86_64; d_mib=256 d_reps=3 d_boots=2 touch=" -t" ;;
*)	die "unknown arch '$arch' (um or x86_64)" ;;
esac
CONFIG=${BENCH_CONFIG:-debian}
case "$arch:$CONFIG" in
um:tiny|um:debian|x86_64:tiny) ;;
x86_64:debian) name=x86_64-debian ;;
*) die "BENCH_CONFIG=$CONFIG: debian or tiny" ;;
esac
MIB=${BENCH_MIB:-$d_mib}
REPS=${BENCH_REPS:-$d_reps}
BOOTS=${BENCH_BOOTS:-$d_boots}
WARMUP=${BENCH_WARMUP:-1}
BASE_REF=${BENCH_BASE:-$BASE_TAG}
PATCHED_REF=${BENCH_PATCHED:-series}
[[ $MIB =~ ^[0-9]+$ ]] && [ "$MIB" -ge 256 ] && [ "$MIB" -le 2048 ] ||
	die "BENCH_MIB=$MIB: the size in MiB, 256 to 2048"
[[ $REPS =~ ^[1-9][0-9]*$ ]] || die "BENCH_REPS=$REPS: a positive number"
[[ $BOOTS =~ ^[1-9][0-9]*$ ]] || die "BENCH_BOOTS=$BOOTS: a positive number"
[[ $WARMUP =~ ^[0-9]+$ ]] || die "BENCH_WARMUP=$WARMUP: a number"
[[ ${BENCH_PATHS:-} =~ ^[a-z0-9,.-]*$ ]] || die "BENCH_PATHS=$BENCH_PATHS: path names, comma separated"
[[ ${BENCH_TAG:-} =~ ^[a-z0-9-]*$ ]] || die "BENCH_TAG=$BENCH_TAG: letters, digits and dashes"
[[ ${BENCH_APPEND:-} =~ ^[a-zA-Z0-9_.,=\ -]*$ ]] || die "BENCH_APPEND=$BENCH_APPEND: kernel parameters, space separated"
PROG=${BENCH_PROG:-popbench}
MEMCG=${BENCH_MEMCG:-bench}
[[ $MEMCG =~ ^(bench|root|[1-9][0-9]*)$ ]] ||
	die "BENCH_MEMCG=$MEMCG: bench, root or a size in MiB"
PROFILE=${BENCH_PROFILE:-}
if [ -n "$PROFILE" ]; then
	[[ $PROFILE =~ ^[1-9][0-9]*$ ]] || die "BENCH_PROFILE=$PROFILE: a number of functions"
	[ "$arch" != um ] && [ "$PROG" = popbench ] ||
		die "BENCH_PROFILE needs popbench on the x86_64 guest"
	# No pretouch: it is timed with the same clock_gettime() as a sample,
	# and host page faults are no guest instructions.
	touch=
	BENCH_ICOUNT=1
fi
case "$PROG" in
popbench|fgbench|wis) ;;
*) die "BENCH_PROG=$PROG: popbench, fgbench or wis" ;;
esac
# Memory: the source, memset/memcpy target, one object and the RAM block
# device of bdev-read (brd) of MIB each, plus the kernel; x86_64 has a
# second device for ext4-read (its file of MIB and ext4's metadata).
BRD="brd.rd_nr=2 brd.rd_size=$(((MIB + 64) * 1024))"
if [ "$arch" = um ]; then
	mem=$((5 * MIB + 512))
	TIMEOUT=${BENCH_TIMEOUT:-$((300 + MIB * (REPS + WARMUP)))}
else
	mem=$((5 * MIB + 1600))
	[ "$mem" -ge 4096 ] || mem=4096
	TIMEOUT=${BENCH_TIMEOUT:-$((900 + 4 * MIB * (REPS + WARMUP)))}
fi

# A fresh clone sets itself up, as make test does: the packages, then the
# base and the series (only when there is no tree: one that exists may hold
# work that is not exported yet).
"$TOP/scripts/deps.sh"
[ -d "$KSRC/.git" ] || "$TOP/scripts/materialise.sh"

RES=$BUILD/bench/$name-$MIB
[ "$PROG" = popbench ] || RES=$BUILD/bench/$name-$PROG-$MIB
[ -z "${BENCH_TAG:-}" ] || RES=$RES-$BENCH_TAG
BASE_SRC=$BUILD/base
PATCHED_SRC=$BUILD/patched

# worktree DIR REF: DIR is a worktree of KSRC, detached at REF's commit.
worktree() {
	local dir=$1 ref=$2 want
	want=$(git -C "$KSRC" rev-parse -q --verify "$ref^{commit}") ||
		die "no '$ref' in $KSRC: run make materialise"
	if [ -f "$dir/.git" ] && ! git -C "$dir" rev-parse -q --verify HEAD >/dev/null 2>&1; then
		grep -q "^gitdir: $(realpath "$KSRC")/.git/worktrees/" "$dir/.git" ||
			die "$dir is not a worktree of $KSRC; remove it"
		say "$dir: its tree was recreated, making it again"
		rm -rf "$dir"
	fi
	if [ ! -e "$dir" ]; then
		git -C "$KSRC" worktree prune
		say "worktree $dir at $ref"
		git -C "$KSRC" worktree add -q --detach "$dir" "$want"
	elif [ ! -f "$dir/.git" ]; then
		die "$dir is not a worktree of $KSRC; remove it"
	elif [ "$(git -C "$dir" rev-parse HEAD)" != "$want" ]; then
		[ -z "$(git -C "$dir" status --porcelain --untracked-files=no)" ] ||
			die "$dir has local changes"
		say "$dir: moving to $ref"
		git -C "$dir" checkout -q --detach "$want"
	fi
}

# uml_kernel SRC O: UML defconfig + configs/bench-uml.config, the linux binary.
uml_kernel() {
	local src=$1 o=$2 frag=$TOP/configs/bench-uml.config sum
	kmake() {
		nice -n 10 make -s -C "$src" O="$o" ARCH=um CC="$CC_WRAP" "$@"
	}
	mkdir -p "$o"
	sum=$(sha256sum < "$frag" | cut -d' ' -f1)
	if [ ! -f "$o/.config" ] || [ "$(cat "$o/.bench-config.sha256" 2>/dev/null)" != "$sum" ]; then
		rm -f "$o/.bench-config.sha256"
		kmake defconfig
		"$src/scripts/kconfig/merge_config.sh" -m -Q -O "$o" "$o/.config" "$frag" >/dev/null
		echo "$sum" > "$o/.bench-config.sha256"
	fi
	kmake olddefconfig
	check_config "$o" "$frag"
	kmake -j"$JOBS" linux
}

# build KERNEL SRC: the kernel of this arch, output in OUT/bench-NAME-KERNEL.
build() {
	local k=$1 src=$2 o=$OUT/bench-$name-$1 log=$OUT/bench-$name-$1.build.log
	mkdir -p "$OUT"
	say "building the $k kernel ($(git -C "$src" log -1 --format='%h %s' HEAD)) in $o"
	if [ "$arch" = um ]; then
		(uml_kernel "$src" "$o") > "$log" 2>&1
	elif [ "$CONFIG" = debian ]; then
		GUEST_BASECONFIG=$debconfig GUEST_FRAGMENTS="$TOP/configs/bench-debian.config" \
			nice -n 10 "$TOP/scripts/guest-kernel.sh" "$src" "$o" > "$log" 2>&1
	else
		GUEST_FRAGMENTS="$TOP/configs/guest-x86_64.config $TOP/configs/bench-x86_64.config" \
			nice -n 10 "$TOP/scripts/guest-kernel.sh" "$src" "$o" > "$log" 2>&1
	fi || { tail -n 30 "$log" >&2; die "the $k kernel did not build, see $log"; }
}

# make materialise moves 'series' patch by patch (one git am each): wait
# until it is done, so that the patched kernel is the whole series.
want=$(for s in $(stack_series); do cat "$TOP/patches/$s/series"; done | grep -cvE '^[[:space:]]*(#|$)' || true)
for try in $(seq 30) 0; do
	[ "$try" != 0 ] || die "$KSRC: '$PATCHED_REF' is not the whole series (make materialise running?)"
	[ ! -d "$(git -C "$KSRC" rev-parse --absolute-git-dir)/rebase-apply" ] &&
		{ [ "$PATCHED_REF" != series ] || [ "$(git -C "$KSRC" rev-list --count "$BASE_REF..series")" -ge "${want:-0}" ]; } &&
		break
	[ "$try" != 1 ] || say "waiting for make materialise to finish"
	sleep 2
done
worktree "$BASE_SRC" "$BASE_REF"
worktree "$PATCHED_SRC" "$PATCHED_REF"
if [ "$arch:$CONFIG" = x86_64:debian ]; then
	deb=$("$TOP/scripts/fetch-base.sh" config)
	mkdir -p "$OUT"
	debconfig=$OUT/debian-$(basename "$CONFIG_FILE" .xz)
	dpkg-deb --fsys-tarfile "$deb" | tar -xOf - "./$CONFIG_FILE" | xz -dc > "$debconfig.tmp"
	mv "$debconfig.tmp" "$debconfig"
	say "Debian's config: $CONFIG_PACKAGE $(basename "$CONFIG_FILE" .xz) + configs/bench-debian.config"
fi
build base "$BASE_SRC"
build patched "$PATCHED_SRC"
diff -q "$OUT/bench-$name-base/.config" "$OUT/bench-$name-patched/.config" >/dev/null ||
	say "note: the two .configs differ (symbols the series adds):" \
	    "$(diff "$OUT/bench-$name-base/.config" "$OUT/bench-$name-patched/.config" | grep -c '^[<>] CONFIG_') lines"

# popbench: static, against the base tree's UAPI headers (the distribution's
# are too old for guest_memfd); the series' additions are in popbench.c.
say "building popbench"
hdr=$OUT/bench-headers
nice -n 10 make -s -C "$BASE_SRC" O="$hdr" ARCH=x86_64 headers > "$OUT/bench-headers.log" 2>&1 ||
	{ tail -n 20 "$OUT/bench-headers.log" >&2; die "make headers failed"; }
stage=$OUT/bench-stage-$name
rm -rf "$stage"
mkdir -p "$stage/bench"
gcc -O2 -Wall -static -isystem "$hdr/usr/include" -o "$stage/bench/popbench" "$TOP/bench/popbench.c"
run="/bench/popbench$touch -s $MIB -r $REPS -w $WARMUP${BENCH_PATHS:+ -p $BENCH_PATHS}"
if [ "$PROG" = wis ]; then
	say "building the will-it-scale testcases"
	for t in "$TOP"/bench/wis/tests/*.c; do
		gcc -O2 -Wall -static -o "$stage/bench/wis-$(basename "$t" .c)" \
			"$TOP/bench/wis/harness.c" "$t"
	done
	install -m 0755 "$TOP/bench/wis/run" "$stage/bench/wis-run"
	t=${touch# }
	run="/bench/wis-run $MIB $REPS $WARMUP ${t:--} ${BENCH_PATHS:-}"
fi
if [ -n "$PROFILE" ]; then
	say "building the instruction-count plugin"
	gcc -O2 -Wall -shared -fPIC -o "$OUT/insnprof.so" "$TOP/bench/insnprof.c"
	# popbench is static and not position independent: the address of
	# clock_gettime(), which opens and closes each timed window, is fixed.
	toggle=$(nm "$stage/bench/popbench" | awk '$3 == "clock_gettime" { print $1 }')
	[ -n "$toggle" ] || die "no clock_gettime in popbench"
fi
# ext4-read (x86_64): the host's mke2fs and its libraries, run through
# their loader, make ext4 on /dev/ram1 before popbench starts.
e2fs=
if [ "$arch" != um ] && [ "$PROG" = popbench ]; then
	mkfs=$(command -v mke2fs || echo /usr/sbin/mke2fs)
	[ -x "$mkfs" ] || die "no mke2fs: install e2fsprogs"
	mkdir -p "$stage/bench/e2fs"
	cp "$mkfs" "$stage/bench/e2fs/mke2fs"
	ldd "$mkfs" | grep -o '/[^ ]*' | xargs -I{} cp -L {} "$stage/bench/e2fs/"
	e2fs=/bench/e2fs
fi
# -t: all guest memory written once before the samples, or the host's
# first touch of a page lands in a sample: QEMU and UML alike allocate
# guest RAM lazily. (On UML a zeroing of 512 MiB that had not been
# touched took 1.6 s against 25 ms once it had: the second fallocate() of
# fgbench's shmem-fallocate-again, which zeroes what the first left.)
# The samples are charged to a memory cgroup of their own (BENCH_MEMCG), as
# a user's would be; a cgroup that cannot be made ends the boot.
# Below a memory.max, the pretouch (all free memory at once) runs first,
# outside the cgroup, where it would only swap or be killed.
pre=
if [[ $MEMCG =~ ^[0-9]+$ ]] && [ -n "$touch" ] && [ "$PROG" = popbench ]; then
	pre="/bench/popbench$touch -s $MIB -r 1 -w 0 -p memset. >/dev/null"
	run=${run/$touch/}
fi
# bench.lru_gen=N on the command line (BENCH_APPEND): MGLRU's switch for
# this boot, n turns it off (kernels with CONFIG_LRU_GEN: Debian's). The
# settings the rows depend on, as INFO (the x86_64 /init keeps the boot's
# messages in /tmp/boot.dmesg).
cat > "$stage/bench/settings" <<'EOF'
for a in $(cat /proc/cmdline); do
	case $a in
	bench.lru_gen=*)
		if [ ! -w /sys/kernel/mm/lru_gen/enabled ]; then
			echo "bench: bench.lru_gen= needs a kernel with CONFIG_LRU_GEN" >&2
			exit 1
		fi
		echo ${a#*=} > /sys/kernel/mm/lru_gen/enabled ;;
	esac
done
echo "INFO lru_gen=$(cat /sys/kernel/mm/lru_gen/enabled 2>/dev/null || echo none)" \
	"mem_auto_init=$({ cat /tmp/boot.dmesg 2>/dev/null || dmesg; } | sed -n 's/.*mem auto-init: //p' | tr -d ' ')" \
	"swap_kib=$(awk '/^SwapTotal:/ { print $2 }' /proc/meminfo)"
EOF
cat > "$stage/bench/run" <<EOF
#!/bin/sh
set -e
$pre
if [ "$MEMCG" != root ]; then
	mkdir -p /sys/fs/cgroup
	grep -q ' /sys/fs/cgroup cgroup2 ' /proc/mounts ||
		mount -t cgroup2 cgroup2 /sys/fs/cgroup
	echo +memory > /sys/fs/cgroup/cgroup.subtree_control
	mkdir -p /sys/fs/cgroup/bench
	[ "$MEMCG" = bench ] || echo \$(($MEMCG * 1048576)) > /sys/fs/cgroup/bench/memory.max
	echo \$\$ > /sys/fs/cgroup/bench/cgroup.procs
	echo "POPBENCH-MEMCG \$(cat /proc/self/cgroup) memory.max \$(cat /sys/fs/cgroup/bench/memory.max)"
fi
. /bench/settings
if [ -n "$e2fs" ] && [ -b /dev/ram1 ]; then
	$e2fs/ld-linux-x86-64.so.2 --library-path $e2fs $e2fs/mke2fs -q -F -t ext4 /dev/ram1 &&
	mkdir -p /mnt/ext4 && mount -t ext4 /dev/ram1 /mnt/ext4 ||
		echo "INFO no ext4 on /dev/ram1: ext4-read is n/a"
fi
exec $run
EOF
if [ "$PROG" = fgbench ]; then
	# The module, built against each kernel; the boot says which it is.
	for k in base patched; do
		src=$BASE_SRC
		[ $k = base ] || src=$PATCHED_SRC
		mo=$OUT/fgbench-$name-$k log=$OUT/fgbench-$name-$k.build.log
		mkdir -p "$mo"
		say "building fgbench.ko for the $k kernel"
		# no Module.symvers (only the kernel image is built): modpost warns
		{ nice -n 10 make -s -C "$src" O="$OUT/bench-$name-$k" ARCH=$arch CC="$CC_WRAP" modules_prepare &&
		  nice -n 10 make -s -C "$src" O="$OUT/bench-$name-$k" ARCH=$arch CC="$CC_WRAP" \
			M="$TOP/bench/fgbench" MO="$mo" KBUILD_MODPOST_WARN=1 modules
		} > "$log" 2>&1 ||
			{ tail -n 20 "$log" >&2; die "fgbench.ko did not build for $k, see $log"; }
		cp "$mo/fgbench.ko" "$stage/bench/fgbench-$k.ko"
	done
	cat > "$stage/bench/run" <<EOF
#!/bin/sh
k=\$(sed -n 's/.*bench\.kernel=\([a-z]*\).*/\1/p' /proc/cmdline)
. /bench/settings
dmesg -c >/dev/null
# the module's lines from the log only, not from the console as well
echo 1 > /proc/sys/kernel/printk
${touch:+/bench/popbench$touch -s $MIB -r 1 -w 0 -p memset. >/dev/null}
insmod /bench/fgbench-\$k.ko mib=$MIB reps=$REPS${BENCH_PATHS:+ paths=$BENCH_PATHS} && rmmod fgbench
# -c: the x86_64 guest's /init dumps what is left in the log after the run
dmesg -c | sed 's/^<[0-9]*>//; s/^\[[^]]*\] *//' | grep -E '^(POPBENCH|WARMUP|SAMPLE|NA|ERROR)( |-DONE )'
EOF
fi
chmod 755 "$stage/bench/run"

# UML: one initramfs for every boot, busybox + bench/uml-init + /bench.
if [ "$arch" = um ]; then
	BUSYBOX=$(command -v busybox)
	grep -q 'program interpreter' <<< "$(readelf -lW "$BUSYBOX")" &&
		die "$BUSYBOX is dynamically linked; install busybox-static"
	root=$stage/root
	mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,dev,proc,sys,tmp}
	cp "$BUSYBOX" "$root/bin/busybox"
	for a in $("$BUSYBOX" --list-full); do
		[ -e "$root/$a" ] || ln -s /bin/busybox "$root/$a"
	done
	install -m 0755 "$TOP/bench/uml-init" "$root/init"
	cp -a "$stage/bench" "$root/bench"
	(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) > "$stage/initramfs.cpio"
fi

SPLATS='WARNING: CPU|BUG: |kernel BUG at|Oops: |Kernel panic|general protection fault|UBSAN: '

# boot KERNEL N: one boot, popbench's lines in RES/boot-N-KERNEL.txt.
boot() {
	local k=$1 n=$2 log=$RES/logs/boot-$2-$1.log out=$RES/boot-$2-$1.txt rc=0 start=$SECONDS
	say "boot $n of $BOOTS: $k"
	if [ "$arch" = um ]; then
		# timeout runs UML in a process group of its own, which a ^C
		# does not reach: pass it on.
		timeout -k 10 "$TIMEOUT" "$OUT/bench-uml-$k/linux" mem="${mem}M" \
			initrd="$stage/initramfs.cpio" quiet con=null con0=fd:0,fd:1 $BRD \
			bench.kernel="$k" ${BENCH_APPEND:-} \
			</dev/null >"$log" 2>&1 &
		# shellcheck disable=SC2064 # the pid now, not at the signal
		trap "kill -- -$! 2>/dev/null; exit 130" INT TERM
		wait $! || rc=$?
		trap - INT TERM
		[ "$rc" -ne 124 ] && [ "$rc" -ne 137 ] || die "$k: UML killed after ${TIMEOUT}s, see $log"
		! grep -aqE "$SPLATS" "$log" || die "$k: kernel splat, see $log"
	else
		# A boot that dies before /init starts, or of an int3 oops (a
		# breakpoint the kernel did not place: text_poke_bp() losing a
		# race with the other vCPU, which TCG's cross-modifying code
		# allows; Debian's kernels, base and patched alike, sometimes
		# hit it when a static key is switched), is kept as LOG.died-N
		# and the kernel booted again, twice at most; the table names
		# such boots, and none of their samples is used.
		for try in 1 2 3; do
			GUEST_MODE=bench GUEST_BENCH=$stage/bench GUEST_MEM=${mem}M \
			GUEST_APPEND="$BRD bench.kernel=$k ${PROFILE:+nokaslr }${BENCH_APPEND:-} ${GUEST_APPEND:-}" \
			GUEST_PLUGIN=${PROFILE:+$OUT/insnprof.so,out=$RES/logs/boot-$n-$k.insn,toggle=$toggle} \
			GUEST_TIMEOUT=$TIMEOUT GUEST_TEST_TIMEOUT=$TIMEOUT \
				"$TOP/scripts/guest-run.sh" "$OUT/bench-$name-$k/arch/x86/boot/bzImage" \
				"" "$log" > "$log.summary" 2>&1 || true
			rm -f "$log.initramfs.cpio.gz"
			[ -f "$log" ] || die "$k: the guest did not run, see $log.summary"
			[ "$try" != 3 ] && { ! grep -aq 'GUEST-INIT-START' "$log" ||
				grep -aq 'Oops: int3:' "$log"; } || break
			mv "$log" "$log.died-$try"
			cp "$log.summary" "$log.died-$try.summary"
			echo "boot-$n-$k" >> "$RES/died.txt"
			say "  died ($(grep -aom1 'Oops: [^[]*\|Kernel panic[^,]*' "$log.died-$try" || echo 'before /init')), booting again"
		done
		# no KUnit in these kernels: only the boot and the bench count
		grep -q '^boot-x86_64 1 0$' "$log.results" 2>/dev/null ||
			die "$k: the guest failed (hang, splat or no result), see $log and $log.summary"
	fi
	tr -d '\r' < "$log" | grep -aE '^(POPBENCH|INFO|WARMUP|SAMPLE|NA|ERROR)( |-DONE )' > "$out" || true
	grep -q '^POPBENCH-DONE ' "$out" || die "$k: popbench did not finish, see $log"
	say "  $((SECONDS - start))s, $(grep -c '^SAMPLE ' "$out") samples"
}

# Both kernels of an x86_64 run boot under the same accelerator: KVM where
# it works (near-native times; see guest_accel in lib.sh), TCG elsewhere.
accel= cpu= TCG_CPU=max,erms=off,fsrm=off
if [ "$arch" != um ]; then
	accel=$(guest_accel "$OUT/bench-$name-patched/arch/x86/boot/bzImage")
	export GUEST_ACCEL=$accel
	# TCG (QEMU 7.2, Debian 12) runs "rep movsb" and "rep stosb" one byte
	# per iteration: 3.2 and 4.8 s per GiB against 0.7 and 0.6 for "rep
	# movsq" and "rep stosq" (scripts/tcg-rep-cost.sh), where hardware
	# runs all four at the same speed. With ERMS and FSRM the kernel
	# zeroes pages and copies from and to user space with the byte forms,
	# and so does glibc's memset, so those costs would dwarf the rest of a
	# population. Without them the kernel takes "rep stosq"/"rep movsq" or
	# unrolled loops, and glibc vector loops, as close to hardware as TCG
	# gets. GUEST_CPU=max measures the other way; under KVM the guest has
	# the host's CPU.
	[ "$accel" != tcg ] || export GUEST_CPU=${GUEST_CPU:-$TCG_CPU}
	cpu=${GUEST_CPU:-}
	say "x86_64 guest under $accel${cpu:+, -cpu $cpu}"
fi
# BENCH_ICOUNT=1: under TCG, time spent on the host, which other work on
# it stretches by up to a factor of two between samples, says little.
# With "-icount shift=0,sleep=off" QEMU runs the guest on one host thread
# and advances its clocks by one nanosecond per guest instruction (the TSC
# is given 1 GHz to match), so a sample's "time" is the number of
# instructions the guest executed for it: the same on a loaded or an idle
# host, but a count that weighs every instruction alike, a "rep stosq"
# step as a division, and knows nothing of caches.
icount=
if [ -n "${BENCH_ICOUNT:-}" ]; then
	[ "$BENCH_ICOUNT" = 1 ] || die "BENCH_ICOUNT=$BENCH_ICOUNT: 1 or unset"
	[ "$arch" != um ] && [ "$accel" = tcg ] ||
		die "BENCH_ICOUNT=1 needs the x86_64 guest under TCG"
	icount=shift=0,sleep=off
	export GUEST_ICOUNT=$icount GUEST_TSC_KHZ=1000000
	say "-icount $icount: guest nanoseconds are guest instructions"
fi

rm -rf "$RES"
mkdir -p "$RES/logs"
{
	echo "arch=$name"
	[ "$arch" = um ] || echo "config=$CONFIG"
	[ -z "$accel" ] || echo "accel=$accel"
	[ -z "$cpu" ] || echo "cpu=$cpu"
	[ -z "$icount" ] || echo "icount=$icount"
	echo "mib=$MIB"
	echo "reps=$REPS"
	echo "boots=$BOOTS"
	echo "warmup=$WARMUP"
	echo "paths=${BENCH_PATHS:-all}"
	echo "program=$PROG"
	echo "memcg=$MEMCG"
	echo "memory_mib=$mem"
	echo "base_ref=$BASE_REF"
	echo "base_commit=$(git -C "$BASE_SRC" rev-parse HEAD)"
	echo "base_subject=$(git -C "$BASE_SRC" log -1 --format=%s)"
	echo "patched_ref=$PATCHED_REF"
	echo "patched_commit=$(git -C "$PATCHED_SRC" rev-parse HEAD)"
	echo "patched_subject=$(git -C "$PATCHED_SRC" log -1 --format=%s)"
	echo "patched_commits=$(git -C "$PATCHED_SRC" rev-list --count "$(git -C "$BASE_SRC" rev-parse HEAD)..HEAD")"
	echo "date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "host_cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
	echo "host_cpus=$(nproc)"
	echo "host_kernel=$(uname -r)"
	echo "load_start=$(cut -d' ' -f1-3 /proc/loadavg)"
	cmd="make bench"
	[ "$arch" = um ] || cmd+=" ARCH=x86_64"
	for v in BENCH_CONFIG BENCH_PROG BENCH_MIB BENCH_REPS BENCH_BOOTS BENCH_WARMUP BENCH_PATHS BENCH_MEMCG BENCH_APPEND BENCH_BASE BENCH_PATCHED BENCH_ICOUNT BENCH_PROFILE; do
		case "${!v:-}" in
		'') ;;
		*' '*) cmd+=" $v='${!v}'" ;;
		*) cmd+=" $v=${!v}" ;;
		esac
	done
	[ -z "$cpu" ] || [ "$cpu" = "$TCG_CPU" ] || cmd+=" GUEST_CPU=$cpu"
	echo "command=$cmd"
} > "$RES/meta.env"

say "rounds of base and patched: $BOOTS; $MIB MiB, $WARMUP+$REPS samples per path" \
    "(load average $(cut -d' ' -f1 /proc/loadavg); other work on the machine skews the times)"
for n in $(seq 1 "$BOOTS"); do
	if [ $((n % 2)) = 1 ]; then
		boot base "$n"; boot patched "$n"
	else
		boot patched "$n"; boot base "$n"
	fi
done
echo "load_end=$(cut -d' ' -f1-3 /proc/loadavg)" >> "$RES/meta.env"

python3 -B "$TOP/scripts/bench-report.py" "$RES"
if [ -n "$PROFILE" ]; then
	python3 -B "$TOP/scripts/insn-report.py" "$RES" "$PROFILE" \
		"$OUT/bench-$name-base/System.map" "$OUT/bench-$name-patched/System.map" \
		> "$RES/profile.txt"
	cat "$RES/profile.txt"
fi
