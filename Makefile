# boottrace - top-level targets.  See README.md.
#
#   make            build the user-space tools
#   make check      install what is needed, build, run every test suite
#                   (tests/run.sh lists them); SUITES="unit lint" runs some
#   make demo       build everything, boot the default example, report
#   make kernel     build (or reuse) the kernel: TREE=6.1|6.12
#   make install    PREFIX=/usr/local DESTDIR= (also: make uninstall)
#   make fuzz       libFuzzer runs, FUZZ_SECONDS=60 per harness (FUZZ_TREE=6.1
#                   for the differential one);  make fuzz-diff N=1000000
#                   (the generated differential test against both trees)
#   make bench      benchmarks, printed as ratios against a baseline

PREFIX	?= /usr/local
TREE	?= 6.1
SUITES	?=
N	?= 1000000
FUZZ_SECONDS ?= 60

all:
	$(MAKE) -C bootconfig
	$(MAKE) -C trace-analysis
	$(MAKE) -C collect

deps:
	scripts/deps.sh all

check: deps
	@echo "boottrace: building"
	$(MAKE) all
	tests/run.sh $(SUITES)

demo: deps all
	bin/boottrace run examples/default.bconf

kernel: deps
	bin/boottrace kernel --tree $(TREE)

install: all
	$(MAKE) -C bootconfig install PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)
	$(MAKE) -C dracut-module install PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)
	$(MAKE) -C trace-analysis install PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)
	$(MAKE) -C collect install PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)

uninstall:
	$(MAKE) -C dracut-module uninstall PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)

fuzz: deps
	$(MAKE) -C bootconfig fuzz FUZZ_SECONDS=$(FUZZ_SECONDS)
	$(MAKE) -C trace-analysis fuzz

fuzz-diff: deps all
	N=$(N) tests/diff/run.sh --tree 6.1
	N=$(N) tests/diff/run.sh --tree 6.12

bench: deps all
	@set -e; for b in bench/*.sh; do echo "== $$b"; $$b; done

clean:
	$(MAKE) -C bootconfig clean
	$(MAKE) -C trace-analysis clean
	$(MAKE) -C collect clean

.PHONY: all deps check demo kernel install uninstall fuzz fuzz-diff bench clean
