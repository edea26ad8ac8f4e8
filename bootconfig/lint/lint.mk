# SPDX-License-Identifier: GPL-2.0
# lint/ - liblint and boottrace-lint, included from bootconfig/Makefile.
#
#   make                  also builds build/boottrace-lint
#   make check            also runs lint/tests (plain and ASan+UBSan)
#   make install          also installs boottrace-lint and its man page

LINT_SRC	:= $(sort $(filter-out lint/main.c,$(wildcard lint/*.c)))
LINT_HDR	:= $(wildcard lint/*.h)
LINT_CFLAGS	= $(ALL_CFLAGS) -Ilib -Ilint
LINT_TESTS	:= $(sort $(wildcard lint/tests/test_*.c))
# compiled once per build, like the library's OBJ and OBJ_ASAN
LINT_OBJ	:= $(patsubst lint/%.c,$(B)/lint-obj/%.o,$(LINT_SRC))
LINT_OBJ_ASAN	:= $(patsubst lint/%.c,$(B)/lint-obj-asan/%.o,$(LINT_SRC))

all: $(B)/boottrace-lint

$(B)/lint-obj/%.o: lint/%.c $(LINT_HDR) $(LIB_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(LINT_CFLAGS) -c -o $@ $<

$(B)/lint-obj-asan/%.o: lint/%.c $(LINT_HDR) $(LIB_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(LINT_CFLAGS) $(SAN) -c -o $@ $<

$(B)/boottrace-lint: lint/main.c $(LINT_OBJ) $(LINT_HDR) $(B)/libbootconfig.a
	$(CC) $(LINT_CFLAGS) $(LDFLAGS) -o $@ lint/main.c $(LINT_OBJ) $(B)/libbootconfig.a

$(B)/asan/boottrace-lint: lint/main.c $(LINT_OBJ_ASAN) $(OBJ_ASAN) $(LINT_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(LINT_CFLAGS) $(SAN) -o $@ lint/main.c $(LINT_OBJ_ASAN) $(OBJ_ASAN)

$(B)/lint-tests/%: lint/tests/%.c tests/unit.h $(LINT_OBJ) $(OBJ) $(LINT_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(LINT_CFLAGS) -Itests -o $@ $< $(LINT_OBJ) $(OBJ)

$(B)/lint-asan/%: lint/tests/%.c tests/unit.h $(LINT_OBJ_ASAN) $(OBJ_ASAN) $(LINT_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(LINT_CFLAGS) $(SAN) -Itests -o $@ $< $(LINT_OBJ_ASAN) $(OBJ_ASAN)

LINT_TEST_BIN	:= $(patsubst lint/tests/%.c,$(B)/lint-tests/%,$(LINT_TESTS)) \
		   $(patsubst lint/tests/%.c,$(B)/lint-asan/%,$(LINT_TESTS))

# run/PROGRAM, as the library's tests (the Makefile's RUN_TESTS)
LINT_RUN	:= $(addprefix run/,$(LINT_TEST_BIN))

lint-check: $(LINT_RUN) $(B)/boottrace-lint $(B)/asan/boottrace-lint

$(LINT_RUN): run/%: %
	@echo "== $<"; ./$<

check: lint-check

install: lint-install

lint-install: $(B)/boottrace-lint
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 755 $(B)/boottrace-lint $(DESTDIR)$(BINDIR)/boottrace-lint
	install -m 644 lint/boottrace-lint.1 $(DESTDIR)$(MANDIR)/man1/

lint-uninstall:
	rm -f $(DESTDIR)$(BINDIR)/boottrace-lint $(DESTDIR)$(MANDIR)/man1/boottrace-lint.1

.PHONY: lint-check lint-install lint-uninstall $(LINT_RUN)

# lint-fuzz: a short libFuzzer run of the lint (FUZZ_SECONDS), seeded with
# the examples and the rule cases; LINT_FUZZ_KNOWLEDGE=DIR adds the
# kernel-dependent checks.
$(B)/fuzz/fuzz_lint: lint/tests/fuzz_lint.c $(LINT_SRC) $(LINT_HDR) $(LIB_SRC) $(LIB_HDR)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -Ilint -o $@ $< $(LINT_SRC) $(LIB_SRC)

lint-fuzz: $(B)/fuzz/fuzz_lint
	rm -rf $(B)/fuzz/lint-corpus && mkdir -p $(B)/fuzz/lint-corpus
	cp ../examples/*.bconf ../tests/lint/cases/*.bconf $(B)/fuzz/lint-corpus/
	$(B)/fuzz/fuzz_lint -max_total_time=$(FUZZ_SECONDS) -dict=fuzz/bconf.dict \
		$(B)/fuzz/lint-corpus

.PHONY: lint-fuzz
