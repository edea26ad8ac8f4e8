# boottrace - top-level targets.  See README.md.
#
#   make            build the user-space tools
#   make check      install what is needed, build, run every test suite
#                   (tests/run.sh lists them); SUITES="unit lint" runs some
#   make demo       build everything, boot the default example, report
#   make kernel     build (or reuse) the kernel: TREE=6.1|6.12
#   make install    PREFIX=/usr/local DESTDIR= (also: make uninstall): the
#                   boottrace command, its scripts and data (SHAREDIR), the
#                   tools, the library, the dracut module and kernel hooks
#   make fuzz       libFuzzer runs, FUZZ_SECONDS=60 per harness (FUZZ_TREE=6.1
#                   for the differential one);  make fuzz-diff N=10000000
#                   (the generated differential test against both trees,
#                   both parsers in one process, JOBS workers: nproc)
#   make bench      benchmarks, printed as ratios against a baseline

PREFIX	?= /usr/local
BINDIR	?= $(PREFIX)/bin
MANDIR	?= $(PREFIX)/share/man
SHAREDIR ?= $(PREFIX)/share/boottrace
COMPDIR	?= $(PREFIX)/share/bash-completion/completions
SYSCONFDIR ?= /etc
UNITDIR	?= $(PREFIX)/lib/systemd/system
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

# The unit suite (tests/run.sh unit): the stages' checks under one pool of
# jobs (make -jN), so that the programs of one stage run beside the long
# fixture runs of another; trace-analysis's first (the ASan runs of its
# tests/cli-inputs.sh and tests/cli.sh are the longest).  libbootconfig.a,
# which trace-analysis links, is built first, so that trace-analysis's make
# and bootconfig's never build it at once (collect only includes
# bootconfig's unit.h).
UNIT_CHECKS := $(addprefix unit-check/,trace-analysis bootconfig collect)

unit-check: $(UNIT_CHECKS)

$(UNIT_CHECKS): unit-check/%:
	+$(MAKE) -C $* check

unit-check/trace-analysis unit-check/bootconfig: unit-lib

unit-lib:
	+$(MAKE) -C bootconfig build/libbootconfig.a

check: deps
	@echo "boottrace: building"
	$(MAKE) all
	tests/run.sh $(SUITES)

demo: deps all
	bin/boottrace run examples/default.bconf

kernel: deps
	bin/boottrace kernel --tree $(TREE)

# What `boottrace` runs and reads, installed in SHAREDIR with the checkout's
# layout: bin/boottrace finds it there (PREFIX/bin/../share/boottrace) and
# scripts/lib.sh's bt_tool finds the compiled tools in PREFIX/bin.  Globs, so
# that a new script of a stage is shipped without editing this list; the
# developer-only scripts (tests, per-patch builds, coverage) are not.
# Scripts (#!) are installed executable, sourced libraries and data not.
SHARE_FILES := scripts/lib.sh scripts/lib-bundle.sh scripts/boot.sh scripts/run.sh \
	bootconfig/lint/lint.sh collect/archive/boots.sh \
	$(wildcard qemu/*.sh) \
	$(wildcard dracut-module/*.sh dracut-module/9*/* dracut-module/conf/*) \
	$(filter-out kernel/test%.sh kernel/per-patch.sh,$(wildcard kernel/*.sh)) \
	$(wildcard kernel/*.awk kernel/series kernel/series-* kernel/patches/*.patch kernel/configs/*.config) \
	$(wildcard examples/*.bconf examples/*.expect)

install: all
	$(MAKE) -C bootconfig install PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)
	$(MAKE) -C dracut-module install PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)
	$(MAKE) -C trace-analysis install PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)
	$(MAKE) -C collect install PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(COMPDIR) \
		$(DESTDIR)$(SHAREDIR)/bin $(DESTDIR)$(UNITDIR) $(DESTDIR)$(SYSCONFDIR)/default
	install -m 0755 bin/boottrace $(DESTDIR)$(BINDIR)/boottrace
	install -m 0644 bin/boottrace.1 $(DESTDIR)$(MANDIR)/man1/boottrace.1
	install -m 0644 bin/boottrace.bash-completion $(DESTDIR)$(COMPDIR)/boottrace
	ln -sf boottrace $(DESTDIR)$(COMPDIR)/bootconfig
	sed 's|@BINDIR@|$(BINDIR)|' collect/archive/boottrace-collect.service \
		>$(DESTDIR)$(UNITDIR)/boottrace-collect.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/boottrace-collect.service
	install -m 0644 collect/archive/boottrace.default $(DESTDIR)$(SYSCONFDIR)/default/boottrace
	@set -e; for f in $(SHARE_FILES); do \
		case "$$(head -c2 "$$f")" in '#!') m=0755 ;; *) m=0644 ;; esac; \
		install -D -m $$m "$$f" "$(DESTDIR)$(SHAREDIR)/$$f"; \
	done
	ln -sfn ../../../bin/boottrace $(DESTDIR)$(SHAREDIR)/bin/boottrace

uninstall:
	$(MAKE) -C bootconfig uninstall PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)
	$(MAKE) -C dracut-module uninstall PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)
	$(MAKE) -C trace-analysis uninstall PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)
	$(MAKE) -C collect uninstall PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)
	rm -f $(DESTDIR)$(BINDIR)/boottrace $(DESTDIR)$(MANDIR)/man1/boottrace.1 \
		$(DESTDIR)$(COMPDIR)/boottrace $(DESTDIR)$(COMPDIR)/bootconfig \
		$(DESTDIR)$(UNITDIR)/boottrace-collect.service $(DESTDIR)$(SYSCONFDIR)/default/boottrace \
		$(DESTDIR)$(SHAREDIR)/bin/boottrace \
		$(addprefix $(DESTDIR)$(SHAREDIR)/,$(SHARE_FILES))
	-[ ! -d $(DESTDIR)$(SHAREDIR) ] || \
		find $(DESTDIR)$(SHAREDIR) -depth -type d -empty -delete

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

.PHONY: all deps check demo kernel install uninstall fuzz fuzz-diff bench clean \
	unit-check unit-lib $(UNIT_CHECKS)
