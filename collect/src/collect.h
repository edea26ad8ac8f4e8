/* SPDX-License-Identifier: GPL-2.0 */
/*
 * collect.h - the parts of boottrace-collect the unit tests call.
 */
#ifndef COLLECT_H
#define COLLECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define BUNDLE_FORMAT	"boottrace-bundle-2"
#define COLLECT_VERSION	"1"

/* collect.c (the unit tests build it with -Dmain=collect_main) */
int main(int argc, char **argv);
char *read_file(const char *path, size_t *len);
bool plain_name(const char *s);
bool changed_text(const char *text);
bool has_hist(const char *text);
bool conf_event(const char *line, const char *instance, char *out, size_t len);
bool room_uncompressed(unsigned long long buffers_kb, const char *meminfo);
char *klog_text(const char *raw, size_t len, size_t *outlen);
/* the tracefs trace-cmd extract reads (the unit tests replace it) */
extern const char *(*extract_tracefs)(void);

/* bundle.c */
int tar_header(char hdr[512], const char *name, bool dir, unsigned long long size,
	       long long mtime);
int tar_write(int fd, int dirfd);
int add_metadata(const char *dir, FILE *in, const char *what);
int meta_line(const char *line, char *key, size_t keylen);
void rm_tree(const char *dir);
bool dir_empty(int dirfd);

#endif
