// SPDX-License-Identifier: GPL-2.0
/*
 * render.c - print a parsed config as /proc/bootconfig, as the compact tree
 * of tools/bootconfig, as the kernel's extra command line, or as JSON.
 */
#include <errno.h>
#include <string.h>

#include "internal.h"

static int out_status(FILE *out, int ret)
{
	if (ret < 0)
		return ret;
	return ferror(out) ? -EIO : 0;
}

/* A value in the quotes the kernel picks: ' when it contains a ". */
static void put_quoted(FILE *out, const char *val)
{
	char q = strchr(val, '"') ? '\'' : '"';

	fprintf(out, "%c%s%c", q, val, q);
}

/* Every element of the array starting at @v, then @eol. */
static void put_values(FILE *out, const struct bconf_node *v, const char *eol)
{
	for (; v; v = bconf_value_next(v)) {
		put_quoted(out, bconf_node_data(v));
		fputs(bconf_node_is_array(v) ? ", " : eol, out);
	}
}

BCONF_EXPORT int bconf_render_list(const struct bconf *bc, unsigned int flags,
				   FILE *out)
{
	const struct bconf_node *leaf = NULL, *v;
	char key[BCONF_KEYLEN_MAX];
	int ret = 0;

	while ((leaf = bconf_next_leaf(bc, NULL, leaf))) {
		ret = bconf_compose_raw(leaf, NULL, key, sizeof(key));
		if (ret < 0)
			break;
		fprintf(out, "%s = ", key);
		v = bconf_node_value(leaf);
		if (!v || ((flags & BCONF_LIST_TOOL) && !*bconf_node_data(v)))
			fputs("\"\"\n", out);
		else
			put_values(out, v, "\n");
	}
	return out_status(out, ret);
}

static void indent(FILE *out, int depth)
{
	while (depth-- > 0)
		fputc('\t', out);
}

/*
 * Climb from @node (which has no next sibling) to the next key to print,
 * closing the braces of keys that were printed with "{".
 */
static const struct bconf_node *climb(FILE *out, const struct bconf_node *node,
				      int *depth)
{
	while (!node->next) {
		node = bconf_node_parent(node);
		if (!node)
			return NULL;
		if (!bconf_raw_child(node)->next)
			continue;	/* printed as part of a dotted key */
		if (*depth) {
			(*depth)--;
			indent(out, *depth);
			fputs("}\n", out);
		}
	}
	return bconf_raw_next(node);
}

/*
 * Follow single-child keys into one dotted key ("a.b.c") as long as no
 * key on the way has both a value and subkeys.
 */
static const struct bconf_node *chain_keys(FILE *out,
					   const struct bconf_node **pnode,
					   const struct bconf_node *cnode)
{
	const struct bconf_node *v;

	while (cnode && bconf_node_is_key(cnode) && !cnode->next) {
		v = bconf_raw_child(cnode);
		if (v && bconf_node_is_value(v) && v->next)
			break;
		fprintf(out, "%s.", bconf_node_data(*pnode));
		*pnode = cnode;
		cnode = v;
	}
	return cnode;
}

BCONF_EXPORT int bconf_render_tree(const struct bconf *bc, FILE *out)
{
	const struct bconf_node *node = bconf_root(bc), *cnode = NULL;
	int depth = 0;

	while (node && bconf_node_is_key(node)) {
		indent(out, depth);
		if (!cnode)
			cnode = bconf_raw_child(node);
		cnode = chain_keys(out, &node, cnode);
		if (cnode && bconf_node_is_key(cnode)) {
			fprintf(out, "%s {\n", bconf_node_data(node));
			depth++;
			node = cnode;
			cnode = NULL;
			continue;
		}
		if (cnode) {
			fprintf(out, "%s = ", bconf_node_data(node));
			put_values(out, cnode, ";\n");
			/* A value followed by subkeys of the same key. */
			cnode = bconf_raw_next(cnode);
			if (cnode)
				continue;
		} else {
			fprintf(out, "%s;\n", bconf_node_data(node));
		}
		node = node->next ? bconf_raw_next(node) :
				    climb(out, node, &depth);
	}
	return out_status(out, 0);
}

BCONF_EXPORT int bconf_render_cmdline(const struct bconf *bc, const char *root,
				      FILE *out)
{
	const struct bconf_node *top = bconf_find_node(bc, NULL, root);
	const struct bconf_node *leaf = NULL, *v;
	char key[BCONF_KEYLEN_MAX];
	const char *val, *q;
	int ret = 0;

	if (!top)
		return 0;
	while ((leaf = bconf_next_leaf(bc, top, leaf))) {
		ret = bconf_compose_raw(leaf, top, key, sizeof(key));
		if (ret < 0)
			break;
		v = bconf_node_value(leaf);
		if (!v)
			fprintf(out, "%s ", key);
		for (; v; v = bconf_value_next(v)) {
			val = bconf_node_data(v);
			q = strpbrk(val, " \t\r\n") ? "\"" : "";
			fprintf(out, "%s=%s%s%s ", key, q, val, q);
		}
	}
	return out_status(out, ret);
}

/* Length of the valid UTF-8 sequence at @s, 0 when it is not one. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n, i;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

/* A JSON string; bytes that are not UTF-8 are taken as Latin-1. */
static void put_json_string(FILE *out, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n;

	fputc('"', out);
	while (*s) {
		if (*s == '"' || *s == '\\') {
			fprintf(out, "\\%c", *s++);
		} else if (*s < 0x20 || *s == 0x7f) {
			fprintf(out, "\\u%04x", *s++);
		} else if (*s < 0x80) {
			fputc(*s++, out);
		} else if ((n = utf8_len(s))) {
			fwrite(s, 1, n, out);
			s += n;
		} else {
			fprintf(out, "\\u%04x", *s++);
		}
	}
	fputc('"', out);
}

static void put_json_value(FILE *out, const struct bconf_node *v)
{
	if (!v) {
		fputs("\"\"", out);
		return;
	}
	if (!bconf_node_is_array(v)) {
		put_json_string(out, bconf_node_data(v));
		return;
	}
	fputc('[', out);
	for (; v; v = bconf_value_next(v)) {
		put_json_string(out, bconf_node_data(v));
		if (bconf_value_next(v))
			fputs(", ", out);
	}
	fputc(']', out);
}

static void put_json_keys(FILE *out, const struct bconf_node *node, int depth);

static void put_json_key(FILE *out, const struct bconf_node *node, int depth)
{
	const struct bconf_node *v = bconf_node_value(node);
	const struct bconf_node *sub = bconf_node_subkey(node);

	indent(out, depth);
	put_json_string(out, bconf_node_data(node));
	fputs(": ", out);
	if (!sub) {
		put_json_value(out, v);
		return;
	}
	fputs("{\n", out);
	if (v) {
		indent(out, depth + 1);
		fputs("\"\": ", out);
		put_json_value(out, v);
		fputs(",\n", out);
	}
	put_json_keys(out, sub, depth + 1);
	indent(out, depth);
	fputc('}', out);
}

/* @node and its next siblings, one member per line. */
static void put_json_keys(FILE *out, const struct bconf_node *node, int depth)
{
	for (; node; node = bconf_node_next(node)) {
		put_json_key(out, node, depth);
		fputs(bconf_node_next(node) ? ",\n" : "\n", out);
	}
}

BCONF_EXPORT int bconf_render_json(const struct bconf *bc, FILE *out)
{
	fputs("{\n", out);
	put_json_keys(out, bconf_root(bc), 1);
	fputs("}\n", out);
	return out_status(out, 0);
}
