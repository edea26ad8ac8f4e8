/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private definitions of initrd.c, shared with its tests.
 */
#ifndef BCONF_INITRD_INTERNAL_H
#define BCONF_INITRD_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "bootconfig.h"

/* The last bytes of an image that can hold the footer: 20 + 3 of pad. */
#define BCONF_TAIL_MAX		(BCONF_FOOTER_LEN + BCONF_ALIGN - 1)

/*
 * Temporary files are named ".<base>.bconf-XXXXXX" in the directory of the
 * initrd, XXXXXX from BCONF_TMP_CHARS.  <base> is cut to BCONF_TMP_BASE_MAX
 * bytes so that the name fits NAME_MAX.
 */
#define BCONF_TMP_TAG		".bconf-"
#define BCONF_TMP_RAND		6
#define BCONF_TMP_BASE_MAX	200
#define BCONF_TMP_CHARS \
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

/*
 * Build the trailer for @text_len bytes of @text appended to an image of
 * @image_len bytes: text, NUL, zero padding so that the whole file length
 * is a multiple of BCONF_ALIGN, le32 size, le32 checksum, magic.  Returns
 * a malloc'ed buffer of *@out_len bytes and fills @t (offsets relative to
 * the new file), or NULL when out of memory.  No size check.
 */
unsigned char *bconf_trailer_build(const char *text, size_t text_len,
				   uint64_t image_len, size_t *out_len,
				   struct bconf_trailer *t);

/* Whether @name is a temporary file name of ours for initrd @base. */
int bconf_tmp_name_match(const char *name, const char *base);

#endif /* BCONF_INITRD_INTERNAL_H */
