/*
 * harness/crash_file.c - libFuzzer's crash file, written by weft when the
 * process dies inside an execution libFuzzer cannot name (issue 29).
 *
 * Why: the structure-aware mutator runs a sampled mutant inside
 * LLVMFuzzerCustomMutator.  If the program dies there, libFuzzer dumps its
 * *current unit*, which during a mutation has size 0: an empty crash file that
 * replays as a pass.  The fuzz glue's death sink (weft_runner_on_death) writes
 * the bytes of the execution that died instead, where and as libFuzzer would:
 * ARTIFACT_PREFIX "crash-" + the SHA-1 of the bytes (or -exact_artifact_path),
 * with libFuzzer's "Test unit written to" line, which tools (weft_campaign.sh,
 * ClusterFuzz) read.  SHA-1 after FIPS 180-4 (section 6.1), as libFuzzer's
 * FuzzerSHA1.cpp names its artifacts.
 *
 * Signal-safe where it matters: the write path uses a static buffer, open,
 * write and close; snprintf formats (no allocation for these conversions).
 */
#include "weft/run.h"
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CRASH_PATH_MAX 4096
#define CRASH_PRINT_MAX 256   /* libFuzzer's kMaxUnitSizeToPrint: Base64 up to this */

static char prefix[CRASH_PATH_MAX];
static char exact[CRASH_PATH_MAX];
static int writing = 1;

/* ---- SHA-1 (FIPS 180-4) ---- */

typedef struct sha1 {
	uint32_t h[5];
	uint8_t block[64];
	uint64_t length;   /* bytes */
} sha1;

static uint32_t rol(uint32_t x, unsigned n)
{
	return (x << n) | (x >> (32 - n));
}

static void sha1_block(sha1 *s)
{
	uint32_t w[80], a = s->h[0], b = s->h[1], c = s->h[2], d = s->h[3], e = s->h[4];
	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)s->block[4 * i] << 24 | (uint32_t)s->block[4 * i + 1] << 16 |
		       (uint32_t)s->block[4 * i + 2] << 8 | s->block[4 * i + 3];
	for (int i = 16; i < 80; i++)
		w[i] = rol(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
	for (int i = 0; i < 80; i++) {
		uint32_t f, k;
		if (i < 20)
			f = (b & c) | (~b & d), k = 0x5a827999;
		else if (i < 40)
			f = b ^ c ^ d, k = 0x6ed9eba1;
		else if (i < 60)
			f = (b & c) | (b & d) | (c & d), k = 0x8f1bbcdc;
		else
			f = b ^ c ^ d, k = 0xca62c1d6;
		uint32_t t = rol(a, 5) + f + e + k + w[i];
		e = d, d = c, c = rol(b, 30), b = a, a = t;
	}
	s->h[0] += a, s->h[1] += b, s->h[2] += c, s->h[3] += d, s->h[4] += e;
}

static void sha1_byte(sha1 *s, uint8_t byte)
{
	s->block[s->length++ % 64] = byte;
	if (s->length % 64 == 0)
		sha1_block(s);
}

/* The digest of bytes, as 40 lowercase hex digits and a NUL. */
static void sha1_hex(const uint8_t *bytes, size_t size, char out[41])
{
	sha1 s = { { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0 }, { 0 }, 0 };
	for (size_t i = 0; i < size; i++)
		sha1_byte(&s, bytes[i]);
	uint64_t bits = (uint64_t)size * 8;
	sha1_byte(&s, 0x80);
	while (s.length % 64 != 56)
		sha1_byte(&s, 0);
	for (int i = 7; i >= 0; i--)
		sha1_byte(&s, (uint8_t)(bits >> (8 * i)));
	static const char hex[] = "0123456789abcdef";
	for (int i = 0; i < 20; i++) {
		uint8_t v = (uint8_t)(s.h[i / 4] >> (24 - 8 * (i % 4)));
		out[2 * i] = hex[v >> 4];
		out[2 * i + 1] = hex[v & 15];
	}
	out[40] = 0;
}

/* ---- libFuzzer's options ---- */

static void copy_option(char *to, const char *arg, const char *flag)
{
	size_t n = strlen(flag);
	if (strncmp(arg, flag, n) == 0)
		snprintf(to, CRASH_PATH_MAX, "%s", arg + n);
}

/* libFuzzer runs the files it is given (RunIndividualFiles): a regular file argument. */
static int names_a_file(const char *arg)
{
	struct stat st;
	return arg[0] != '-' && stat(arg, &st) == 0 && !S_ISDIR(st.st_mode);
}

int weft_crash_file_options(int argc, char **argv)
{
	int exit_code = 77, internal_step = 0, files = 0;
	for (int i = 1; i < argc && argv && argv[i]; i++) {
		const char *a = argv[i];
		copy_option(prefix, a, "-artifact_prefix=");
		copy_option(exact, a, "-exact_artifact_path=");
		if (strncmp(a, "-error_exitcode=", 16) == 0)
			exit_code = atoi(a + 16);
		internal_step |= strncmp(a, "-minimize_crash_internal_step=1", 31) == 0 ||
				 strncmp(a, "-cleanse_crash=1", 16) == 0;
		files |= names_a_file(a);
		if (strncmp(a, "-merge=1", 8) == 0 || strncmp(a, "-help=1", 7) == 0)
			writing = 0;
	}
	if (files && !internal_step)
		writing = 0;   /* libFuzzer writes no artifact when it runs files */
	return exit_code;
}

/* ---- writing ---- */

static void say(const char *s)
{
	size_t n = strlen(s);
	while (n > 0) {
		ssize_t w = write(2, s, n);
		if (w <= 0)
			return;
		s += w, n -= (size_t)w;
	}
}

static int write_all(const char *path, const uint8_t *bytes, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	while (size > 0) {
		ssize_t w = write(fd, bytes, size);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			close(fd);
			return -1;
		}
		bytes += w, size -= (size_t)w;
	}
	return close(fd);
}

static char line[2 * CRASH_PATH_MAX + 4 * CRASH_PRINT_MAX / 3 + 128];

/* "Base64: ..." as libFuzzer prints it (RFC 4648, padded). */
static void say_base64(const uint8_t *bytes, size_t size)
{
	static const char b64[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t o = (size_t)snprintf(line, sizeof line, "Base64: ");
	for (size_t i = 0; i < size; i += 3) {
		uint32_t v = (uint32_t)bytes[i] << 16 | (i + 1 < size ? bytes[i + 1] << 8 : 0) |
			     (i + 2 < size ? bytes[i + 2] : 0);
		line[o++] = b64[v >> 18 & 63];
		line[o++] = b64[v >> 12 & 63];
		line[o++] = i + 1 < size ? b64[v >> 6 & 63] : '=';
		line[o++] = i + 2 < size ? b64[v & 63] : '=';
	}
	line[o++] = '\n';
	line[o] = 0;
	say(line);
}

int weft_crash_file_write(const uint8_t *bytes, size_t size)
{
	return weft_crash_file_write_as("crash-", bytes, size);
}

int weft_crash_file_write_as(const char *kind, const uint8_t *bytes, size_t size)
{
	static char path[CRASH_PATH_MAX + 64];
	if (!writing)
		return -1;
	if (exact[0]) {
		snprintf(path, sizeof path, "%s", exact);
	} else {
		char digest[41];
		sha1_hex(bytes, size, digest);
		snprintf(path, sizeof path, "%s%s%s", prefix, kind, digest);
	}
	if (write_all(path, bytes, size) != 0) {
		snprintf(line, sizeof line, "weft: cannot write the crash file %s: %s\n", path,
			 strerror(errno));
		say(line);
		return -1;
	}
	snprintf(line, sizeof line, "artifact_prefix='%s'; Test unit written to %s\n", prefix,
		 path);
	say(line);
	if (size <= CRASH_PRINT_MAX)
		say_base64(bytes, size);
	return 0;
}

/* ---- the modes' deaths (cli.h) ---- */

static const char *death_tool;
static weft_runner *death_runner;

static void mode_died(void *ctx, const uint8_t *bytes, size_t size, int signal)
{
	(void)ctx;
	(void)signal;
	weft_runner_stats st = weft_runner_stats_get(death_runner);
	snprintf(line, sizeof line, "%s: the process died in execution %llu (%llu ended "
		 "before it); its input:\n", death_tool, (unsigned long long)st.executions + 1,
		 (unsigned long long)st.executions);
	say(line);
	if (bytes)
		weft_crash_file_write(bytes, size);
	else
		say("  (not known in this mode: the strategy's schedule is not kept as bytes; "
		    "--explore=bytes and the fuzzer write it)\n");
}

void harness_death_leaves_input(weft_runner *runner, const char *tool)
{
	death_tool = tool;
	death_runner = runner;
	weft_runner_on_death(runner, mode_died, NULL);
}
