// SPDX-License-Identifier: GPL-2.0
/*
 * prime.c - run by bench/analysis.sh, untimed, right before each timed run:
 * touch MIB mebibytes of anonymous memory on transparent huge pages, then
 * exit, so that the timed program's page faults find free memory that the
 * machine really has behind it.
 *
 * Why: on a virtual machine whose balloon driver reports free pages to
 * the host (virtio-balloon free page reporting), memory freed for more
 * than a couple of seconds is handed back, and the next program to fault
 * it in pays for the host's fault as well as for zeroing the page.  The
 * programs the bench compares each touch about 70 MB of fresh heap
 * (libtracecmd keeps every decompressed chunk), so whether that memory
 * was handed back moved one program's system time from 0.02 s to 0.15 s
 * between runs, more than the difference being measured.  Primed, every
 * program starts in the state a machine without a balloon is always in.
 *
 * usage: prime [MIB]   (default 256)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

int main(int argc, char **argv)
{
	unsigned long mib = 256;
	char *end;
	size_t len;
	void *p;

	if (argc > 2 || (argc == 2 && !strcmp(argv[1], "--help"))) {
		fprintf(stderr, "usage: prime [MIB]\n");
		return argc == 2 ? 0 : 2;
	}
	if (argc == 2) {
		errno = 0;
		mib = strtoul(argv[1], &end, 10);
		if (errno || *end || !mib || mib > (1UL << 20)) {
			fprintf(stderr, "prime: '%s' is not a size in MiB (1..1048576)\n",
				argv[1]);
			return 2;
		}
	}
	len = (size_t)mib << 20;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		fprintf(stderr, "prime: mmap %lu MiB: %s\n", mib, strerror(errno));
		return 1;
	}
	/* Advice only: without THP the 4 KiB pages are primed instead. */
	madvise(p, len, MADV_HUGEPAGE);
	memset(p, 1, len);
	return 0;
}
