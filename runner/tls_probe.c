/*
 * runner/tls_probe.c - does this executable's own code keep thread-local data?
 *
 * Why.  On the fiber backend every managed thread runs on the controlling
 * thread, so all of them share one copy of each _Thread_local / thread_local /
 * __thread variable.  A target that keeps per-thread state there gets wrong
 * results on fibers that it does not get on pthreads: a false failure, or a bug
 * hidden (issue 20).  Whole programs are caught when weft_add_program builds
 * them (cmake/weft_program_cc.sh marks the object); this probe catches every
 * other target however it was built (CMake, OSS-Fuzz's build.sh, a Makefile):
 * the runner puts a target whose executable defines a thread-local of its own
 * on pthreads (runner/runner.c, choose_backend).
 *
 * How.  The static symbol table of /proc/self/exe lists every thread-local the
 * link put in the executable (symbol type STT_TLS), each local one after the
 * STT_FILE symbol of the source that defined it.  Thread-locals of weft itself
 * (the exact list below; tests/tls_probe.sh checks it against libweft) and of
 * the fuzzing and sanitizer runtimes (reserved names: "__" prefixes, C++
 * namespaces that start with "__", libFuzzer's namespace, locals of the
 * runtimes' sources) are not the target's.  Read once per process: the
 * executable does not change.
 *
 * A stripped executable has no static symbol table: then its program headers
 * decide (dl_iterate_phdr, the executable's PT_TLS segment): thread-local
 * storage beyond libweft's own (its three pointers, when libweft is linked
 * in) may be the target's, so it runs on pthreads (named "unknown: the
 * executable is stripped").  Conservative: a stripped build with the fuzzing
 * or sanitizer runtimes (which keep thread-locals) always gets pthreads,
 * slower but never a false verdict (issue 30).
 *
 * Limits: thread-locals of shared libraries the target links are not looked at.
 */
#define _GNU_SOURCE   /* dl_iterate_phdr */
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runner_internal.h"

/* libweft's own thread-locals (tests/tls_probe.sh fails when this list is stale). */
static const char *const weft_own[] = {
	"weft_impl_current", "sched_replay_jump", "runner_bound_target",
};
/* Their bytes: each is a pointer (tests/tls_probe.sh checks the sizes too). */
#define WEFT_OWN_TLS_BYTES (sizeof weft_own / sizeof weft_own[0] * sizeof(void *))

/* Source files of the fuzzing and sanitizer runtimes, by their basename's start. */
static const char *const runtime_files[] = {
	"asan_", "lsan_", "msan_", "tsan_", "ubsan_", "hwasan_", "sanitizer_", "Fuzzer",
	"afl-", "dfsan_",
};

static bool starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Reserved C/C++ names, libFuzzer's namespace (_ZN6fuzzer), namespaces "__x". */
static bool runtime_name(const char *name)
{
	if (starts_with(name, "__") || starts_with(name, "_ZN6fuzzer"))
		return true;
	if (!starts_with(name, "_ZN"))
		return false;
	const char *p = name + 3;
	while (*p == 'L' || *p == 'K')
		p++;
	while (*p >= '0' && *p <= '9')
		p++;
	return p > name + 3 && starts_with(p, "__");
}

static bool foreign_tls(const char *name, const char *file, bool local)
{
	for (size_t i = 0; i < sizeof weft_own / sizeof weft_own[0]; i++)
		if (strcmp(name, weft_own[i]) == 0)
			return true;
	if (runtime_name(name))
		return true;
	if (local && file)
		for (size_t i = 0; i < sizeof runtime_files / sizeof runtime_files[0]; i++)
			if (starts_with(file, runtime_files[i]))
				return true;
	return false;
}

typedef struct probe_result {
	bool found;
	char name[96];
	char file[96];
} probe_result;

static probe_result probe;
static bool symtab_seen;
static pthread_once_t probe_once = PTHREAD_ONCE_INIT;

/* Walk one symbol table (with its string table); stop at the first target TLS. */
static void scan_symtab(const unsigned char *base, size_t size, const Elf64_Shdr *symtab,
			const Elf64_Shdr *strtab)
{
	if (symtab->sh_offset + symtab->sh_size > size || strtab->sh_offset + strtab->sh_size > size ||
	    symtab->sh_entsize != sizeof(Elf64_Sym))
		return;
	const Elf64_Sym *sym = (const Elf64_Sym *)(base + symtab->sh_offset);
	const char *str = (const char *)(base + strtab->sh_offset);
	size_t n = symtab->sh_size / sizeof *sym;
	const char *file = NULL;
	for (size_t i = 0; i < n; i++) {
		if (sym[i].st_name >= strtab->sh_size)
			continue;
		const char *name = str + sym[i].st_name;
		unsigned type = ELF64_ST_TYPE(sym[i].st_info);
		bool local = ELF64_ST_BIND(sym[i].st_info) == STB_LOCAL;
		if (type == STT_FILE) {
			file = name;
			continue;
		}
		if (type != STT_TLS || sym[i].st_shndx == SHN_UNDEF ||
		    foreign_tls(name, local ? file : NULL, local))
			continue;
		probe.found = true;
		snprintf(probe.name, sizeof probe.name, "%s", name);
		snprintf(probe.file, sizeof probe.file, "%s", local && file ? file : "");
		return;
	}
}

static void scan_elf(const unsigned char *base, size_t size)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)base;
	if (size < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_shentsize != sizeof(Elf64_Shdr) ||
	    eh->e_shoff + (size_t)eh->e_shnum * sizeof(Elf64_Shdr) > size)
		return;
	const Elf64_Shdr *sh = (const Elf64_Shdr *)(base + eh->e_shoff);
	for (unsigned i = 0; i < eh->e_shnum && !probe.found; i++)
		if (sh[i].sh_type == SHT_SYMTAB && sh[i].sh_link < eh->e_shnum) {
			symtab_seen = true;
			scan_symtab(base, size, &sh[i], &sh[sh[i].sh_link]);
		}
}

/*
 * The executable (dl_iterate_phdr's first object): more thread-local storage
 * than libweft's own?  libweft's counts only if weft_impl_current lies in the
 * executable's block (libweft linked in, not a shared library).
 */
static int scan_tls_segment(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size, (void)data;
	for (unsigned i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_TLS || ph->p_memsz == 0)
			continue;
		const char *block = info->dlpi_tls_data, *own = (const char *)&weft_impl_current;
		bool weft_inside = !block || (own >= block && own < block + ph->p_memsz);
		if (ph->p_memsz > (weft_inside ? WEFT_OWN_TLS_BYTES : 0)) {
			probe.found = true;
			snprintf(probe.name, sizeof probe.name, "unknown: the executable is stripped");
			probe.file[0] = '\0';
		}
	}
	return 1;   /* the executable only */
}

static void probe_executable(void)
{
	int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	struct stat st;
	if (fstat(fd, &st) == 0 && st.st_size > 0) {
		void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (map != MAP_FAILED) {
			scan_elf(map, (size_t)st.st_size);
			munmap(map, (size_t)st.st_size);
		}
	}
	close(fd);
	if (!symtab_seen)
		dl_iterate_phdr(scan_tls_segment, NULL);
}

bool runner_exe_thread_local(const char **name, const char **file)
{
	pthread_once(&probe_once, probe_executable);
	if (probe.found) {
		*name = probe.name;
		*file = probe.file;
	}
	return probe.found;
}
