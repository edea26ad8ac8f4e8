// SPDX-License-Identifier: GPL-2.0
/*
 * parse.c - the bootconfig parser.
 *
 * Accept/reject decisions, error texts and positions, and the shape of the
 * resulting tree follow the kernel's parser in the packaged trees exactly,
 * including its quirks (tests/diff/README.md lists how the differential test
 * proves it, bootconfig(1) the deliberate differences of the command):
 *
 *  - text is split at the first of "{}=+;:\n#"; what precedes it is a
 *    (dotted) key, trimmed; keys are matched against existing siblings;
 *  - a value runs to the first of ",;\n#}" unless quoted; unquoted values
 *    are trimmed, quoted ones are kept verbatim and may span lines;
 *  - character classes are the kernel's (Latin-1 aware) ones, not libc's;
 *  - limits are checked where the kernel checks them, so that e.g. keys
 *    below a key that also has a value escape the length/depth checks.
 *
 * The parser works on a private, NUL-terminated copy that it cuts into
 * strings in place; nodes refer to their text by offset.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The kernel's character classes (lib/ctype.c), by range. */
#define K_SPACE	1u
#define K_PRINT	2u
#define K_ALNUM	4u

static unsigned int k_class(char ch)
{
	unsigned char c = (unsigned char)ch;

	if (c >= '\t' && c <= '\r')
		return K_SPACE;
	if (c == ' ' || c == 0xa0)
		return K_SPACE | K_PRINT;
	if ((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') ||
	    (c >= 'a' && c <= 'z'))
		return K_PRINT | K_ALNUM;
	if (c > ' ' && c < 0x7f)
		return K_PRINT;
	if (c >= 0xc0 && c != 0xd7 && c != 0xf7)
		return K_PRINT | K_ALNUM;
	if (c > 0xa0)
		return K_PRINT;
	return 0;
}

static bool k_isspace(char c)
{
	return k_class(c) & K_SPACE;
}

static char *skip_ws(char *p)
{
	while (k_isspace(*p))
		p++;
	return p;
}

static char *skip_ws_in_line(char *p)
{
	while (k_isspace(*p) && *p != '\n')
		p++;
	return p;
}

/* Cut trailing white space, return @s past leading white space. */
static char *trim(char *s)
{
	size_t len = strlen(s);
	char *end;

	if (!len)
		return s;
	end = s + len - 1;
	while (end >= s && k_isspace(*end))
		end--;
	end[1] = '\0';
	return skip_ws(s);
}

/* The character after the end of the current line (or the final NUL). */
static char *skip_comment(char *p)
{
	char *nl = strchr(p, '\n');

	return nl ? nl + 1 : p + strlen(p);
}

static bool is_value_delim(int c)
{
	return c && strchr(",;\n#}", c);
}

struct parser {
	struct bconf *bc;
	char *base;
	struct bconf_node *nodes;
	struct bconf_node *parent;	/* where new keys go; NULL: top */
	uint16_t brace[BCONF_DEPTH_MAX];
	int nbrace;
	const char *msg;
	const char *where;
};

static int fail(struct parser *ps, const char *msg, const char *where)
{
	ps->msg = msg;
	ps->where = where;
	return -EINVAL;
}

static struct bconf_node *node_at(struct parser *ps, unsigned int idx)
{
	return &ps->nodes[idx];
}

static unsigned int idx_of(struct parser *ps, const struct bconf_node *n)
{
	return (unsigned int)(n - ps->nodes);
}

static const char *text_of(struct parser *ps, const struct bconf_node *n)
{
	return ps->base + (n->data & ~BCONF_VALUE_FLAG);
}

static bool is_value(const struct bconf_node *n)
{
	return n->data & BCONF_VALUE_FLAG;
}

/* (Re)initialise @n to point at @text.  Fails past the offset range. */
static int set_node(struct parser *ps, struct bconf_node *n, char *text,
		    uint16_t flag)
{
	size_t off = (size_t)(text - ps->base);

	if (off >= BCONF_DATA_MAX)
		return -EINVAL;
	n->data = (uint16_t)off | flag;
	n->child = 0;
	n->next = 0;
	return 0;
}

/*
 * Take a new node.  Like the kernel, a node whose text offset is out of
 * range is counted although it cannot be used.
 */
static struct bconf_node *new_node(struct parser *ps, char *text,
				   uint16_t flag)
{
	struct bconf_node *n;

	if (ps->bc->count == BCONF_NODE_MAX)
		return NULL;
	n = node_at(ps, (unsigned int)ps->bc->count++);
	n->owner = ps->bc;
	if (set_node(ps, n, text, flag) < 0)
		return NULL;
	return n;
}

static struct bconf_node *last_sibling(struct parser *ps, struct bconf_node *n)
{
	while (n->next)
		n = node_at(ps, n->next);
	return n;
}

/*
 * Link a new node below the current parent: at the end of its children,
 * or first when @head (values always come first).
 */
static struct bconf_node *add_node(struct parser *ps, char *text,
				   uint16_t flag, bool head)
{
	struct bconf_node *n = new_node(ps, text, flag);
	struct bconf_node *p = ps->parent;

	if (!n) {
		fail(ps, "Too many nodes", text);
		return NULL;
	}
	if (!p) {
		n->parent = BCONF_NO_PARENT;
		last_sibling(ps, ps->nodes)->next = (uint16_t)idx_of(ps, n);
	} else if (!p->child || head) {
		n->parent = (uint16_t)idx_of(ps, p);
		n->next = p->child;
		p->child = (uint16_t)idx_of(ps, n);
	} else {
		n->parent = (uint16_t)idx_of(ps, p);
		last_sibling(ps, node_at(ps, p->child))->next =
			(uint16_t)idx_of(ps, n);
	}
	return n;
}

/* Add a node and descend into it. */
static struct bconf_node *add_child(struct parser *ps, char *text,
				    uint16_t flag)
{
	struct bconf_node *n = add_node(ps, text, flag, false);

	if (n)
		ps->parent = n;
	return n;
}

static bool valid_keyword(const char *k)
{
	if (!*k)
		return false;
	while (k_class(*k) & K_ALNUM || *k == '-' || *k == '_')
		k++;
	return !*k;
}

static struct bconf_node *find_sibling(struct parser *ps, struct bconf_node *n,
				       const char *word)
{
	while (n) {
		if (!strcmp(text_of(ps, n), word))
			return n;
		n = n->next ? node_at(ps, n->next) : NULL;
	}
	return NULL;
}

/* Enter key word @word below the current parent, creating it if new. */
static int enter_word(struct parser *ps, char *word)
{
	struct bconf_node *n = NULL, *first;

	if (!valid_keyword(word))
		return fail(ps, "Invalid keyword", word);

	if (ps->bc->count && !ps->parent) {
		n = find_sibling(ps, ps->nodes, word);
	} else if (ps->bc->count) {
		first = ps->parent->child ? node_at(ps, ps->parent->child) :
					    NULL;
		if (first && is_value(first))
			first = first->next ? node_at(ps, first->next) : NULL;
		n = find_sibling(ps, first, word);
	}
	if (n) {
		ps->parent = n;
		return 0;
	}
	return add_child(ps, word, 0) ? 0 : -EINVAL;
}

/* Enter every word of dotted key @k (not yet trimmed). */
static int enter_key(struct parser *ps, char *k)
{
	char *dot;
	int ret;

	k = trim(k);
	while ((dot = strchr(k, '.'))) {
		*dot = '\0';
		ret = enter_word(ps, k);
		if (ret)
			return ret;
		k = dot + 1;
	}
	return enter_word(ps, k);
}

/*
 * Cut one value out of the text at *@pv.  Returns its delimiter (a comment
 * counts as a newline, 0 at the end of the text) or a negative error;
 * *@pv is set to the value and *@pnext past the delimiter.
 */
static int cut_value(struct parser *ps, char **pv, char **pnext)
{
	char *v = skip_ws(*pv), *p;
	int c, quote = 0;

	while (*v == '#')
		v = skip_ws(skip_comment(v));
	if (*v == '"' || *v == '\'')
		quote = *v++;

	for (p = v; (c = (signed char)*p); p++) {
		if (!(k_class((char)c) & (K_PRINT | K_SPACE)))
			return fail(ps, "Non printable value", p);
		if (quote) {
			if (c != quote)
				continue;
			quote = 0;
			*p++ = '\0';
			p = skip_ws_in_line(p);
			c = (signed char)*p;
			if (c && !is_value_delim(c))
				return fail(ps, "No value delimiter", p);
			if (c)
				p++;
			break;
		}
		if (is_value_delim(c)) {
			*p++ = '\0';
			v = trim(v);
			break;
		}
	}
	if (quote)
		return fail(ps, "No closing quotes", p);
	if (c == '#') {
		p = skip_comment(p);
		c = '\n';
	}
	*pnext = p;
	*pv = v;
	return c;
}

/* The remaining elements of an array, after the first value. */
static int cut_array(struct parser *ps, char **pv)
{
	struct bconf_node *n = NULL;
	char *next;
	int c;

	if (ps->parent->child)
		ps->parent = node_at(ps, ps->parent->child);
	do {
		c = cut_value(ps, pv, &next);
		if (c < 0)
			return c;
		n = add_child(ps, *pv, BCONF_VALUE_FLAG);
		if (!n)
			return -EINVAL;
		*pv = next;
	} while (c == ',');
	n->child = 0;
	return c;
}

static int close_brace(struct parser *ps, char *where)
{
	ps->nbrace--;
	if (!ps->parent || ps->nbrace < 0 ||
	    ps->brace[ps->nbrace] != idx_of(ps, ps->parent))
		return fail(ps, "Unexpected closing brace", where);
	ps->parent = ps->nbrace ?
		node_at(ps, ps->brace[ps->nbrace - 1]) : NULL;
	return 0;
}

/* Replace the value of the current key, keeping its subkeys. */
static int override_value(struct parser *ps, struct bconf_node *val, char *v)
{
	uint16_t subkeys = val->next;

	if (set_node(ps, val, v, BCONF_VALUE_FLAG) < 0)
		return fail(ps, "Failed to override value", v);
	val->next = subkeys;
	return 0;
}

/* "key OP value[, value...]" with OP one of '=', ':' (:=), '+' (+=). */
static int do_assign(struct parser *ps, char **pk, char *v, int op)
{
	struct bconf_node *outer = ps->parent, *first;
	char *next;
	int c, ret;

	ret = enter_key(ps, *pk);
	if (ret)
		return ret;
	c = cut_value(ps, &v, &next);
	if (c < 0)
		return c;

	first = ps->parent->child ? node_at(ps, ps->parent->child) : NULL;
	if (first && is_value(first) && op == '=')
		return fail(ps, "Value is redefined", v);
	if (first && is_value(first) && op == ':') {
		ret = override_value(ps, first, v);
		if (ret)
			return ret;
	} else {
		if (first && is_value(first)) {		/* += */
			while (first->child)
				first = node_at(ps, first->child);
			ps->parent = first;
		}
		if (!add_node(ps, v, BCONF_VALUE_FLAG, true))
			return -EINVAL;
	}
	if (c == ',') {
		c = cut_array(ps, &next);
		if (c < 0)
			return c;
	}
	ps->parent = outer;
	if (c == '}') {
		ret = close_brace(ps, next - 1);
		if (ret)
			return ret;
	}
	*pk = next;
	return 0;
}

/* A key without value, ended by ';', newline, comment or '}'. */
static int do_key(struct parser *ps, char **pk, char *next)
{
	struct bconf_node *outer = ps->parent;
	int ret;

	*pk = trim(*pk);
	if (**pk) {
		ret = enter_key(ps, *pk);
		if (ret)
			return ret;
		ps->parent = outer;
	}
	*pk = next;
	return 0;
}

static int do_open(struct parser *ps, char **pk, char *next)
{
	int ret = enter_key(ps, *pk);

	if (ret)
		return ret;
	*pk = next;
	if (ps->nbrace >= BCONF_DEPTH_MAX)
		return fail(ps, "Exceed max depth of braces", next - 1);
	ps->brace[ps->nbrace++] = (uint16_t)idx_of(ps, ps->parent);
	return 0;
}

static int do_close(struct parser *ps, char **pk, char *next)
{
	int ret = do_key(ps, pk, next);

	return ret ? ret : close_brace(ps, next - 1);
}

static int parse_step(struct parser *ps, char **pp)
{
	char *q = strpbrk(*pp, "{}=+;:\n#");
	int c;

	if (!q) {
		*pp = skip_ws(*pp);
		if (**pp)
			return fail(ps, "No delimiter", *pp);
		return 1;
	}
	c = *q;
	*q++ = '\0';
	switch (c) {
	case ':':
	case '+':
		if (*q++ != '=')
			return fail(ps, c == '+' ? "Wrong '+' operator" :
					 "Wrong ':' operator", q - 2);
		return do_assign(ps, pp, q, c);
	case '=':
		return do_assign(ps, pp, q, c);
	case '{':
		return do_open(ps, pp, q);
	case '}':
		return do_close(ps, pp, q);
	case '#':
		q = skip_comment(q);
		return do_key(ps, pp, q);
	default:	/* ';' and '\n' */
		return do_key(ps, pp, q);
	}
}

static int parse_all(struct parser *ps)
{
	char *p = ps->base;
	int ret;

	do {
		ret = parse_step(ps, &p);
	} while (!ret);
	return ret < 0 ? ret : 0;
}

/* Walk the key tree checking key length and word count. */
static int check_keys(struct parser *ps)
{
	struct bconf_node *n = ps->nodes, *m;
	int depth = 1, len = 0, wlen;

	while (n) {
		wlen = (int)strlen(text_of(ps, n)) + 1;
		len += wlen;
		if (len > BCONF_KEYLEN_MAX)
			return fail(ps, "Too long key length", text_of(ps, n));
		m = n->child ? node_at(ps, n->child) : NULL;
		if (m && !is_value(m)) {
			n = m;
			if (++depth > BCONF_DEPTH_MAX)
				return fail(ps, "Too many key words",
					    text_of(ps, n));
			continue;
		}
		len -= wlen;
		m = n->next ? node_at(ps, n->next) : NULL;
		while (!m) {
			if (n->parent == BCONF_NO_PARENT)
				break;
			n = node_at(ps, n->parent);
			len -= (int)strlen(text_of(ps, n)) + 1;
			depth--;
			m = n->next ? node_at(ps, n->next) : NULL;
		}
		n = m;
	}
	return 0;
}

static int verify(struct parser *ps)
{
	int i;

	if (ps->nbrace)
		return fail(ps, "Brace is not closed",
			    text_of(ps, node_at(ps, ps->brace[ps->nbrace - 1])));
	if (!ps->bc->count) {
		fail(ps, "Empty config", ps->base);
		return -ENODATA;
	}
	for (i = 0; i < ps->bc->count; i++)
		if (ps->nodes[i].next > ps->bc->count)
			return fail(ps, "No closing brace",
				    text_of(ps, &ps->nodes[i]));
	return check_keys(ps);
}

void bconf_locate(struct bconf_error *err, const char *buf, size_t pos)
{
	size_t i;

	err->pos = pos;
	err->line = 1;
	err->col = (unsigned int)pos + 1;
	for (i = 0; i < pos; i++) {
		if (buf[i] == '\n') {
			err->line++;
			err->col = (unsigned int)(pos - i);
		}
	}
}

static void set_error(struct bconf_error *err, const char *msg)
{
	if (!err)
		return;
	err->msg = msg;
	err->pos = SIZE_MAX;
	err->line = 0;
	err->col = 0;
}

BCONF_EXPORT int bconf_parse(const char *buf, size_t len, struct bconf **out,
			     struct bconf_error *err)
{
	struct parser ps = { 0 };
	struct bconf *bc;
	int ret;

	*out = NULL;
	if (len > BCONF_DATA_MAX || !len) {
		set_error(err, len ? "Config data is too big" :
				     "Config data is empty");
		return len ? -E2BIG : -ENODATA;
	}
	bc = calloc(1, sizeof(*bc));
	if (!bc)
		goto nomem;
	bc->text = malloc(len + 1);
	bc->nodes = calloc(BCONF_NODE_MAX, sizeof(*bc->nodes));
	if (!bc->text || !bc->nodes)
		goto nomem;
	memcpy(bc->text, buf, len);
	bc->text[len] = '\0';
	bc->text_size = len + 1;

	ps.bc = bc;
	ps.base = bc->text;
	ps.nodes = bc->nodes;
	ret = parse_all(&ps);
	if (!ret)
		ret = verify(&ps);
	if (ret) {
		set_error(err, ps.msg);
		if (err)
			bconf_locate(err, buf, (size_t)(ps.where - ps.base));
		bconf_free(bc);
		return ret == -ENODATA ? ret : -EINVAL;
	}
	*out = bc;
	return 0;
nomem:
	set_error(err, "Failed to allocate bootconfig data");
	bconf_free(bc);
	return -ENOMEM;
}

BCONF_EXPORT void bconf_free(struct bconf *bc)
{
	if (!bc)
		return;
	free(bc->text);
	free(bc->nodes);
	free(bc);
}
