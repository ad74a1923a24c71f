# The workspace for the filemap batching series. Every target is a thin
# wrapper around a script in scripts/; see README.md.

S := scripts

.PHONY: help test bench materialise export check checkpatch \
	roundtrip bisect kunit kunit-x86_64 guest deps clean cocci cocci-report

help:
	@echo "make bench         A/B benchmark, base kernel vs patched kernel: populate"
	@echo "                   memory through each path, print the table (UML;"
	@echo "                   ARCH=x86_64 for the QEMU guest; BENCH_MIB=256..2048,"
	@echo "                   BENCH_REPS=, BENCH_BOOTS=; results in build/bench/)"
	@echo "make test          everything, ending with 'N passed, N failed'"
	@echo "make materialise   build/linux = base + the series of patches/stack (git am)"
	@echo "make export        build/linux commits -> patches/NAME/ per series"
	@echo "make check         the quick loop: checkpatch, round trip, KUnit on UML"
	@echo "                   (under 10 minutes warm)"
	@echo "make bisect        each commit's objects compile (UML and x86_64)"
	@echo "make kunit         KUnit suites on UML"
	@echo "make kunit-x86_64  KUnit suites on an x86_64 kernel in QEMU"
	@echo "make guest         x86_64 QEMU guest: KUnit at boot + selftests"
	@echo "make cocci         the semantic patch's fixtures (tests/cocci)"
	@echo "make cocci-report  coccicheck MODE=report over COCCI_DIRS (fs drm mm)"

test:
	$(S)/test.sh

bench:
	$(S)/bench.sh $(ARCH)

materialise:
	$(S)/materialise.sh

export:
	$(S)/export.sh

check:
	$(S)/check.sh

checkpatch:
	$(S)/checkpatch.sh

roundtrip:
	$(S)/roundtrip.sh

bisect:
	$(S)/bisect-build.sh

kunit:
	$(S)/kunit-uml.sh

kunit-x86_64:
	$(S)/kunit-x86_64.sh

guest:
	$(S)/guest-kernel.sh
	$(S)/guest-selftests.sh
	$(S)/guest-run.sh

deps:
	$(S)/deps.sh

cocci:
	$(S)/cocci-test.sh build/linux/scripts/coccinelle/api/filemap_get_folios.cocci

cocci-report:
	$(S)/cocci-report.sh

# Build output only; the kernel tree in build/linux stays.
clean:
	rm -rf build/out
