// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the parser, tree access and renderers.  Expected values
 * come from the kernel's behaviour in the packaged 6.1 tree (the
 * differential test checks the same against the real parser at scale).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bootconfig.h"
#include "unit.h"

static struct bconf *parse_ok(struct unit *u, const char *text)
{
	struct bconf_error e = { 0 };
	struct bconf *bc = NULL;
	int ret = bconf_parse(text, strlen(text), &bc, &e);

	if (ret)
		fprintf(stderr, "%s: unexpected error %d: %s at %u:%u\n",
			u->name, ret, e.msg, e.line, e.col);
	UNIT_EXPECT_INT(u, ret, 0);
	return bc;
}

static void expect_error(struct unit *u, const char *text, size_t len,
			 const char *msg, unsigned int line, unsigned int col)
{
	struct bconf_error e = { 0 };
	struct bconf *bc = NULL;
	int ret = bconf_parse(text, len, &bc, &e);

	UNIT_EXPECT(u, ret < 0);
	UNIT_EXPECT(u, bc == NULL);
	UNIT_EXPECT_STR(u, e.msg, msg);
	UNIT_EXPECT_INT(u, e.line, line);
	UNIT_EXPECT_INT(u, e.col, col);
	bconf_free(bc);
}

#define EXPECT_ERROR(u, text, msg, line, col) \
	expect_error(u, text, strlen(text), msg, line, col)

enum render_kind { R_LIST, R_PROC, R_TREE, R_KERNEL, R_INIT, R_JSON };

static char *render(const struct bconf *bc, enum render_kind kind, int *ret)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	switch (kind) {
	case R_LIST:
		*ret = bconf_render_list(bc, BCONF_LIST_TOOL, f);
		break;
	case R_PROC:
		*ret = bconf_render_list(bc, 0, f);
		break;
	case R_TREE:
		*ret = bconf_render_tree(bc, f);
		break;
	case R_KERNEL:
		*ret = bconf_render_cmdline(bc, "kernel", f);
		break;
	case R_INIT:
		*ret = bconf_render_cmdline(bc, "init", f);
		break;
	case R_JSON:
		*ret = bconf_render_json(bc, f);
		break;
	}
	fclose(f);
	return buf;
}

static void expect_render(struct unit *u, const char *text,
			  enum render_kind kind, const char *want)
{
	struct bconf *bc = parse_ok(u, text);
	char *got;
	int ret;

	if (!bc)
		return;
	got = render(bc, kind, &ret);
	UNIT_EXPECT_INT(u, ret, 0);
	UNIT_EXPECT_STR(u, got, want);
	free(got);
	bconf_free(bc);
}

static void test_simple_tree(struct unit *u)
{
	struct bconf *bc = parse_ok(u, "a.b = 1\na.c = x, y\nd\n");
	const struct bconf_node *n, *v;

	if (!bc)
		return;
	UNIT_EXPECT_INT(u, bconf_node_count(bc), 7);
	n = bconf_root(bc);
	UNIT_EXPECT_STR(u, bconf_node_data(n), "a");
	UNIT_EXPECT(u, !bconf_node_is_leaf(n));
	n = bconf_node_subkey(n);
	UNIT_EXPECT_STR(u, bconf_node_data(n), "b");
	UNIT_EXPECT_STR(u, bconf_node_data(bconf_node_value(n)), "1");
	n = bconf_node_next(n);
	UNIT_EXPECT_STR(u, bconf_node_data(n), "c");
	v = bconf_node_value(n);
	UNIT_EXPECT(u, bconf_node_is_array(v));
	UNIT_EXPECT_STR(u, bconf_node_data(bconf_value_next(v)), "y");
	UNIT_EXPECT(u, !bconf_node_is_array(bconf_value_next(v)));
	UNIT_EXPECT(u, bconf_node_parent(bconf_value_next(v)) == n);
	UNIT_EXPECT(u, bconf_node_next(bconf_root(bc)) != NULL);
	UNIT_EXPECT_STR(u, bconf_find_value(bc, NULL, "a.c", &v), "x");
	UNIT_EXPECT_STR(u, bconf_find_value(bc, NULL, "d", &v), "");
	UNIT_EXPECT(u, v == NULL);
	UNIT_EXPECT(u, bconf_find_value(bc, NULL, "a", NULL) == NULL);
	UNIT_EXPECT(u, bconf_find_value(bc, NULL, "a.x", NULL) == NULL);
	UNIT_EXPECT(u, bconf_find_node(bc, NULL, "a.b.c") == NULL);
	n = bconf_find_node(bc, NULL, "a");
	UNIT_EXPECT_STR(u, bconf_find_value(bc, n, "b", NULL), "1");
	bconf_free(bc);
}

static void test_leaf_iteration_and_compose(struct unit *u)
{
	struct bconf *bc = parse_ok(u, "x { y = 1; z { w } } v = 2\nx.y.q = 3\n");
	const struct bconf_node *leaf = NULL, *x;
	char key[64];
	int n = 0;

	if (!bc)
		return;
	const char *want[] = { "x.y", "x.y.q", "x.z.w", "v" };

	while ((leaf = bconf_next_leaf(bc, NULL, leaf))) {
		UNIT_EXPECT(u, n < 4);
		if (n >= 4)
			break;
		UNIT_EXPECT(u, bconf_compose_key(leaf, NULL, key,
						 sizeof(key)) > 0);
		UNIT_EXPECT_STR(u, key, want[n]);
		n++;
	}
	UNIT_EXPECT_INT(u, n, 4);
	x = bconf_find_node(bc, NULL, "x");
	leaf = bconf_next_leaf(bc, x, NULL);
	UNIT_EXPECT_INT(u, bconf_compose_key(leaf, x, key, sizeof(key)), 1);
	UNIT_EXPECT_STR(u, key, "y");
	UNIT_EXPECT_INT(u, bconf_compose_key(leaf, NULL, key, 3), -ERANGE);
	UNIT_EXPECT_INT(u, bconf_compose_key(x, x, key, sizeof(key)), -EINVAL);
	bconf_free(bc);
}

static void test_operators(struct unit *u)
{
	expect_render(u, "a = 1\na += 2, 3\na += 4\n", R_LIST,
		      "a = \"1\", \"2\", \"3\", \"4\"\n");
	expect_render(u, "a = 1, 2\na := 3\n", R_LIST, "a = \"3\"\n");
	expect_render(u, "a := 3\nb += 4\n", R_LIST,
		      "a = \"3\"\nb = \"4\"\n");
	expect_render(u, "a.b = 1\na = 2\na := 3, 4\n", R_LIST,
		      "a = \"3\", \"4\"\na.b = \"1\"\n");
	EXPECT_ERROR(u, "a = 1\na = 2\n", "Value is redefined", 2, 5);
	EXPECT_ERROR(u, "a + 1\n", "Wrong '+' operator", 1, 3);
	EXPECT_ERROR(u, "a : 1\n", "Wrong ':' operator", 1, 3);
	EXPECT_ERROR(u, "a +", "Wrong '+' operator", 1, 3);
}

static void test_values_and_quotes(struct unit *u)
{
	expect_render(u, "a = \"x y \" # c\nb = ' q\"q '\nc =   z  ;\n",
		      R_LIST,
		      "a = \"x y \"\nb = ' q\"q '\nc = \"z\"\n");
	expect_render(u, "a = \"multi\nline\"\n", R_LIST,
		      "a = \"multi\nline\"\n");
	expect_render(u, "a =\n  value\n", R_LIST, "a = \"value\"\n");
	expect_render(u, "a = # comment\n  # more\n  v\n", R_LIST,
		      "a = \"v\"\n");
	expect_render(u, "a = x, # c\n y\n", R_LIST,
		      "a = \"x\", \"y\"\n");
	expect_render(u, "a = tail   ", R_LIST, "a = \"tail   \"\n");
	expect_render(u, "k\nk2 =;\nk3 = \"\"\nk4 { }\n", R_LIST,
		      "k = \"\"\nk2 = \"\"\nk3 = \"\"\nk4 = \"\"\n");
	EXPECT_ERROR(u, "a = \"x\" y\n", "No value delimiter", 1, 9);
	EXPECT_ERROR(u, "a = \"x\n", "No closing quotes", 2, 1);
	EXPECT_ERROR(u, "a = x # c\n, y\n", "Invalid keyword", 2, 1);
	EXPECT_ERROR(u, "a = \"x\x01\"\n", "Non printable value", 1, 7);
}

static void test_latin1_classes(struct unit *u)
{
	/* The kernel's ctype: 0xa0-0xff printable, 0xc0-0xff letters. */
	expect_render(u, "a = caf\xc3\xa9\n", R_LIST,
		      "a = \"caf\xc3\xa9\"\n");
	expect_render(u, "\xc0\xe9 = 1\n", R_LIST, "\xc0\xe9 = \"1\"\n");
	EXPECT_ERROR(u, "a = \x80\n", "Non printable value", 1, 5);
	EXPECT_ERROR(u, "\xd7 = 1\n", "Invalid keyword", 1, 1);
	/* 0xa0 is white space: trimmed from unquoted values. */
	expect_render(u, "a = \xa0x\xa0\n", R_LIST, "a = \"x\"\n");
}

static void test_structure_errors(struct unit *u)
{
	EXPECT_ERROR(u, "a { b = 1\n", "Brace is not closed", 1, 1);
	EXPECT_ERROR(u, "a = 1 }\n", "Unexpected closing brace", 1, 7);
	EXPECT_ERROR(u, "}\n", "Unexpected closing brace", 1, 1);
	EXPECT_ERROR(u, "a\nkey", "No delimiter", 2, 1);
	EXPECT_ERROR(u, "a.b..c = 1\n", "Invalid keyword", 1, 5);
	EXPECT_ERROR(u, "a b = 1\n", "Invalid keyword", 1, 1);
	EXPECT_ERROR(u, "\n\n  # only a comment\n", "Empty config", 1, 1);
	EXPECT_ERROR(u, "{}\n", "Invalid keyword", 1, 1);
	expect_error(u, "", 0, "Config data is empty", 0, 0);
}

static char *repeat(const char *unit, int n, const char *sep,
		    const char *tail)
{
	size_t len = (strlen(unit) + strlen(sep)) * (size_t)n + strlen(tail);
	char *s = calloc(1, len + 1);

	for (int i = 0; i < n; i++) {
		strcat(s, unit);
		if (i + 1 < n)
			strcat(s, sep);
	}
	strcat(s, tail);
	return s;
}

static void test_limit_words(struct unit *u)
{
	char *k16 = repeat("k", 16, ".", " = 1\n");
	char *k17 = repeat("k", 17, ".", " = 1\n");
	struct bconf *bc = parse_ok(u, k16);
	int ret;
	char *out;

	/* 16 words parse, but the kernel cannot compose them. */
	if (bc) {
		out = render(bc, R_LIST, &ret);
		UNIT_EXPECT_INT(u, ret, -ERANGE);
		UNIT_EXPECT_STR(u, out, "");
		free(out);
		bconf_free(bc);
	}
	EXPECT_ERROR(u, k17, "Too many key words", 1, 33);
	free(k16);
	free(k17);
}

static void test_limit_braces(struct unit *u)
{
	char *b15 = repeat("k {", 15, " ", "");
	char *b17 = repeat("k {", 17, " ", "");
	char *t15 = malloc(strlen(b15) + 40);

	/* 15 braces and one more word: the deepest the kernel allows. */
	sprintf(t15, "%s v = 1 }}}}}}}}}}}}}}}\n", b15);
	expect_render(u, t15, R_TREE,
		      "k.k.k.k.k.k.k.k.k.k.k.k.k.k.k.v = \"1\";\n");
	EXPECT_ERROR(u, b17, "Exceed max depth of braces", 1, 67);
	free(b15);
	free(b17);
	free(t15);
}

static void test_limit_key_length(struct unit *u)
{
	char ok[300], bad[300];

	memset(ok, 'a', 255);
	strcpy(ok + 255, " = 1\n");
	memset(bad, 'a', 256);
	strcpy(bad + 256, " = 1\n");
	expect_render(u, ok, R_KERNEL, "");
	EXPECT_ERROR(u, bad, "Too long key length", 1, 1);
	/* Two words: "a" + '.' + 253 bytes = 255 is fine, 254 is not. */
	memset(ok, 'b', 300);
	memcpy(ok, "a.", 2);
	strcpy(ok + 255, " = 1\n");
	expect_render(u, ok, R_KERNEL, "");
	memset(bad, 'b', 300);
	memcpy(bad, "a.", 2);
	strcpy(bad + 256, " = 1\n");
	EXPECT_ERROR(u, bad, "Too long key length", 1, 3);
}

static char *many_nodes(int n)
{
	char *s = malloc((size_t)n * 5 + 1), *p = s;

	/* As test-bootconfig.sh builds it: 26 one-letter keys first. */
	for (int i = 0; i < n && i < 26; i++)
		p += sprintf(p, "%c\n", 'A' + i);
	for (int i = 26; i < n; i++)
		p += sprintf(p, "%c%c%c\n", 'A' + i % 26, 'A' + i / 26 % 26,
			     'A' + i / 676 % 26);
	return s;
}

static void test_limit_nodes(struct unit *u)
{
	char *ok = many_nodes(8192), *bad = many_nodes(8193);
	struct bconf *bc = parse_ok(u, ok);

	if (bc)
		UNIT_EXPECT_INT(u, bconf_node_count(bc), 8192);
	bconf_free(bc);
	EXPECT_ERROR(u, bad, "Too many nodes", 8193, 1);
	free(ok);
	free(bad);
}

static void test_limit_size(struct unit *u)
{
	char *buf = malloc(BCONF_DATA_MAX + 2);
	struct bconf *bc = NULL;
	struct bconf_error e;

	memset(buf, ' ', BCONF_DATA_MAX + 1);
	memcpy(buf, "a = 1\n", 6);
	UNIT_EXPECT_INT(u, bconf_parse(buf, BCONF_DATA_MAX, &bc, &e), 0);
	bconf_free(bc);
	UNIT_EXPECT_INT(u, bconf_parse(buf, BCONF_DATA_MAX + 1, &bc, &e),
			-E2BIG);
	UNIT_EXPECT_STR(u, e.msg, "Config data is too big");
	UNIT_EXPECT(u, e.pos == SIZE_MAX);
	/* A value at offset 32767 is out of the kernel's node range. */
	memcpy(buf + BCONF_DATA_MAX - 2, "b=", 2);
	expect_error(u, buf, BCONF_DATA_MAX, "Too many nodes", 2,
		     BCONF_DATA_MAX - 5);
	/* The text ends at the first NUL, as in the kernel. */
	UNIT_EXPECT_INT(u, bconf_parse("a = 1\n\0junk", 11, &bc, &e), 0);
	bconf_free(bc);
	free(buf);
}

static void test_mixed_value_subkeys(struct unit *u)
{
	const char *text = "a = 1\na.b = 2\na.c { d = 3 }\n";

	expect_render(u, text, R_LIST,
		      "a = \"1\"\na.b = \"2\"\na.c.d = \"3\"\n");
	expect_render(u, text, R_TREE,
		      "a = \"1\";\na {\n\tb = \"2\";\n\tc.d = \"3\";\n}\n");
	expect_render(u, "x { y { z = 1 } w = 2 }\n", R_TREE,
		      "x {\n\ty.z = \"1\";\n\tw = \"2\";\n}\n");
	expect_render(u, "foo\nbar\nfoo { buz }\n", R_TREE,
		      "foo.buz;\nbar;\n");
}

static void test_list_tool_vs_proc(struct unit *u)
{
	const char *text = "a = \"\", b\nc = 'x', 'y\"'\n";

	expect_render(u, text, R_LIST, "a = \"\"\nc = \"x\", 'y\"'\n");
	expect_render(u, text, R_PROC,
		      "a = \"\", \"b\"\nc = \"x\", 'y\"'\n");
	expect_render(u, "q = 'say \"hi\"'\n", R_PROC,
		      "q = 'say \"hi\"'\n");
}

static void test_cmdline(struct unit *u)
{
	expect_render(u,
		      "kernel { console = ttyS0, tty0; quiet; x.y = \"a b\" }\n"
		      "init.z = 1\nother = 2\n",
		      R_KERNEL,
		      "console=ttyS0 console=tty0 quiet x.y=\"a b\" ");
	expect_render(u, "init { systemd.unit = rescue.target }\n", R_INIT,
		      "systemd.unit=rescue.target ");
	expect_render(u, "other = 2\n", R_KERNEL, "");
	expect_render(u, "kernel.tab = \"a\tb\"\n", R_KERNEL,
		      "tab=\"a\tb\" ");
}

static void test_json(struct unit *u)
{
	expect_render(u,
		      "a = 1\na.b = x, y\nc\nd.e { f = 'q\"' }\n",
		      R_JSON,
		      "{\n"
		      "\t\"a\": {\n"
		      "\t\t\"\": \"1\",\n"
		      "\t\t\"b\": [\"x\", \"y\"]\n"
		      "\t},\n"
		      "\t\"c\": \"\",\n"
		      "\t\"d\": {\n"
		      "\t\t\"e\": {\n"
		      "\t\t\t\"f\": \"q\\\"\"\n"
		      "\t\t}\n"
		      "\t}\n"
		      "}\n");
	expect_render(u, "t = \"\t\xe9\xc3\xa9\"\n", R_JSON,
		      "{\n\t\"t\": \"\\u0009\\u00e9\xc3\xa9\"\n}\n");
}

static void test_independent_configs(struct unit *u)
{
	struct bconf *a = parse_ok(u, "x = 1\n");
	struct bconf *b = parse_ok(u, "x = 2\n");

	if (a && b) {
		UNIT_EXPECT_STR(u, bconf_find_value(a, NULL, "x", NULL), "1");
		UNIT_EXPECT_STR(u, bconf_find_value(b, NULL, "x", NULL), "2");
	}
	bconf_free(a);
	bconf_free(b);
	bconf_free(NULL);
}

/* bconf_show_source() of line @line, column @col of @text (static buffer). */
static const char *source_of(const char *text, size_t len, unsigned int line,
			     unsigned int col)
{
	static char out[1024];
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	if (!f)
		return "ENOMEM";
	bconf_show_source(f, text, len, line, col);
	fclose(f);
	snprintf(out, sizeof(out), "%s", buf ? buf : "");
	free(buf);
	return out;
}

/* The caret of the quoted line @shown is under the character @want. */
static void expect_caret_at(struct unit *u, const char *shown, char want)
{
	const char *nl = strchr(shown, '\n'), *caret;

	UNIT_EXPECT(u, nl && (caret = strchr(nl + 1, '^')));
	if (nl && caret && caret - (nl + 1) < nl - shown)
		UNIT_EXPECT_INT(u, shown[caret - (nl + 1)], want);
	else
		UNIT_EXPECT(u, !"the caret is under the quoted line");
}

/*
 * The quoted source line and its caret: as it is up to 100 columns,
 * clipped to a window around the caret beyond, control bytes escaped in
 * both, the caret under its byte.
 */
static void test_show_source(struct unit *u)
{
	char line[20000], want[512];
	const char *got;
	size_t i;

	UNIT_EXPECT_STR(u, source_of("a = 1\na = 2\n", 12, 2, 5),
			"a = 2\n    ^\n");
	UNIT_EXPECT_STR(u, source_of("a = x\033y\n", 8, 1, 6),
			"a = x\\x1by\n     ^\n");
	UNIT_EXPECT_STR(u, source_of("a = 1\n", 6, 3, 1), "");
	/* exactly 100 columns: whole */
	memset(line, 'x', 100);
	snprintf(want, sizeof(want), "%.100s\n%100s\n", line, "^");
	UNIT_EXPECT_STR(u, source_of(line, 100, 1, 100), want);
	/* 101: clipped */
	line[100] = 'x';
	snprintf(want, sizeof(want), "...%.100s\n%103s\n", line, "^");
	UNIT_EXPECT_STR(u, source_of(line, 101, 1, 101), want);
	/* 16 KB: 40 columns before the caret, 60 from it, "..." both sides */
	for (i = 0; i < 16384; i++)
		line[i] = (char)('a' + i % 26);
	got = source_of(line, 16384, 1, 8001);
	snprintf(want, sizeof(want), "...%.100s...\n%44s\n", line + 7960, "^");
	UNIT_EXPECT_STR(u, got, want);
	expect_caret_at(u, got, line[8000]);
	/* near the start: no "..." before */
	got = source_of(line, 16384, 1, 3);
	snprintf(want, sizeof(want), "%.100s...\n  ^\n", line);
	UNIT_EXPECT_STR(u, got, want);
	/* at the end and past it: the window takes the columns before */
	got = source_of(line, 16384, 1, 16384);
	snprintf(want, sizeof(want), "...%.100s\n%103s\n", line + 16284, "^");
	UNIT_EXPECT_STR(u, got, want);
	got = source_of(line, 16384, 1, 16385);
	snprintf(want, sizeof(want), "...%.100s\n%104s\n", line + 16284, "^");
	UNIT_EXPECT_STR(u, got, want);
	/* escaped bytes count 4 columns, the caret still under its byte */
	memset(line, 1, 300);
	line[150] = 'X';
	got = source_of(line, 300, 1, 151);
	UNIT_EXPECT(u, strlen(got) < 2 * (3 + 100 + 3 + 1));
	UNIT_EXPECT(u, !strncmp(got, "...\\x01", 7));
	expect_caret_at(u, got, 'X');
	/* a tab is shown as a tab, in the caret line too */
	memset(line, 'y', 300);
	line[200] = '\t';
	got = source_of(line, 300, 1, 250);
	expect_caret_at(u, got, 'y');
	UNIT_EXPECT(u, strchr(strchr(got, '\n'), '\t'));
	/* the kernel's "Too many nodes" on a 16 KB line: a bounded quote */
	strcpy(line, "a = 1");
	for (i = 0; i < 8200; i++)
		strcat(line + 4 + 2 * i, ",1");
	expect_error(u, line, strlen(line), "Too many nodes", 1, 16387);
	got = source_of(line, strlen(line), 1, 16387);
	UNIT_EXPECT(u, strlen(got) < 2 * (3 + 100 + 3 + 1));
	expect_caret_at(u, got, line[16386]);
}

/* The text a NUL byte hides from the kernel, and where that NUL is. */
static void test_nul_tail(struct unit *u)
{
	struct bconf_error at;

	UNIT_EXPECT_INT(u, bconf_nul_tail("a = 1\n", 6, &at), 0);
	UNIT_EXPECT_INT(u, bconf_nul_tail("a = 1\n\0\0", 8, &at), 0);
	UNIT_EXPECT_INT(u, bconf_nul_tail("a = 1\0b = 2\n", 12, &at), 6);
	UNIT_EXPECT_INT(u, at.pos, 5);
	UNIT_EXPECT_INT(u, at.line, 1);
	UNIT_EXPECT_INT(u, at.col, 6);
	UNIT_EXPECT_STR(u, at.msg,
			"a NUL byte before the end of the file: the kernel stops reading at this byte");
	UNIT_EXPECT_INT(u, bconf_nul_tail("a\nbc\n\0\0x", 8, &at), 2);
	UNIT_EXPECT_INT(u, at.line, 3);
	UNIT_EXPECT_INT(u, at.col, 1);
	UNIT_EXPECT_INT(u, bconf_nul_tail("\0x", 2, NULL), 1);
	/* the parser reads what the kernel reads: up to the NUL */
	expect_error(u, "a = 1\na = 2\0\n", 13, "Value is redefined", 2, 5);
}

int main(void)
{
	return UNIT_RUN(UNIT_CASE(test_simple_tree),
			UNIT_CASE(test_leaf_iteration_and_compose),
			UNIT_CASE(test_operators),
			UNIT_CASE(test_values_and_quotes),
			UNIT_CASE(test_latin1_classes),
			UNIT_CASE(test_structure_errors),
			UNIT_CASE(test_limit_words),
			UNIT_CASE(test_limit_braces),
			UNIT_CASE(test_limit_key_length),
			UNIT_CASE(test_limit_nodes),
			UNIT_CASE(test_limit_size),
			UNIT_CASE(test_mixed_value_subkeys),
			UNIT_CASE(test_list_tool_vs_proc),
			UNIT_CASE(test_cmdline),
			UNIT_CASE(test_json),
			UNIT_CASE(test_independent_configs),
			UNIT_CASE(test_show_source),
			UNIT_CASE(test_nul_tail));
}
