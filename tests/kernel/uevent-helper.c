// SPDX-License-Identifier: GPL-2.0
/*
 * uevent-helper.c - the uevent helper of tests/kernel/62-early-module.t,
 * built static by the test and installed as /boottrace/uevent-helper in
 * the initramfs.  The test kernel (kernel/configs/early-module.config)
 * runs it for every uevent once the usermode helper is enabled, during
 * the device initcalls.  The first call loads the trace-events sample
 * module with finit_module(2); every later call returns at once.
 *
 * It is a small static program rather than a script because the kernel
 * does not wait for a uevent helper: it runs beside the initcalls, once
 * per uevent.  Under KASAN and TCG a bash per uevent took the module load
 * past the first late initcall; this one costs an exec and a mkdir().
 *
 * Nothing is set up for a usermode helper (no open files, /dev may be
 * empty), so the outcome goes to /early-load/status (0 or the errno) and
 * /early-load/insmod.err, which the guest script prints.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define KO "/boottrace/trace-events-sample.ko"

static void put(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	ssize_t n;

	if (fd < 0)
		return;
	/* a short write has nowhere to go: the guest then prints "none" */
	n = write(fd, text, strlen(text));
	(void)n;
	close(fd);
}

int main(void)
{
	char status[16], err[128];
	int fd, e = 0;

	/* the first helper wins; the others find the directory */
	if (mkdir("/early-load", 0755))
		return 0;
	fd = open(KO, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || syscall(SYS_finit_module, fd, "", 0))
		e = errno;
	if (e) {
		snprintf(err, sizeof(err), "%s: %s\n", KO, strerror(e));
		put("/early-load/insmod.err", err);
	}
	snprintf(status, sizeof(status), "%d\n", e);
	put("/early-load/status", status);
	return 0;
}
