/*
 * oracle/tool_files.h - the file rules weft's command-line tools share
 * (weft-check, oracle/weft_check_main.c; NAME_replay, harness/replay_main.c):
 * which files they read, and how they finish a file they wrote.
 *
 * Inputs are regular files of at most ORACLE_TOOL_MAX_INPUT bytes: a FIFO
 * would block the tool on open, and /dev/zero would be read until memory runs
 * out.  The file is opened non-blocking and checked with fstat on the open
 * descriptor, so a name swapped for a FIFO between a check and the open cannot
 * block either.  errno says why on failure: EINVAL not a regular file, EFBIG
 * too large (oracle_tool_why words both).  Standard input ('-' to weft-check)
 * may be a pipe, so only its size is capped (oracle_tool_read).
 *
 * Outputs: a write that fails (a full disk, /dev/full) sets the stream's error
 * flag, and glibc then drops the buffer, so fclose alone may return 0 for a
 * file that lost its contents.  oracle_tool_close checks the flag, the flush
 * and the close; oracle_tool_stdout_ok the same for standard output, which a
 * tool checks before its exit status says success.
 *
 * Header-only (static inline): the oracle room stands alone and the replay
 * glue is compiled into every target, so neither links the other's objects.
 */
#ifndef WEFT_ORACLE_TOOL_FILES_H
#define WEFT_ORACLE_TOOL_FILES_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define ORACLE_TOOL_MAX_INPUT ((size_t)64 << 20)   /* bytes: no history or input is larger */

/* `path` opened for reading when it is a regular file of at most `max` bytes; else NULL, errno. */
static inline FILE *oracle_tool_open_input(const char *path, size_t max)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return NULL;
	struct stat sb;
	int e = fstat(fd, &sb) != 0 ? errno : !S_ISREG(sb.st_mode) ? EINVAL
					      : (uint64_t)sb.st_size > max ? EFBIG : 0;
	FILE *f = e ? NULL : fdopen(fd, "rb");
	if (!f) {
		e = e ? e : errno;
		close(fd);
		errno = e;
	}
	return f;
}

/*
 * The whole of f (at most `max` bytes) in a malloc'd buffer with a NUL after
 * it, or NULL with errno (EFBIG: more than max, the file grew or is a pipe).
 */
static inline char *oracle_tool_read(FILE *f, size_t max, size_t *size)
{
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap + 1);
	for (size_t got; buf && n <= max && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
		n += got;
		if (n == cap) {
			char *bigger = realloc(buf, (cap *= 2) + 1);
			if (!bigger)
				free(buf);
			buf = bigger;
		}
	}
	int e = !buf ? ENOMEM : ferror(f) ? (errno ? errno : EIO) : n > max ? EFBIG : 0;
	if (e) {
		free(buf);
		errno = e;
		return NULL;
	}
	buf[n] = '\0';
	*size = n;
	return buf;
}

/* The words for oracle_tool_open_input's and oracle_tool_read's errno. */
static inline const char *oracle_tool_why(int e)
{
	return e == EINVAL ? "not a regular file"
	       : e == EFBIG ? "larger than 64 MiB" : strerror(e);
}

/* 0 when everything written to f reached the file and f closed; else -1, errno. */
static inline int oracle_tool_close(FILE *f)
{
	int e = errno;   /* a failed write's, when the error flag is set */
	int failed = 1;
	if (ferror(f))
		e = e ? e : EIO;
	else if (fflush(f) != 0)
		e = errno;
	else
		failed = 0;
	if (fclose(f) != 0 && !failed) {
		failed = 1;
		e = errno;
	}
	errno = e;
	return failed ? -1 : 0;
}

/* 0 when everything written to stdout so far reached it; else -1, errno. */
static inline int oracle_tool_stdout_ok(void)
{
	int e = errno;
	if (ferror(stdout)) {
		errno = e ? e : EIO;
		return -1;
	}
	return fflush(stdout) != 0 ? -1 : 0;
}

#endif /* WEFT_ORACLE_TOOL_FILES_H */
