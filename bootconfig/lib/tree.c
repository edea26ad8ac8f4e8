// SPDX-License-Identifier: GPL-2.0
/*
 * tree.c - read-only access to a parsed config: navigation, lookup by
 * dotted key, leaf iteration and key composition.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

static const struct bconf_node *link_to(const struct bconf_node *n,
					uint16_t idx)
{
	return idx ? bconf_at(n->owner, idx) : NULL;
}

const struct bconf_node *bconf_raw_child(const struct bconf_node *node)
{
	return link_to(node, node->child);
}

const struct bconf_node *bconf_raw_next(const struct bconf_node *node)
{
	return link_to(node, node->next);
}

bool bconf_node_is_key(const struct bconf_node *node)
{
	return !(node->data & BCONF_VALUE_FLAG);
}

BCONF_EXPORT size_t bconf_node_count(const struct bconf *bc)
{
	return (size_t)bc->count;
}

BCONF_EXPORT const struct bconf_node *bconf_root(const struct bconf *bc)
{
	return bc && bc->count ? bc->nodes : NULL;
}

BCONF_EXPORT const char *bconf_node_data(const struct bconf_node *node)
{
	return node->owner->text + (node->data & ~BCONF_VALUE_FLAG);
}

BCONF_EXPORT bool bconf_node_is_value(const struct bconf_node *node)
{
	return !bconf_node_is_key(node);
}

BCONF_EXPORT bool bconf_node_is_leaf(const struct bconf_node *node)
{
	const struct bconf_node *c = bconf_raw_child(node);

	return bconf_node_is_key(node) && (!c || bconf_node_is_value(c));
}

BCONF_EXPORT bool bconf_node_is_array(const struct bconf_node *node)
{
	return bconf_node_is_value(node) && node->child;
}

BCONF_EXPORT const struct bconf_node *
bconf_node_value(const struct bconf_node *node)
{
	const struct bconf_node *c;

	if (!bconf_node_is_key(node))
		return NULL;
	c = bconf_raw_child(node);
	return c && bconf_node_is_value(c) ? c : NULL;
}

BCONF_EXPORT const struct bconf_node *
bconf_value_next(const struct bconf_node *v)
{
	return bconf_node_is_value(v) ? bconf_raw_child(v) : NULL;
}

BCONF_EXPORT const struct bconf_node *
bconf_node_subkey(const struct bconf_node *node)
{
	const struct bconf_node *c = bconf_raw_child(node);

	if (c && bconf_node_is_value(c))
		return bconf_raw_next(c);
	return c;
}

BCONF_EXPORT const struct bconf_node *
bconf_node_next(const struct bconf_node *node)
{
	return bconf_node_is_key(node) ? bconf_raw_next(node) : NULL;
}

/* The raw parent: for array elements this is the previous element. */
static const struct bconf_node *raw_parent(const struct bconf_node *node)
{
	if (node->parent == BCONF_NO_PARENT)
		return NULL;
	return bconf_at(node->owner, node->parent);
}

BCONF_EXPORT const struct bconf_node *
bconf_node_parent(const struct bconf_node *node)
{
	const struct bconf_node *p = raw_parent(node);

	while (p && bconf_node_is_value(p))
		p = raw_parent(p);
	return p;
}

/* Consume the word of @node from the front of *@key, with its dot. */
static bool eat_word(const struct bconf_node *node, const char **key)
{
	const char *word = bconf_node_data(node);
	size_t len = strlen(word);
	const char *rest = *key + len;

	if (strncmp(*key, word, len))
		return false;
	if (*rest == '.')
		rest++;
	else if (*rest)
		return false;
	*key = rest;
	return true;
}

BCONF_EXPORT const struct bconf_node *
bconf_find_node(const struct bconf *bc, const struct bconf_node *parent,
		const char *key)
{
	const struct bconf_node *node;

	node = parent ? bconf_node_subkey(parent) : bconf_root(bc);
	while (node && bconf_node_is_key(node)) {
		if (!eat_word(node, &key))
			node = bconf_raw_next(node);
		else if (*key)
			node = bconf_node_subkey(node);
		else
			break;
	}
	return node;
}

BCONF_EXPORT const char *bconf_find_value(const struct bconf *bc,
					  const struct bconf_node *parent,
					  const char *key,
					  const struct bconf_node **vnode)
{
	const struct bconf_node *node = bconf_find_node(bc, parent, key);

	if (!node || !bconf_node_is_key(node))
		return NULL;
	node = bconf_raw_child(node);
	if (node && !bconf_node_is_value(node))
		return NULL;
	if (vnode)
		*vnode = node;
	return node ? bconf_node_data(node) : "";
}

/*
 * Compose like the kernel's xbc_node_compose_key_after(): returns the full
 * length even when @buf is too small (it then holds a truncated key),
 * -ERANGE when @node is BCONF_DEPTH_MAX or more words below @root, and
 * -EINVAL when @root is @node or not an ancestor of it.
 */
int bconf_compose_raw(const struct bconf_node *node,
		      const struct bconf_node *root, char *buf, size_t size)
{
	const struct bconf_node *words[BCONF_DEPTH_MAX];
	int depth = 0, total = 0, ret;

	if (!node || node == root)
		return -EINVAL;
	if (bconf_node_is_value(node))
		node = bconf_node_parent(node);
	while (node && node != root) {
		words[depth++] = node;
		if (depth == BCONF_DEPTH_MAX)
			return -ERANGE;
		node = raw_parent(node);
	}
	if (!node && root)
		return -EINVAL;
	while (--depth >= 0) {
		ret = snprintf(buf, size, "%s%s", bconf_node_data(words[depth]),
			       depth ? "." : "");
		if (ret < 0)
			return -EIO;
		if ((size_t)ret >= size) {
			size = 0;
		} else {
			size -= (size_t)ret;
			buf += ret;
		}
		total += ret;
	}
	return total;
}

BCONF_EXPORT int bconf_compose_key(const struct bconf_node *node,
				   const struct bconf_node *root, char *buf,
				   size_t size)
{
	int ret = bconf_compose_raw(node, root, buf, size);

	if (ret >= 0 && (size_t)ret >= size)
		return -ERANGE;
	return ret;
}

/* Descend to the first leaf at or below @node. */
static const struct bconf_node *first_leaf(const struct bconf_node *node)
{
	while (node && !bconf_node_is_leaf(node))
		node = bconf_raw_child(node);
	return node;
}

BCONF_EXPORT const struct bconf_node *
bconf_next_leaf(const struct bconf *bc, const struct bconf_node *root,
		const struct bconf_node *leaf)
{
	const struct bconf_node *next;

	if (!leaf)
		return first_leaf(root ? root : bconf_root(bc));

	/* A leaf may still have subkeys after its value. */
	next = bconf_node_subkey(leaf);
	if (next)
		return first_leaf(next);
	if (leaf == root)
		return NULL;
	while (!leaf->next) {
		leaf = raw_parent(leaf);
		if (!leaf || leaf == root)
			return NULL;
	}
	return first_leaf(bconf_raw_next(leaf));
}
