/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private definitions shared by the library's source files.
 */
#ifndef BCONF_INTERNAL_H
#define BCONF_INTERNAL_H

#include <stdint.h>

#include "bootconfig.h"

#ifdef BCONF_SHARED
#define BCONF_EXPORT __attribute__((visibility("default")))
#else
#define BCONF_EXPORT
#endif

/* Node flag stored in the top bit of the data offset, as the kernel does. */
#define BCONF_VALUE_FLAG	0x8000u
#define BCONF_NO_PARENT		BCONF_NODE_MAX

/*
 * A node.  Links are indexes into the owner's node array; index 0 is the
 * first top-level key, so 0 doubles as "none" for child and next.  Value
 * nodes chain array elements through @child, and a value that has sibling
 * subkeys points at the first of them through @next.
 */
struct bconf_node {
	uint16_t next;
	uint16_t child;
	uint16_t parent;
	uint16_t data;
	const struct bconf *owner;
};

struct bconf {
	char *text;		/* private copy, NULs inserted by the parser */
	size_t text_size;	/* bytes in @text including the final NUL */
	struct bconf_node *nodes;
	int count;
};

static inline const struct bconf_node *
bconf_at(const struct bconf *bc, unsigned int idx)
{
	return &bc->nodes[idx];
}

static inline unsigned int bconf_index(const struct bconf_node *node)
{
	return (unsigned int)(node - node->owner->nodes);
}

/* Raw links, as the kernel's accessors return them. */
const struct bconf_node *bconf_raw_child(const struct bconf_node *node);
const struct bconf_node *bconf_raw_next(const struct bconf_node *node);
bool bconf_node_is_key(const struct bconf_node *node);

/* @err's pos, line and col (from 1) of byte @pos of @buf; msg untouched. */
void bconf_locate(struct bconf_error *err, const char *buf, size_t pos);

/* The kernel's xbc_node_compose_key_after(), truncation included. */
int bconf_compose_raw(const struct bconf_node *node,
		      const struct bconf_node *root, char *buf, size_t size);

#endif /* BCONF_INTERNAL_H */
