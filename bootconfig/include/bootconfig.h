/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libbootconfig - parse, render and store Linux boot configs ("bootconfig").
 *
 * The parser accepts and rejects exactly what the kernel's lib/bootconfig.c
 * does in the tree Debian's linux-source package installs, with the same
 * error messages and the same tree shape, but without the kernel's global
 * singleton: every parsed config is its own object, read-only once parsed.
 *
 * Tree model.  A config is a forest of nodes.  A key node has a name
 * ("ftrace", "event"); a dotted key "a.b.c" is a chain of key nodes.  A value
 * node holds one value string; an array is a chain of value nodes linked by
 * bconf_node_next().  When a key has both a value and subkeys, the value is
 * always its first child.  A key written without a value ("key", "key =",
 * "key { }") has no value child; renderers print it as "".
 *
 * Thread safety: a parsed struct bconf is immutable; any number of threads
 * may read it.  Functions returning int return 0 (or a length) on success
 * and a negative errno value on failure.
 */
#ifndef BOOTCONFIG_H
#define BOOTCONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Limits of the kernel's parser (include/linux/bootconfig.h). */
#define BCONF_DATA_MAX		32767	/* bytes of text, excluding the NUL */
#define BCONF_NODE_MAX		8192	/* key and value nodes */
#define BCONF_KEYLEN_MAX	256	/* whole dotted key, with the NUL */
#define BCONF_DEPTH_MAX		16	/* key words and brace nesting */

/* Initrd trailer: [text][NUL][pad][le32 size][le32 csum][magic]. */
#define BCONF_MAGIC		"#BOOTCONFIG\n"
#define BCONF_MAGIC_LEN		12
#define BCONF_FOOTER_LEN	(8 + BCONF_MAGIC_LEN)
#define BCONF_ALIGN		4
/*
 * The largest size field read from a trailer: what the tree's
 * tools/bootconfig can write (32767 bytes of text + NUL, then up to 3 bytes
 * of padding).  A larger claim is refused (-EMSGSIZE) without reading it,
 * so a crafted footer cannot make a reader allocate or read gigabytes.
 */
#define BCONF_TRAILER_SIZE_MAX	(BCONF_DATA_MAX + BCONF_ALIGN - 1)

struct bconf;
struct bconf_node;

/* Where and why parsing failed.  line and col are 1-based, col in bytes. */
struct bconf_error {
	const char *msg;	/* the kernel's message text, static storage */
	size_t pos;		/* byte offset into the input */
	unsigned int line;
	unsigned int col;
};

/*
 * Parse @len bytes at @buf (need not be NUL-terminated; a NUL ends the text
 * as it does for the kernel).  On success *@out owns a new config: free it
 * with bconf_free().  On a config error returns -EINVAL (-E2BIG when the
 * text exceeds BCONF_DATA_MAX, -ENODATA when empty) and fills @err if not
 * NULL; on allocation failure returns -ENOMEM.
 */
int bconf_parse(const char *buf, size_t len, struct bconf **out,
		struct bconf_error *err);
void bconf_free(struct bconf *bc);

/* Number of nodes (keys and values), as "Number of nodes" reports it. */
size_t bconf_node_count(const struct bconf *bc);

/*
 * Navigation.  All return NULL at the end.
 *
 * bconf_root():        the first top-level key.
 * bconf_node_subkey(): the first key below key @node.
 * bconf_node_next():   the next sibling key of key @node (NULL for values).
 * bconf_node_value():  the value node of key @node, NULL when it has none.
 * bconf_value_next():  the next element of the array value @v belongs to.
 * bconf_node_parent(): the key a node belongs to, NULL at the top level.
 */
const struct bconf_node *bconf_root(const struct bconf *bc);
const struct bconf_node *bconf_node_subkey(const struct bconf_node *node);
const struct bconf_node *bconf_node_next(const struct bconf_node *node);
const struct bconf_node *bconf_node_value(const struct bconf_node *node);
const struct bconf_node *bconf_value_next(const struct bconf_node *v);
const struct bconf_node *bconf_node_parent(const struct bconf_node *node);
const char *bconf_node_data(const struct bconf_node *node);
bool bconf_node_is_value(const struct bconf_node *node);
/* A key whose only child is a value (or which has no child). */
bool bconf_node_is_leaf(const struct bconf_node *node);
/* A value node followed by another value (not the last array element). */
bool bconf_node_is_array(const struct bconf_node *node);

/*
 * Find the key node for dotted @key below @parent (NULL: top level).
 * Returns NULL when absent.
 */
const struct bconf_node *bconf_find_node(const struct bconf *bc,
					 const struct bconf_node *parent,
					 const char *key);
/*
 * Find the value of dotted @key below @parent.  Returns the first value
 * string ("" when the key exists without a value) and sets *@vnode (when
 * not NULL) to the value node or NULL; returns NULL when the key is absent.
 */
const char *bconf_find_value(const struct bconf *bc,
			     const struct bconf_node *parent, const char *key,
			     const struct bconf_node **vnode);

/*
 * Compose the dotted key of @node relative to @root (NULL: full key) into
 * @buf.  Returns the length, or -ERANGE when it does not fit in @size or
 * is deeper than the kernel can compose, -EINVAL on bad arguments.
 */
int bconf_compose_key(const struct bconf_node *node,
		      const struct bconf_node *root, char *buf, size_t size);

/*
 * Leaf iteration in tree order below @root (NULL: whole config): pass
 * NULL as @leaf to start.  A leaf is a key that has no subkey, or whose
 * first child is a value (a key with a value and subkeys is a leaf too;
 * its subkeys' leaves follow it).
 */
const struct bconf_node *bconf_next_leaf(const struct bconf *bc,
					 const struct bconf_node *root,
					 const struct bconf_node *leaf);

/*
 * Renderers.  Each returns 0, or a negative errno value: -ERANGE when a key
 * is too deep to compose (the kernel then creates no /proc/bootconfig;
 * lines before it have been written), -EINVAL when the cmdline root has a
 * value of its own (the kernel then adds nothing), -EIO when writing fails.
 *
 * list:    one "key = value" line per leaf.  Default: the /proc/bootconfig
 *          format of the kernel.  BCONF_LIST_TOOL: as tools/bootconfig -l
 *          prints it, which drops an array whose first value is "".
 * tree:    the compact brace format of `bootconfig INITRD`.
 * cmdline: exactly the string the kernel builds from the @root subtree
 *          ("kernel" or "init"), "key=value " per value; nothing for an
 *          absent subtree.
 * json:    the schema documented in bootconfig(1): nested objects in config
 *          order; a value is a string, an array of 2+ values a JSON array;
 *          a key without value is ""; a key with both a value and subkeys
 *          is an object holding its value under the key "".
 */
#define BCONF_LIST_TOOL		0x1u

int bconf_render_list(const struct bconf *bc, unsigned int flags, FILE *out);
int bconf_render_tree(const struct bconf *bc, FILE *out);
int bconf_render_cmdline(const struct bconf *bc, const char *root, FILE *out);
int bconf_render_json(const struct bconf *bc, FILE *out);

/* Sum of the unsigned bytes, the kernel's xbc_calc_checksum(). */
uint32_t bconf_checksum(const void *buf, size_t len);

/* A trailer found at the end of an initrd image. */
struct bconf_trailer {
	size_t data_off;	/* offset of the config text in the image */
	uint32_t size;		/* footer size field: text + NUL + padding */
	uint32_t csum;		/* footer checksum field */
	size_t end;		/* image length without the trailer */
	size_t pad;		/* bytes after the magic (0-3, bootloader pad) */
};

/*
 * Find a trailer the way the kernel does: the magic at the end of @buf or
 * up to 3 bytes before it.  Returns 0 when a well-formed trailer is found,
 * -ENOENT when there is no magic, -EINVAL when the size field does not fit
 * the image, -EBADMSG when the checksum does not match (@t still filled).
 * Trailers the kernel would refuse for their size are reported with 0, so
 * that they can still be shown and deleted; see bconf_trailer_size_ok().
 */
int bconf_trailer_find(const void *buf, size_t len, struct bconf_trailer *t);
/*
 * Whether the kernel would accept a trailer with this size field.  The
 * packaged trees' init/main.c refuses size >= BCONF_DATA_MAX, so a config
 * text is at most 32765 bytes once its NUL and padding are counted.
 */
bool bconf_trailer_size_ok(uint32_t size);

/*
 * Initrd files.  Only regular files (after resolving symlinks) are read or
 * written; a directory gives -EISDIR, a FIFO, socket or device -ENOTSUP
 * (for read: -ENOENT), found with a non-blocking open and fstat() before
 * anything else, so that a FIFO never blocks.  Apply and delete first open
 * the file for writing, as the tree's tool does: a file the caller may not
 * write gives -EACCES (or -EROFS, -EPERM for an immutable file), even when
 * its directory is writable.
 *
 * Writes (apply, delete) by default never modify the file in place: a
 * temporary file ".<name>.bconf-XXXXXX" in the initrd's directory gets the
 * image without its old trailer plus the new one, then rename() over the
 * original.  The image is cloned (FICLONE: shared blocks, no space used)
 * where the file system can, else copied skipping holes (SEEK_DATA/
 * SEEK_HOLE), so a sparse image stays sparse; before copying, the space the
 * copy needs is checked against the free space (-ENOSPC, nothing written,
 * both figures in *@space).  The temporary file gets the original's owner
 * (-EPERM when that is not permitted), its extended attributes where the
 * caller may set them (ACLs and user.* attributes; security labels only
 * with privilege), its mode, then fsync(), rename() and fsync() of the
 * directory.  So the directory must be writable.  A symlinked initrd keeps
 * its link and its target is replaced; hard links to the initrd keep the
 * old image.  If the file is replaced or modified meanwhile: -EAGAIN.  On
 * any failure the original file is left byte-identical and the temporary
 * file removed, except when the final directory fsync() fails: the new
 * file is then in place (but may not survive a crash) and that error is
 * returned.  A process killed while writing leaves its temporary file; the
 * next apply or delete of that initrd removes such files when no live
 * writer holds them (they are flock()ed while in use).
 *
 * BCONF_UPDATE_IN_PLACE writes the file itself instead (for a full disk or
 * a read-only directory): the image bytes are never written, only the
 * tail.  Apply truncates the old trailer, fsync(), writes the new trailer
 * but its magic, fsync(), writes the 12-byte magic, fsync(); delete
 * truncates and fsync()s.  A failure restores the old trailer.  Worst case
 * after a crash (or kill) in the middle: the image followed by a prefix
 * of the new trailer that lacks the magic (possibly empty), which the
 * kernel does not take for a bootconfig: it boots without one.  All names
 * of a hard-linked file see the change; the owner, mode and xattrs are
 * untouched.
 *
 * A trailer with a bad checksum (-EBADMSG), a size larger than the file
 * (-EINVAL) or over BCONF_TRAILER_SIZE_MAX (-EMSGSIZE) makes read, apply
 * and delete fail without changing anything.
 */

/* What a write needs and what the file system has, in bytes. */
struct bconf_space {
	uint64_t need;
	uint64_t avail;
};

/*
 * Read the bootconfig text of initrd @path into a new malloc'ed,
 * NUL-terminated buffer *@text of *@len bytes (up to the first NUL; @len
 * may be NULL).  Returns -ENOENT when the file is missing or has no
 * trailer (also for a pipe or device), -EBADMSG on a checksum mismatch,
 * -EINVAL when the size field does not fit, -EMSGSIZE when it is over
 * BCONF_TRAILER_SIZE_MAX (t->size tells the claim), other negative errno
 * values on I/O errors.  @t (may be NULL) receives the trailer found;
 * trailers the kernel refuses for their size but tools/bootconfig writes
 * are read (check bconf_trailer_size_ok(t->size)).  At most
 * BCONF_TRAILER_SIZE_MAX + 1 bytes are allocated, whatever the file says.
 */
int bconf_initrd_read(const char *path, char **text, size_t *len,
		      struct bconf_trailer *t);
/*
 * Replace any trailer of initrd @path with the config @text: its first
 * @len bytes, up to the first NUL if any.  The caller validates @text first
 * (bconf_parse()); this checks only the size the kernel accepts once the
 * NUL and padding are added (-E2BIG, nothing written).  Applying the same
 * text twice gives the same file.  When @t is not NULL it receives the
 * trailer written (or, after -E2BIG, the one that would have been): csum
 * is the checksum `bootconfig -a` prints; size includes the padding.
 * A non-regular file gives -ENOTSUP.
 */
int bconf_initrd_apply(const char *path, const char *text, size_t len,
		       struct bconf_trailer *t);
/*
 * bconf_initrd_apply() with @flags.  BCONF_APPLY_OVERSIZE: accept what the
 * tree's tools/bootconfig accepts, text + NUL up to BCONF_DATA_MAX bytes,
 * even when the padded size field makes the kernel refuse the trailer
 * (only for running upstream's tests; -E2BIG beyond that).
 */
#define BCONF_APPLY_OVERSIZE	0x1u

int bconf_initrd_apply_flags(const char *path, const char *text, size_t len,
			     unsigned int flags, struct bconf_trailer *t);
/*
 * Apply (or, with BCONF_UPDATE_DELETE, delete: @text is then ignored) with
 * @flags: BCONF_APPLY_OVERSIZE, BCONF_UPDATE_IN_PLACE.  When @space is not
 * NULL it receives the bytes the write needs and the bytes available
 * (both 0 when not measured), in particular after -ENOSPC.  @t (may be
 * NULL) is filled as by bconf_initrd_apply(); after -EMSGSIZE, -EBADMSG
 * or -EINVAL it receives the initrd's refused trailer as found, as
 * bconf_initrd_read() fills it (t->size tells the claim), for delete too.
 */
#define BCONF_UPDATE_IN_PLACE	0x2u
#define BCONF_UPDATE_DELETE	0x4u

int bconf_initrd_update(const char *path, const char *text, size_t len,
			unsigned int flags, struct bconf_trailer *t,
			struct bconf_space *space);
/*
 * Remove the trailer of @path (and any bootloader pad after it); 0 also
 * when it had none, in which case the file is not rewritten.  Oversized
 * trailers are removed too.  A non-regular file gives -ENOTSUP.
 */
int bconf_initrd_delete(const char *path);

/*
 * The trace_boot key grammar: the keys kernel/trace/trace_boot.c reads
 * under "ftrace." and "ftrace.instance.NAME.", what each one is, and the
 * kind of value it takes.  One table (lib/trace_keys.c) used by lint and
 * by trace-analysis.
 */
enum bconf_tkey {
	BCONF_TK_NONE,			/* not a trace_boot key */
	BCONF_TK_OPTIONS,		/* options */
	BCONF_TK_TRACING_ON,		/* tracing_on */
	BCONF_TK_TRACE_CLOCK,		/* trace_clock */
	BCONF_TK_BUFFER_SIZE,		/* buffer_size */
	BCONF_TK_ALLOC_SNAPSHOT,	/* alloc_snapshot */
	BCONF_TK_CPUMASK,		/* cpumask */
	BCONF_TK_EVENTS,		/* events */
	BCONF_TK_TRACER,		/* tracer */
	BCONF_TK_FTRACE_FILTERS,	/* ftrace.filters */
	BCONF_TK_FTRACE_NOTRACES,	/* ftrace.notraces */
	BCONF_TK_ENABLE_ALL,		/* event.enable */
	BCONF_TK_GROUP_ENABLE,		/* event.GROUP.enable */
	BCONF_TK_KPROBE_PROBES,		/* event.kprobes.EVENT.probes */
	BCONF_TK_SYNTH_FIELDS,		/* event.synthetic.EVENT.fields */
	BCONF_TK_EVENT_ENABLE,		/* event.GROUP.EVENT.enable */
	BCONF_TK_EVENT_FILTER,		/* event.GROUP.EVENT.filter */
	BCONF_TK_EVENT_ACTIONS,		/* event.GROUP.EVENT.actions */
	BCONF_TK_HIST,			/* event.GROUP.EVENT.hist[.N] */
	BCONF_TK_HIST_PART,		/* a subkey of a hist (keys, onmax...) */
};

/* How a key's value is checked. */
enum bconf_tvalue {
	BCONF_TV_CONTAINER,	/* no value expected */
	BCONF_TV_OPTIONS,	/* trace option names, "no" prefix allowed */
	BCONF_TV_TRACING_ON,	/* kstrtoul(, 10) */
	BCONF_TV_CLOCK,		/* a trace clock */
	BCONF_TV_SIZE,		/* bconf_memparse() size, >= 4096 */
	BCONF_TV_FLAG,		/* presence only: any value is ignored */
	BCONF_TV_CPUMASK,	/* cpumask_parse(): hex groups, commas */
	BCONF_TV_EVENTS,	/* [!][GROUP:]EVENT list */
	BCONF_TV_TRACER,	/* a tracer */
	BCONF_TV_FUNCS,		/* ftrace filter globs */
	BCONF_TV_PROBES,	/* kprobe definitions */
	BCONF_TV_SYNTH,		/* synthetic event fields "TYPE NAME" */
	BCONF_TV_FILTER,	/* event filter */
	BCONF_TV_ACTIONS,	/* trigger commands */
	BCONF_TV_HIST,		/* a histogram (container) */
	BCONF_TV_LIST,		/* a list value of a histogram */
	BCONF_TV_ONE,		/* a single value of a histogram */
};

#define BCONF_TK_MAX_CAND 64

struct bconf_tkey_match {
	bool full;		/* some pattern matches the whole key */
	bool prefix;		/* some pattern continues below the key */
	enum bconf_tkey key;	/* of the most literal full match */
	enum bconf_tvalue kind;	/* its value kind */
	int literals;
	int ncand;		/* words that may follow the key */
	const char *cand[BCONF_TK_MAX_CAND];
	size_t cand_len[BCONF_TK_MAX_CAND];
};

/*
 * Match the key @words[0..@n-1], relative to "ftrace." or
 * "ftrace.instance.NAME.", against the grammar.
 */
void bconf_tkey_match(const char *const *words, int n,
		      struct bconf_tkey_match *m);
/* The same for a dotted key relative to ftrace[.instance.NAME]. */
enum bconf_tkey bconf_tkey_of(const char *relkey);

/*
 * The kernel's memparse(): a number (C base prefixes) and an optional
 * K, M, G, T, P or E suffix (either case).  Returns false when @s does not
 * start with a number; *@end points after the suffix (the kernel ignores
 * the rest: "1MB" is 1 MiB).
 */
bool bconf_memparse(const char *s, unsigned long long *out, const char **end);

/* The kernel's xbc_node_compose_key_after(), truncation included. */
int bconf_compose_key_raw(const struct bconf_node *node,
			  const struct bconf_node *root, char *buf,
			  size_t size);

/* Byte offset of @node's text in the parsed input (for diagnostics). */
size_t bconf_node_offset(const struct bconf_node *node);

/*
 * Shared by the tools: read the whole file @path into a new NUL-terminated
 * buffer (-EFBIG above @max bytes, nothing returned); and write @s as a
 * JSON string (control bytes escaped, valid UTF-8 kept, invalid bytes as
 * U+FFFD; NULL as "").
 */
int bconf_read_file(const char *path, size_t max, char **buf, size_t *len);
void bconf_json_string(FILE *f, const char *s);
/*
 * The text the kernel never reads: it takes the config as a C string, up
 * to its first NUL byte, as bconf_parse() does.  Returns how many bytes
 * follow that NUL when any of them is not a NUL (text silently lost),
 * and fills @at (may be NULL) with the NUL's place (pos, line, col) and
 * what it means (msg, the tools' one text for it, which they follow with
 * what is lost); 0 when there is no NUL or only NULs after it (padding).
 */
size_t bconf_nul_tail(const char *buf, size_t len, struct bconf_error *at);
/*
 * Diagnostics: write @len bytes of @s with what a terminal could act on
 * (bytes outside printable ASCII, but tab) as \xNN; and line @line (from
 * 1) of @buf (@len bytes), escaped so, with a caret under column @col
 * (bytes, from 1) on the next line, as "FILE:LINE:COL: error:" messages
 * show the source.  Nothing when @buf has no such line.  A line wider
 * than BCONF_SRC_WIDTH columns (\xNN counts 4, a tab 1) is clipped to a
 * window of at most that many around the caret, at most BCONF_SRC_BEFORE
 * of them before it unless the line ends first, with "..." where the line
 * goes on; the caret stays under its byte.
 */
#define BCONF_SRC_WIDTH		100
#define BCONF_SRC_BEFORE	40
void bconf_put_escaped(FILE *out, const char *s, size_t len);
void bconf_show_source(FILE *out, const char *buf, size_t len,
		       unsigned int line, unsigned int col);

#ifdef __cplusplus
}
#endif

#endif /* BOOTCONFIG_H */
