#!/bin/bash
# Boot the x86_64 test guest under QEMU (TCG, or KVM with GUEST_ACCEL=kvm)
# and collect its results.
# Usage: guest-run.sh [BZIMAGE] [SELFTEST_OUT] [LOG]
# Defaults: the kernel of scripts/guest-kernel.sh, the selftests of
# scripts/guest-selftests.sh (O/kselftest) and LOG=O/guest.log.
# Writes LOG (the serial console), LOG.initramfs.cpio.gz, LOG.kunit (kunit.py
# parse of the boot part), LOG.kunit.json and LOG.results, whose lines are
#   NAME PASSED FAILED [SKIPPED]
# and, when the kernel complained, LOG.splat (the first splat's call trace),
# and, when a selftest failed, LOG.failed (the last 30 lines of its output)
# for kunit-x86_64, selftests (or bench) and boot-x86_64 (the guest reached
# GUEST-INIT-DONE with no kernel splat). Exits non-zero on any failure.
# Environment:
#   GUEST_TIMEOUT=4800  wall-clock seconds for the whole boot; a hang fails
#   (each of make test's two guests took about 21 min under TCG in one
#   cold run here, with the tests it had then; more on a loaded host)
#   GUEST_TEST_TIMEOUT=1500  per test inside the guest (folio_split_race_test,
#   the longest, takes about 430 s under TCG with the debug kernel, and
#   more on a loaded host)
#   GUEST_MODE=tests|bench, GUEST_BENCH=DIR (packed as /bench; DIR/run is
#   what bench mode runs), GUEST_APPEND="..." (more kernel arguments),
#   GUEST_TSC_KHZ (default: the host's, from /proc/cpuinfo),
#   GUEST_ACCEL=kvm|tcg (default tcg; make bench sets it, see lib.sh),
#   GUEST_CPU (QEMU's -cpu: default max under TCG, host under KVM; make
#   bench sets it under TCG, see scripts/bench.sh),
#   GUEST_ICOUNT (QEMU's -icount, TCG only: the guest's clocks count its
#   instructions; make bench BENCH_ICOUNT=1 sets it, see scripts/bench.sh),
#   GUEST_PLUGIN (QEMU's -plugin, TCG only; make bench BENCH_PROFILE=N),
#   GUEST_MEM=6G (the guest's RAM, QEMU's -m; KASAN's shadow takes an
#   eighth, the udmabuf selftest 2.2 GiB of huge pages),
#   TESTS_LIST (default guest/tests.list),
#   GUEST_KUNIT_GLOB='[!d]*' (the KUnit suites run at boot in tests mode,
#   kunit.filter_glob: by default every suite whose name does not start
#   with "d", as the DRM option of configs/kunit-guest.config builds every
#   DRM suite and some WARN on purpose; scripts/test.sh boots its second
#   guest with 'drm_gem_shmem*', the one DRM suite the stack needs),
#   GUEST_KUNIT=0 (boot with kunit.enable=0 and leave the kunit-x86_64 line
#   out)
. "$(dirname "$0")/lib.sh"

BZIMAGE=$(realpath "${1:-$OUT/guest-x86_64/arch/x86/boot/bzImage}")
KO=${BZIMAGE%/arch/x86/boot/bzImage}	# the kernel's O= dir, if BZIMAGE is in one
[ "$KO" != "$BZIMAGE" ] || KO=$(dirname "$BZIMAGE")
SO=${2:-$KO/kselftest}
LOG=${3:-$KO/guest.log}
LIST=${TESTS_LIST:-$TOP/guest/tests.list}
GUEST_TIMEOUT=${GUEST_TIMEOUT:-4800}
GUEST_TEST_TIMEOUT=${GUEST_TEST_TIMEOUT:-1500}
GUEST_MODE=${GUEST_MODE:-tests}

[ -f "$BZIMAGE" ] || die "no kernel $BZIMAGE: run scripts/guest-kernel.sh"
[ -f "$LIST" ] || die "missing $LIST"
# kunit.py from the tree the kernel was built from (O/source), else KSRC
KUNIT_PY=$KO/source/tools/testing/kunit/kunit.py
[ -f "$KUNIT_PY" ] || KUNIT_PY=$KSRC/tools/testing/kunit/kunit.py
BUSYBOX=$(command -v busybox) || die "busybox not found (apt-get install busybox-static)"
grep -q 'program interpreter' <<< "$(readelf -lW "$BUSYBOX")" &&
	die "$BUSYBOX is dynamically linked; the initramfs needs busybox-static"
mkdir -p "$(dirname "$LOG")" "$OUT"
LOG=$(realpath "$LOG")
rm -f "$LOG" "$LOG".{initramfs.cpio.gz,kunit,kunit.json,results,splat,failed}

# --- initramfs -----------------------------------------------------------------
stage=$(mktemp -d "$OUT/.initramfs.XXXXXX")
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{bin,sbin,usr/bin,usr/sbin,dev,proc,sys,tmp,etc,tests}
cp "$BUSYBOX" "$stage/bin/busybox"
for a in $("$BUSYBOX" --list-full); do
	[ -e "$stage/$a" ] || ln -s /bin/busybox "$stage/$a"
done
install -m 0755 "$TOP/guest/init" "$stage/init"
cp "$LIST" "$stage/etc/tests.list"
if [ "$GUEST_MODE" = tests ]; then
	while read -r name prog _; do
		case "$name" in ''|'#'*) continue ;; esac
		case "$prog" in /tests/*) ;; *) continue ;; esac
		[ -x "$SO/${prog#/tests/}" ] ||
			die "$name: $SO/${prog#/tests/} not built: run scripts/guest-selftests.sh"
	done < "$LIST"
	# Everything the selftest build made, less objects and the source overlay
	# of scripts/guest-selftests.sh; debug info stripped.
	(cd "$SO" && find . \( -path ./.tmp -o -path ./.src \) -prune -o -type f \
		! -name '*.o' ! -name '*.d' ! -name '*.a' -print) |
	while read -r f; do
		install -D "$SO/$f" "$stage/tests/$f"
		strip --strip-debug "$stage/tests/$f" 2>/dev/null || true
	done
fi
if [ -n "${GUEST_BENCH:-}" ]; then
	cp -a "$GUEST_BENCH" "$stage/bench"
fi
INITRD=$LOG.initramfs.cpio.gz
(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) | gzip -1 > "$INITRD"

# --- boot --------------------------------------------------------------------------
# QEMU's TCG guest reads the host's TSC. Calibrating it against the PIT alone
# failed in a quarter of boots without ACPI (tsc_khz 0: KVM_RUN hangs); ACPI's
# HPET and PM timer make that unlikely, and the host's rate handed in rules it
# out. tsc_early_khz takes an integer in kHz ("tsc_khz=" does not exist).
TSC_KHZ=${GUEST_TSC_KHZ:-$(awk -F: '/^cpu MHz/ { printf "%.0f", $2 * 1000; exit }' /proc/cpuinfo)}
[ -n "$TSC_KHZ" ] || die "no 'cpu MHz' in /proc/cpuinfo; set GUEST_TSC_KHZ"
# tsc=reliable: no clocksource watchdog, which under TCG sees HPET and TSC
# drift apart when a vCPU thread stalls and would switch clocksources mid-run.
# KUnit runs at boot while the initramfs may still be unpacking, which
# would move the page cache counters the series' tests check: unpack first.
APPEND="initramfs_async=0 console=ttyS0 panic=-1 numa=fake=2 tsc_early_khz=$TSC_KHZ tsc=reliable"
APPEND+=" guest.mode=$GUEST_MODE guest.timeout=$GUEST_TEST_TIMEOUT"
# The tests get a ZONE_MOVABLE, where memfd_pin checks that pinning places
# nothing (memalloc_pin_save()); the benchmarks keep the plain layout.
# no5lvl: -cpu max offers LA57, and the base kernel's identify_cpu() clears
# boot_cpu_data's feature bits, with interrupts on, while it probes the boot
# CPU again. An interrupt in that window sees 4-level paging, and KASAN's
# range check (its shadow start follows pgtable_l5_enabled()) reports the
# irq_desc lock, in the 5-level direct map, as a wild access. Under TCG it
# hit one CI run (none of 60 boots here); with an mdelay() in the window,
# every boot. With 4-level paging the shadow start never changes: no
# report, mdelay() or not. The kernel reads no5lvl before start_kernel()
# and so lists it as "Unknown" at boot.
[ "$GUEST_MODE" != tests ] || APPEND+=" movablecore=1G no5lvl"
if [ "${GUEST_KUNIT:-1}" = 0 ]; then
	APPEND+=" kunit.enable=0"
elif [ "$GUEST_MODE" = tests ]; then
	APPEND+=" kunit.filter_glob=${GUEST_KUNIT_GLOB:-[!d]*}"
fi
APPEND+=" ${GUEST_APPEND:-}"

say "booting $BZIMAGE (timeout ${GUEST_TIMEOUT}s), console in $LOG"
start=$SECONDS
qrc=0
# TCG, -cpu max: QEMU emulates AMD SVM with nested paging, hence /dev/kvm
# in the guest. KVM, -cpu host: the host's virtualisation extensions, if
# its KVM allows nesting.
# -no-reboot: the guest's final reboot and panic=-1 both end QEMU.
# make test stays on TCG unless told: the same machine on every host,
# with nested SVM for the guest's own /dev/kvm. The benchmarks pick KVM
# where it works (guest_accel in lib.sh).
ACCEL=${GUEST_ACCEL:-tcg}
case "$ACCEL" in
kvm) cpu=${GUEST_CPU:-host} ;;
*) cpu=${GUEST_CPU:-max} ;;
esac
say "accelerator: $ACCEL, -cpu $cpu${GUEST_ICOUNT:+, -icount $GUEST_ICOUNT}"
timeout -k 10 "$GUEST_TIMEOUT" qemu-system-x86_64 \
	-accel "$ACCEL" ${GUEST_ICOUNT:+-icount "$GUEST_ICOUNT"} \
	${GUEST_PLUGIN:+-plugin "$GUEST_PLUGIN"} -cpu "$cpu" -smp 2 -m "${GUEST_MEM:-6G}" -nographic -no-reboot -nic none \
	-kernel "$BZIMAGE" -initrd "$INITRD" -append "$APPEND" \
	</dev/null >"$LOG" 2>&1 || qrc=$?
elapsed=$((SECONDS - start))

# --- results -----------------------------------------------------------------
clean=$LOG.clean	# without the serial console's carriage returns
tr -d '\r' < "$LOG" > "$clean"
trap 'rm -rf "$stage" "$clean"' EXIT
problems=()
[ "$qrc" -ne 124 ] && [ "$qrc" -ne 137 ] || problems+=("QEMU killed after ${GUEST_TIMEOUT}s (hang)")
grep -q '^GUEST-INIT-START$' "$clean" || problems+=("no GUEST-INIT-START (boot failed)")
grep -q '^GUEST-INIT-DONE$' "$clean" || problems+=("no GUEST-INIT-DONE (guest died or hung)")
# Kernel splats anywhere in the log
# (WARN, BUG, oops, panic, lockups), KASAN ("BUG: KASAN"), lockdep
# ("WARNING: possible circular locking dependency" and its kin), RCU
# ("WARNING: suspicious RCU usage"), and hung tasks. The boot part prints
# them at the start of a line, the dmesg dumps after a [timestamp].
splats=$(grep -E '(^|\] )(WARNING: |BUG: |INFO: task .* blocked)|kernel BUG at|Oops: |Kernel panic|general protection fault|UBSAN: ' "$clean" || true)
[ -z "$splats" ] || problems+=("kernel splats: $(echo "$splats" | wc -l)")
# LOG.splat: the first splat, its headline and the frames of its call trace
# (up to the end of the report), for a summary that shows where it happened.
rm -f "$LOG.splat"
if [ -n "$splats" ]; then
	first=${splats%%$'\n'*}
	awk -v first="$first" '
		!on && /^--- kernel messages during / { during = $0 }
		!on && $0 == first { on = 1; if (during != "") print during; print; next }
		on && (/Memory state around|The buggy address|---\[ end trace|==============================/ || ++n > 80) { exit }
		on && /(\+0x[0-9a-f]+\/0x|Read of size|Write of size|RIP:|Call Trace|Hardware name|CPU: |Comm: )/ { print; if (++p >= 40) exit }
	' "$clean" > "$LOG.splat"
fi

# KUnit: its KTAP output is in the boot part, before GUEST-INIT-START.
# kunit.py reads the log on stdin; its last line reads
# "Testing complete. Ran N tests: passed: P, failed: F, crashed: C, skipped: S, errors: E"
# (zero counts omitted). -B: no __pycache__ in the kernel tree.
krc=0
sed '/^GUEST-INIT-START$/,$d' "$clean" |
	python3 -B "$KUNIT_PY" parse --json="$LOG.kunit.json" > "$LOG.kunit" 2>&1 || krc=$?
summary=$(grep -a 'Testing complete' "$LOG.kunit" | tail -n 1 || true)
count() { echo "$summary" | grep -o "$1: [0-9]*" | grep -o '[0-9]*$' || echo 0; }
kp=$(count passed) ks=$(count skipped)
kf=$(( $(count failed) + $(count crashed) ))
# a parse that failed or found errors (no KTAP at all, output cut short) is a
# failure even when no test case is counted as one
if [ "$kf" -eq 0 ] && { [ "$krc" -ne 0 ] || [ "$(count errors)" -ne 0 ]; }; then
	kf=1
fi

# Selftests: one GUEST-RESULT line each; a test without one (the guest died
# on the way) failed.
sp=0 sf=0 ss=0 rows=()
if [ "$GUEST_MODE" = tests ]; then
	while read -r t _; do
		case "$t" in ''|'#'*) continue ;; esac
		r=$(grep -E "^GUEST-RESULT: (PASS|FAIL|SKIP) $t( |$)" "$clean" | tail -n 1 || true)
		case "$r" in
		"GUEST-RESULT: PASS $t") sp=$((sp + 1)); rows+=("PASS $t") ;;
		"GUEST-RESULT: SKIP $t") ss=$((ss + 1)); rows+=("SKIP $t") ;;
		"") sf=$((sf + 1)); rows+=("FAIL $t (no result)") ;;
		*) sf=$((sf + 1)); rows+=("${r#GUEST-RESULT: }") ;;
		esac
		case "$r" in
		"GUEST-RESULT: PASS $t"|"GUEST-RESULT: SKIP $t") ;;
		*)	# what the failed test printed last, for a log that is gone
			{ r=${r#GUEST-RESULT: }; echo "${r:-FAIL $t (no result)}, the end of its output:"
			  awk -v t="$t" '$0 == "GUEST-TEST-START: " t { n = 0; f = 1; next }
				f && /^GUEST-RESULT: / { f = 0 }
				f { l[n++ % 30] = $0 }
				END { for (i = (n > 30 ? n - 30 : 0); i < n; i++) print "  " l[i % 30] }' "$clean"
			} >> "$LOG.failed" ;;
		esac
	done < "$LIST"
	stname=selftests
else
	r=$(grep -E '^GUEST-RESULT: (PASS|FAIL) bench( |$)' "$clean" | tail -n 1 || true)
	case "$r" in
	"GUEST-RESULT: PASS bench") sp=1; rows+=("PASS bench") ;;
	"") sf=1; rows+=("FAIL bench (no result)") ;;
	*) sf=1; rows+=("${r#GUEST-RESULT: }") ;;
	esac
	stname=bench
fi
bp=1 bf=0
[ ${#problems[@]} -eq 0 ] || { bp=0; bf=1; }

if [ "${GUEST_KUNIT:-1}" = 0 ]; then
	kp=0 kf=0 ks=0 summary="not run (GUEST_KUNIT=0)"
fi
{
	[ "${GUEST_KUNIT:-1}" = 0 ] || echo "kunit-x86_64 $kp $kf $ks"
	echo "$stname $sp $sf $ss"
	echo "boot-x86_64 $bp $bf"
} > "$LOG.results"

# --- summary -----------------------------------------------------------------
echo "== guest-x86_64: $BZIMAGE, ${elapsed}s, log $LOG"
echo "KUnit: ${summary#*Testing complete. } (parse exit $krc; $LOG.kunit)"
# per suite: the leaf test cases of LOG.kunit.json by status
[ ! -s "$LOG.kunit.json" ] || python3 - "$LOG.kunit.json" <<'PY' || true
import collections, json, sys
def leaves(g):
	for t in g.get('test_cases', []):
		yield t['status']
	for s in g.get('sub_groups', []):
		yield from leaves(s)
for suite in json.load(open(sys.argv[1])).get('sub_groups', []):
	c = collections.Counter(leaves(suite))
	print('  %-24s %s' % (suite['name'], ', '.join('%s %d' % kv for kv in sorted(c.items()))))
PY
echo "$stname:"
printf '  %s\n' "${rows[@]}"
# how long each test took, as the guest's clock saw it (TCG: not hardware time)
grep -E '^guest: up |^GUEST-TEST-TIME: ' "$clean" | sed 's/^GUEST-TEST-TIME: /  time: /; s/^guest: /  /' || true
for p in "${problems[@]}"; do
	echo "PROBLEM: $p"
done
[ -z "$splats" ] || sed -n '1,5s/^/  /p' <<< "$splats"
[ ! -s "$LOG.splat" ] || { echo "the first splat:"; sed 's/^/  /' "$LOG.splat"; }
total_p=$((kp + sp + bp)) total_f=$((kf + sf + bf))
echo "guest-x86_64: $total_p passed, $total_f failed, $ks skipped"
[ "$total_f" -eq 0 ]
