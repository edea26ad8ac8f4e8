// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_trailer.c - libFuzzer harness: bconf_trailer_find() on arbitrary
 * initrd images, then the parser on the text it finds.
 *
 * Checks that a reported trailer lies inside the image and matches its
 * own footer: the magic where it says, the size and checksum fields as
 * stored, the data offset plus size ending at the footer, and (when 0 is
 * returned) the checksum over the data; that a size claim over
 * BCONF_TRAILER_SIZE_MAX is always -EMSGSIZE and never anything else.
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

static uint32_t le32(const uint8_t *p)
{
	return p[0] | (p[1] << 8) | (p[2] << 16) | ((uint32_t)p[3] << 24);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bconf_trailer t;
	struct bconf_error err;
	struct bconf *bc = NULL;
	const uint8_t *footer;
	int ret;

	memset(&t, 0, sizeof(t));
	ret = bconf_trailer_find(data, size, &t);
	CHECK(ret == 0 || ret == -ENOENT || ret == -EINVAL || ret == -EBADMSG ||
	      ret == -EMSGSIZE);
	/* a claim over the limit is refused whatever the image size */
	CHECK((ret == -EMSGSIZE) == (ret != -ENOENT &&
				     t.size > BCONF_TRAILER_SIZE_MAX));
	if (ret != 0 && ret != -EBADMSG)
		return 0;
	CHECK(t.size <= BCONF_TRAILER_SIZE_MAX);
	CHECK(t.pad <= 3);
	CHECK(size >= BCONF_FOOTER_LEN + t.pad);
	footer = data + size - t.pad - BCONF_FOOTER_LEN;
	CHECK(!memcmp(footer + 8, BCONF_MAGIC, BCONF_MAGIC_LEN));
	CHECK(le32(footer) == t.size);
	CHECK(le32(footer + 4) == t.csum);
	CHECK(t.data_off + t.size == (size_t)(footer - data));
	CHECK(t.end == t.data_off);
	if (ret == -EBADMSG) {
		CHECK(bconf_checksum(data + t.data_off, t.size) != t.csum);
		return 0;
	}
	CHECK(bconf_checksum(data + t.data_off, t.size) == t.csum);
	ret = bconf_parse((const char *)data + t.data_off, t.size, &bc, &err);
	if (ret == 0)
		bconf_free(bc);
	return 0;
}
