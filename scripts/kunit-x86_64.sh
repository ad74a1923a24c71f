#!/bin/bash
# Run the KUnit suites of configs/kunit.config on x86_64 in QEMU: the
# large-folio cases run here, not on UML. 'make test' gets the same suites
# from the x86_64 guest kernel instead, to save a build; this is for working
# on the tests alone.
# kunit.py builds the kernel; the boot is ours, with the accelerator that
# guest_accel() found to work (kunit.py's own run tries KVM first, which
# hangs where /dev/kvm opens but cannot run a guest).
# Usage: kunit-x86_64.sh [FILTER_GLOB]   e.g. 'shmem_batch.*'
. "$(dirname "$0")/lib.sh"

o=$OUT/kunit-x86_64
log=$OUT/kunit-x86_64.log
mkdir -p "$o"
cd "$KSRC"
python3 tools/testing/kunit/kunit.py build --arch=x86_64 \
	--kunitconfig="$TOP/configs/kunit.config" \
	--kconfig_add CONFIG_TRANSPARENT_HUGEPAGE=y \
	--build_dir="$o" --jobs="$JOBS" --make_options CC="$CC_WRAP"
img=$o/arch/x86/boot/bzImage
accel=$(guest_accel "$img")
say "booting $img ($accel)"
timeout -k 10 "${GUEST_TIMEOUT:-1800}" qemu-system-x86_64 -nodefaults \
	-m 2048 -smp 2 -accel "$accel" -kernel "$img" \
	-append "kunit.enable=1 console=ttyS0 kunit_shutdown=reboot${1:+ kunit.filter_glob=$1}" \
	-no-reboot -nographic -serial stdio </dev/null > "$log" 2>&1 || true
python3 tools/testing/kunit/kunit.py parse "$log"
