// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_parse.c - libFuzzer harness: bconf_parse() and everything that
 * reads a parsed config (renderers, navigation, key composition, lookup).
 *
 * Besides the sanitizers, it checks invariants that must hold for any
 * input: an error has a message and a line/column consistent with its
 * byte offset; the nodes reachable through the navigation API are at most
 * bconf_node_count(); every composable key is found again by
 * bconf_find_node(); the renderers never fail except for the documented
 * -ERANGE/-EINVAL cases.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bootconfig.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)							\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "invariant failed: %s (%s:%d)\n",	\
				#cond, __FILE__, __LINE__);		\
			abort();					\
		}							\
	} while (0)

static FILE *devnull(void)
{
	static FILE *f;

	if (!f)
		f = fopen("/dev/null", "w");
	CHECK(f);
	return f;
}

static void check_error(const uint8_t *data, size_t size, int ret,
			const struct bconf_error *err)
{
	unsigned int line = 1;
	size_t i, bol = 0;

	CHECK(ret == -EINVAL || ret == -E2BIG || ret == -ENODATA);
	CHECK(err->msg && err->msg[0]);
	if (err->line == 0) {		/* no position: the size checks */
		CHECK(err->col == 0);
		return;
	}
	CHECK(err->pos <= size);
	for (i = 0; i < err->pos; i++) {
		if (data[i] == '\n') {
			line++;
			bol = i + 1;
		}
	}
	CHECK(err->line == line);
	CHECK(err->col == err->pos - bol + 1);
}

/* Count every node below @key (itself included), checking the links. */
static size_t walk(const struct bconf *bc, const struct bconf_node *key,
		   const struct bconf_node *parent)
{
	const struct bconf_node *v, *k;
	size_t n = 1;
	char buf[BCONF_KEYLEN_MAX];
	int len;

	CHECK(!bconf_node_is_value(key));
	CHECK(bconf_node_parent(key) == parent);
	CHECK(bconf_node_data(key) != NULL);
	for (v = bconf_node_value(key); v; v = bconf_value_next(v)) {
		CHECK(bconf_node_is_value(v));
		CHECK(bconf_node_data(v) != NULL);
		CHECK(bconf_node_is_array(v) == (bconf_value_next(v) != NULL));
		n++;
	}
	for (k = bconf_node_subkey(key); k; k = bconf_node_next(k))
		n += walk(bc, k, key);
	len = bconf_compose_key(key, NULL, buf, sizeof(buf));
	CHECK(len >= 0 || len == -ERANGE);
	if (len >= 0) {
		CHECK((size_t)len == strlen(buf));
		CHECK(bconf_find_node(bc, NULL, buf) == key);
	}
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct bconf_node *k, *leaf = NULL;
	struct bconf_error err = { 0 };
	struct bconf *bc = NULL;
	size_t nodes = 0;
	int ret;

	ret = bconf_parse((const char *)data, size, &bc, &err);
	if (ret < 0) {
		CHECK(bc == NULL);
		check_error(data, size, ret, &err);
		return 0;
	}
	CHECK(bc);
	for (k = bconf_root(bc); k; k = bconf_node_next(k))
		nodes += walk(bc, k, NULL);
	/* := orphans the old array values; the kernel still counts them */
	CHECK(nodes <= bconf_node_count(bc));
	CHECK(nodes <= BCONF_NODE_MAX);
	/* the kernel's leaves: no child, or a value first (subkeys may follow) */
	while ((leaf = bconf_next_leaf(bc, NULL, leaf)))
		CHECK(bconf_node_is_leaf(leaf) &&
		      (bconf_node_value(leaf) || !bconf_node_subkey(leaf)));

	ret = bconf_render_list(bc, 0, devnull());
	CHECK(ret == 0 || ret == -ERANGE);
	ret = bconf_render_list(bc, BCONF_LIST_TOOL, devnull());
	CHECK(ret == 0 || ret == -ERANGE);
	CHECK(bconf_render_tree(bc, devnull()) == 0);
	ret = bconf_render_cmdline(bc, "kernel", devnull());
	CHECK(ret == 0 || ret == -ERANGE || ret == -EINVAL);
	ret = bconf_render_cmdline(bc, "init", devnull());
	CHECK(ret == 0 || ret == -ERANGE || ret == -EINVAL);
	ret = bconf_render_json(bc, devnull());
	CHECK(ret == 0 || ret == -ERANGE);
	bconf_free(bc);
	return 0;
}
